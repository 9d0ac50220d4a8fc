"""The context grammar's helpers: ordinals, number formats and how clauses combine."""

from __future__ import annotations

from typing import Any

import pytest

from zerolayer.core.errors import Unsupported
from zerolayer.core.plan import Option, Step
from zerolayer.plugins.context.clauses import _number_format, _ordinal, finish


@pytest.mark.parametrize(
    ("phrase", "n"),
    [
        ("first paragraph", 1),
        ("Third paragraph", 3),
        ("last question", -1),
        ("second-to-last paragraph", -2),
        ("most recent question", -1),
        ("21st paragraph", 21),
        ("22nd paragraph", 22),
        ("11th paragraph", 11),
        ("13th question", 13),
    ],
)
def test_ordinal(phrase: str, n: int) -> None:
    assert _ordinal(phrase) == n


@pytest.mark.parametrize("phrase", ["12nd paragraph", "1th paragraph", "2st question"])
def test_bad_ordinal_is_refused(phrase: str) -> None:
    with pytest.raises(Unsupported):
        _ordinal(phrase)


def _marks(**marks: Any) -> dict[str, list[Any]]:
    return {k: v if isinstance(v, list) else [v] for k, v in marks.items()}


@pytest.mark.parametrize(
    ("marks", "expected"),
    [
        (_marks(decimals=2, percent=True), {"decimals": 2, "format": "percent"}),
        # a growth column is a percentage unless its example says otherwise
        (_marks(decimals=2), {"decimals": 2, "format": "percent"}),
        (_marks(example=("", 2, True)), {"decimals": 2, "format": "percent"}),
        (_marks(example=("-", 1, True), decimals=1), {"decimals": 1, "format": "percent"}),
        (
            _marks(example=("+", 2, True)),
            {"decimals": 2, "format": "percent", "plus_sign": True},
        ),
    ],
)
def test_number_format(marks: dict[str, list[Any]], expected: dict[str, Any]) -> None:
    assert _number_format(marks) == expected


@pytest.mark.parametrize(
    ("marks", "reason"),
    [
        (_marks(decimals=2, example=("", 2, False)), "context.format_unstated"),
        (_marks(percent=True), "context.format_unstated"),
        (_marks(decimals=2, example=("", 3, True)), "context.format_conflict"),
        (_marks(percent=True, example=("", 2, False)), "context.format_conflict"),
        (_marks(decimals=[2, 3], percent=True), "plan.conflicting_options"),
    ],
)
def test_number_format_refusals(marks: dict[str, list[Any]], reason: str) -> None:
    with pytest.raises(Unsupported) as info:
        _number_format(marks)
    assert info.value.reason == reason


def test_finish_leaves_other_families_alone() -> None:
    directives = [Step("sort", {"key": "id", "order": "asc"})]
    assert finish(list(directives)) == directives


def test_finish_reads_other_families_queries_on_the_table() -> None:
    out = finish([Step("context.table"), Step("sort", {"key": "sales", "order": "desc"})])
    assert out == [
        Step("context.table", {}),
        Step("table.sort", {"by": "sales", "order": "desc"}),
        Step("table.markdown"),
    ]


def test_finish_refuses_a_mark_without_a_reference() -> None:
    with pytest.raises(Unsupported):
        finish([Option("context.verbatim", True), Step("yaml.emit")])
