"""A lean HTTP/1.1 client for a plain ``http://`` upstream, on the running asyncio loop.

The model path forwards every fallback request to the upstream; through httpx that trip
cost about 1.2 ms of CPU for a whole answer and 2 ms for a streamed one on the benchmark's
machine (URL merging, cookies, auth and redirect layers, h11 in pure Python for every
event), more than the rest of the request. This client does only what the transport needs:
one keep-alive connection pool per event loop, a ``POST`` written in one go, the answer read
by httptools' C parser (the one uvicorn uses) as it arrives, chunked or by length.

It keeps httpx's contract where the transport relies on it: failures are httpx's exceptions
(``ConnectError``, ``ConnectTimeout``, ``ReadTimeout``, ``RemoteProtocolError``, all
``httpx.TransportError``), and ``Http1Response`` answers ``status_code``, ``headers`` (names
in lower case), ``aread``, ``content``, ``text``, ``json``, ``aiter_bytes`` and ``aclose``.
The read timeout applies to every wait for bytes, as httpx's does. A pooled connection that
turns out closed (the upstream dropped it while idle) before any byte of the answer came
back is discarded and the request sent on the next one, a new connection at last.

``https://`` upstreams (TLS, HTTP/2) and machines without httptools keep httpx.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx

try:
    import httptools
except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
    httptools = None

MAX_BUFFERED = 1 << 20  # bytes of an answer read ahead of its reader before reading pauses
MAX_IDLE = 100  # idle keep-alive connections kept per pool


def available(base_url: str) -> bool:
    """True when ``base_url`` can be served by this client (plain http, httptools here)."""
    return httptools is not None and base_url.startswith("http://")


class _Stale(Exception):
    """A reused connection closed before any byte of the answer: send on a fresh one."""


class _Connection(asyncio.Protocol):
    """One keep-alive connection and the parser of the answer it is reading."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        # The body's pieces (a chunked body: one per chunk) are appended by the parser itself
        # (its ``on_body`` is the list's ``append``, no Python call per piece); what they
        # change is looked at once per read of the socket (``data_received``).
        self.chunks: list[bytes] = []
        self.on_body = self.chunks.append
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[None] | None = None
        self._reset()

    def _reset(self) -> None:
        self.status = 0
        self.headers: dict[str, str] = {}
        self.chunks.clear()
        self.buffered = 0
        self.head_done = False
        self.complete = False
        self.keep_alive = True
        self.got_bytes = False
        self.error: Exception | None = None
        self.paused = False

    # -- asyncio.Protocol ----------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.got_bytes = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self.error = httpx.RemoteProtocolError(f"the upstream's answer is not HTTP: {exc}")
            self.close()
        if self.chunks:  # read ahead of the reader: the bytes read, framing included
            self.buffered += len(data)
            if self.buffered > MAX_BUFFERED and not self.paused and self.transport is not None:
                self.transport.pause_reading()
                self.paused = True
        self._wake()

    def eof_received(self) -> bool | None:
        return None  # close the transport: connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_done and not self.complete and self._ends_at_close():
            self.complete, self.keep_alive = True, False  # a body ended by the close
        elif not self.complete and self.error is None:
            why = f": {exc}" if exc else ""
            self.error = httpx.RemoteProtocolError(
                f"the upstream closed the connection before the answer was complete{why}"
            )
        self.keep_alive = False
        self._wake()

    # -- httptools callbacks -------------------------------------------------------------

    def on_header(self, name: bytes, value: bytes) -> None:
        key, text = name.decode("latin-1").lower(), value.decode("latin-1")
        old = self.headers.get(key)
        self.headers[key] = text if old is None else f"{old}, {text}"

    def on_headers_complete(self) -> None:
        self.status = self.parser.get_status_code()
        self.keep_alive = self.parser.should_keep_alive()
        self.head_done = True

    def on_message_complete(self) -> None:
        self.complete = True

    # -- the client's side ---------------------------------------------------------------

    def _ends_at_close(self) -> bool:
        return "content-length" not in self.headers and "chunked" not in self.headers.get(
            "transfer-encoding", ""
        )

    def _wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def _wait(self, timeout: float) -> None:
        waiter = self.waiter = self.loop.create_future()
        timer = self.loop.call_later(timeout, _expire, waiter, timeout)
        try:
            await waiter
        finally:
            timer.cancel()
            self.waiter = None

    @property
    def usable(self) -> bool:
        return self.transport is not None and not self.transport.is_closing()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    async def request(self, data: bytes, timeout: float, reused: bool) -> None:
        """Send ``data`` and wait for the answer's head."""
        assert self.transport is not None
        self._reset()
        self.transport.write(data)
        while not self.head_done:
            if self.error is not None:
                if reused and not self.got_bytes:
                    raise _Stale from self.error
                raise self.error
            await self._wait(timeout)

    async def read(self, timeout: float) -> bytes | None:
        """The body's bytes that arrived since the last read (waiting for some), None at its
        end; the connection's error when it broke first."""
        while True:
            if self.chunks:
                chunks = self.chunks
                data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
                chunks.clear()
                self.buffered = 0
                if self.paused and self.transport is not None:
                    self.paused = False
                    self.transport.resume_reading()
                return data
            if self.complete:
                return None
            if self.error is not None:
                raise self.error
            await self._wait(timeout)


