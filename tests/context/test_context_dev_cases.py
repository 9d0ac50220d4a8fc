"""The zeroscore dev `context` cases: golds reproduced by calling the library directly.

The parameters for each case (which op, which paragraph, column names) are picked by hand in
cases/dev_params.yaml; this tests the functions, not the instruction parser.
"""

from __future__ import annotations

from typing import Any

import pytest
from context_cases import load, raw

from zerolayer.plugins.context.conversation import (
    context_paragraph,
    find_context_text,
    find_table,
    nth_question,
)
from zerolayer.plugins.context.table import add_growth_column, split_row, to_markdown
from zerolayer.plugins.context.text import paragraph, split_paragraphs

PARAMS = {p["id"]: p for p in raw("dev_params.yaml")}


def _last_paragraph(text: str) -> str:
    return split_paragraphs(text)[-1]


@pytest.mark.parametrize("case", load("dev_context.jsonl"))
def test_dev_context_case(case: dict[str, Any]) -> None:
    params = PARAMS[case["id"]]
    messages = [(m["role"], m["content"]) for m in case["messages"]]
    instruction = _last_paragraph(messages[-1][1])
    op = params["op"]
    if op == "growth":
        table = find_table(messages, instruction)
        out = add_growth_column(
            table, name=params["name"], current=params.get("current"),
            previous=params.get("previous"),
        )  # fmt: skip
        lines = to_markdown(out).split("\n")
        assert [split_row(lines[0])] + [split_row(ln) for ln in lines[2:]] == case["gold"]
    elif op == "paragraph":
        source = find_context_text(messages, instruction)
        assert paragraph(source, params["n"]) == case["gold"]
        assert context_paragraph(messages, instruction, params["n"]) == case["gold"]
    else:
        assert nth_question(messages, params["n"]) == case["gold"]


def test_every_dev_case_has_params() -> None:
    assert {c["id"] for c in raw("dev_context.jsonl")} == set(PARAMS)
