"""Reading an upstream body on to its end after the answer: bounded in pieces and time."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from zerolayer.core.neural import transport
from zerolayer.rules_api import openai_api

Drain = Callable[[AsyncIterator[bytes]], Awaitable[None]]


async def pieces(count: int, hang: bool = False, fail: BaseException | None = None
                 ) -> AsyncIterator[bytes]:  # fmt: skip
    for _ in range(count):
        yield b"x"
    if fail is not None:
        raise fail
    if hang:
        await asyncio.sleep(3600)


@pytest.mark.parametrize("drain", [openai_api.drain, transport.adrain])
def test_a_body_that_ends_is_read_to_its_end(drain: Drain) -> None:
    chunks = pieces(2)
    asyncio.run(drain(chunks))
    assert asyncio.run(anext(chunks, None)) is None


@pytest.mark.parametrize("drain", [openai_api.drain, transport.adrain])
def test_a_body_that_stays_open_is_left_after_the_time_limit(
    drain: Drain, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(openai_api, "DRAIN_S", 0.05)
    monkeypatch.setattr(transport, "DRAIN_S", 0.05)

    async def timed() -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await drain(pieces(1, hang=True))
        return loop.time() - start

    assert asyncio.run(timed()) < 1


@pytest.mark.parametrize("drain", [openai_api.drain, transport.adrain])
def test_a_timeout_of_the_body_itself_is_not_swallowed(drain: Drain) -> None:
    with pytest.raises(TimeoutError):
        asyncio.run(drain(pieces(1, fail=TimeoutError("the body's own"))))


def test_at_most_drain_chunks_pieces_are_read() -> None:
    seen: list[bytes] = []

    async def counted() -> AsyncIterator[bytes]:
        for _ in range(10):
            seen.append(b"x")
            yield b"x"

    asyncio.run(openai_api.drain(counted()))
    assert len(seen) == openai_api.DRAIN_CHUNKS
