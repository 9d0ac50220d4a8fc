"""The guarantee: whatever the model writes, the answer has exactly the structure asked for.

Answers are read back with markdown-it (CommonMark): headings in order, each list with its
exact item count, each paragraph slot one paragraph, and nothing else at the top level.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_texts import MARKDOWN_BITS

from zerolayer.core.protocol import Kind, Protocol, Slot, read_structure, recognise, render
from zerolayer.core.protocol.markdown import expected_structure, heading, skeleton

HUGE = "word " * 3000
model_texts = st.one_of(
    st.just(""),
    st.just(HUGE),
    st.text(max_size=120),
    st.lists(st.sampled_from(MARKDOWN_BITS), max_size=30).map("".join),
    st.lists(st.one_of(st.sampled_from(MARKDOWN_BITS), st.text(max_size=6)), max_size=40).map(
        "".join
    ),
)
titles = st.one_of(
    st.sampled_from(["Pros", "Cons", "问题", "影响", "Next steps", "C#", "# Risks #", "*x*"]),
    st.text(min_size=1, max_size=30).filter(lambda t: any(c.isalpha() for c in t)),
)
kinds = st.sampled_from(list(Kind))


@st.composite
def protocols(draw: st.DrawFn) -> Protocol:
    if draw(st.booleans()):
        slot = Slot(draw(kinds), draw(st.integers(1, 8)), draw(st.one_of(st.none(), titles)))
        return Protocol((slot,))
    n = draw(st.integers(2, 5))
    return Protocol(
        tuple(Slot(draw(kinds), draw(st.integers(1, 5)), draw(titles)) for _ in range(n))
    )


@st.composite
def protocol_and_texts(draw: st.DrawFn) -> tuple[Protocol, list[str]]:
    protocol = draw(protocols())
    texts = draw(st.lists(model_texts, min_size=protocol.fills, max_size=protocol.fills))
    return protocol, texts


@settings(max_examples=400, deadline=None)
@given(protocol_and_texts())
def test_any_model_text_gives_exactly_the_asked_structure(case: tuple[Protocol, list[str]]) -> None:
    protocol, texts = case
    answer = render(protocol, texts)
    assert read_structure(answer) == expected_structure(protocol)


def test_rendered_examples() -> None:
    pros_cons = recognise("give me 2 pros and 1 con")
    assert pros_cons is not None
    answer = render(pros_cons, ["Cheap.", "## Fast\n\nvery", "1. Hard to debug\n2. more"])
    assert answer == "## Pros\n\n- Cheap.\n- very\n\n## Con\n\n- Hard to debug"
    sections = recognise("按'问题-影响'两段式输出")
    assert sections is not None
    assert render(sections, ["", "```\ncode"]) == "## 问题\n\n—\n\n## 影响\n\ncode"
    questions = recognise("ask me 3 questions")
    assert questions is not None
    assert render(questions, ["Why?", "How?", "> What?"]) == "1. Why?\n2. How?\n3. What?"


def test_structure_read_back() -> None:
    protocol = recognise("first confirm the need, then list 3 options, then recommend one")
    assert protocol is not None
    assert expected_structure(protocol) == [
        ("heading", "Step 1: Confirm the need"),
        ("paragraph", 1),
        ("heading", "Step 2: List 3 options"),
        ("ordered", 3),
        ("heading", "Step 3: Recommend one"),
        ("paragraph", 1),
    ]
    assert read_structure("# A\n\n- x\n- y\n\n> q\n\n```\nc\n```") == [
        ("heading", "A"),
        ("bullet", 2),
        ("blockquote", 1),
        ("fence", 1),
    ]


def test_titles_cannot_break_their_heading() -> None:
    assert heading("C#  and\nF#") == "## C\\# and F\\#"
    assert read_structure(heading("# Risks #")) == [("heading", "\\# Risks \\#")]


def test_the_skeleton_holds_every_marker_and_separator() -> None:
    protocol = Protocol((Slot(Kind.QUESTION, 2, "Q"), Slot(Kind.PARAGRAPH, 2, "P")))
    shape = skeleton(protocol)
    assert [f.prefix for f in shape.fills] == ["## Q\n\n1. ", "\n2. ", "\n\n## P\n\n", "\n\n"]
    assert shape.suffix == ""
