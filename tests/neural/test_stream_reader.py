"""``StreamReader``: an OpenAI-compatible upstream's event stream read a read at a time, the
items of every event of a read in one pass: the same items, completion and errors as
``astream`` (``EventParser`` and ``ChunkReader`` event by event), however the upstream's
bytes were split into reads."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.fallback import ChoiceDelta, Completion
from zerolayer.core.neural.transport import DONE, EventParser, UpstreamError
from zerolayer.core.neural.upstream import ChunkReader, StreamReader, first_items, read_items
from zerolayer.rules_api.testing import chunk_delta as delta
from zerolayer.rules_api.testing import chunk_event as event

SOURCE = "http://up.test/v1"


USAGE = event([], usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5})
DONE_EVENT = b"data: [DONE]\n\n"
ERROR = b'data: {"error": {"message": "lost its GPU"}}\n\n'
BAD = b"data: {oops\n\n"
# texts whose JSON differs in length, escapes and look from the first of their shape
SHAPED = ["tok0 ", "", "é", '"quoted" \\', "\n", "🌊", "\ud800", '"}]}', "content", "x" * 300]


def raw(text: str, after: str = "") -> bytes:
    """A text delta event as an upstream may write it: compact, ``"content" :`` spaced."""
    value = json.dumps(text, ensure_ascii=False)  # literal UTF-8 (the other events: escapes)
    body = '{"id":"c","choices":[{"index":0,"delta":{"content" :  ' + value + "}" + after + "}]}"
    return b"data: " + body.encode("utf-8", "surrogatepass") + b"\n\n"


# events of the shape of ``delta``'s but for something else than one JSON string in its
# place (the third is bad data: a string, then more)
ODD_EVENTS = [
    b'data: {"id": "up-1", "object": "chat.completion.chunk", "model": "up-model", "choices": '
    b'[{"index": 0, "delta": {"content": null}, "finish_reason": null}]}\n\n',
    b'data: {"id": "up-1", "object": "chat.completion.chunk", "model": "up-model", "choices": '
    b'[{"index": 0, "delta": {"content": "a", "content": "b"}, "finish_reason": null}]}\n\n',
    b'data: {"id": "up-1", "object": "chat.completion.chunk", "model": "up-model", "choices": '
    b'[{"index": 0, "delta": {"content": "a"}, "finish_reason": null}]}, "x": "}]}\n\n',
    b'data: {"id": "up-1", "object": "chat.completion.chunk", "model": "up-model", "choices": '
    b'[{"index": 0, "delta": {"content": ""}, "finish_reason": null}]}\n\n',
]
NAMED_CRLF = (b"event: chunk\r\n" + delta("a ") + b": comment\n" + delta("b", "stop")).replace(
    b"\n\n", b"\r\n\r\n"
)
BODY = delta("a ") + delta("b", "stop") + USAGE + DONE_EVENT

BODIES = {
    "whole": BODY,
    "empty answer": delta("") + delta("", "stop") + USAGE + DONE_EVENT,
    "no done": delta("a ") + delta("b", "length"),
    "cut": delta("a ") + delta("b "),
    "cut at once": b"",
    "error event": delta("a ") + delta("b ") + ERROR + delta("c", "stop") + DONE_EVENT,
    "error first": ERROR + delta("a", "stop"),
    "bad data": delta("a ") + BAD + delta("b", "stop"),
    "after done": delta("a", "stop") + DONE_EVENT + BAD + delta("ignored"),
    "choices": delta("a ") + delta("x", index=1) + delta("b", "stop") + delta("", "stop", 1),
    "named events and crlf": NAMED_CRLF,
    "last line unended": delta("a ") + delta("b", "stop") + b"data: [DONE]",
    "not a dict": b"data: [1, 2]\n\n" + delta("a", "stop"),
    # events of one shape (the same bytes but for their text): their texts read alone
    "one shape": b"".join(delta(t) for t in SHAPED) + delta("", "stop") + USAGE + DONE_EVENT,
    "one shape, raw": b"".join(raw(t) for t in SHAPED) + raw("z", ', "finish_reason": "stop"'),
    "shape then not": delta("a") + delta("b") + b"".join(ODD_EVENTS) + delta("c", "stop"),
    "duplicate keys": b"".join(
        b'data: {"choices": [{"index": 0, "delta": {"content": "first", "content": "%s"}}]}\n\n' % t
        for t in (b"a", b"b", b"c\\n")
    )
    + b'data: {"choices": [{"index": 0, "delta": {"content": "x", "content": 5}}]}\n\n',
    "shape of choice 1": b"".join(delta(t, index=1) for t in ("x", "y")) + delta("a", "stop"),
    "shape with usage": b"".join(
        event([{"index": 0, "delta": {"content": t}}], usage={"completion_tokens": 4})
        for t in ("a", "b", "c")
    )
    + delta("", "stop"),
    "shape with finish": b"".join(delta(t, "length") for t in ("a", "b")),
}


def one_by_one(body: bytes, size: int) -> tuple[list[Any], Any]:
    """The items and the end (a ``Completion`` or the exception) of ``astream``'s reading:
    one event at a time, stopping at ``[DONE]``, then the ``Completion``."""
    parser, reader = EventParser(SOURCE), ChunkReader(())
    items: list[Any] = []
    try:
        for piece in [body[i : i + size] for i in range(0, len(body), size)] + [b""]:
            for _, data in parser.feed_bytes(piece):
                items += reader.feed(data)
                if data is DONE:
                    return items, reader.completion()
        return items, reader.completion()
    except Exception as exc:
        return items, exc


def batched(body: bytes, size: int) -> tuple[list[Any], Any, int]:
    """The same through ``StreamReader``, a read at a time; also how many reads gave items."""
    reader = StreamReader(SOURCE, ())
    items: list[Any] = []
    reads = 0
    try:
        for piece in [body[i : i + size] for i in range(0, len(body), size)] + [b""]:
            got = reader.feed(piece)
            reads += bool(got)
            items += got
            if reader.done or reader.ended:
                break
        return items, reader.completion(), reads
    except Exception as exc:
        return items, exc, reads


def same_end(a: Any, b: Any) -> bool:
    if isinstance(a, Exception) or isinstance(b, Exception):
        return type(a) is type(b) and str(a) == str(b)
    assert isinstance(a, Completion) and isinstance(b, Completion)
    return a == b


@pytest.mark.parametrize("name", sorted(BODIES))
@pytest.mark.parametrize("size", [1, 7, 64, 100_000])
def test_the_items_and_the_end_are_astreams(name: str, size: int) -> None:
    body = BODIES[name]
    items, end = one_by_one(body, size)
    got, got_end, _ = batched(body, size)
    assert got == items
    assert same_end(got_end, end), (got_end, end)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(sorted(BODIES)), min_size=1, max_size=3),
    st.lists(st.integers(1, 80), min_size=1, max_size=12),
)
def test_any_split_of_any_body_reads_as_astream(names: list[str], cuts: list[int]) -> None:
    body = b"".join(BODIES[n] for n in names)
    pieces, at = [], 0
    for cut in cuts:
        pieces.append(body[at : at + cut])
        at += cut
    pieces.append(body[at:])
    pieces = [p for p in pieces if p]
    reference, end = one_by_one(body, len(body) or 1)
    reader = StreamReader(SOURCE, ())
    items: list[Any] = []
    try:
        for piece in [*pieces, b""]:
            items += reader.feed(piece)
            if reader.done or reader.ended:
                break
        got_end: Any = reader.completion()
    except Exception as exc:
        got_end = exc
    assert items == reference
    assert same_end(got_end, end)


def test_a_read_that_holds_every_event_gives_every_item_at_once() -> None:
    body = b"".join(delta(f"t{i} ") for i in range(50)) + delta("end", "stop") + USAGE
    reader = StreamReader(SOURCE, ())
    items = reader.feed(body + DONE_EVENT)
    assert items == [f"t{i} " for i in range(50)] + ["end"]
    assert reader.done
    completion = reader.completion()
    assert completion.text == "".join(items)
    assert (completion.input_tokens, completion.output_tokens) == (3, 2)
    assert completion.stop_reason == "end_turn"


def test_an_event_split_across_reads_gives_its_item_once_complete() -> None:
    reader = StreamReader(SOURCE, ())
    half = len(delta("hello")) // 2
    assert reader.feed(delta("hello")[:half]) == []
    assert reader.feed(delta("hello")[half:] + delta("!")[:5]) == ["hello"]
    assert reader.feed(delta("!")[5:]) == ["!"]


def test_an_error_mid_read_comes_after_the_items_before_it_and_stays() -> None:
    reader = StreamReader(SOURCE, ())
    assert reader.feed(delta("a ") + ERROR + delta("b")) == ["a "]
    with pytest.raises(UpstreamError, match="lost its GPU"):
        reader.feed(delta("c"))
    with pytest.raises(UpstreamError, match="lost its GPU"):
        reader.completion()
    with pytest.raises(UpstreamError, match="lost its GPU"):
        StreamReader(SOURCE, ()).feed(ERROR)


def test_bad_data_names_the_upstream_as_the_event_parser_does() -> None:
    with pytest.raises(UpstreamError, match=f"the event stream of {SOURCE} has bad data"):
        StreamReader(SOURCE, ()).feed(BAD)


def test_usage_and_choice_deltas_mid_read() -> None:
    reader = StreamReader(SOURCE, ())
    body = delta("a") + delta("x", index=1) + USAGE + delta("b", "stop") + DONE_EVENT
    assert reader.feed(body) == ["a", ChoiceDelta(1, "x"), "b"]
    completion = reader.completion()
    assert completion.output_tokens == 2 and completion.choices[0].text == "x"


def test_a_cut_stream_ends_unfinished() -> None:
    reader = StreamReader(SOURCE, ())
    assert reader.feed(delta("a ")) == ["a "]
    assert reader.feed(b"") == [] and reader.ended
    with pytest.raises(UpstreamError, match="ended before it finished"):
        reader.completion()


async def pieces(*parts: bytes | BaseException) -> AsyncIterator[bytes]:
    for part in parts:
        if isinstance(part, BaseException):
            raise part
        yield part


def test_first_items_reads_up_to_the_first_read_that_gives_any() -> None:
    async def run() -> tuple[list[Any], list[Any], StreamReader]:
        reader = StreamReader(SOURCE, ())
        chunks = pieces(event([{"index": 0, "delta": {"role": "assistant"}}]), b"",
                        delta("a") + delta("b"), delta("c", "stop") + DONE_EVENT)  # fmt: skip
        first = await first_items(reader, chunks)
        second = await read_items(reader, chunks)
        return first, second, reader

    first, second, reader = asyncio.run(run())
    assert (first, second, reader.done) == (["a", "b"], ["c"], True)


def test_first_items_of_a_stream_without_any_reads_it_to_its_end_and_checks_it() -> None:
    async def run(*parts: bytes | BaseException) -> list[Any]:
        return await first_items(StreamReader(SOURCE, ()), pieces(*parts))

    assert asyncio.run(run(delta("", "stop") + DONE_EVENT, b"after")) == []
    assert asyncio.run(run(delta("", "stop"))) == []  # ended, finished
    with pytest.raises(UpstreamError, match="ended before it finished"):
        asyncio.run(run(event([{"index": 0, "delta": {"role": "assistant"}}])))
    with pytest.raises(UpstreamError, match="lost its GPU"):
        asyncio.run(run(ERROR))
    with pytest.raises(ConnectionResetError):  # the body's end after [DONE] is read
        asyncio.run(run(delta("", "stop") + DONE_EVENT, ConnectionResetError("cut")))


def test_events_of_one_shape_are_read_by_their_text_alone() -> None:
    reader = StreamReader(SOURCE, ())
    items = reader.feed(b"".join(delta(t) for t in SHAPED))
    assert items == [t for t in SHAPED if t]
    assert reader.shape is not None and reader.shape.text_of('{"other": 1}') is None
    assert reader.shape.text_of(delta("new")[6:-2].decode()) == "new"
    assert reader.reader.texts[0] == [t for t in SHAPED if t]


def test_a_shape_is_not_learned_from_an_event_it_cannot_stand_for() -> None:
    for body in (
        ERROR,
        USAGE,
        event([{"index": 0, "delta": {"content": "a"}}, {"index": 1, "delta": {"content": "b"}}]),
        event([{"index": 0, "delta": {"role": "assistant"}}]),
        b'data: {"choices": [{"delta": {"content": "a"}, "x": {"content": 1}}]}\n\n',
    ):
        reader = StreamReader(SOURCE, ())
        with contextlib.suppress(UpstreamError):
            reader.feed(body)
        assert reader.shape is None, body
