"""zerolayer's HTTP service: Anthropic- and OpenAI-compatible routes, cache and metrics."""

from __future__ import annotations

from zerolayer.rules_api.app import create_app
from zerolayer.rules_api.cache import CachedAnswer, MemoryCache, RedisCache, ResponseCache
from zerolayer.rules_api.contracts import EngineLike
from zerolayer.rules_api.server import app_from_env, serve
from zerolayer.rules_api.settings import ServiceSettings

__all__ = [
    "CachedAnswer",
    "EngineLike",
    "MemoryCache",
    "RedisCache",
    "ResponseCache",
    "ServiceSettings",
    "app_from_env",
    "create_app",
    "serve",
]
