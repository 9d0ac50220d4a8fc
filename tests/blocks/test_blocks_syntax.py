"""Block syntax versions and the compatibility layer (core/blocks/syntax.py), driven by cases/."""

from __future__ import annotations

from typing import Any

import pytest
from blocks_cases import ids, load
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.blocks.syntax import (
    CURRENT,
    HEADER,
    VERSIONS,
    SyntaxVersionError,
    check_version,
    status,
    to_current,
)
from zerolayer.core.messages import EngineRequest, Message


@pytest.mark.parametrize("case", load("syntax.yaml"), ids=ids)
def test_translation(case: dict[str, Any]) -> None:
    result = to_current(case["message"], case.get("version"))
    assert result.text == case["text"]
    assert list(result.rewritten) == case.get("rewritten", [])
    assert len(result.literal) == case.get("literal", 0)
    # a rewrite always warns that v1 is deprecated; cases name other warnings
    expected = case.get("warn", ["deprecated since 2026-12-01"] if result.rewritten else [])
    assert len(result.warnings) == len(expected), result.warnings
    for warning, words in zip(result.warnings, expected, strict=True):
        assert words in warning


@pytest.mark.parametrize("case", load("syntax.yaml"), ids=ids)
def test_translation_is_idempotent(case: dict[str, Any]) -> None:
    once = to_current(case["message"], case.get("version")).text
    again = to_current(once, case.get("version"))
    assert again.text == once
    assert not again.rewritten


def test_versions_and_status() -> None:
    assert CURRENT == "v2" and set(VERSIONS) == {"v1", "v2"}
    info = status()
    assert info["header"] == HEADER == "x-zero-layer-syntax"
    assert info["current"] == "v2"
    by_name = {v["version"]: v for v in info["versions"]}
    assert by_name["v1"]["status"] == "deprecated"
    assert by_name["v1"]["deprecation_date"] == "2026-12-01"
    assert by_name["v2"] == {
        "version": "v2",
        "status": "current",
        "deprecation_date": None,
        "sunset_date": None,
        "blocks": ['<convert lang="py" to="ts">…</convert>', "<ask>…</ask>", "[SECTION: NAME]"],
    }


@pytest.mark.parametrize(("given_name", "canonical"), [(None, None), ("v1", "v1"), (" V2 ", "v2")])
def test_check_version(given_name: str | None, canonical: str | None) -> None:
    assert check_version(given_name) == canonical


@pytest.mark.parametrize("name", ["v3", "", "2025-01", "v1 v2", "x" * 200])
def test_unknown_versions_name_the_supported_ones(name: str) -> None:
    with pytest.raises(SyntaxVersionError) as info:
        check_version(name)
    message = str(info.value)
    assert "v1 (deprecated since 2026-12-01)" in message and "v2 (current)" in message
    assert len(message) < 400  # a long value is cut in the message


def test_engine_request_checks_and_canonicalises_the_version() -> None:
    assert EngineRequest((Message("user", "x"),), syntax="V1").syntax == "v1"
    assert EngineRequest.from_instruction("x", syntax="v2").syntax == "v2"
    with pytest.raises(SyntaxVersionError):
        EngineRequest((Message("user", "x"),), syntax="v9")


_TOKENS = [*"ab \n[]<>/=:\"'`~", "CODE_CONVERSION", "OPINION_REQUEST", "convert", "ask", "SECTION"]
_text = st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)


@given(_text)
def test_current_version_never_changes_text(text: str) -> None:
    assert to_current(text, "v2").text == text


@given(_text)
def test_text_without_v1_markers_is_unchanged(text: str) -> None:
    result = to_current(text)
    if not result.rewritten:
        assert result.text == text


@given(st.text(max_size=200))
def test_any_text_translates_without_error_and_idempotently(text: str) -> None:
    once = to_current(text).text
    assert to_current(once).text == once


def test_markers_read_as_text_are_named_up_to_a_few() -> None:
    result = to_current("[CODE_CONVERSION]\n" * 9, "v2")
    assert len(result.literal) == 9
    assert len(result.warnings) == 6
    assert result.warnings[-1] == "and 4 more v1 markers read as text"
    assert "line 5" in result.warnings[4]


def test_long_texts_with_many_markers_are_read_in_linear_time() -> None:
    import time

    texts = [
        "[CODE_CONVERSION]\n" * 20000,
        "[OPINION_REQUEST]<ask>\n```\n" * 5000,
        "[CODE_CONVERSION]" * 20000 + "x" * 100000 + "</convert>[/CODE_CONVERSION]",
    ]
    started = time.perf_counter()
    for text in texts:
        to_current(text)
        to_current(text, "v2")
    assert time.perf_counter() - started < 5  # a quadratic scan takes minutes
