"""HTTP to an upstream model server: timeouts, a retry policy, a circuit breaker, pass-through.

An upstream's HTTP error reaches the client as it is (``UpstreamAnswerError``: status,
message, error type, ``Retry-After``), except where retrying helps: a connection error or
timeout, and 408/409/429/5xx unless the upstream says ``x-should-retry: false``, are retried
``retries`` times with exponential backoff, waiting at least the upstream's ``Retry-After``,
as long as the waits fit in ``retry_budget_s``; then the last error is passed on. Only
failures before the first byte of an answer are retried; a stream that breaks later is not
replayed. Connection errors, timeouts and 5xx count against the breaker (a 429 is the
upstream working as meant); while it is open, calls raise ``FallbackUnavailable`` with the
seconds until the next trial, without touching the network.

Both a blocking client (for ``generate``/``stream``) and an asynchronous one (for
``agenerate``/``astream``, what the HTTP service awaits on its event loop) are pooled, one of
each per transport (the asynchronous one per event loop). On the event loop a plain ``http://``
upstream is called through ``http1``'s lean client (httpx's layers cost more CPU than the rest
of a forwarded request); ``https://`` keeps httpx, whose clients offer HTTP/2 by ALPN (``h2``,
a dependency of the service) and fall back to HTTP/1.1 where the upstream does not take it.
An upstream's certificate is checked against ``ca_file`` when it is set, else against httpx's
default bundle.
``TransportStats`` counts retries, passed-on errors and breaker refusals for ``/metrics``.

``HttpBackend`` is what the OpenAI-compatible and the Anthropic backends share: one
``Transport`` to a base URL, a model name, a key, and the checks of their configuration.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import ssl
import threading
import time
import weakref
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import FallbackUnavailable, UpstreamAnswerError
from zerolayer.core.neural import http1
from zerolayer.core.neural.breaker import CircuitBreaker

log = logging.getLogger("zerolayer.neural")

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
# Answer headers of an upstream error that a client acts on; passed on with the error.
FORWARDED_HEADERS = ("retry-after", "retry-after-ms", "x-should-retry")
FORWARDED_PREFIXES = ("x-ratelimit-", "anthropic-ratelimit-")
HTTP2 = importlib.util.find_spec("h2") is not None


class UpstreamError(Exception):
    """The upstream's answer cannot be read (not JSON, not an event stream, a broken or
    unfinished stream); the client gets a 502 (or a stream's error event) naming why.
    ``kind`` is the Anthropic error type of the stream's error event."""

    def __init__(self, message: str, *, kind: str = "api_error") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class TransportSettings:
    """Timeouts (seconds), retries and breaker settings of one upstream."""

    connect_timeout_s: float = 2.0
    read_timeout_s: float = 120.0
    retries: int = 2  # extra attempts after the first
    backoff_s: float = 0.2  # first pause; doubles every retry
    retry_budget_s: float = 2.0  # the most seconds all pauses of one call may add up to
    breaker_threshold: int = 3
    breaker_cooldown_s: float = 30.0
    # PEM certificates an https:// upstream's certificate is checked against, in place of
    # httpx's default bundle (a private CA); None: the default
    ca_file: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str], prefix: str) -> TransportSettings:
        """Settings from ``{prefix}_CONNECT_TIMEOUT_S``, ``_READ_TIMEOUT_S``, ``_RETRIES``,
        ``_BACKOFF_S``, ``_RETRY_BUDGET_S``, ``_BREAKER_THRESHOLD``, ``_BREAKER_COOLDOWN_S``
        and ``_CA_FILE``."""
        d = cls()

        def get(name: str, default: float) -> float:
            raw = env.get(f"{prefix}_{name}")
            return float(raw) if raw else default

        return cls(
            connect_timeout_s=get("CONNECT_TIMEOUT_S", d.connect_timeout_s),
            read_timeout_s=get("READ_TIMEOUT_S", d.read_timeout_s),
            retries=int(get("RETRIES", d.retries)),
            backoff_s=get("BACKOFF_S", d.backoff_s),
            retry_budget_s=get("RETRY_BUDGET_S", d.retry_budget_s),
            breaker_threshold=int(get("BREAKER_THRESHOLD", d.breaker_threshold)),
            breaker_cooldown_s=get("BREAKER_COOLDOWN_S", d.breaker_cooldown_s),
            ca_file=env.get(f"{prefix}_CA_FILE") or None,
        )


