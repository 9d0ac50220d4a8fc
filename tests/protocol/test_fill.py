"""Filling a protocol with a backend: prompts, budgets, streaming order, early stops, errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_texts import raw_texts
from scripted_backend import ScriptedBackend

from zerolayer.core.fallback import Completion
from zerolayer.core.messages import EngineRequest, Message
from zerolayer.core.protocol import (
    FillLimits,
    Protocol,
    answer_protocol,
    read_structure,
    recognise,
    render,
    stream_protocol,
)
from zerolayer.core.protocol.markdown import expected_structure


def _protocol(text: str) -> Protocol:
    protocol = recognise(text)
    assert protocol is not None
    return protocol


def test_each_item_is_one_call_and_the_answer_is_the_rendered_skeleton() -> None:
    protocol = _protocol("give me 2 pros and 1 con of remote work")
    backend = ScriptedBackend(["No commute.", "## Pros\n\n1. Quiet\n2. Focus", "Lonely."])
    request = EngineRequest.from_instruction("give me 2 pros and 1 con of remote work")
    answer = answer_protocol(protocol, request, backend)
    assert answer.text == "## Pros\n\n- No commute.\n- Quiet\n\n## Con\n\n- Lonely."
    assert answer.text == render(protocol, backend.texts)
    assert answer.stop_reason == "end_turn"
    assert len(backend.calls) == 3


def test_prompts_name_the_task_the_outline_the_target_and_what_is_written() -> None:
    protocol = _protocol("give me 2 pros and 1 con of remote work")
    backend = ScriptedBackend(["No commute.", "Quiet.", "Lonely."])
    earlier = (Message("user", "I work from home."), Message("assistant", "Noted."))
    request = EngineRequest(
        (*earlier, Message("user", "give me 2 pros and 1 con of remote work")),
        system="Be brief.",
        temperature=0.3,
    )
    answer_protocol(protocol, request, backend)
    first, second, third = (c.request for c in backend.calls)
    assert first.messages[:2] == earlier and first.system == "Be brief."
    assert first.temperature == 0.3
    prompt = first.messages[-1].content
    assert prompt.startswith("Request: remote work")
    assert (
        'Outline of the answer: "Pros": 2 pros of remote work; "Con": 1 con of remote work.'
        in prompt
    )
    assert (
        'Write one pro, an advantage of remote work (bullet point 1 of 2 of the section "Pros")'
        " now." in prompt
    )
    assert prompt.endswith("no heading, no number, no list marker.")
    assert "Written so far" not in prompt
    assert "Written so far:\n## Pros\n\n- No commute." in second.messages[-1].content
    assert second.messages[-1].content.endswith("and nothing already written.")
    assert '(bullet point 1 of 1 of the section "Con")' in third.messages[-1].content


def test_chinese_protocols_ask_for_chinese() -> None:
    protocol = _protocol("按'问题-影响'两段式输出")
    backend = ScriptedBackend(["a", "b"])
    answer_protocol(protocol, EngineRequest.from_instruction("x"), backend)
    prompt = backend.calls[0].request.messages[-1].content
    assert prompt.endswith("用中文回答。")
    assert 'Write the paragraph of the section "问题" now.' in prompt


def test_token_budgets_share_max_tokens_and_stop_sequences_pass_through() -> None:
    protocol = _protocol("give me 3 pros and 3 cons")
    backend = ScriptedBackend(["x"])
    request = EngineRequest.from_instruction("give me 3 pros and 3 cons")
    answer_protocol(protocol, request, backend, max_tokens=60, stop=("END",))
    assert {c.max_tokens for c in backend.calls} == {16}  # 60 // 6 = 10, floor 16
    assert {c.stop for c in backend.calls} == {("END",)}
    backend = ScriptedBackend(["x"])
    answer_protocol(protocol, request, backend, max_tokens=4096)
    assert {c.max_tokens for c in backend.calls} == {FillLimits().item_tokens}
    sections = _protocol("in 2 sections: Summary and Risks")
    backend = ScriptedBackend(["x"])
    answer_protocol(sections, request, backend, max_tokens=4096)
    assert {c.max_tokens for c in backend.calls} == {FillLimits().paragraph_tokens}


def test_the_model_is_stopped_once_the_item_is_complete() -> None:
    protocol = _protocol("ask me 2 questions")
    long = "Why?\n\n" + "and more text " * 200
    backend = ScriptedBackend([long], chunk=4)
    answer = answer_protocol(protocol, EngineRequest.from_instruction("q"), backend)
    assert answer.text == "1. Why?\n2. Why?"
    assert all(c.closed for c in backend.calls)
    assert all(c.read < 5 for c in backend.calls)  # "Why?", "\n\nan": done


def test_an_item_cut_at_the_token_limit_ends_with_an_ellipsis() -> None:
    protocol = _protocol("ask me 1 question")
    backend = ScriptedBackend(["What is the best way to"], stop_reason="max_tokens")
    answer = answer_protocol(protocol, EngineRequest.from_instruction("q"), backend)
    assert answer.text == "1. What is the best way to…"


def test_text_sent_only_in_the_final_completion_is_used() -> None:
    class CompletionOnly:
        name = "completion-only"

        def generate(self, request, *, max_tokens, stop=()):  # type: ignore[no-untyped-def]
            raise AssertionError("stream is used")

        def stream(self, request, *, max_tokens, stop=()):  # type: ignore[no-untyped-def]
            yield Completion("Why?")

    protocol = _protocol("ask me 2 questions")
    answer = answer_protocol(protocol, EngineRequest.from_instruction("q"), CompletionOnly())
    assert answer.text == "1. Why?\n2. Why?"


def test_streaming_sends_the_skeleton_and_texts_in_order() -> None:
    protocol = _protocol("give me 2 pros and 1 con")
    backend = ScriptedBackend(["Cheap and cheerful, really.", "Fast.", "Lonely."], chunk=5)
    items = list(stream_protocol(protocol, EngineRequest.from_instruction("x"), backend))
    *pieces, final = items
    assert all(isinstance(p, str) for p in pieces)
    assert "".join(pieces) == final.text == render(protocol, backend.texts)  # type: ignore[union-attr]
    assert pieces[0] == "## Pros\n\n- Cheap and cheerful, really."  # held until the head is safe


def test_a_backend_that_fails_to_start_fails_before_anything_is_sent() -> None:
    protocol = _protocol("ask me 2 questions")
    backend = ScriptedBackend(["Why?"], fail_on_call=0)
    stream = stream_protocol(protocol, EngineRequest.from_instruction("q"), backend)
    with pytest.raises(ConnectionError):
        next(stream)


def test_a_backend_that_breaks_midway_raises_after_the_sent_pieces() -> None:
    protocol = _protocol("ask me 2 questions")
    backend = ScriptedBackend(["Why?"], fail_on_call=1)
    stream = stream_protocol(protocol, EngineRequest.from_instruction("q"), backend)
    assert next(stream) == "1. Why?"
    with pytest.raises(ConnectionError):
        list(stream)


@st.composite
def _cases(draw: st.DrawFn) -> tuple[str, list[str], int]:
    text = draw(
        st.sampled_from(
            [
                "give me 3 pros and 3 cons",
                "answer in exactly 5 bullet points",
                "Socratic: ask me three challenging questions",
                "按'问题-影响-方案-风险'四段式输出",
                "reason step by step: first confirm the need, then list 3 options, then "
                "recommend one",
                "in two sections: Summary and Risks, each with 2 bullet points",
                "用三点总结",
                "write it in 3 paragraphs",
            ]
        )
    )
    fills = _protocol(text).fills
    texts = draw(st.lists(raw_texts | st.just("word " * 2000), min_size=fills, max_size=fills))
    return text, texts, draw(st.integers(1, 50))


@settings(max_examples=150, deadline=None)
@given(_cases())
def test_whatever_the_backend_returns_the_answer_has_the_structure(
    case: tuple[str, list[str], int],
) -> None:
    text, texts, chunk = case
    protocol = _protocol(text)
    backend = ScriptedBackend(texts, chunk=chunk)
    request = EngineRequest.from_instruction(text)
    items = list(stream_protocol(protocol, request, backend))
    answer = "".join(p for p in items if isinstance(p, str))
    assert read_structure(answer) == expected_structure(protocol)
    assert answer == render(protocol, texts)
    assert answer_protocol(protocol, request, ScriptedBackend(texts, chunk=7)).text == answer
