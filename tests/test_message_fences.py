"""The message reader's fence finder (core/message.py) against the plain reading of its
rule: the first line from the search position on that matches the opening pattern, and a
closing line of the same character at least as long."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core import message
from zerolayer.core.message import Fence, fences


def _reference(text: str, unclosed: bool) -> list[Fence]:
    if "```" not in text and "~~~" not in text:
        return []
    found: list[Fence] = []
    pos = 0
    while (m := message._OPENING.search(text, pos)) is not None:
        marker, info = m["fence"], m["info"]
        if marker[0] == "`" and "`" in info:
            pos = m.end() + 1
            continue
        body_start = m.end() + 1
        closing = re.compile(rf"^[ ]{{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$", re.M)
        close = closing.search(text, body_start) if body_start <= len(text) else None
        if close is None:
            if unclosed:
                body = message._dedent(text[body_start:], len(m["indent"]))
                found.append(Fence(m.start(), len(text), marker, info.strip(), body, False))
                break
            pos = body_start
            continue
        end = min(close.end() + 1, len(text))
        body = message._dedent(text[body_start : close.start()], len(m["indent"]))
        found.append(Fence(m.start(), end, marker, info.strip(), body, True))
        pos = end
    return found


_PIECES = st.sampled_from(
    ["```", "````", "~~~", "~~~~", "``", "`", "~", " ", "   ", "    ", "\n", "\n\n", "json",
     " yaml", "a: 1", "x`y", "{", "\t", "中"]
)  # fmt: skip


@settings(max_examples=600)
@given(st.lists(_PIECES, max_size=24).map("".join), st.booleans())
def test_fences_read_as_the_rule_says(text: str, unclosed: bool) -> None:
    assert fences(text, unclosed=unclosed) == _reference(text, unclosed)


@settings(max_examples=600)
@given(st.lists(_PIECES, max_size=24).map("".join), st.integers(0, 40))
def test_an_opening_is_found_from_any_position(text: str, pos: int) -> None:
    pos = min(pos, len(text))
    want = message._OPENING.search(text, pos)
    got = message._next_opening(text, pos)
    assert (got and got.span()) == (want and want.span())


@settings(max_examples=600)
@given(
    st.lists(_PIECES, max_size=24).map("".join),
    st.sampled_from([("`", 3), ("`", 4), ("~", 3), ("~", 5)]),
    st.integers(0, 40),
)
def test_a_closing_line_is_found_from_any_position(
    text: str, fence: tuple[str, int], pos: int
) -> None:
    char, length = fence
    pos = min(pos, len(text))
    want = message._closing(char, length).search(text, pos)
    got = message._next_closing(text, char, length, pos)
    assert (got and got.span()) == (want and want.span())