@dataclass
class TransportStats:
    """Counts for ``/metrics``: retries by cause, errors passed on by status, refusals of
    the open breaker."""

    retries: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    breaker_refusals: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def count(self, table: str, key: str) -> None:
        with self._lock:
            counts: dict[str, int] = getattr(self, table)
            counts[key] = counts.get(key, 0) + 1

    def refused(self) -> None:
        with self._lock:
            self.breaker_refusals += 1


def retry_after_s(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds an answer asks the client to wait: ``retry-after-ms``, else ``retry-after``
    (seconds or an HTTP date); None when it names none."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(raw).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def forwarded_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """The headers of an upstream error answer that are passed on to the client."""
    out: dict[str, str] = {}
    for name, value in headers.items():
        low = name.lower()
        if low in FORWARDED_HEADERS or low.startswith(FORWARDED_PREFIXES):
            out[low] = value
    return out


def answer_error(status: int, body: bytes, headers: Mapping[str, str]) -> UpstreamAnswerError:
    """The ``UpstreamAnswerError`` of an upstream's error answer: the message and error
    fields of an OpenAI or Anthropic error body, else the body's text."""
    message = body.decode("utf-8", "replace").strip()[:2000] or f"HTTP {status}"
    kind = otype = code = param = None
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict):
            message = str(error.get("message") or message)
            if data.get("type") == "error":  # Anthropic's shape
                kind = _text(error.get("type"))
            else:
                otype, code, param = (_text(error.get(k)) for k in ("type", "code", "param"))
        elif isinstance(error, str):
            message = error
        elif isinstance(data.get("detail"), str):
            message = data["detail"]
        elif isinstance(data.get("message"), str):
            message = data["message"]
    return UpstreamAnswerError(
        status,
        message,
        kind=kind,
        openai_type=otype,
        code=code,
        param=param,
        headers=forwarded_headers(headers),
    )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def tls_verify(ca_file: str | None) -> ssl.SSLContext | bool:
    """What a client checks an upstream's certificate with: a new context that trusts the
    certificates of ``ca_file`` (one per client: httpx sets its ALPN protocols on it), or True
    for httpx's default. StartupError when the file cannot be read as PEM certificates."""
    if ca_file is None:
        return True
    try:
        return ssl.create_default_context(cafile=ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise StartupError(f"cannot read the CA file {ca_file!r}: {exc}") from exc


class Transport:
    """POST JSON to one base URL, whole or as server-sent events, guarded by a breaker."""

    def __init__(self, base_url: str, settings: TransportSettings | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.settings = settings or TransportSettings()
        s = self.settings
        self.breaker = CircuitBreaker(s.breaker_threshold, s.breaker_cooldown_s)
        self.stats = TransportStats()
        self._timeout = httpx.Timeout(s.read_timeout_s, connect=s.connect_timeout_s)
        self._limits = httpx.Limits(max_connections=1000, max_keepalive_connections=100)
        self._client: httpx.Client | None = None
        self._aclients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient]
        self._aclients = weakref.WeakKeyDictionary()
        self._pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, http1.Http1Pool]
        self._pools = weakref.WeakKeyDictionary()
        self._lean = http1.available(self.base_url)
        self._lock = threading.Lock()
        tls_verify(s.ca_file)  # a bad CA file stops the start, not the first call

    @property
    def client(self) -> httpx.Client:
        """The pooled blocking client (made on first use)."""
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(
                    base_url=self.base_url,
                    timeout=self._timeout,
                    limits=self._limits,
                    http2=HTTP2,
                    verify=tls_verify(self.settings.ca_file),
                )
            return self._client

    @property
    def aclient(self) -> httpx.AsyncClient:
        """The pooled asynchronous client of the running event loop (made on first use)."""
        loop = asyncio.get_running_loop()
        client = self._aclients.get(loop)
        if client is None:
            client = httpx.AsyncClient(
                base_url=self.base_url,
                timeout=self._timeout,
                limits=self._limits,
                http2=HTTP2,
                verify=tls_verify(self.settings.ca_file),
            )
            self._aclients[loop] = client
        return client

    def _apool(self) -> http1.Http1Pool | None:
        """The lean client's pool of the running event loop, None where httpx serves."""
        if not self._lean:
            return None
        loop = asyncio.get_running_loop()
        pool = self._pools.get(loop)
        if pool is None:
            s = self.settings
            pool = http1.Http1Pool(
                self.base_url, connect_timeout=s.connect_timeout_s, read_timeout=s.read_timeout_s
            )
            self._pools[loop] = pool
        return pool

    def close(self) -> None:
        """Close the blocking client (asynchronous ones close with ``aclose``)."""
        if self._client is not None:
            self._client.close()
            self._client = None

    async def aclose(self) -> None:
        """Close the asynchronous client of the running loop, and the blocking one."""
        loop = asyncio.get_running_loop()
        pool = self._pools.pop(loop, None)
        if pool is not None:
            pool.close()
        client = self._aclients.pop(loop, None)
        if client is not None:
            await client.aclose()
        self.close()

    # -- the retry policy, shared by both clients --------------------------------------------

    def _refuse_if_open(self) -> None:
        if not self.breaker.allow():
            self.stats.refused()
            wait = self.breaker.retry_in()
            raise FallbackUnavailable(
                f"upstream {self.base_url} is failing; next try in {wait:.1f} s",
                retry_after_s=wait,
            )

    def _pause(self, attempt: int, waited: float, asked: float | None) -> float | None:
        """Seconds to wait before retry ``attempt`` (from 1), or None: no retry (none left,
        or the wait does not fit in the budget)."""
        s = self.settings
        if attempt > s.retries:
            return None
        pause = max(s.backoff_s * 2 ** (attempt - 1), asked or 0.0)
        return pause if waited + pause <= s.retry_budget_s else None

    def _retryable(self, response: Any) -> bool:
        return (
            response.status_code in RETRY_STATUS
            and response.headers.get("x-should-retry", "").lower() != "false"
        )

    def _failed(self, error: UpstreamAnswerError | None, last: str) -> Exception:
        """The exception of a call whose retries are spent; the breaker sees it."""
        if error is None or error.status >= 500:
            self.breaker.failure()
        else:
            self.breaker.success()  # it answered: a client error or a 429 is not an outage
        if error is not None:
            self.stats.count("errors", str(error.status))
            return error
        self.stats.count("errors", "connection")
        log.warning("upstream %s failed: %s", self.base_url, last)
        return FallbackUnavailable(f"upstream {self.base_url} is unavailable ({last})")

    # -- blocking ----------------------------------------------------------------------------

    def post_json(self, path: str, body: dict[str, Any], headers: Mapping[str, str]) -> Any:
        """The decoded JSON answer of a POST."""
        with self._send(path, body, headers) as response:
            response.read()
            return self._json(path, response)

    def post_events(
        self, path: str, body: dict[str, Any], headers: Mapping[str, str]
    ) -> Iterator[tuple[str | None, Any]]:
        """(event name, decoded data) of each server-sent event; ``(None, DONE)`` last
        when the stream ends with ``[DONE]``. UpstreamError when the answer is not an
        event stream."""
        with self._send(path, body, headers) as response:
            if not _is_event_stream(response):
                response.read()
                raise _not_a_stream(response)
            parser = EventParser(self.base_url)
            chunks = response.iter_bytes()
            for chunk in chunks:
                for item in parser.feed_bytes(chunk):
                    yield item
                    if item[1] is DONE:
                        _drain(chunks)
                        return
            for item in parser.feed_bytes(b""):
                yield item

    @contextmanager
    def _send(
        self, path: str, body: dict[str, Any], headers: Mapping[str, str]
    ) -> Iterator[httpx.Response]:
        """An open response with a 2xx status, after the retry policy."""
        self._refuse_if_open()
        client, waited, attempt = self.client, 0.0, 0
        while True:
            error: UpstreamAnswerError | None = None
            asked: float | None = None
            try:
                request = client.build_request("POST", path, json=body, headers=dict(headers))
                response = client.send(request, stream=True)
            except httpx.TransportError as exc:
                last, cause = f"{type(exc).__name__}: {exc}", "connection"
            else:
                if response.status_code < 400:
                    try:
                        self.breaker.success()
                        yield response
                    finally:
                        response.close()
                    return
                try:
                    response.read()
                finally:
                    response.close()
                error = answer_error(response.status_code, response.content, response.headers)
                last, cause = f"HTTP {response.status_code}", str(response.status_code)
                asked = retry_after_s(response.headers)
                if not self._retryable(response):
                    raise self._failed(error, last)
            attempt += 1
            pause = self._pause(attempt, waited, asked)
            if pause is None:
                raise self._failed(error, last)
            self.stats.count("retries", cause)
            time.sleep(pause)
            waited += pause

    # -- asynchronous ------------------------------------------------------------------------

    async def apost_json(self, path: str, body: dict[str, Any], headers: Mapping[str, str]) -> Any:
        """``post_json`` on the event loop."""
        async with self._asend(path, body, headers) as response:
            await response.aread()
            return self._json(path, response)

    async def apost_events(
        self, path: str, body: dict[str, Any], headers: Mapping[str, str]
    ) -> AsyncIterator[tuple[str | None, Any]]:
        """``post_events`` on the event loop."""
        async with self._asend(path, body, headers) as response:
            if not _is_event_stream(response):
                await response.aread()
                raise _not_a_stream(response)
            parser = EventParser(self.base_url)
            chunks = response.aiter_bytes()
            async for chunk in chunks:
                for item in parser.feed_bytes(chunk):
                    yield item
                    if item[1] is DONE:
                        await adrain(chunks)
                        return
            for item in parser.feed_bytes(b""):
                yield item

    async def apost_stream(
        self, path: str, body: dict[str, Any], headers: Mapping[str, str]
    ) -> AsyncIterator[bytes]:
        """The body of an event-stream answer, unparsed, as it comes off the network (for a
        relay that forwards it); UpstreamError when the answer is not an event stream."""
        async with self._asend(path, body, headers) as response:
            if not _is_event_stream(response):
                await response.aread()
                raise _not_a_stream(response)
            async for chunk in response.aiter_bytes():
                yield chunk

    @asynccontextmanager
    async def _asend(
        self, path: str, body: dict[str, Any], headers: Mapping[str, str]
    ) -> AsyncIterator[Any]:
        """``_send`` on the event loop (``http1``'s lean client for a plain http upstream)."""
        self._refuse_if_open()
        pool = self._apool()
        client = self.aclient if pool is None else None
        data = _json_bytes(body) if pool is not None else b""
        waited, attempt = 0.0, 0
        while True:
            error: UpstreamAnswerError | None = None
            asked: float | None = None
            response: Any
            try:
                if pool is not None:
                    response = await pool.post(path, data, headers)
                else:
                    assert client is not None
                    request = client.build_request("POST", path, json=body, headers=dict(headers))
                    response = await client.send(request, stream=True)
            except httpx.TransportError as exc:
                last, cause = f"{type(exc).__name__}: {exc}", "connection"
            else:
                if response.status_code < 400:
                    try:
                        self.breaker.success()
                        yield response
                    finally:
                        await response.aclose()
                    return
                try:
                    await response.aread()
                finally:
                    await response.aclose()
                error = answer_error(response.status_code, response.content, response.headers)
                last, cause = f"HTTP {response.status_code}", str(response.status_code)
                asked = retry_after_s(response.headers)
                if not self._retryable(response):
                    raise self._failed(error, last)
            attempt += 1
            pause = self._pause(attempt, waited, asked)
            if pause is None:
                raise self._failed(error, last)
            self.stats.count("retries", cause)
            await asyncio.sleep(pause)
            waited += pause

    def _json(self, path: str, response: Any) -> Any:
        try:
            return response.json()
        except ValueError as exc:
            kind = response.headers.get("content-type", "no content type")
            raise UpstreamError(
                f"{self.base_url}{path} answered 200 with a body that is not JSON ({kind})"
            ) from exc


