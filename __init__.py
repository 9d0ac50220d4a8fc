"""zerolayer: a deterministic instruction engine in front of a large language model.

The public Python API lives in :mod:`zerolayer.core`; the most used names are re-exported
here so that ``from zerolayer import Engine`` works.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import Any

try:
    __version__ = version("zerolayer")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0.0.0+unknown"

_EXPORTS = {
    "Engine": "zerolayer.core.engine",
    "EngineRequest": "zerolayer.core.messages",
    "EngineResult": "zerolayer.core.messages",
    "Message": "zerolayer.core.messages",
    "Route": "zerolayer.core.messages",
}

__all__ = [*_EXPORTS, "__version__"]


def __getattr__(name: str) -> Any:  # imported lazily: `import zerolayer.plugins.x` stays light
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'zerolayer' has no attribute {name!r}")
