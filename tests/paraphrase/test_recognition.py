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
# fresh2.jsonl (2026-12-07), router off. On arrival: open half 70/136 = 0.515 (2 wrong: a
# query option ignored in a join, a 400 on a line of thanks), sealed half 43/92 = 0.467 (0
# wrong). After the classes read from the open half (docs/recognition.md): open 103/136 =
# 0.757, sealed 56/92 = 0.609. After the classes of branch c3 (2026-12-08: system prompts
# that say what the user sends, the answer as one code block, a line under self-claiming
# data, the writer named before the work …): open 125/136 = 0.919, sealed 62/92 = 0.674; the
# floors sit a little below. Sealed: counts only.
FRESH2_FLOORS = {"open": 0.90, "sealed": 0.65}


@pytest.mark.slow
@pytest.mark.parametrize("half", ["open", "sealed"])
def test_fresh2_half_is_safe_and_above_its_floor(engine: Engine, half: str) -> None:
    cases = run.select_cases(load_cases(FRESH2), half=half)
    _, total = run.figures(run.measure(cases, engine))
    # counts only: the sealed half's cases are never listed
    assert (total.wrong, total.false_activations, total.crashes) == (0, 0, 0)
    assert total.recall is not None and total.recall >= FRESH2_FLOORS[half]


FRESH3 = Path(run.__file__).parent / "fresh3.jsonl"
# Recall floors of fresh3 (context and compound requests), per half, a little below the
# figures measured (2026-12-07): on arrival open 16/69 = 0.232, sealed 14/52 = 0.269; after
# the classes of that day open 34/69 = 0.493, sealed 19/52 = 0.365; after branch c3
# (2026-12-08) open 49/69 = 0.710, sealed 21/52 = 0.404. The sealed half is run for figures
# only.
FRESH3_FLOORS = {"open": 0.69, "sealed": 0.38}


@pytest.fixture(scope="module")
def fresh3_outcomes(engine: Engine) -> dict[str, list[run.CaseOutcome]]:
    cases = load_cases(FRESH3)
    return {half: run.measure(run.select_cases(cases, half=half), engine) for half in run.HALVES}


@pytest.mark.slow
@pytest.mark.parametrize("half", run.HALVES)
def test_fresh3_no_wrong_answer_nor_false_activation(
    fresh3_outcomes: dict[str, list[run.CaseOutcome]], half: str
) -> None:
    _, total = run.figures(fresh3_outcomes[half])
    assert (total.wrong, total.false_activations, total.crashes) == (0, 0, 0)


@pytest.mark.slow
@pytest.mark.parametrize("half", run.HALVES)
def test_fresh3_recall_floor(fresh3_outcomes: dict[str, list[run.CaseOutcome]], half: str) -> None:
    _, total = run.figures(fresh3_outcomes[half])
    assert total.recall is not None and total.recall >= FRESH3_FLOORS[half]