DONE: Any = object()  # the data of the ``[DONE]`` event
# After ``[DONE]`` the body's end is read (a server sends it with ``[DONE]``), so that the
# connection goes back to the pool: a response closed before its end closes its connection,
# and the next stream would pay for a new one. A server that sends more than this, or keeps
# the body open longer, gets its connection closed instead.
DRAIN_CHUNKS = 4
DRAIN_S = 0.5


def _drain(chunks: Iterator[bytes]) -> None:
    for _ in zip(range(DRAIN_CHUNKS), chunks, strict=False):
        pass


async def adrain(chunks: AsyncIterator[bytes]) -> None:
    timeout = asyncio.timeout(DRAIN_S)  # half the CPU of an anyio cancel scope
    try:
        async with timeout:
            count = 0
            async for _ in chunks:
                count += 1
                if count >= DRAIN_CHUNKS:
                    return
    except TimeoutError:
        if not timeout.expired():
            raise


class EventParser:
    """Server-sent event lines → (event name, decoded JSON data) items.

    ``feed_bytes`` takes the body as it comes off the network: the lines of each piece (ended
    by LF, CRLF or CR; a line cut between pieces is kept for the next) are read in one go,
    without a decoder and a generator per line."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.event: str | None = None
        self.rest = b""

    def feed_bytes(self, chunk: bytes) -> Iterator[tuple[str | None, Any]]:
        """The items of the lines ``chunk`` completes (``b""``: the body ended, its last
        line too)."""
        data = self.rest + chunk if self.rest else chunk
        lines = data.splitlines(keepends=True)
        cut = chunk and lines and lines[-1][-1:] not in (b"\n", b"\r")
        self.rest = lines.pop() if cut else b""
        for raw in lines:
            item = self.feed(raw.rstrip(b"\r\n").decode("utf-8", "replace"))
            if item is not None:
                yield item

    def feed(self, line: str) -> tuple[str | None, Any] | None:
        """The item a line completes, or None."""
        if line.startswith("event:"):
            self.event = line[6:].strip()
            return None
        if not line.startswith("data:"):
            return None
        data = line[5:].strip()
        event, self.event = self.event, None
        if data == "[DONE]":
            return None, DONE
        try:
            return event, json.loads(data)
        except ValueError as exc:
            raise UpstreamError(
                f"the event stream of {self.source} has bad data: {data[:80]}"
            ) from exc


def _json_bytes(body: dict[str, Any]) -> bytes:
    """A request body as httpx writes ``json=``: compact, literal UTF-8."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def _is_event_stream(response: Any) -> bool:
    return response.headers.get("content-type", "").startswith("text/event-stream")


def _not_a_stream(response: Any) -> UpstreamError:
    kind = response.headers.get("content-type", "no content type")
    return UpstreamError(
        f"the upstream answered {response.status_code} with {kind}, not an event stream: "
        f"{response.text[:200]!r}"
    )


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

    @property
    def breaker(self) -> CircuitBreaker:
        """The transport's circuit breaker (``/health/ready`` reads its state)."""
        return self.transport.breaker

    def close(self) -> None:
        """Close the HTTP connections."""
        self.transport.close()

    async def aclose(self) -> None:
        """Close the HTTP connections of the running event loop (at the app's shutdown)."""
        await self.transport.aclose()
