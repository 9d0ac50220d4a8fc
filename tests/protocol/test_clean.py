"""Cleaning one slot's text: a single safe line, the same whether streamed or not."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_texts import raw_texts

from zerolayer.core.protocol.clean import ELLIPSIS, HEAD, PLACEHOLDER, SlotText, clean_slot_text

CASES = yaml.safe_load(
    (Path(__file__).resolve().parents[1] / "cases/protocol/clean.yaml").read_text("utf-8")
)


@pytest.mark.parametrize(("raw", "clean"), CASES, ids=[c[0][:30] for c in CASES])
def test_cleaned_text(raw: str, clean: str) -> None:
    assert clean_slot_text(raw, 500) == clean


def test_long_text_is_cut_with_an_ellipsis() -> None:
    assert clean_slot_text("x" * 600, 100) == "x" * 100 + ELLIPSIS
    assert clean_slot_text("word " * 50, 100).endswith("word" + ELLIPSIS)
    assert clean_slot_text("x" * 100, 100) == "x" * 100  # exactly the cap: not cut


def test_text_stopped_at_the_token_limit_ends_with_an_ellipsis() -> None:
    assert clean_slot_text("It was cut in the mid", 500, cut=True) == "It was cut in the mid…"
    assert clean_slot_text("Finished.\n\nmore", 500, cut=True) == "Finished."  # paragraph ended
    assert clean_slot_text("", 500, cut=True) == PLACEHOLDER


def test_done_once_the_paragraph_ends_and_later_text_is_ignored() -> None:
    cleaner = SlotText(500)
    first = cleaner.feed("One line.\n")
    assert not cleaner.done
    first += cleaner.feed("\nAnother paragraph")
    assert cleaner.done
    assert first + cleaner.feed("ignored") + cleaner.close() == "One line."


def test_the_cap_must_leave_room_for_the_held_head() -> None:
    with pytest.raises(ValueError):
        SlotText(HEAD)


@settings(max_examples=400, deadline=None)
@given(raw_texts, st.lists(st.integers(min_value=0, max_value=400), max_size=12), st.booleans())
def test_streaming_gives_the_same_text_however_it_is_chunked(
    raw: str, cuts: list[int], cut: bool
) -> None:
    points = sorted({min(c, len(raw)) for c in cuts})
    pieces = [raw[a:b] for a, b in zip([0, *points], [*points, len(raw)], strict=True)]
    cleaner = SlotText(120)
    streamed = "".join(cleaner.feed(p) for p in pieces) + cleaner.close(cut=cut)
    assert streamed == clean_slot_text(raw, 120, cut=cut)


@settings(max_examples=400, deadline=None)
@given(raw_texts, st.integers(min_value=HEAD + 1, max_value=300))
def test_the_result_is_one_non_empty_line_within_the_cap(raw: str, cap: int) -> None:
    text = clean_slot_text(raw, cap)
    assert text and text == text.strip()
    assert "\n" not in text and "\r" not in text
    assert len(text) <= cap + len(ELLIPSIS)
