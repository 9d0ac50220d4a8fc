"""HTTP to an upstream model server: timeouts, retries with backoff, a circuit breaker.

Only failures before the first byte of an answer are retried (connection refused, timeouts,
429 and 5xx); a stream that breaks later is not replayed. Every retryable failure counts
against the breaker; while it is open, calls raise ``FallbackUnavailable`` without touching
the network.

``HttpBackend`` is what the OpenAI-compatible and the Anthropic backends share: one
``Transport`` to a base URL, a model name, a key, and the checks of their configuration.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import FallbackUnavailable
from zerolayer.core.neural.breaker import CircuitBreaker

log = logging.getLogger("zerolayer.neural")

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


class UpstreamError(Exception):
    """The upstream answered with an error that retrying will not fix (4xx)."""


@dataclass(frozen=True)
class TransportSettings:
    """Timeouts (seconds), retries and breaker settings of one upstream."""

    connect_timeout_s: float = 2.0
    read_timeout_s: float = 120.0
    retries: int = 2  # extra attempts after the first
    backoff_s: float = 0.2  # first pause; doubles every retry
    breaker_threshold: int = 3
    breaker_cooldown_s: float = 30.0

    @classmethod
    def from_env(cls, env: Mapping[str, str], prefix: str) -> TransportSettings:
        """Settings from ``{prefix}_CONNECT_TIMEOUT_S``, ``_READ_TIMEOUT_S``, ``_RETRIES``,
        ``_BACKOFF_S``, ``_BREAKER_THRESHOLD`` and ``_BREAKER_COOLDOWN_S``."""
        d = cls()

        def get(name: str, default: float) -> float:
            raw = env.get(f"{prefix}_{name}")
            return float(raw) if raw else default

        return cls(
            connect_timeout_s=get("CONNECT_TIMEOUT_S", d.connect_timeout_s),
            read_timeout_s=get("READ_TIMEOUT_S", d.read_timeout_s),
            retries=int(get("RETRIES", d.retries)),
            backoff_s=get("BACKOFF_S", d.backoff_s),
            breaker_threshold=int(get("BREAKER_THRESHOLD", d.breaker_threshold)),
            breaker_cooldown_s=get("BREAKER_COOLDOWN_S", d.breaker_cooldown_s),
        )


class Transport:
    """POST JSON to one base URL, whole or as server-sent events, guarded by a breaker."""

    def __init__(self, base_url: str, settings: TransportSettings | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.settings = settings or TransportSettings()
        s = self.settings
        self.breaker = CircuitBreaker(s.breaker_threshold, s.breaker_cooldown_s)
        timeout = httpx.Timeout(s.read_timeout_s, connect=s.connect_timeout_s)
        self.client = httpx.Client(base_url=self.base_url, timeout=timeout)

    def close(self) -> None:
        self.client.close()

    def post_json(self, path: str, body: dict[str, Any], headers: Mapping[str, str]) -> Any:
        """The decoded JSON answer of a POST."""
        with self._send(path, body, headers) as response:
            response.read()
            try:
                return response.json()
            except ValueError as exc:
                raise UpstreamError(f"{self.base_url}{path} answered non-JSON") from exc

    def post_events(
        self, path: str, body: dict[str, Any], headers: Mapping[str, str]
    ) -> Iterator[tuple[str | None, Any]]:
        """(event name, decoded data) of each server-sent event; ends at ``[DONE]``."""
        with self._send(path, body, headers) as response:
            event: str | None = None
            for line in response.iter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data = line[5:].strip()
                    if data == "[DONE]":
                        return
                    try:
                        yield event, json.loads(data)
                    except ValueError as exc:
                        raise UpstreamError(f"bad event data from {self.base_url}") from exc
                    event = None

    @contextmanager
    def _send(
        self, path: str, body: dict[str, Any], headers: Mapping[str, str]
    ) -> Iterator[httpx.Response]:
        """An open response with a 2xx status, after retries; the breaker sees the outcome."""
        if not self.breaker.allow():
            raise FallbackUnavailable(
                f"upstream {self.base_url} is failing; next try in {self.breaker.retry_in():.1f} s"
            )
        s = self.settings
        last: str = "no attempt"
        for attempt in range(s.retries + 1):
            if attempt:
                time.sleep(s.backoff_s * 2 ** (attempt - 1))
            try:
                request = self.client.build_request("POST", path, json=body, headers=dict(headers))
                response = self.client.send(request, stream=True)
            except httpx.TransportError as exc:
                last = f"{type(exc).__name__}: {exc}"
                continue
            if response.status_code in RETRY_STATUS:
                last = f"HTTP {response.status_code}"
                response.close()
                continue
            try:
                if response.status_code >= 400:
                    response.read()
                    self.breaker.success()  # it answered: a client error is not an outage
                    raise UpstreamError(
                        f"upstream {self.base_url} answered {response.status_code}: "
                        f"{response.text[:300]}"
                    )
                self.breaker.success()
                yield response
            finally:
                response.close()
            return
        self.breaker.failure()
        log.warning("upstream %s failed after %d tries: %s", self.base_url, s.retries + 1, last)
        raise FallbackUnavailable(f"upstream {self.base_url} is unavailable ({last})")


def checked_base_url(argument: str, backend: str, hint: str | None = None) -> str:
    """``argument`` when it is an http(s) URL; StartupError naming ``backend`` otherwise."""
    if not argument.startswith(("http://", "https://")):
        raise StartupError(f"{backend} needs a base URL, got {argument!r}", hint=hint)
    return argument


def settings_from_env(env: Mapping[str, str], prefix: str, backend: str) -> TransportSettings:
    """``TransportSettings.from_env``; StartupError naming ``backend`` for a bad value."""
    try:
        return TransportSettings.from_env(env, prefix)
    except ValueError as exc:
        raise StartupError(f"bad {backend} setting: {exc}") from exc


class HttpBackend:
    """A fallback backend that posts to one upstream: a ``Transport``, a model, a key."""

    def __init__(
        self,
        base_url: str,
        *,
        model: str,
        api_key: str | None = None,
        settings: TransportSettings | None = None,
    ) -> None:
        self.transport = Transport(base_url, settings)
        self.model = model
        self.api_key = api_key

    def close(self) -> None:
        """Close the HTTP connections."""
        self.transport.close()
