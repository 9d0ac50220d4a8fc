"""The gate's fast scan (English and Chinese patterns apart, on lower-cased text) reads the
same words as its published patterns (``VAGUE``, ``OPEN_ENDED``, case-insensitive) read."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core import gate

_PIECES = [
    "what do you think", "Your Opinion", "review", "PREVIEW", "poem", "Poems", "explain",
    "what does this function do", "live in Lyon", "live scores", "today", "about 3",
    "about ten", "roughly", "~5", "20-ish", "as short as possible", "sort", "the", "json",
    "keys", "İstanbul", "为什么", "总结一下", "左右", "现在", "今天的", "排序", "字段",
    '"review"', "`poem`", "'today'", "3点左右", "İ", "a", "x", ",", ".", " ", "\n",
]  # fmt: skip


def _reference(instruction: str) -> tuple[str | None, tuple[str, ...]]:
    quoted = {q.strip("\"'`").lower() for q in gate._QUOTED.findall(instruction)}
    instruction = gate._QUOTED.sub(" ", instruction)
    if m := gate.VAGUE.search(instruction):
        return m.group(0).strip(), ()
    found = (m.group(0) for m in gate.OPEN_ENDED.finditer(instruction))
    return None, tuple(w for w in found if w.lower() not in quoted)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map(" ".join))
def test_fast_scan_reads_what_the_patterns_read(text: str) -> None:
    assert gate._scan.__wrapped__(text) == _reference(text)


def test_a_letter_whose_lower_case_is_longer_keeps_the_words_in_place() -> None:
    assert gate._scan.__wrapped__("İİ explain this") == (None, ("explain",))
