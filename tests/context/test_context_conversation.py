"""Questions, context text and tables found in multi-turn conversations."""

from __future__ import annotations

from typing import Any

import pytest
from context_cases import load

from zerolayer.core import errors
from zerolayer.core.messages import Message
from zerolayer.plugins.context.conversation import (
    context_paragraph,
    find_context_text,
    find_table,
    find_table_match,
    first_question,
    is_question,
    last_question,
    nth_question,
    question_kind,
)
from zerolayer.plugins.context.table import to_markdown
from zerolayer.plugins.context.text import paragraph


def _messages(case: dict[str, Any]) -> list[tuple[str, str]]:
    return [(role, content) for role, content in case["messages"]]


def _check_error(exc: BaseException, case: dict[str, Any]) -> None:
    assert type(exc).__name__ == case["error"] or isinstance(exc, getattr(errors, case["error"]))
    if "reason" in case:
        assert getattr(exc, "reason", None) == case["reason"]


@pytest.mark.parametrize("case", load("questions.yaml"))
def test_question_kind(case: dict[str, Any]) -> None:
    assert question_kind(case["text"]) == case["expect"]
    assert is_question(case["text"]) == (case["expect"] == "question")


@pytest.mark.parametrize("case", load("conversations.yaml"))
def test_nth_question(case: dict[str, Any]) -> None:
    messages = _messages(case)
    if "error" in case:
        with pytest.raises(errors.ZeroLayerError) as info:
            nth_question(messages, case["n"])
        _check_error(info.value, case)
        return
    assert nth_question(messages, case["n"]) == case["expect"]
    if case["n"] == 1:
        assert first_question(messages) == case["expect"]
    if case["n"] == -1:
        assert last_question(messages) == case["expect"]


@pytest.mark.parametrize("case", load("context_text.yaml"))
def test_find_context_text_then_paragraph(case: dict[str, Any]) -> None:
    messages = _messages(case)
    role = case.get("role")
    if "error" in case:
        with pytest.raises(errors.ZeroLayerError) as info:
            src = find_context_text(messages, case["current"], role=role)
            paragraph(src, case["n"])
        _check_error(info.value, case)
        return
    src = find_context_text(messages, case["current"], role=role)
    assert paragraph(src, case["n"]) == case["expect"]


@pytest.mark.parametrize("case", load("context_text.yaml"))
def test_context_paragraph(case: dict[str, Any]) -> None:
    messages = _messages(case)
    expected = case.get("strict", case)
    if "error" in expected:
        with pytest.raises(errors.ZeroLayerError) as info:
            context_paragraph(messages, case["current"], case["n"], role=case.get("role"))
        _check_error(info.value, expected)
        return
    got = context_paragraph(messages, case["current"], case["n"], role=case.get("role"))
    assert got == expected["expect"]


def test_message_objects_and_dicts_are_accepted() -> None:
    as_objects = [
        Message("user", "What is JSON?"),
        Message("assistant", "A format."),
        Message("user", "Repeat my first question."),
    ]
    as_dicts = [{"role": m.role, "content": m.content} for m in as_objects]
    assert first_question(as_objects) == "What is JSON?"
    assert first_question(as_dicts) == "What is JSON?"


TABLE_A = "| a | b |\n| --- | --- |\n| 1 | 2 |"
TABLE_B = "| x | y |\n| --- | --- |\n| 3 | 4 |"


def test_find_table_most_recent_turn() -> None:
    messages = [
        ("user", f"Old:\n\n{TABLE_A}"),
        ("assistant", f"New:\n\n{TABLE_B}\n\nAnything else?"),
        ("user", "Add a column to the table above."),
    ]
    assert to_markdown(find_table(messages, "Add a column to the table above.")) == TABLE_B
    assert to_markdown(find_table(messages, None, role="user")) == TABLE_A


def test_find_table_same_message_before_instruction() -> None:
    content = f"{TABLE_A}\n\nAdd a YoY column to the table above."
    match = find_table_match([("user", content)], "Add a YoY column to the table above.")
    assert (match.start_line, match.end_line) == (1, 3)
    assert match.table.header == ["a", "b"]


def test_find_table_two_tables_in_one_turn_is_ambiguous() -> None:
    messages = [("user", f"{TABLE_A}\n\n{TABLE_B}"), ("user", "Sum the table above.")]
    with pytest.raises(errors.Unsupported) as info:
        find_table(messages, "Sum the table above.")
    assert info.value.reason == "context_ambiguous_table"


def test_find_table_none() -> None:
    with pytest.raises(errors.OpError):
        find_table([("user", "hi"), ("assistant", "hello"), ("user", "the table above")])


def test_zh_table_in_assistant_turn() -> None:
    table = "| 地区 | 去年 | 今年 |\n| --- | --- | --- |\n| 华东 | 730 | 802 |"
    messages = [
        ("user", "把营收数据整理成Markdown表格给我。"),
        ("assistant", table),
        ("user", "给上表每行加一列增长率。"),
    ]
    assert find_table(messages, "给上表每行加一列增长率。").rows == [["华东", "730", "802"]]
