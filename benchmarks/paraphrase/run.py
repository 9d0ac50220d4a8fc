"""Run the engine in-process over a paraphrase corpus file and report recognition per family.

    PYTHONPATH=... python3 -m zerolayer.benchmarks.paraphrase.run [FILE] [--half open|sealed]
        [--category C,...] [--misses] [--json OUT]

FILE defaults to ``dev.jsonl`` beside this module. Per family (the case category) it prints:
expected active cases, how many the engine answered and the recall, how many of those
answers pass their check, wrong answers (an answer that fails its check, an error answer to a
valid request, an answer to a malformed payload), negatives and false activations (a
negative the engine answered or turned into an error), and malformed-payload cases answered
with a positioned error. ``--misses`` lists every case that did not go as expected, with the
fallback reason (use it on the development split only). ``--half`` keeps the cases whose
``half`` field is ``open`` or ``sealed`` (a corpus split by a hash of the case id: list the
misses of the open half only). The intent router follows ``ZEROLAYER_ROUTER`` as for the
service.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from zerolayer.benchmarks.paraphrase.checks import check_answer
from zerolayer.cli.bench import engine_request, load_cases
from zerolayer.cli.bench_checks import check_error_message
from zerolayer.core.messages import Route

HERE = Path(__file__).parent
HALVES = ("open", "sealed")
ROUTES = {Route.DETERMINISTIC: "zero", Route.FALLBACK: "neural", Route.ERROR: "error"}


@dataclass
class CaseOutcome:
    id: str
    category: str
    lang: str
    expected: str  # zero | neural | error
    route: str  # zero | neural | error | crash
    passed: bool | None  # the answer's check (active and error cases); None: not judged
    reason: str = ""  # fallback reason, check failure or crash
    output: str | None = None

    @property
    def ok(self) -> bool:
        if self.expected == "zero":
            return self.route == "zero" and self.passed is not False
        if self.expected == "error":
            return self.route == "error" and bool(self.passed)
        return self.route == "neural"


@dataclass
class FamilyFigures:
    cases: int = 0
    expected_active: int = 0
    answered: int = 0
    right: int = 0
    wrong: int = 0
    skipped: int = 0
    negatives: int = 0
    false_activations: int = 0
    error_cases: int = 0
    errors_ok: int = 0
    crashes: int = 0
    reasons: Counter[str] = field(default_factory=Counter)

    @property
    def recall(self) -> float | None:
        return self.answered / self.expected_active if self.expected_active else None

    def add(self, o: CaseOutcome) -> None:
        self.cases += 1
        self.crashes += o.route == "crash"
        if o.expected == "zero":
            self.expected_active += 1
            if o.route == "zero":
                self.answered += 1
                if o.passed is None:
                    self.skipped += 1
                elif o.passed:
                    self.right += 1
                else:
                    self.wrong += 1
            else:
                # an error answer to a valid request blames the user's payload: a wrong answer
                self.wrong += o.route == "error"
                self.reasons[o.reason.split(":")[0] or o.route] += 1
        elif o.expected == "neural":
            self.negatives += 1
            self.false_activations += o.route in ("zero", "error")
        else:
            self.error_cases += 1
            self.errors_ok += o.route == "error" and bool(o.passed)
            self.wrong += o.route == "zero"


def run_case(engine: Any, case: dict[str, Any]) -> CaseOutcome:
    expect = case["expect"]
    base = {
        "id": case["id"],
        "category": case.get("category", "-"),
        "lang": case.get("lang", "-"),
        "expected": expect["route"],
    }
    try:
        result = engine.run(engine_request(case))
    except Exception as exc:  # the engine must never raise: report it, keep measuring
        return CaseOutcome(
            **base, route="crash", passed=False, reason=f"{type(exc).__name__}: {exc}"
        )
    route = ROUTES[result.route]
    if result.route is Route.FALLBACK:
        return CaseOutcome(**base, route=route, passed=None, reason=str(result.reason))
    text = result.output if result.route is Route.DETERMINISTIC else str(result.error)
    passed: bool | None = None
    reason = ""
    if expect["route"] == "zero" and route == "zero":
        passed, reason = check_answer(expect, text or "")
    elif expect["route"] == "error" and route == "error":
        check = check_error_message(text or "", expect.get("options") or {})
        passed, reason = check.ok, check.reason
    elif expect["route"] == "neural":
        reason = f"answered ({route}) a request that must go to the model"
    else:
        reason = f"route {route}, expected {expect['route']}"
    return CaseOutcome(**base, route=route, passed=passed, reason=reason, output=text)


def measure(cases: Iterable[dict[str, Any]], engine: Any | None = None) -> list[CaseOutcome]:
    if engine is None:
        from zerolayer import Engine

        engine = Engine()
    return [run_case(engine, case) for case in cases]


def figures(outcomes: Iterable[CaseOutcome]) -> tuple[dict[str, FamilyFigures], FamilyFigures]:
    per: dict[str, FamilyFigures] = {}
    total = FamilyFigures()
    for o in outcomes:
        per.setdefault(o.category, FamilyFigures()).add(o)
        total.add(o)
    return dict(sorted(per.items())), total


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def format_table(per: dict[str, FamilyFigures], total: FamilyFigures) -> str:
    head = (
        "| family | cases | expected active | answered | recall | active answers right "
        "| wrong | negatives | false activations | malformed → positioned 400 |"
    )
    lines = [head, "|" + "---|" * 10]
    for name, f in [*per.items(), ("**total**", total)]:
        right = f"{f.right}/{f.answered}" if f.answered else "-"
        if f.skipped:
            right += f" ({f.skipped} skipped)"
        errors = f"{f.errors_ok}/{f.error_cases}" if f.error_cases else "-"
        lines.append(
            f"| {name} | {f.cases} | {f.expected_active} | {f.answered} | {_pct(f.recall)} "
            f"| {right} | {f.wrong} | {f.negatives} | {f.false_activations} | {errors} |"
        )
    return "\n".join(lines)


def select_cases(
    cases: Iterable[dict[str, Any]], categories: set[str] | None = None, half: str | None = None
) -> list[dict[str, Any]]:
    """The cases of the given categories (all if None) and of the given half (all if None).

    A case with no ``half`` field belongs to neither half: with ``half`` set it is left out.
    """
    return [
        c
        for c in cases
        if (categories is None or c.get("category") in categories)
        and (half is None or c.get("half") == half)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=HERE / "dev.jsonl")
    parser.add_argument("--category", help="comma-separated categories to run")
    parser.add_argument(
        "--half", choices=HALVES, help="only the cases whose half field is this (open or sealed)"
    )
    parser.add_argument("--misses", action="store_true", help="list the cases that went wrong")
    parser.add_argument("--json", type=Path, help="write every outcome to this file")
    args = parser.parse_args(argv)
    cases = select_cases(
        load_cases(args.file),
        categories=set(args.category.split(",")) if args.category else None,
        half=args.half,
    )
    outcomes = measure(cases)
    per, total = figures(outcomes)
    part = f" ({args.half} half)" if args.half else ""
    print(f"{args.file.name}{part}: {len(cases)} cases")
    print(format_table(per, total))
    if total.reasons:
        print("\nwhy expected-active cases fell back:", dict(total.reasons.most_common()))
    if args.misses:
        for o in outcomes:
            if not o.ok:
                print(f"  {o.id:<22} expected {o.expected:<6} got {o.route:<6} {o.reason[:140]}")
    if args.json:
        args.json.write_text(
            json.dumps([asdict(o) for o in outcomes], ensure_ascii=False, indent=1)
        )
    line = (
        f"PARAPHRASE recall={_pct(total.recall)} right={total.right}/{total.answered} "
        f"wrong={total.wrong} false_activations={total.false_activations} crashes={total.crashes}"
    )
    print(line, file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
