"""The plugin's own tests load it in-process, installed or not (``Engine(plugins=...)``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))


@pytest.fixture(scope="session")
def csv_engine():  # type: ignore[no-untyped-def]
    """An engine with the built-in plugins and this one."""
    import zerolayer_csv

    from zerolayer.core.engine import Engine, EngineConfig
    from zerolayer.plugins import DEFAULT_PLUGINS

    builtin = frozenset(m.rsplit(".", 1)[-1] for m in DEFAULT_PLUGINS)
    config = EngineConfig(plugins=builtin)  # an installed entry point is left out
    return Engine(config, plugins={"csv": zerolayer_csv})
