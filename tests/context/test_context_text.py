"""Paragraphs and sections: fixture cases in English and Chinese."""

from __future__ import annotations

from typing import Any

import pytest
from context_cases import load

from zerolayer.core import errors
from zerolayer.plugins.context.text import (
    LONG_UNBROKEN_CHARS,
    has_paragraph_breaks,
    paragraph,
    section,
    sections,
    split_paragraphs,
)


def expect_error(case: dict[str, Any]) -> Any:
    """A ``pytest.raises`` context for the case's error class (and reason/message)."""
    cls = getattr(errors, case["error"])
    return pytest.raises(cls, match=None)


def check_error(exc: BaseException, case: dict[str, Any]) -> None:
    if "reason" in case:
        assert getattr(exc, "reason", None) == case["reason"]
    if "message" in case:
        assert case["message"] in str(exc)


@pytest.mark.parametrize("case", load("split.yaml"))
def test_split_paragraphs(case: dict[str, Any]) -> None:
    assert split_paragraphs(case["text"]) == case["expect"]


@pytest.mark.parametrize("case", load("paragraphs.yaml"))
def test_paragraph(case: dict[str, Any]) -> None:
    text = case["text"]
    if text is None:
        text = "word " * (case["generate_long"] // 5)
        assert len(text) > LONG_UNBROKEN_CHARS
    if "error" in case:
        with expect_error(case) as info:
            paragraph(text, case["n"])
        check_error(info.value, case)
    else:
        assert paragraph(text, case["n"]) == case["expect"]


@pytest.mark.parametrize("case", load("sections.yaml"))
def test_section(case: dict[str, Any]) -> None:
    kwargs = {"include_heading": case.get("include_heading", False)}
    if "error" in case:
        with expect_error(case) as info:
            section(case["text"], case["name"], **kwargs)
        check_error(info.value, case)
    else:
        assert section(case["text"], case["name"], **kwargs) == case["expect"]


def test_sections_levels_and_order() -> None:
    text = "[SECTION: A]\n# H1\nx\n## H2\ny\n[SECTION: B]\nz"
    found = sections(text)
    assert [(s.name, s.level, s.line) for s in found] == [
        ("A", 0, 1),
        ("H1", 1, 2),
        ("H2", 2, 4),
        ("B", 0, 6),
    ]
    assert found[1].body == "x\n## H2\ny"  # a heading section stops at the next [SECTION]
    assert found[0].body == "# H1\nx\n## H2\ny"


def test_has_paragraph_breaks() -> None:
    assert has_paragraph_breaks("a\n\nb")
    assert not has_paragraph_breaks("Got it.")
    assert not has_paragraph_breaks("收到。\n")


def test_size_limit() -> None:
    from zerolayer.plugins.context import text as text_mod

    with pytest.raises(errors.LimitExceeded):
        split_paragraphs("x" * (text_mod.MAX_TEXT_CHARS + 1))
