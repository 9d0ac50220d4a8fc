"""Configuration of the HTTP service, read from ``ZEROLAYER_*`` environment variables."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from zerolayer.core.errors import StartupError

MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    """Every knob of the HTTP service; ``from_env`` documents the variable of each field."""

    max_body_bytes: int = 8 * MIB
    cache_max_bytes: int = 64 * MIB
    redis_url: str | None = None
    cache_ttl_s: int | None = None
    model_id: str = "zerolayer"
    metrics_window_s: float = 300.0
    metrics_window_max: int = 10_000
    plan_header_max: int = 2048
    stream_chunk_tokens: int = 8
    warmup_max_items: int = 1000
    admin_token: str | None = None
    decide_timeout_s: float | None = None  # None: the engine's ZEROLAYER_TIME_LIMIT
    engine_threads: int = 2  # engine runs at once per worker (service.EngineSlots)
    loop_run_chars: int = 2048  # a request this short runs on the loop's thread; 0: never
    loop_run_ms: float = 10.0  # such a run passing this is stopped and run in a worker thread
    switch_interval_ms: float = 1.0  # the interpreter's thread switch interval; 0: left as is
    fast_path_max_bytes: int = 65_536
    fast_path_cache_bytes: int = 16 * MIB
    header_timeout_s: float = 10.0  # connection limits (rules_api/connections.py); 0: none
    body_timeout_s: float = 30.0
    keep_alive_s: int = 5
    max_connections: int = 2048
    ready_when_degraded: bool = False  # /health/ready stays 200 while the fallback is down
    shutdown_timeout_s: float = 50.0  # SIGTERM drains requests this long at most; 0: no bound

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServiceSettings:
        """Settings from ``ZEROLAYER_<FIELD NAME IN UPPER CASE>`` variables; StartupError if bad."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"ZEROLAYER_{f.name.upper()}")
            if raw is None or raw.strip() == "":
                continue
            values[f.name] = _parse(f.name, raw.strip(), _CONVERTERS[f.name])
        settings = cls(**values)
        settings.check()
        return settings

    def check(self) -> None:
        """Raise StartupError for values that cannot work (negative sizes, empty model id)."""
        for name in ("max_body_bytes", "plan_header_max", "stream_chunk_tokens"):
            if getattr(self, name) < 1:
                raise StartupError(f"ZEROLAYER_{name.upper()} must be at least 1")
        for name in (
            "cache_max_bytes",
            "warmup_max_items",
            "metrics_window_max",
            "fast_path_max_bytes",
            "fast_path_cache_bytes",
            "header_timeout_s",
            "body_timeout_s",
            "max_connections",
            "shutdown_timeout_s",
            "switch_interval_ms",
            "loop_run_chars",
        ):
            if getattr(self, name) < 0:
                raise StartupError(f"ZEROLAYER_{name.upper()} must not be negative")
        if self.loop_run_ms <= 0:
            raise StartupError("ZEROLAYER_LOOP_RUN_MS must be positive")
        if self.engine_threads < 1:
            raise StartupError("ZEROLAYER_ENGINE_THREADS must be at least 1")
        if self.keep_alive_s < 1:
            raise StartupError("ZEROLAYER_KEEP_ALIVE_S must be at least 1")
        if self.metrics_window_s <= 0:
            raise StartupError("ZEROLAYER_METRICS_WINDOW_S must be positive")
        if self.decide_timeout_s is not None and self.decide_timeout_s <= 0:
            raise StartupError("ZEROLAYER_DECIDE_TIMEOUT_S must be positive")
        if self.cache_ttl_s is not None and self.cache_ttl_s < 1:
            raise StartupError("ZEROLAYER_CACHE_TTL_S must be at least 1")
        if not self.model_id:
            raise StartupError("ZEROLAYER_MODEL_ID must not be empty")


def _parse(name: str, raw: str, convert: Callable[[str], Any]) -> Any:
    try:
        return convert(raw)
    except ValueError as exc:
        raise StartupError(f"ZEROLAYER_{name.upper()}={raw!r} is not valid: {exc}") from None


_CONVERTERS: dict[str, Callable[[str], Any]] = {
    "max_body_bytes": int,
    "cache_max_bytes": int,
    "redis_url": str,
    "cache_ttl_s": int,
    "model_id": str,
    "metrics_window_s": float,
    "metrics_window_max": int,
    "plan_header_max": int,
    "stream_chunk_tokens": int,
    "warmup_max_items": int,
    "admin_token": str,
    "decide_timeout_s": float,
    "engine_threads": int,
    "loop_run_chars": int,
    "loop_run_ms": float,
    "switch_interval_ms": float,
    "fast_path_max_bytes": int,
    "fast_path_cache_bytes": int,
    "header_timeout_s": float,
    "body_timeout_s": float,
    "keep_alive_s": int,
    "max_connections": int,
    "ready_when_degraded": lambda raw: _flag(raw),
    "shutdown_timeout_s": float,
}


def _flag(raw: str) -> bool:
    low = raw.lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError("use true or false")
