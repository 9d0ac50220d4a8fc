"""``EventRelay``: an OpenAI-compatible upstream's event stream passed on as its bytes to an
OpenAI client, with only what must change changed (the model name, ``[DONE]``, a usage chunk
the client did not ask for) and only the events that may hold an error or the usage read."""

from __future__ import annotations

import json

import pytest

from zerolayer.core.neural.transport import UpstreamError
from zerolayer.core.neural.upstream import EventRelay


def event(choices: list[dict], **extra: object) -> bytes:
    data = {"id": "up-1", "object": "chat.completion.chunk", "model": "up-model",
            "choices": choices, **extra}  # fmt: skip
    return b"data: " + json.dumps(data).encode() + b"\n\n"


def delta(text: str, finish: str | None = None) -> bytes:
    return event([{"index": 0, "delta": {"content": text}, "finish_reason": finish}])


USAGE = event([], usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5})
BODY = delta("a ") + delta("b", "stop") + USAGE + b"data: [DONE]\n\n"


def relayed(relay: EventRelay, body: bytes, size: int) -> bytes:
    out = [relay.feed(body[i : i + size]) for i in range(0, len(body), size)]
    return b"".join([*out, relay.feed(b"")])


@pytest.mark.parametrize("size", [1, 7, 10_000])
def test_events_pass_as_their_bytes_with_the_clients_model(size: int) -> None:
    relay = EventRelay("client/mödel", include_usage=True)
    out = relayed(relay, BODY, size)
    expected = BODY[: -len(b"data: [DONE]\n\n")].replace(
        b'"model": "up-model"',
        b'"model": ' + json.dumps("client/mödel", ensure_ascii=False).encode(),
    )
    assert out == expected
    assert relay.done and relay.finished and relay.usage == {
        "prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}  # fmt: skip
    relay.check_end()


def test_the_usage_chunk_the_client_did_not_ask_for_is_dropped() -> None:
    relay = EventRelay("up-model", include_usage=False)
    out = relayed(relay, BODY, 10_000)
    assert out == delta("a ") + delta("b", "stop")
    assert relay.usage is not None and relay.usage["completion_tokens"] == 2


def test_text_that_mentions_error_or_usage_is_not_read_as_such() -> None:
    relay = EventRelay("up-model", include_usage=True)
    body = delta('"error": {"usage": {}}') + delta("x", "stop") + b"data: [DONE]\n\n"
    assert relay.feed(body) == body[: -len(b"data: [DONE]\n\n")]
    assert relay.usage is None
    assert relay.texts() == {0: '"error": {"usage": {}}x'}


ERROR = b'data: {"error": {"message": "lost its GPU"}}\n\n'


@pytest.mark.parametrize("size", [1, 7, 10_000])
def test_an_error_event_raises_after_the_events_before_it(size: int) -> None:
    # However the upstream's bytes were split into reads, the client gets the events sent
    # before the error, then the error (a 200 stream that ends in it, never a 502 before it).
    relay = EventRelay("up-model", include_usage=True)
    body = delta("a ") + delta("b ") + ERROR + delta("c", "stop")
    out = []
    with pytest.raises(UpstreamError, match="lost its GPU"):
        for i in range(0, len(body), size):
            out.append(relay.feed(body[i : i + size]))
        relay.feed(b"")
    assert b"".join(out) == delta("a ") + delta("b ")
    with pytest.raises(UpstreamError, match="lost its GPU"):
        relay.feed(delta("d"))  # nothing after the error is passed on


def test_an_error_event_a_cut_stream_and_bad_data_raise() -> None:
    with pytest.raises(UpstreamError, match="lost its GPU"):
        EventRelay("m", True).feed(ERROR + delta("a"))
    cut = EventRelay("m", True)
    cut.feed(delta("a"))
    with pytest.raises(UpstreamError, match="ended before it finished"):
        cut.check_end()
    with pytest.raises(UpstreamError, match="bad data"):
        EventRelay("m", True).feed(b'data: {"usage": {oops\n\n')


def test_crlf_lines_are_read_and_sent_as_lf() -> None:
    relay = EventRelay("up-model", include_usage=False)
    out = relayed(relay, BODY.replace(b"\n", b"\r\n"), 5)
    assert out == delta("a ") + delta("b", "stop")
    assert relay.done
