"""``EventStreamResponse``: a streaming answer that sends together what is ready together.

A streamed answer is made of many small server-sent events (one per token of the model's
answer). Sent one by one, each event is a trip through every middleware's ``send`` and a
write to the socket: for a short answer that cost more than the rest of the request. Here
the events are made in one task and sent from another: whatever the first has made by the
time the second is ready to send goes out in one ``http.response.body`` message. Nothing
waits to be joined: an event that comes alone (a model writing tokens slowly) is sent as
soon as it is made, and a burst (an upstream's read that held several events) goes out as
one write. Clients see the same bytes; server-sent events are framed by their blank lines,
not by writes.
"""

from __future__ import annotations

import anyio
from fastapi.responses import StreamingResponse
from starlette.types import Send

MAX_PENDING = 64  # events made and not yet sent; the maker waits beyond this


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