def _expire(waiter: asyncio.Future[None], timeout: float) -> None:
    if not waiter.done():
        waiter.set_exception(httpx.ReadTimeout(f"no answer from the upstream in {timeout:g} s"))


class Http1Response:
    """An answer being read; its connection goes back to the pool once the body is read."""

    def __init__(self, pool: Http1Pool, conn: _Connection) -> None:
        self._pool = pool
        self._conn: _Connection | None = conn
        self.status_code = conn.status
        self.headers: dict[str, str] = conn.headers
        self._content: bytes | None = None

    @property
    def content(self) -> bytes:
        if self._content is None:
            raise httpx.ResponseNotRead()
        return self._content

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.content)

    async def aread(self) -> bytes:
        if self._content is None:
            self._content = b"".join([data async for data in self.aiter_bytes()])
        return self._content

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        conn = self._conn
        if conn is None:
            return
        timeout = self._pool.read_timeout
        while (data := await conn.read(timeout)) is not None:
            yield data
        self._release()

    async def aclose(self) -> None:
        conn = self._conn
        if conn is not None and not (conn.complete and not conn.chunks):
            self._conn = None
            conn.close()  # closed before its end: the connection cannot be reused
        self._release()

    def _release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            self._pool.release(conn)


class Http1Pool:
    """Keep-alive connections to one ``http://`` base URL, for one event loop."""

    def __init__(self, base_url: str, *, connect_timeout: float, read_timeout: float) -> None:
        parts = urlsplit(base_url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.authority = parts.netloc.rpartition("@")[2]
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.idle: list[_Connection] = []
        self.closed = False

    async def post(self, path: str, body: bytes, headers: Mapping[str, str]) -> Http1Response:
        """POST ``body`` (JSON) to ``path`` under the base URL: the answer once its head came."""
        extra = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        if extra.count("\n") != len(headers) or extra.count("\r") != len(headers):
            raise httpx.LocalProtocolError("a request header holds a line break")
        head = (
            f"POST {self.prefix}{path} HTTP/1.1\r\nhost: {self.authority}\r\n"
            f"accept: */*\r\naccept-encoding: identity\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n{extra}\r\n"
        ).encode("latin-1")
        data = head + body
        while True:
            conn, reused = self._idle(), True
            if conn is None:
                conn, reused = await self._connect(), False
            try:
                await conn.request(data, self.read_timeout, reused)
            except _Stale:
                conn.close()
                continue
            except BaseException:
                conn.close()
                raise
            return Http1Response(self, conn)

    def _idle(self) -> _Connection | None:
        while self.idle:
            conn = self.idle.pop()
            if conn.usable:
                return conn
        return None

    async def _connect(self) -> _Connection:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self.connect_timeout):
                _, conn = await loop.create_connection(
                    lambda: _Connection(loop), self.host, self.port
                )
        except TimeoutError:
            raise httpx.ConnectTimeout(
                f"no connection to {self.host}:{self.port} in {self.connect_timeout:g} s"
            ) from None
        except OSError as exc:
            raise httpx.ConnectError(str(exc) or type(exc).__name__) from exc
        return conn

    def release(self, conn: _Connection) -> None:
        """Keep a connection whose answer was read to its end, or close it."""
        if (
            not self.closed
            and conn.complete
            and conn.keep_alive
            and conn.usable
            and len(self.idle) < MAX_IDLE
        ):
            self.idle.append(conn)
        else:
            conn.close()

    def close(self) -> None:
        """Close every idle connection; connections in use close when their answer ends."""
        self.closed = True
        while self.idle:
            self.idle.pop().close()
