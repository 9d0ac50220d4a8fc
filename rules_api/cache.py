"""The response cache: deterministic answers keyed by the engine's request fingerprint.

Two stores share one protocol: ``MemoryCache``, an in-process LRU bounded in bytes (one
worker), and ``RedisCache`` (several workers or replicas; ``ZEROLAYER_REDIS_URL``). A cache
never fails a request: a store that cannot be reached counts as a miss and is logged.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from zerolayer.rules_api.settings import ServiceSettings

log = logging.getLogger("zerolayer.rules_api.cache")

ENTRY_OVERHEAD = 64  # bytes counted per entry on top of key, output and plan


@dataclass(frozen=True, slots=True)
class CachedAnswer:
    """A deterministic answer as stored: the raw output, its plan (flavour-independent), and
    the kinds of its parts when the message was written in blocks (all ``zero``)."""

    output: str
    plan: str | None = None
    parts: tuple[str, ...] = ()

    def to_json(self) -> str:
        """Compact JSON form used by the Redis store."""
        data: dict[str, Any] = {"output": self.output, "plan": self.plan}
        if self.parts:
            data["parts"] = list(self.parts)
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> CachedAnswer:
        """Inverse of ``to_json``; ValueError when the text is not a stored answer."""
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("output"), str):
            raise ValueError("not a cached answer")
        plan = data.get("plan")
        parts = data.get("parts")
        kinds = tuple(p for p in parts if isinstance(p, str)) if isinstance(parts, list) else ()
        return cls(output=data["output"], plan=plan if isinstance(plan, str) else None, parts=kinds)


@runtime_checkable
class ResponseCache(Protocol):
    """Where deterministic answers are kept between requests."""

    kind: str

    def get(self, key: str) -> CachedAnswer | None:
        """The answer stored under ``key``, or None."""
        ...

    def put(self, key: str, answer: CachedAnswer) -> None:
        """Store ``answer`` under ``key`` (may silently decline, e.g. too large)."""
        ...

    def stats(self) -> dict[str, Any]:
        """Figures for /metrics and /health/ready (entries, bytes, ok)."""
        ...


def entry_size(key: str, answer: CachedAnswer) -> int:
    """Bytes an entry is charged in the memory cache: UTF-8 sizes plus a fixed overhead."""
    plan = answer.plan or ""
    return (
        len(key.encode("utf-8", "surrogatepass"))
        + len(answer.output.encode("utf-8", "surrogatepass"))
        + len(plan.encode("utf-8", "surrogatepass"))
        + ENTRY_OVERHEAD
    )


class NullCache:
    """A cache that keeps nothing (``ZEROLAYER_CACHE_MAX_BYTES=0`` without Redis)."""

    kind = "none"

    def get(self, key: str) -> CachedAnswer | None:
        """Always a miss."""
        return None

    def put(self, key: str, answer: CachedAnswer) -> None:
        """Keep nothing."""

    def stats(self) -> dict[str, Any]:
        """No entries, always healthy."""
        return {"kind": self.kind, "entries": 0, "bytes": 0, "ok": True}


class MemoryCache:
    """In-process LRU cache whose total size stays under ``max_bytes`` (see ``entry_size``)."""

    kind = "memory"

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, tuple[CachedAnswer, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> CachedAnswer | None:
        """The answer under ``key`` (marks it most recently used), or None."""
        with self._lock:
            hit = self._entries.get(key)
            if hit is None:
                return None
            self._entries.move_to_end(key)
            return hit[0]

    def put(self, key: str, answer: CachedAnswer) -> None:
        """Store the answer, evicting least recently used entries to stay within budget."""
        size = entry_size(key, answer)
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            while self._entries and self._bytes + size > self.max_bytes:
                _, (_, evicted) = self._entries.popitem(last=False)
                self._bytes -= evicted
            self._entries[key] = (answer, size)
            self._bytes += size

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def bytes_used(self) -> int:
        """Bytes currently charged to the entries."""
        return self._bytes

    def stats(self) -> dict[str, Any]:
        """Entries, bytes used and the byte budget."""
        with self._lock:
            return {
                "kind": self.kind,
                "entries": len(self._entries),
                "bytes": self._bytes,
                "max_bytes": self.max_bytes,
                "ok": True,
            }


class RedisCache:
    """Answers kept in Redis under ``<prefix><fingerprint>``, shared by every worker, with a
    bounded in-process tier in front (``near``, a ``MemoryCache``).

    A lookup reads the near tier first, then Redis (a Redis hit is kept near); an answer is
    stored in both. An answer is the same whichever tier holds it: the key is the engine's
    fingerprint, which includes the rule-set version. Redis errors (down, timeout) are
    logged, counted by operation (``errors``, exported as ``zerolayer_cache_errors_total``)
    and read as misses; after one, Redis is left alone for ``retry_s`` seconds, so a Redis
    that is down costs no request a timeout and answers continue from the near tier.
    ``ttl_s`` sets Redis's expiry. Eviction under memory pressure is Redis's own (configure
    ``maxmemory-policy``).
    """

    kind = "redis"

    def __init__(
        self,
        url: str,
        *,
        ttl_s: int | None = None,
        prefix: str = "zerolayer:answer:",
        timeout_s: float = 0.5,
        retry_s: float = 1.0,
        near_max_bytes: int = 0,
        client: Any = None,
    ) -> None:
        if client is None:
            import redis  # imported here: only deployments with Redis need the package

            client = redis.Redis.from_url(
                url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s
            )
        self._client = client
        self.ttl_s = ttl_s
        self.prefix = prefix
        self.retry_s = retry_s
        self.near = MemoryCache(near_max_bytes) if near_max_bytes > 0 else None
        self.errors: dict[str, int] = {"get": 0, "put": 0}
        self._down_until = 0.0
        self.reachable = True  # the last call to Redis succeeded (the store_up gauge)

    @property
    def up(self) -> bool:
        """False from a Redis error until ``retry_s`` later (Redis is not asked meanwhile)."""
        return time.monotonic() >= self._down_until

    def get(self, key: str) -> CachedAnswer | None:
        """The answer under ``key``, or None (also when Redis fails or the value is foreign)."""
        if self.near is not None:
            found = self.near.get(key)
            if found is not None:
                return found
        if not self.up:
            return None
        try:
            raw = self._client.get(self.prefix + key)
        except Exception as exc:  # redis.RedisError, OSError: a cache must not fail a request
            self._failed("get", exc)
            return None
        self.reachable = True
        if raw is None:
            return None
        try:
            found = CachedAnswer.from_json(raw)
        except ValueError:
            return None
        if self.near is not None:
            self.near.put(key, found)
        return found

    def put(self, key: str, answer: CachedAnswer) -> None:
        """Store the answer (with the configured expiry); Redis errors are logged only."""
        if self.near is not None:
            self.near.put(key, answer)
        if not self.up:
            return
        try:
            self._client.set(self.prefix + key, answer.to_json().encode(), ex=self.ttl_s)
        except Exception as exc:
            self._failed("put", exc)
            return
        self.reachable = True

    def stats(self) -> dict[str, Any]:
        """Whether Redis answers a PING, the errors swallowed, and the near tier's figures."""
        try:
            ok = bool(self._client.ping())
        except Exception:
            ok = False
        out: dict[str, Any] = {"kind": self.kind, "ok": ok, "errors": sum(self.errors.values())}
        if self.near is not None:
            near = self.near.stats()
            out["near"] = {k: near[k] for k in ("entries", "bytes", "max_bytes")}
        return out

    def _failed(self, what: str, exc: Exception) -> None:
        self.errors[what] += 1
        self.reachable = False
        self._down_until = time.monotonic() + self.retry_s
        log.warning("redis cache %s failed (not asked again for %g s): %s", what, self.retry_s, exc)


def build_cache(settings: ServiceSettings) -> ResponseCache:
    """The cache the settings ask for: Redis when a URL is set (with a near tier of
    ``cache_max_bytes``), else memory (or none at 0)."""
    if settings.redis_url:
        return RedisCache(
            settings.redis_url, ttl_s=settings.cache_ttl_s, near_max_bytes=settings.cache_max_bytes
        )
    if settings.cache_max_bytes == 0:
        return NullCache()
    return MemoryCache(settings.cache_max_bytes)
