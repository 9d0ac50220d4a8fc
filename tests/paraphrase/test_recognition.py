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
