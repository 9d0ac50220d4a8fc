"""Prompt templates (core/segment.py, core/message.py, core/surface.py): a payload between
slot labels ("JSON:" … "YAML:"), in three quotes or a pair of tags, after a role sentence or
a sentence that presents it, is the payload given apart; labels that may be data stay data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.core.segment import _slot_label, _slot_lines

CASES = yaml.safe_load(
    (Path(__file__).parent / "cases" / "core" / "templates.yaml").read_text("utf-8")
)["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["message"][:60])
@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["LF", "CRLF"])
def test_a_template_gives_the_answer_of_the_payload_given_apart(
    engine: Engine, case: dict[str, Any], newline: str
) -> None:
    message = case["message"].replace("\n", newline)
    got = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    if case["expect"] == "fallback":
        assert got.route is Route.FALLBACK, got.output
        return
    want = engine.run(case["instruction"], case["payload"])
    if case["expect"] == "same_or_fallback" and got.route is Route.FALLBACK:
        return
    assert want.route is Route.DETERMINISTIC
    assert (got.route, got.output) == (Route.DETERMINISTIC, want.output)


_FORMATS = frozenset({"json", "yaml", "python", "typescript", "sql", "markdown"})
_PIECES = ["JSON", "json", "YAML", "Python code", "### JSON", "TypeScript", "Input", "Output",
           "convert", "this", ":", "：", " ", "\t", "\n", "\n\n", "code", "#"]  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_slot_label_lines_are_dropped_as_each_line_is_read(text: str) -> None:
    """The text around a fence loses the lines the slot-label pattern reads as a format's
    label with a colon, and nothing else."""
    slot = _slot_label(_FORMATS)

    def label(line: str) -> bool:
        m = slot.match(line)
        return m is not None and bool(m["format"]) and bool(m["colon"])

    by_line = "\n".join(line for line in text.split("\n") if not label(line))
    assert _slot_lines(_FORMATS).sub("", text).strip() == by_line.strip()
