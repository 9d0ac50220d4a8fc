"""``RelayResponse`` with ``watch``: the client going away stops the stream where it waits
and closes its pieces, without an error; any other cancellation goes on; a stream that ends
is not cancelled after it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import pytest

from zerolayer.rules_api.streaming import WATCH_AFTER_S, RelayResponse


class Client:
    """An ASGI client: its messages sent, and whether (and when) it goes away."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.gone = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def bodies(self) -> list[tuple[bytes, bool]]:
        return [(m["body"], m["more_body"]) for m in self.sent if m["type"] == "http.response.body"]


def test_a_stream_that_ends_is_sent_whole_and_not_cancelled_after() -> None:
    async def pieces() -> AsyncGenerator[tuple[bytes, bool], None]:
        yield b"a", False
        yield b"b", True

    async def run() -> list[tuple[bytes, bool]]:
        client = Client()
        await RelayResponse(pieces(), {}, watch=True)({}, client.receive, client.send)
        client.gone.set()  # the client leaves after the answer: nothing is cancelled
        await asyncio.sleep(0.01)
        return client.bodies()

    assert asyncio.run(run()) == [(b"a", True), (b"b", False)]


def test_a_client_that_goes_away_stops_the_stream_where_it_waits() -> None:
    closed = []

    async def pieces() -> AsyncGenerator[tuple[bytes, bool], None]:
        try:
            yield b"a", False
            await asyncio.sleep(3600)  # an upstream that sends nothing more
            yield b"never", True
        finally:
            closed.append(True)

    async def run() -> list[tuple[bytes, bool]]:
        client = Client()
        asyncio.get_running_loop().call_later(0.05, client.gone.set)
        await RelayResponse(pieces(), {}, watch=True)({}, client.receive, client.send)
        await asyncio.sleep(0.01)  # still running: the task was not cancelled again
        return client.bodies()

    assert asyncio.run(asyncio.wait_for(run(), 5)) == [(b"a", True)]
    assert closed == [True]


def test_another_cancellation_goes_on() -> None:
    async def pieces() -> AsyncGenerator[tuple[bytes, bool], None]:
        yield b"a", False
        await asyncio.sleep(3600)
        yield b"never", True

    async def run() -> None:
        client = Client()
        task = asyncio.ensure_future(
            RelayResponse(pieces(), {}, watch=True)({}, client.receive, client.send)
        )
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(asyncio.wait_for(run(), 5))


def test_the_pieces_after_the_last_are_read_on_when_the_answer_is_whole() -> None:
    """A server says the client is gone once the answer is whole (uvicorn does): what the
    pieces read after the last (the upstream's end, its connection back to the pool) is not
    cancelled for that."""
    read_on = []

    async def pieces() -> AsyncGenerator[tuple[bytes, bool], None]:
        yield b"a", True
        await asyncio.sleep(0.05)  # the upstream's end, read after the answer
        read_on.append(True)

    class Server(Client):
        async def send(self, message: dict[str, Any]) -> None:
            await super().send(message)
            if message["type"] == "http.response.body" and not message["more_body"]:
                self.gone.set()

    async def run() -> list[tuple[bytes, bool]]:
        client = Server()
        await RelayResponse(pieces(), {}, watch=True)({}, client.receive, client.send)
        return client.bodies()

    assert asyncio.run(asyncio.wait_for(run(), 5)) == [(b"a", False)]
    assert read_on == [True]


def test_the_client_is_watched_only_once_the_stream_has_lasted() -> None:
    """A stream that is whole within ``WATCH_AFTER_S`` never starts the listener (it costs
    more than the relay of a short answer); one that lasts notices a client that left at
    its very start."""
    asked = []

    class Counted(Client):
        async def receive(self) -> dict[str, Any]:
            asked.append(True)
            return await super().receive()

    async def short() -> AsyncGenerator[tuple[bytes, bool], None]:
        yield b"a", False
        await asyncio.sleep(0)
        yield b"b", True

    async def hangs() -> AsyncGenerator[tuple[bytes, bool], None]:
        yield b"a", False
        await asyncio.sleep(3600)
        yield b"never", True

    async def run() -> tuple[list[tuple[bytes, bool]], list[tuple[bytes, bool]]]:
        client = Counted()
        client.gone.set()  # gone from the start
        await RelayResponse(short(), {}, watch=True)({}, client.receive, client.send)
        await asyncio.sleep(WATCH_AFTER_S * 2)
        assert asked == []
        left = Counted()
        left.gone.set()
        await RelayResponse(hangs(), {}, watch=True)({}, left.receive, left.send)
        assert asked == [True]
        return client.bodies(), left.bodies()

    short_bodies, left_bodies = asyncio.run(asyncio.wait_for(run(), 5))
    assert short_bodies == [(b"a", True), (b"b", False)]
    assert left_bodies == [(b"a", True)]
