"""Markdown/CSV tables and table ops: fixture cases in English and Chinese."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from context_cases import load

from zerolayer.core import errors
from zerolayer.plugins.context.table import (
    NumberFormat,
    Table,
    add_growth_column,
    average_column,
    find_tables,
    parse_csv_table,
    parse_markdown_table,
    round_column,
    select_rows,
    sort_rows,
    split_row,
    sum_column,
    to_markdown,
)


def rows_of(markdown: str) -> list[list[str]]:
    """Header and data rows of rendered Markdown, read back with the split_row rules."""
    lines = markdown.split("\n")
    return [split_row(lines[0])] + [split_row(ln) for ln in lines[2:]]


def check_error(exc: BaseException, case: dict[str, Any]) -> None:
    assert isinstance(exc, getattr(errors, case["error"]))
    if "reason" in case:
        assert exc.reason == case["reason"]  # type: ignore[attr-defined]
    if "message" in case:
        assert case["message"] in str(exc)


@pytest.mark.parametrize("case", load("tables_parse.yaml"))
def test_parse_markdown_table(case: dict[str, Any]) -> None:
    if "error_line" in case:
        with pytest.raises(errors.PayloadError) as info:
            parse_markdown_table(case["text"])
        assert info.value.line == case["error_line"]
        if case["error_line"] is not None:
            assert f"line {case['error_line']}" in str(info.value)
        return
    table = parse_markdown_table(case["text"])
    assert table.header == case["header"]
    assert table.rows == case["rows"]
    assert table.alignment == case["alignment"]


@pytest.mark.parametrize("case", load("find_tables.yaml"))
def test_find_tables(case: dict[str, Any]) -> None:
    found = find_tables(case["text"])
    got = [
        {"header": m.table.header, "rows": len(m.table.rows), "start": m.start_line,
         "end": m.end_line}
        for m in found
    ]  # fmt: skip
    assert got == case["expect"]


def _fmt(case: dict[str, Any]) -> NumberFormat | None:
    return NumberFormat(**case["fmt"]) if "fmt" in case else None


@pytest.mark.parametrize("case", load("growth.yaml"))
def test_add_growth_column(case: dict[str, Any]) -> None:
    table = parse_markdown_table(case["table"])
    kwargs: dict[str, Any] = {"name": case["name"], "fmt": _fmt(case)}
    for key in ("current", "previous"):
        if key in case:
            kwargs[key] = case[key]
    if "error" in case:
        with pytest.raises(errors.ZeroLayerError) as info:
            add_growth_column(table, **kwargs)
        check_error(info.value, case)
        return
    before = to_markdown(table)
    out = add_growth_column(table, **kwargs)
    assert rows_of(to_markdown(out)) == case["expect"]
    assert to_markdown(table) == before  # the input table is not modified
    assert out.alignment == [*table.alignment, None]


def _run_op(case: dict[str, Any]) -> Any:
    table = parse_markdown_table(case["table"])
    args = dict(case["args"])
    op = case["op"]
    if op == "sum":
        return sum_column(table, args["column"])
    if op == "average":
        return average_column(table, **args)
    if op == "sort":
        return sort_rows(table, args["by"], desc=args.get("desc", False))
    if op == "select":
        return select_rows(table, args["column"], args["op"], args["value"])
    if op == "round":
        return round_column(
            table,
            args["column"],
            args["decimals"],
            rounding=args.get("rounding", "half_up"),
            ties=args.get("ties", "round"),
        )
    raise AssertionError(op)


@pytest.mark.parametrize("case", load("ops.yaml"))
def test_table_ops(case: dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(errors.ZeroLayerError) as info:
            _run_op(case)
        check_error(info.value, case)
        return
    got = _run_op(case)
    if isinstance(got, Decimal):
        assert str(got) == case["expect"]
    else:
        assert rows_of(to_markdown(got)) == case["expect"]


def test_to_markdown_canonical() -> None:
    table = Table(["a", "b|c"], [["1", ""], ["x|y", "z"]], ["right", None])
    assert to_markdown(table) == "| a | b\\|c |\n| ---: | --- |\n| 1 |  |\n| x\\|y | z |"


def test_to_markdown_rejects_line_break() -> None:
    with pytest.raises(errors.OpError):
        to_markdown(Table(["a"], [["x\ny"]]))


def test_parse_csv_table() -> None:
    t = parse_csv_table('item,last year,this year\nWidgets,"1,200",1500\n')
    assert t.header == ["item", "last year", "this year"]
    assert t.rows == [["Widgets", "1,200", "1500"]]
    out = add_growth_column(t, name="YoY")
    assert out.rows[0][-1] == "25.00%"


def test_parse_tsv_and_chinese() -> None:
    t = parse_csv_table("地区\t去年\t今年\n华东\t730\t802")
    assert t.rows == [["华东", "730", "802"]]


def test_parse_csv_ragged_names_line() -> None:
    with pytest.raises(errors.PayloadError) as info:
        parse_csv_table("a,b\n1,2\n3\n")
    assert info.value.line == 3


def test_parse_csv_empty() -> None:
    with pytest.raises(errors.PayloadError):
        parse_csv_table("\n\n")
