"""Splitting a message written in blocks into its parts (core/blocks/split.py), driven by cases/."""

from __future__ import annotations

from typing import Any

import pytest
from blocks_cases import ids, load
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.blocks.split import split_blocks


@pytest.mark.parametrize("case", load("split.yaml"), ids=ids)
def test_split(case: dict[str, Any]) -> None:
    parts = split_blocks(case["message"])
    if case["parts"] is None:
        assert parts is None
        return
    assert parts is not None
    assert [[p.kind, p.text, p.number] for p in parts] == case["parts"]


_piece = st.sampled_from(
    [
        '<convert lang="json" to="yaml">\n[1]\n</convert>',
        "<ask>why?</ask>",
        "<ask>\n为什么？\n</ask>",
        "some prose",
        "\n\n",
        " ",
        "说明",
    ]
)


@given(st.lists(_piece, max_size=8))
def test_parts_keep_every_block_in_order(pieces: list[str]) -> None:
    text = "".join(pieces)
    parts = split_blocks(text)
    blocks = [p for p in pieces if p.startswith("<")]
    if parts is None:
        assert len(blocks) <= 1 and all(b.startswith("<convert") for b in blocks)
        return
    tagged = [p for p in parts if p.number is not None]
    assert [p.number for p in tagged] == list(range(1, len(blocks) + 1))
    assert [p.kind for p in tagged] == [b[1:].split(">")[0].split()[0] for b in blocks]
    assert all(p.text.strip() for p in parts if p.kind == "prose")


def test_unclosed_tags_are_read_in_linear_time() -> None:
    import time

    from zerolayer.core.segment import segment

    text = '<convert lang="json" to="yaml">\n' * 2000 + "x" * 100_000
    started = time.perf_counter()
    assert split_blocks(text) is None
    segment(text)
    assert time.perf_counter() - started < 5  # a lazy regular expression took 30 s
