"""The engine over the development split of the paraphrase corpus: no negative answered, no
wrong answer. Recall is reported (docs/recognition.md has the figures), not asserted."""

from __future__ import annotations

from pathlib import Path

import pytest

from zerolayer.benchmarks.paraphrase import run
from zerolayer.cli.bench import load_cases
from zerolayer.core.engine import Engine

DEV = Path(run.__file__).parent / "dev.jsonl"


@pytest.fixture(scope="module")
def outcomes(engine: Engine) -> list[run.CaseOutcome]:
    found = run.measure(load_cases(DEV), engine)
    per, total = run.figures(found)
    print(run.format_table(per, total))
    return found


@pytest.mark.slow
def test_no_false_activation_on_the_dev_split(outcomes: list[run.CaseOutcome]) -> None:
    bad = [(o.id, o.route) for o in outcomes if o.expected == "neural" and o.route != "neural"]
    assert not bad


@pytest.mark.slow
def test_no_crash_on_the_dev_split(outcomes: list[run.CaseOutcome]) -> None:
    assert not [(o.id, o.reason) for o in outcomes if o.route == "crash"]


@pytest.mark.slow
def test_no_wrong_answer_on_the_dev_split(outcomes: list[run.CaseOutcome]) -> None:
    _, total = run.figures(outcomes)
    wrong = [
        (o.id, o.route, o.reason)
        for o in outcomes
        if (o.expected == "zero" and (o.route == "error" or o.passed is False))
        or (o.expected == "error" and o.route == "zero")
    ]
    assert total.wrong == len(wrong)
    assert not wrong


FRESH2 = Path(run.__file__).parent / "fresh2.jsonl"
# fresh2.jsonl (2026-12-08), router off. On arrival: open half 70/136 = 0.515 (2 wrong: a
# query option ignored in a join, a 400 on a line of thanks), sealed half 43/92 = 0.467 (0
# wrong). After the classes read from the open half (docs/recognition.md): open 103/136 =
# 0.757, sealed 56/92 = 0.609; the floors sit a little below. Sealed: counts only.
FRESH2_FLOORS = {"open": 0.74, "sealed": 0.59}


@pytest.mark.slow
@pytest.mark.parametrize("half", ["open", "sealed"])
def test_fresh2_half_is_safe_and_above_its_floor(engine: Engine, half: str) -> None:
    cases = run.select_cases(load_cases(FRESH2), half=half)
    _, total = run.figures(run.measure(cases, engine))
    # counts only: the sealed half's cases are never listed
    assert (total.wrong, total.false_activations, total.crashes) == (0, 0, 0)
    assert total.recall is not None and total.recall >= FRESH2_FLOORS[half]
