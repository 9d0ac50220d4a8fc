"""The Anthropic stream's events written from templates (``start_events``, ``delta_events``,
``finish_events``) are ``sse`` of the events' objects, byte for byte: any text, model name
and stop sequence, lone surrogates (ASCII escapes) included."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.fallback import ChoiceDelta
from zerolayer.rules_api.answers import Finish
from zerolayer.rules_api.anthropic_api import (
    delta_events,
    finish_events,
    sse,
    start_events,
    usage,
)
from zerolayer.rules_api.encoding import dump_json, dump_str, dump_value
from zerolayer.rules_api.schemas import MessagesRequest
from zerolayer.rules_api.service import input_tokens
from zerolayer.rules_api.translate import from_anthropic

TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=30) | st.sampled_from(
    ["", '"', "\\", "\ud800", "a\udfffb", "é ✓ 🌊", "\x00\x1f\n\t", "</script>"]
)


def prepared(model: str, text: str) -> Any:
    body = {"model": model, "max_tokens": 5, "stream": True,
            "messages": [{"role": "user", "content": text or "x"}]}  # fmt: skip
    return from_anthropic(MessagesRequest.model_validate(body))


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT, st.text("0123456789abcdef", min_size=24, max_size=24))
def test_start_events_are_sse_of_their_objects(model: str, text: str, hexid: str) -> None:
    request = prepared(model, text)
    msg_id = "msg_" + hexid
    start = {"id": msg_id, "type": "message", "role": "assistant", "model": model,
             "content": [], "stop_reason": None, "stop_sequence": None,
             "usage": usage(input_tokens(request.request), 1)}  # fmt: skip
    expected = (
        sse("message_start", {"type": "message_start", "message": start})
        + sse("content_block_start", {"type": "content_block_start", "index": 0,
                                      "content_block": {"type": "text", "text": ""}})
        + sse("ping", {"type": "ping"})
    )  # fmt: skip
    assert start_events(request, msg_id) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXT | st.builds(ChoiceDelta, st.integers(1, 3), TEXT), max_size=6))
def test_delta_events_are_sse_of_their_objects(items: list[str | ChoiceDelta]) -> None:
    expected = [
        sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                    "delta": {"type": "text_delta", "text": item}})
        for item in items if isinstance(item, str) and item
    ]  # fmt: skip
    assert delta_events(items) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["end_turn", "max_tokens", "stop_sequence"]),
    st.none() | TEXT,
    st.integers(0, 10**9),
    st.integers(0, 10**9),
)
def test_finish_events_are_sse_of_their_objects(
    reason: str, sequence: str | None, inp: int, out: int
) -> None:
    expected = (
        sse("content_block_stop", {"type": "content_block_stop", "index": 0})
        + sse("message_delta", {"type": "message_delta",
                                "delta": {"stop_reason": reason, "stop_sequence": sequence},
                                "usage": {"input_tokens": inp, "output_tokens": out}})
        + sse("message_stop", {"type": "message_stop"})
    )  # fmt: skip
    assert finish_events(Finish(reason, sequence, inp, out)) == expected


@given(TEXT | st.none() | st.integers() | st.booleans() | st.floats(allow_nan=False))
def test_a_value_is_written_as_dump_json_writes_it(value: Any) -> None:
    assert dump_value(value) == dump_json(value)
    if isinstance(value, str):
        assert dump_str(value) == dump_json(value)
