"""Streaming answers: ``EventStreamResponse`` sends together what is ready together;
``RelayResponse`` sends pieces that are made a read of the upstream at a time.

A streamed answer is made of many small server-sent events (one per token of the model's
answer). Sent one by one, each event is a trip through every middleware's ``send`` and a
write to the socket: for a short answer that cost more than the rest of the request. Here
the events are made in one task and sent from another: whatever the first has made by the
time the second is ready to send goes out in one ``http.response.body`` message. Nothing
waits to be joined: an event that comes alone (a model writing tokens slowly) is sent as
soon as it is made, and a burst (an upstream's read that held several events) goes out as
one write. Clients see the same bytes; server-sent events are framed by their blank lines,
not by writes.

Where an answer's events are made from the upstream's a read at a time (the relay of an
OpenAI-compatible upstream's stream, its translation to Anthropic events), one task does
both: ``RelayResponse`` sends each piece as it is made, without a second task or a queue
between them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from typing import Any

import anyio
from fastapi.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

MAX_PENDING = 64  # events made and not yet sent; the maker waits beyond this
WATCH_AFTER_S = 0.02  # a relay's client is watched from this age of its stream on


class EventStreamResponse(StreamingResponse):
    """A ``StreamingResponse`` of ``text/event-stream`` whose ready events are sent together."""

    media_type = "text/event-stream"

    async def stream_response(self, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        made, ready = anyio.create_memory_object_stream[bytes](MAX_PENDING)

        async def make() -> None:
            async with made:
                async for chunk in self.body_iterator:
                    data = chunk if isinstance(chunk, bytes) else bytes(chunk, self.charset)
                    try:
                        made.send_nowait(data)
                    except anyio.WouldBlock:
                        await made.send(data)
                    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                        return  # the sender stopped (the client went away)

        try:
            async with anyio.create_task_group() as tasks, ready:
                tasks.start_soon(make)
                async for first in ready:
                    parts = [first]
                    while True:
                        try:
                            parts.append(ready.receive_nowait())
                        except (anyio.WouldBlock, anyio.EndOfStream):
                            break
                    body = parts[0] if len(parts) == 1 else b"".join(parts)
                    await send({"type": "http.response.body", "body": body, "more_body": True})
        except BaseExceptionGroup as group:  # one task failed: its error, as if it ran alone
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
        await send({"type": "http.response.body", "body": b"", "more_body": False})


class RelayResponse(Response):
    """An event stream of pieces ``(bytes, last)``, each sent as it is made, the last one with
    the end of the chunked body (one write for both); the pieces are read on after the last
    (the upstream's end).

    ``watch``: the stream is stopped when the client goes away (``http.disconnect``), as
    Starlette's ``StreamingResponse`` stops it: the pieces are cancelled where they wait
    (the upstream's next read) and closed, and the answer ends without an error. The client
    is watched from ``WATCH_AFTER_S`` into the stream on (a listener task costs more than
    the relay of a short answer that is whole by then; one that left before is noticed
    then). Once the last piece is sent the client is no longer watched (uvicorn reports a
    disconnect as soon as the answer is whole): what the pieces read after it, the
    upstream's end, is read on."""

    media_type = "text/event-stream"

    def __init__(
        self,
        pieces: AsyncGenerator[tuple[bytes, bool], None],
        headers: dict[str, str],
        *,
        watch: bool = False,
    ) -> None:
        self.pieces = pieces
        self.watch = watch
        self.status_code = 200
        self.background = None
        self.init_headers(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        if not self.watch:
            await self._send(send)
            return
        task = asyncio.current_task()
        assert task is not None
        active, stopped = True, False
        gone: asyncio.Future[None] | None = None

        def stop(listener: asyncio.Future[Any]) -> None:
            nonlocal stopped
            if active and not listener.cancelled() and listener.exception() is None:
                stopped = True
                task.cancel()  # delivered where the task waits, inside the try below

        def watch() -> None:
            nonlocal gone
            if active:
                gone = asyncio.ensure_future(disconnected(receive))
                gone.add_done_callback(stop)

        def whole() -> None:
            nonlocal active
            active = False
            timer.cancel()
            if gone is not None:
                gone.cancel()

        timer = asyncio.get_running_loop().call_later(WATCH_AFTER_S, watch)
        try:
            await self._send(send, whole)
        except asyncio.CancelledError:
            if not stopped or task.uncancel() > 0:
                raise
        finally:
            whole()
            await self.pieces.aclose()

    async def _send(self, send: Send, whole: Callable[[], object] | None = None) -> None:
        """The pieces sent; ``whole`` called once the last is (no suspension between)."""
        more = True
        async for data, last in self.pieces:  # read on after the last: the upstream's end
            if more:
                await send({"type": "http.response.body", "body": data, "more_body": not last})
                more = not last
                if last and whole is not None:
                    whole()
        if more:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


async def disconnected(receive: Receive) -> None:
    """Return once the client has gone away (``http.disconnect``)."""
    while (await receive())["type"] != "http.disconnect":
        pass
