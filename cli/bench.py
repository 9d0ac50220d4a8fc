"""The bench: run a case file in the zeroscore format through the engine (in-process) or a
server (``url``), and measure activation, false activations, output correctness (SER), error
handling and latency per category.

With ``compare`` every case runs a second time through the neural route (the
``x-zero-layer: disable`` header, or ``EngineRequest.disabled`` in-process, answered by the
fallback backend when one is given) so both routes are measured side by side in one run.
The checks are those of the zeroscore contract (``zerolayer.cli.bench_checks``).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from zerolayer.cli.bench_checks import Check, check_error_message, check_output, fail
from zerolayer.core.errors import ZeroLayerError
from zerolayer.core.messages import EngineRequest, EngineResult, Message, Route

ENGINE_SIDE = "zerolayer"
NEURAL_SIDE = "neural"
ROUTES = {Route.DETERMINISTIC: "zero", Route.FALLBACK: "neural", Route.ERROR: "error"}


class BenchEngine(Protocol):
    def run(self, request: EngineRequest) -> EngineResult: ...


@dataclass
class Outcome:
    """One case run through one side: the route it took, its check and its latency."""

    id: str
    category: str
    lang: str
    side: str
    expected: str  # zero | neural | error
    route: str  # zero | neural | error | unreachable
    latency_ms: float
    passed: bool | None  # the output check (zero cases) or error check; None: skipped
    reason: str = ""
    output: str | None = None

    @property
    def route_ok(self) -> bool:
        return self.route == self.expected


@dataclass
class BenchReport:
    """Every outcome, and the summary per side and category."""

    outcomes: list[Outcome] = field(default_factory=list)

    def sides(self) -> list[str]:
        return sorted({o.side for o in self.outcomes}, key=[ENGINE_SIDE, NEURAL_SIDE].index)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for side in self.sides():
            mine = [o for o in self.outcomes if o.side == side]
            categories = sorted({o.category for o in mine})
            out[side] = {
                "total": summarise(mine),
                "categories": {
                    c: summarise([o for o in mine if o.category == c]) for c in categories
                },
            }
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"summary": self.summary(), "cases": [asdict(o) for o in self.outcomes]}


# ---------------------------------------------------------------- cases


def load_cases(path: str | Path) -> list[dict[str, Any]]:
    """The cases of a JSON Lines file (blank lines and ``#`` comments skipped)."""
    cases = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            case = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ZeroLayerError(f"{path}: line {number} is not JSON: {exc.msg}") from None
        if not {"id", "request", "expect"} <= set(case):
            raise ZeroLayerError(f"{path}: line {number} lacks id, request or expect")
        cases.append(case)
    return cases


def engine_request(case: dict[str, Any], *, neural: bool = False) -> EngineRequest:
    """The engine request an Anthropic-style case body makes (string contents)."""
    body = case["request"]
    headers = {k.lower(): str(v).lower() for k, v in (case.get("headers") or {}).items()}
    system = body.get("system")
    if isinstance(system, list):
        system = "\n\n".join(b.get("text", "") for b in system)
    messages = tuple(
        Message(m["role"], m["content"] if isinstance(m["content"], str) else _text(m["content"]))
        for m in body["messages"]
    )
    return EngineRequest(
        messages=messages,
        system=system,
        temperature=body.get("temperature"),
        top_p=body.get("top_p"),
        disabled=neural or headers.get("x-zero-layer") == "disable",
    )


def _text(blocks: list[dict[str, Any]]) -> str:
    return "\n\n".join(b.get("text", "") for b in blocks if b.get("type") == "text")


# ---------------------------------------------------------------- scoring


def score(case: dict[str, Any], side: str, route: str, latency: float, text: str | None) -> Outcome:
    """Check one answer against the case's expectation."""
    expect = case["expect"]
    expected = expect["route"]
    options = expect.get("options") or {}
    check: Check
    if expected == "zero":
        if text is None:
            check = fail(f"no answer (route {route})")
        else:
            check = check_output(expect.get("check", ""), text, expect.get("gold"), options)
    elif expected == "error":
        check = (
            check_error_message(text or "", options)
            if route == "error"
            else fail(f"route {route}, not an error answer")
        )
    else:
        check = Check(route == expected, "" if route == expected else f"route {route}")
    return Outcome(
        id=case["id"],
        category=case.get("category", "-"),
        lang=case.get("lang", "-"),
        side=side,
        expected=expected,
        route=route,
        latency_ms=round(latency * 1000, 3),
        passed=check.ok,
        reason=check.reason,
        output=text,
    )


def percentile(values: Sequence[float], p: float) -> float | None:
    """The p-th percentile (nearest rank) of ``values``, or None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def summarise(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Counts and rates of a set of outcomes (zeroscore's metrics, section 4)."""
    zero = [o for o in outcomes if o.expected == "zero"]
    judged = [o for o in zero if o.passed is not None]
    active = [o for o in zero if o.route == "zero"]
    active_judged = [o for o in active if o.passed is not None]
    errors = [o for o in outcomes if o.expected == "error"]
    answered = [o.latency_ms for o in outcomes if o.route in ("zero", "error")]
    if outcomes and outcomes[0].side == NEURAL_SIDE:
        answered = [o.latency_ms for o in outcomes if o.route != "unreachable"]
    return {
        "cases": len(outcomes),
        "route_correct": sum(o.route_ok for o in outcomes),
        "zero_cases": len(zero),
        "activated": len(active),
        "activation_rate": _ratio(len(active), len(zero)),
        "false_activations": sum(o.expected == "neural" and o.route != "neural" for o in outcomes),
        "output_correct": sum(bool(o.passed) for o in judged),
        "skipped": len(zero) - len(judged),
        "ser": _ratio(sum(bool(o.passed) for o in judged), len(judged)),
        "correct_when_active": _ratio(
            sum(bool(o.passed) for o in active_judged), len(active_judged)
        ),
        "errors_ok": _ratio(sum(bool(o.passed) for o in errors), len(errors)),
        "latency_ms": {
            "p50": percentile(answered, 50),
            "p95": percentile(answered, 95),
            "p99": percentile(answered, 99),
        },
    }


# ---------------------------------------------------------------- running


class Runner(Protocol):
    def __call__(self, case: dict[str, Any], *, neural: bool) -> tuple[str, float, str | None]:
        """Run a case; return the route, the latency in seconds and the answer text."""
        ...


def in_process(engine: BenchEngine, fallback: Any | None = None) -> Runner:
    """A runner that asks ``engine`` directly (and ``fallback`` for what it does not answer)."""

    def run(case: dict[str, Any], *, neural: bool) -> tuple[str, float, str | None]:
        request = engine_request(case, neural=neural)
        start = time.perf_counter()
        result = engine.run(request)
        text: str | None = result.output
        if result.route is Route.ERROR:
            text = str(result.error)
        elif result.route is Route.FALLBACK:
            text = _fallback_text(fallback, request, case)
        return ROUTES[result.route], time.perf_counter() - start, text

    return run


def _fallback_text(
    fallback: Any | None, request: EngineRequest, case: dict[str, Any]
) -> str | None:
    if fallback is None:
        return None
    try:
        completion = fallback.generate(request, max_tokens=case["request"].get("max_tokens", 1024))
    except Exception:  # an unavailable model: the case has no answer
        return None
    return str(completion.text)


class over_http:
    """A runner that posts each case to ``{url}/v1/messages`` (needs httpx); close it after
    use, or use it as a context manager."""

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        import httpx

        self._httpx = httpx
        self.session = httpx.Client(timeout=timeout)
        self.base = url.rstrip("/")

    def __enter__(self) -> over_http:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.session.close()

    def __call__(self, case: dict[str, Any], *, neural: bool) -> tuple[str, float, str | None]:
        headers = {"anthropic-version": "2023-06-01", **(case.get("headers") or {})}
        if neural:
            headers["x-zero-layer"] = "disable"
        start = time.perf_counter()
        try:
            response = self.session.post(
                f"{self.base}/v1/messages", json=case["request"], headers=headers
            )
        except self._httpx.HTTPError:
            return "unreachable", time.perf_counter() - start, None
        latency = time.perf_counter() - start
        status = response.headers.get("x-zero-layer-status", "")
        try:
            body = response.json()
        except ValueError:
            body = {}
        if response.status_code == 400 and status != "inactive":
            return "error", latency, str(body.get("error", {}).get("message", ""))
        route = "zero" if status == "active" else "neural"
        text = None
        if response.status_code == 200:
            blocks = body.get("content", [])
            text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        return route, latency, text


def run_bench(
    cases: Iterable[dict[str, Any]],
    runner: Runner,
    *,
    compare: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
) -> BenchReport:
    """Run every case (and with ``compare`` its neural twin) and score the answers."""
    cases = list(cases)
    report = BenchReport()
    sides = [(ENGINE_SIDE, False)] + ([(NEURAL_SIDE, True)] if compare else [])
    total = len(cases) * len(sides)
    done = 0
    for side, neural in sides:
        for case in cases:
            route, latency, text = runner(case, neural=neural)
            report.outcomes.append(score(case, side, route, latency, text))
            done += 1
            if progress:
                progress(done, total, case["id"])
    return report


def progress_bar(stream: Any, width: int = 30) -> Callable[[int, int, str], None]:
    """A one-line progress bar on ``stream`` (redrawn with a carriage return)."""

    def show(done: int, total: int, label: str) -> None:
        filled = width * done // max(1, total)
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label[:30]:<30}")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show


