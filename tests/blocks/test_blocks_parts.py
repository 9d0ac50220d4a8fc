"""Merging the engine's parts with a model's answers (core/blocks/parts.py), streamed or whole."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.blocks.parts import MergedAnswer, PartJoiner, merge_texts, part_request
from zerolayer.core.fallback import Completion, FallbackUnavailable
from zerolayer.core.messages import EngineRequest, Message, Part
from zerolayer.rules_api.testing import FakeFallback
from zerolayer.rules_api.usage import count_tokens, truncate_tokens

REQUEST = EngineRequest(
    (Message("user", "earlier"), Message("assistant", "ok"), Message("user", "the blocks")),
    system="be brief",
    temperature=0,
)
PARTS = (
    Part("zero", "a: 1\n", "json.parse | yaml.emit", block=1),
    Part("model", "What do you think?", reason="blocks.open"),
    Part("zero", "<h1>Hi</h1>\n", "markdown.render", block=2),
)


@pytest.mark.parametrize(
    ("texts", "merged"),
    [
        (["a: 1\n", "<h1>Hi</h1>\n"], "a: 1\n\n<h1>Hi</h1>"),
        (["\n\nx\n\n", "y"], "x\n\ny"),
        (["", "\n", "y"], "y"),
        (["x", ""], "x"),
        (["一\n二\n", "三"], "一\n二\n\n三"),
        ([], ""),
    ],
)
def test_merge_texts(texts: list[str], merged: str) -> None:
    assert merge_texts(texts) == merged


@given(st.lists(st.lists(st.text(alphabet="ab\n ", max_size=6), max_size=5), max_size=5))
def test_streaming_pieces_join_like_whole_texts(parts: list[list[str]]) -> None:
    joiner = PartJoiner()
    out = []
    for pieces in parts:
        joiner.start_part()
        out.extend(joiner.feed(p) for p in pieces)
    assert "".join(out) == merge_texts(["".join(pieces) for pieces in parts])


def test_part_request_keeps_the_conversation_and_asks_the_part() -> None:
    sub = part_request(REQUEST, PARTS[1])
    assert sub.messages[:-1] == REQUEST.messages[:-1]
    assert sub.messages[-1] == Message("user", "What do you think?")
    assert (sub.system, sub.temperature, sub.syntax) == ("be brief", 0, "v2")


class Recording(FakeFallback):
    """The fake fallback, remembering what it was asked and which streams were closed."""

    def __init__(self, *, stop_at: str | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.asked: list[EngineRequest] = []
        self.closed = 0
        self.stop_at = stop_at

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        self.asked.append(request)
        try:
            if self.stop_at is not None:
                yield "before"
                yield Completion("before", "stop_sequence", self.stop_at)
                return
            yield from super().stream(request, max_tokens=max_tokens, stop=stop)
        finally:
            self.closed += 1


def _merged(backend: Recording, parts: Sequence[Part] = PARTS) -> MergedAnswer:
    return MergedAnswer(parts, backend, count_tokens=count_tokens, truncate_tokens=truncate_tokens)


def test_generate_asks_the_model_only_for_its_parts() -> None:
    backend = Recording()
    answer = _merged(backend).generate(REQUEST, max_tokens=100)
    assert answer.text == "a: 1\n\n[fallback] What do you think?\n\n<h1>Hi</h1>"
    assert answer.stop_reason == "end_turn"
    assert [r.messages[-1].content for r in backend.asked] == ["What do you think?"]
    assert backend.asked[0].messages[:-1] == REQUEST.messages[:-1]


def test_stream_yields_the_parts_in_order_then_the_completion() -> None:
    items = list(_merged(Recording()).stream(REQUEST, max_tokens=100))
    *texts, final = items
    assert isinstance(final, Completion)
    assert texts[0] == "a: 1"  # the engine's part comes whole
    assert "".join(str(t) for t in texts) == final.text
    assert final.text == _merged(Recording()).generate(REQUEST, max_tokens=100).text


def test_the_first_model_stream_opens_before_the_answer_starts() -> None:
    with pytest.raises(FallbackUnavailable):
        _merged(Recording(unavailable=True)).stream(REQUEST, max_tokens=100)


def test_a_stop_sequence_across_parts_ends_the_answer() -> None:
    backend = Recording()
    answer = _merged(backend).generate(REQUEST, max_tokens=100, stop=["1\n\n[fall"])
    assert (answer.text, answer.stop_reason, answer.stop_sequence) == (
        "a: ",
        "stop_sequence",
        "1\n\n[fall",
    )


def test_a_stop_sequence_in_a_later_part_keeps_the_earlier_ones() -> None:
    backend = Recording()
    answer = _merged(backend).generate(REQUEST, max_tokens=100, stop=["Hi"])
    assert answer.text == "a: 1\n\n[fallback] What do you think?\n\n<h1>"
    assert answer.stop_reason == "stop_sequence"


def test_a_model_part_that_stops_at_a_stop_sequence_ends_the_answer() -> None:
    parts = (*PARTS, Part("model", "and this?", reason="blocks.open"))
    backend = Recording(stop_at="STOP")
    answer = _merged(backend, parts).generate(REQUEST, max_tokens=100, stop=["STOP"])
    assert (answer.text, answer.stop_reason, answer.stop_sequence) == (
        "a: 1\n\nbefore",
        "stop_sequence",
        "STOP",
    )
    assert len(backend.asked) == 1  # the later model part is never asked


def test_max_tokens_cuts_the_merged_answer_and_skips_later_parts() -> None:
    parts = (PARTS[0], PARTS[2], Part("model", "more?", reason="blocks.open"))
    backend = Recording()
    answer = _merged(backend, parts).generate(REQUEST, max_tokens=6)
    assert answer.stop_reason == "max_tokens"
    assert count_tokens(answer.text) == 6
    assert answer.text == truncate_tokens("a: 1\n\n<h1>Hi</h1>", 6)[0]
    assert backend.asked == []


def _cut_like_a_model(text: str, max_tokens: int, stop: tuple[str, ...]) -> tuple[str, str]:
    """A model's answer cut at the earliest stop sequence, then at ``max_tokens`` tokens."""
    reason = "end_turn"
    hits = [text.find(s) for s in stop if s and s in text]
    if hits:
        text, reason = text[: min(hits)], "stop_sequence"
    text, cut = truncate_tokens(text, max_tokens)
    return text, "max_tokens" if cut else reason


@given(st.integers(min_value=1, max_value=40), st.sampled_from([(), ("Hi",), ("?\n",), ("zz",)]))
def test_limits_match_cutting_the_whole_answer(max_tokens: int, stop: tuple[str, ...]) -> None:
    # a merged answer is a model's answer: it is cut like one (never an active answer)
    whole = _merged(Recording()).generate(REQUEST, max_tokens=10_000).text
    expected = _cut_like_a_model(whole, max_tokens, stop)
    answer = _merged(Recording()).generate(REQUEST, max_tokens=max_tokens, stop=stop)
    assert (answer.text, answer.stop_reason) == expected


def test_an_abandoned_stream_closes_the_models_stream() -> None:
    backend = Recording()
    items = _merged(backend).stream(REQUEST, max_tokens=100)
    next(items)
    next(items)
    items.close()  # type: ignore[attr-defined]
    assert backend.closed == 1


def test_without_a_counter_each_model_part_gets_max_tokens() -> None:
    backend = Recording()
    answer = MergedAnswer(PARTS, backend).generate(REQUEST, max_tokens=3)
    assert answer.text.startswith("a: 1\n\n[fallback]")  # not cut: no counter was given
