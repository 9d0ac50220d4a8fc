"""Benchmark: what the intent router adds on a paraphrase set, and what it costs.

    python3 benchmarks/router.py [CASES.yaml] [--split tune|heldout|all] [--scores] [--json]

Runs every case of the paraphrase file (default ``tests/router/cases/paraphrases.yaml``)
through an engine without the router and one with it (``ZEROLAYER_ROUTER=minilm``), and
reports per language and split:

* recall — ``route`` cases answered deterministically with the expected plan;
* false activations — ``fallback`` cases answered deterministically, and ``route`` cases
  answered with another plan (both must stay 0);
* the router's latency per request it was asked about (median, p95), and its start-up cost.

``--scores`` also prints each case's best example and similarity, and why a candidate was
refused: the data the thresholds were chosen from.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / ".dev"))

DEFAULT_CASES = (
    Path(__file__).resolve().parents[1] / "tests" / "router" / "cases" / "paraphrases.yaml"
)


def load_cases(path: Path) -> list[dict[str, Any]]:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    payloads = data["payloads"]
    cases = []
    for case in data["cases"]:
        cases.append({**case, "payload_text": payloads[case["payload"]]})
    return cases


def outcome(case: dict[str, Any], result: Any) -> str:
    """hit, miss, false (a false activation) or ok (a near miss that fell back)."""
    from zerolayer.core.messages import Route

    active = result.route is Route.DETERMINISTIC
    if case["expect"] == "fallback":
        return "false" if active else "ok"
    if not active:
        return "miss"
    return "hit" if result.plan == case["plan"] else "false"


def run(cases: list[dict[str, Any]], engine: Any) -> list[dict[str, Any]]:
    rows = []
    for case in cases:
        started = time.perf_counter()
        result = engine.run(case["text"], case["payload_text"])
        elapsed = time.perf_counter() - started
        rows.append(
            {
                "id": case["id"],
                "lang": case["id"][:2],
                "split": case["split"],
                "expect": case["expect"],
                "outcome": outcome(case, result),
                "plan": result.plan,
                "routed": result.routed,
                "reason": result.reason,
                "detail": result.detail,
                "ms": elapsed * 1000,
            }
        )
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for lang in ("en", "zh", "all"):
        for split in ("tune", "heldout", "all"):
            sel = [r for r in rows if lang in (r["lang"], "all") and split in (r["split"], "all")]
            pos = [r for r in sel if r["expect"] == "route"]
            neg = [r for r in sel if r["expect"] == "fallback"]
            out[f"{lang}/{split}"] = {
                "route_cases": len(pos),
                "hits": sum(r["outcome"] == "hit" for r in pos),
                "fallback_cases": len(neg),
                "false_activations": sum(r["outcome"] == "false" for r in sel),
            }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="?", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--split", default="all", choices=["tune", "heldout", "all"])
    parser.add_argument("--scores", action="store_true")
    parser.add_argument(
        "--sweep", action="store_true", help="route with no threshold and count by threshold"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from zerolayer.core.engine import Engine, EngineConfig
    from zerolayer.core.normalise import normalise
    from zerolayer.core.router.config import RouterSettings
    from zerolayer.core.segment import Payload, Segmented

    cases = [c for c in load_cases(args.cases) if args.split in (c["split"], "all")]
    base = Engine(EngineConfig.from_env({k: v for k, v in os.environ.items()
                                         if k != "ZEROLAYER_ROUTER"}))  # fmt: skip
    started = time.perf_counter()
    env = {**os.environ, "ZEROLAYER_ROUTER": "minilm"}
    config = EngineConfig.from_env(env)
    routed = Engine(config)
    start_s = time.perf_counter() - started
    assert isinstance(config.router, RouterSettings) and routed.router is not None

    if args.sweep:
        return sweep(cases, base, routed)
    off = run(cases, base)
    run(cases, routed)  # warm the embedding cache and torch for these lengths
    routed.router._cache.clear()
    on = run(cases, routed)
    asked = [r["ms"] for r, b in zip(on, off, strict=True) if b["reason"] == "parse.no_match"]
    report = {
        "router": routed.router_info(),
        "start_s": round(start_s, 2),
        "off": summary(off),
        "on": summary(on),
        "router_ms_median": round(statistics.median(asked), 2) if asked else None,
        "router_ms_p95": round(sorted(asked)[int(0.95 * (len(asked) - 1))], 2) if asked else None,
        "cases": on,
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(
        f"router start-up {report['start_s']} s; {json.dumps(report['router'], ensure_ascii=False)}"
    )
    print("lang/split      route  off   on  near  false off/on")
    for key in report["on"]:
        a, b = report["off"][key], report["on"][key]
        print(
            f"{key:14s} {b['route_cases']:5d} {a['hits']:4d} {b['hits']:4d} "
            f"{b['fallback_cases']:5d} {a['false_activations']:6d}/{b['false_activations']:<5d}"
        )
    print(f"router latency per request asked: median {report['router_ms_median']} ms, "
          f"p95 {report['router_ms_p95']} ms")  # fmt: skip
    for row in on:
        if row["outcome"] in ("false", "miss") or args.scores:
            print(f"  {row['id']:7s} {row['outcome']:5s} {row['routed']!r} {row['plan']} "
                  f"{row['detail'] if row['plan'] is None else ''}")  # fmt: skip
    if args.scores:
        print("\nbest candidates:")
        for case in cases:
            text = normalise(case["text"])
            seg = Segmented(text, (Payload(case["payload_text"]),), how="explicit")
            attempt = routed.route(text, seg)
            top = routed.router.candidates(routed.router_index, text)[:2]
            tops = " | ".join(f"{s:.3f} {e.instruction[:40]}" for s, e in top)
            print(f"  {case['id']:7s} {case['expect']:8s} {attempt.reason:24s} {tops}")
    return 0


def sweep(cases: list[dict[str, Any]], base: Any, routed: Any) -> int:
    """For each language: how many paraphrases and near misses a threshold lets through
    (with every other check in place), from the score of each case's passing proposal."""
    from zerolayer.core.normalise import normalise
    from zerolayer.core.segment import Payload, Segmented

    router = routed.router
    router.threshold = router.zh_threshold = -1.0
    points: dict[str, list[tuple[float, str]]] = {"en": [], "zh": []}
    for case in cases:
        if base.run(case["text"], case["payload_text"]).reason != "parse.no_match":
            continue
        text = normalise(case["text"])
        seg = Segmented(text, (Payload(case["payload_text"]),), how="explicit")
        attempt = routed.route(text, seg)
        if attempt is None or attempt.proposal is None:
            continue
        plan = routed.explain(attempt.proposal.instruction, case["payload_text"]).plan
        kind = "neg" if case["expect"] == "fallback" else ("pos" if plan == case["plan"] else "bad")
        points[case["id"][:2]].append((attempt.score, f"{kind}:{case['id']}"))
    for lang, rows in points.items():
        rows.sort(reverse=True)
        print(f"{lang}: " + ", ".join(f"{s:.3f} {k}" for s, k in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