# ---------------------------------------------------------------- output


def _fmt(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value * 100:.1f}%" if percent else f"{value:.3f}"


def format_table(report: BenchReport) -> str:
    """The summary as a text table per side, then one machine-readable line per side."""
    lines: list[str] = []
    head = (
        f"{'category':<15}{'cases':>6}{'route ok':>9}{'zero':>6}{'active':>8}"
        f"{'output ok':>10}{'skip':>6}{'p50 ms':>9}{'p95 ms':>9}"
    )
    summary = report.summary()
    for side, data in summary.items():
        lines += [f"== {side}", head, "-" * len(head)]
        rows = [*data["categories"].items(), ("TOTAL", data["total"])]
        for name, s in rows:
            lat = s["latency_ms"]
            lines.append(
                f"{name:<15}{s['cases']:>6}{s['route_correct']:>9}{s['zero_cases']:>6}"
                f"{s['activated']:>8}{s['output_correct']:>10}{s['skipped']:>6}"
                f"{_fmt(lat['p50']):>9}{_fmt(lat['p95']):>9}"
            )
        t = data["total"]
        lines += [
            f"activation rate {_fmt(t['activation_rate'], True)}, false activations "
            f"{t['false_activations']}, SER {_fmt(t['ser'], True)} (correct when active "
            f"{_fmt(t['correct_when_active'], True)}), errors handled {_fmt(t['errors_ok'], True)}",
            "",
        ]
    for side, data in summary.items():
        t = data["total"]
        lines.append(
            f"BENCH side={side} recall={_fmt(t['activation_rate'])} "
            f"false_activations={t['false_activations']} ser={_fmt(t['ser'])} "
            f"errors_ok={_fmt(t['errors_ok'])}"
        )
    return "\n".join(lines)
