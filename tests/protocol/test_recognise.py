"""The protocol recogniser: meta-instructions in English and Chinese → slots and task."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.messages import EngineRequest, Message
from zerolayer.core.protocol import Kind, Protocol, Slot, recognise, recognise_request
from zerolayer.core.protocol.model import MAX_FILLS

TESTS = Path(__file__).resolve().parents[1]
CASES = yaml.safe_load((TESTS / "cases/protocol/recognise.yaml").read_text(encoding="utf-8"))


def _case_id(case: dict[str, Any]) -> str:
    return case["text"][:50]


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_recognised_slots_and_task(case: dict[str, Any]) -> None:
    protocol = recognise(case["text"])
    if "protocol" in case:
        assert protocol is None, protocol.describe() if protocol else None
        return
    assert protocol is not None
    assert [[s.kind.value, s.count, s.title] for s in protocol.slots] == case["slots"]
    assert protocol.task == case["task"]


def _instructions(value: Any) -> list[str]:
    if isinstance(value, dict):
        out = []
        for key, inner in value.items():
            if key in ("instruction", "message", "text", "content") and isinstance(inner, str):
                out.append(inner)
            out += _instructions(inner)
        return out
    if isinstance(value, list):
        return [text for inner in value for text in _instructions(inner)]
    return []


def test_no_instruction_of_the_other_case_files_is_a_protocol() -> None:
    """Every instruction the deterministic families and the gate are tested with takes the
    ordinary path: the recogniser does not take requests away from the engine."""
    files = [p for p in TESTS.rglob("*.yaml") if "protocol" not in p.parts]
    texts = [t for path in files for t in _instructions(yaml.safe_load(path.read_text("utf-8")))]
    gate = yaml.safe_load((TESTS / "cases/core/gate.yaml").read_text("utf-8"))
    texts += [row[0] for row in gate]
    assert len(texts) > 400
    recognised = {t: p.describe() for t in texts if (p := recognise(t)) is not None}
    assert recognised == {}


def test_code_fences_and_middle_paragraphs_are_not_searched() -> None:
    fenced = 'Convert this to YAML:\n\n```\n{"note": "list 3 options"}\n```'
    assert recognise(fenced) is None
    middle = "We moved offices.\n\nGive me 3 pros and 3 cons.\n\nThanks, the team"
    assert recognise(middle) is None
    assert recognise("Some context.\n\nGive me 3 pros and 3 cons.") is not None


def test_the_task_keeps_fenced_payloads_and_other_paragraphs() -> None:
    message = "Review this code in 3 bullet points.\n\n```python\nprint(1)\n```\n\nBe blunt."
    protocol = recognise(message)
    assert protocol is not None and protocol.describe() == "bullet*3"
    assert protocol.task == "Review this code.\n\n```python\nprint(1)\n```\n\nBe blunt."


def test_two_paragraphs_asking_for_structures_are_not_one_protocol() -> None:
    assert recognise("Answer in 3 bullet points.\n\nsome text\n\nAnswer in 2 paragraphs.") is None


def test_requests_the_caller_sent_to_the_model_are_never_protocols() -> None:
    ask = "give me 3 pros and 3 cons"
    assert recognise_request(EngineRequest.from_instruction(ask)) is not None
    disabled = EngineRequest((Message("user", ask),), temperature=0, disabled=True)
    assert recognise_request(disabled) is None
    prefill = EngineRequest((Message("user", ask), Message("assistant", "Pros:")))
    assert recognise_request(prefill) is None


def test_describe_is_the_header_form() -> None:
    protocol = recognise("按'问题-影响-方案-风险'四段式输出")
    assert protocol is not None and protocol.language == "zh"
    assert (
        protocol.describe()
        == '"问题": paragraph | "影响": paragraph | "方案": paragraph | "风险": paragraph'
    )
    assert recognise("ask me 3 questions").describe() == "question*3"  # type: ignore[union-attr]
    assert Slot(Kind.PARAGRAPH, 2).describe() == "paragraph*2"


def test_a_protocol_with_several_slots_titles_each() -> None:
    with pytest.raises(ValueError, match="title"):
        Protocol((Slot(Kind.BULLET, 2), Slot(Kind.BULLET, 2, "Cons")))
    with pytest.raises(ValueError, match="slot"):
        Protocol(())


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_a_protocol_or_not_without_error(text: str) -> None:
    protocol = recognise(text)
    if protocol is not None:
        assert 1 <= protocol.fills <= MAX_FILLS
        assert protocol.describe()


_PHRASES = [
    "give me 3 pros and 3 cons",
    "answer in exactly 5 bullet points",
    "ask me 2 questions",
    "in 2 sections: Summary and Risks",
    "用三点总结",
    "first confirm the need, then list 3 options, then recommend one",
]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_PHRASES), st.text(alphabet="abcdefgh XYZ", max_size=40))
def test_a_protocol_phrase_is_found_after_free_text(phrase: str, before: str) -> None:
    """Context written before the meta-instruction, in its own paragraph, changes nothing."""
    alone = recognise(phrase)
    assert alone is not None
    with_context = recognise(f"{before}\n\n{phrase}" if before.strip() else phrase)
    assert with_context is not None and with_context.slots == alone.slots


def test_words_after_the_count_say_what_the_items_are_about() -> None:
    protocol = recognise("Socratic: ask me three challenging questions about learning to code")
    assert protocol is not None
    (slot,) = protocol.slots
    assert (slot.noun, slot.about) == ("challenging questions", "about learning to code")
    assert protocol.task == "Socratic: about learning to code"
    pair = recognise("give me 3 pros and 3 cons of remote work")
    assert pair is not None and {s.about for s in pair.slots} == {"of remote work"}
    chain = recognise("list 3 options for hosting a static site, then recommend one")
    assert chain is not None and chain.slots[0].about == "for hosting a static site"
