"""Slow clients are cut off: uvicorn's HTTP protocol with header and body read timeouts.

uvicorn (0.55) bounds only the idle time between requests on a keep-alive connection
(``timeout_keep_alive``) and the number of connections and tasks (``limit_concurrency``,
answered 503). A client that opens a connection and sends nothing, sends part of its headers,
or sends headers and then stalls in the body, keeps its connection open forever: uvicorn arms
no timer until a response is complete. ``TimedHttpToolsProtocol`` adds the two timers at the
layer that parses the bytes:

* **header timeout** (``ZEROLAYER_HEADER_TIMEOUT_S``): from the connection (or the first byte
  of a later request on it) to the end of the request's headers. Absolute, so a client that
  drips one byte at a time gains nothing.
* **body timeout** (``ZEROLAYER_BODY_TIMEOUT_S``): the longest pause between two pieces of a
  request body, while the application waits for it (not while uvicorn has paused reading
  because the application has not taken what came).

Either closes the connection; an application waiting for the body then receives
``http.disconnect``. The values come from attributes ``uvicorn_config`` sets on uvicorn's
``Config`` (so every worker process gets them); the protocol is used in place of uvicorn's
``httptools`` one, which ``serve`` picks when httptools is installed (the ``server`` extra).

The protocol also writes an answer's status line and headers together with what follows them
in the same turn of the event loop (``CoalescedWrites``): uvicorn writes the head of an
answer and its body separately, and on loopback every write is a system call that also
wakes the reader. The client gets the same bytes, in one write instead of two; the end of
an answer is written as soon as it is sent (what follows it in the task waits for nothing).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_TIMEOUT = "zerolayer_header_timeout_s"  # attribute names on uvicorn's Config
BODY_TIMEOUT = "zerolayer_body_timeout_s"
DEFAULT_HEADER_TIMEOUT_S = 10.0
DEFAULT_BODY_TIMEOUT_S = 30.0


class CoalescedWrites:
    """A transport whose writes made in one turn of the event loop go out as one write.

    Writes are kept until the callbacks of the current turn have run (``call_soon``), then
    written together; ``close`` writes what is kept first, ``abort`` drops it (as the
    transport drops its own buffer). Everything else is the wrapped transport's."""

    __slots__ = ("_due", "_kept", "_loop", "transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self._loop = loop
        self._kept: list[bytes] = []
        self._due = False

    def write(self, data: bytes) -> None:
        """Keep ``data`` for the write at the end of this turn of the loop."""
        if not data:
            return
        self._kept.append(data)
        if not self._due:
            self._due = True
            self._loop.call_soon(self.flush)

    def flush(self) -> None:
        """Write what is kept now (nothing once the transport is closing)."""
        self._due = False
        kept = self._kept
        if not kept:
            return
        data = kept[0] if len(kept) == 1 else b"".join(kept)
        kept.clear()
        if not self.transport.is_closing():
            self.transport.write(data)

    def writelines(self, data: Any) -> None:
        for piece in data:
            self.write(piece)

    def write_eof(self) -> None:
        self.flush()
        self.transport.write_eof()

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def abort(self) -> None:
        self._kept.clear()
        self.transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class TimedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with header and body read timeouts (module docs)."""

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.header_timeout = float(getattr(config, HEADER_TIMEOUT, DEFAULT_HEADER_TIMEOUT_S))
        self.body_timeout = float(getattr(config, BODY_TIMEOUT, DEFAULT_BODY_TIMEOUT_S))
        self._read_timer: asyncio.TimerHandle | None = None
        self._in_body = False

    # -- timers ------------------------------------------------------------------------

    def _arm(self, seconds: float) -> None:
        self._disarm()
        if seconds > 0:
            self._read_timer = self.loop.call_later(seconds, self._read_timed_out)

    def _disarm(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _read_timed_out(self) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        if self._in_body and self.flow.read_paused:  # the application is behind, not the client
            self._arm(self.body_timeout)
            return
        self.transport.close()

    # -- protocol ----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        coalesced: Any = CoalescedWrites(transport, self.loop)
        super().connection_made(coalesced)
        self._arm(self.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._read_timer is None:  # a later request of a keep-alive connection
            self._arm(self.header_timeout)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._in_body = True
        self._arm(self.body_timeout)

    def on_body(self, body: bytes) -> None:
        super().on_body(body)
        self._arm(self.body_timeout)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_body = False
        self._disarm()

    def on_response_complete(self) -> None:
        writes = self.transport
        if isinstance(writes, CoalescedWrites):
            writes.flush()  # the answer's end goes out now, not when the loop's turn ends
        super().on_response_complete()
