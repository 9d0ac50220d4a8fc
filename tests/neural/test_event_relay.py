"""``EventRelay``: an OpenAI-compatible upstream's event stream passed on as its bytes to an
OpenAI client, with only what must change changed (the model name, ``[DONE]``, a usage chunk
the client did not ask for) and only the events that may hold an error or the usage read."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.neural.transport import UpstreamError
from zerolayer.core.neural.upstream import FINISHED, MODEL, EventRelay
from zerolayer.core.neural.upstream import USAGE as USAGE_MARK
from zerolayer.rules_api.testing import chunk_delta as delta
from zerolayer.rules_api.testing import chunk_event as event

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


# ---- the relay reads only the lines that hold a mark: the same as reading every line ----


class EveryLine(EventRelay):
    """The relay as it was before it read only the marked lines and joined the kept ones by
    the dropped ones: every line looked at (the reference the relay must agree with)."""

    def __init__(self, model: str, include_usage: bool) -> None:
        super().__init__(model, include_usage)
        self.datas: list[bytes] = []

    def feed(self, chunk: bytes) -> bytes:
        """The bytes to send for ``chunk`` (``b""``: the body ended)."""
        if self.error is not None:
            raise self.error
        data = self.rest + chunk if self.rest else chunk
        if chunk:
            cut = data.rfind(b"\n") + 1
            data, self.rest = data[:cut], data[cut:]
        else:
            self.rest = b""
        if not data:
            return b""
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        if self.skip_blank and data.startswith(b"\n"):
            data = data[1:]  # the blank line that ended an event dropped in the last piece
        self.skip_blank = False
        lines: list[bytes | None] = list(data.split(b"\n"))
        dropped = False
        for i, line in enumerate(lines):
            if line is None or not line.startswith(b"data:"):
                continue
            payload = line[5:].strip()
            self.datas.append(payload)
            if payload == b"[DONE]":
                self.done = dropped = True
                lines[i] = None
                continue
            may_matter = b'"error"' in payload or USAGE_MARK.search(payload)
            try:
                if may_matter and self._decoded(payload) and not self.include_usage:
                    lines[i], dropped = None, True
            except UpstreamError as exc:
                self.error = exc  # every later call raises it too
                if not any(line and line.startswith(b"data:") for line in lines[:i]):
                    raise
                lines, dropped = [*lines[:i], b""], True
                break
            if not self.finished and FINISHED.search(payload):
                self.finished = True
        if dropped:
            data = self._joined(lines, [])
        return MODEL.sub(self.model, data)

    def _joined(self, lines: list[bytes | None], gone: list[int]) -> bytes:
        """The lines kept, every line looked at (as the relay did before it looked only at
        the dropped ones)."""
        out: list[bytes] = []
        skip = False
        last = len(lines) - 1
        for i, line in enumerate(lines):
            if line is None:
                skip = True
            elif skip and not line and i < last:
                skip = False
            else:
                skip = skip and not line
                out.append(line)
        self.skip_blank = skip
        return b"\n".join(out)

    def texts(self) -> dict[int, str]:
        self._fed = [b"\n".join(b"data: " + d for d in self.datas)]
        return super().texts()


PIECES = [
    delta("a "),
    delta("[DONE] is text"),
    delta('say "error" and "usage": {'),
    delta("multi\nline"),
    delta("b", "stop"),
    delta("c", "length"),
    USAGE,
    ERROR,
    b"data: [DONE]\n\n",
    b"data: {not json\n\n",
    b"data: {not json, only a mention of [DONE]\n\n",
    b'data: {"error": {"message": "x"}, "choices": [{"finish_reason": "stop"}]}\n\n',
    b'data: {"usage": {bad\n\n',
    b': a comment with "finish_reason": "stop" [DONE] "error"\n\n',
    b'event: x\ndata: {"choices": [], "usage": {"prompt_tokens": 1}}\n\n',
    b'data:{"choices":[{"index":1,"delta":{"content":"z"},"finish_reason":"stop"}]}\n\n',
    b'data: {"model": "up", "choices": []}\n\n',
    b'data: {"model":"up-model","choices":[]}\n\n',
    b'data: {"model": "\\"model\\" \\\\ \\u00e9", "choices": []}\n\n',
    b'data: {"model": "model", "choices": []}\n\n',
    b"\n",
]


def run(relay: EventRelay, body: bytes, cuts: list[int]) -> tuple[object, ...]:
    out: list[object] = []
    edges = [0, *sorted({c % (len(body) + 1) for c in cuts}), len(body)]
    for start, end in [*itertools.pairwise(edges), (len(body), len(body))]:
        try:
            out.append(relay.feed(body[start:end]))
        except UpstreamError as exc:
            out.append(("error", str(exc)))
    texts = relay.texts() if relay.error is None else None
    return (*out, relay.done, relay.finished, relay.usage, relay.skip_blank, texts)


@settings(max_examples=400, deadline=None)
@given(
    picks=st.lists(st.sampled_from(range(len(PIECES))), max_size=12),
    cuts=st.lists(st.integers(0, 10_000), max_size=6),
    crlf=st.booleans(),
    include_usage=st.booleans(),
    model=st.sampled_from(["client", 'c\\l"i\u00e9nt\\1']),
)
def test_reading_marked_lines_is_reading_every_line(
    picks: list[int], cuts: list[int], crlf: bool, include_usage: bool, model: str
) -> None:
    body = b"".join(PIECES[i] for i in picks)
    if crlf:
        body = body.replace(b"\n", b"\r\n")
    expected = run(EveryLine(model, include_usage), body, cuts)
    assert run(EventRelay(model, include_usage), body, cuts) == expected


def test_many_marks_in_one_piece_are_read_line_by_line() -> None:
    body = delta('"error" ' * 40) + delta("x", "stop") + USAGE + b"data: [DONE]\n\n"
    assert run(EventRelay("m", False), body, []) == run(EveryLine("m", False), body, [])
