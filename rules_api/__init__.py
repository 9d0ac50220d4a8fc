"""zerolayer's HTTP service: Anthropic- and OpenAI-compatible routes, cache and metrics.

Names are imported lazily, so ``zerolayer.cli`` loads without the web stack.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "create_app": "zerolayer.rules_api.app",
    "CachedAnswer": "zerolayer.rules_api.cache",
    "MemoryCache": "zerolayer.rules_api.cache",
    "RedisCache": "zerolayer.rules_api.cache",
    "ResponseCache": "zerolayer.rules_api.cache",
    "EngineLike": "zerolayer.rules_api.contracts",
    "app_from_env": "zerolayer.rules_api.server",
    "serve": "zerolayer.rules_api.server",
    "ServiceSettings": "zerolayer.rules_api.settings",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'zerolayer.rules_api' has no attribute {name!r}")
