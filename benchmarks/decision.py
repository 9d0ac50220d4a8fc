"""Benchmark: how long the engine takes to decide, over the paraphrase corpus (router off).

    python3 benchmarks/decision.py [CASES.jsonl ...] [--repeat N]

The intent router follows ``ZEROLAYER_ROUTER`` (off by default).

For every case of the corpus files (the development split by default), in-process:

* **fallback decision** -- the whole ``Engine.run`` of a request the engine does not answer
  (the corpus's negatives and any request it falls back on): segmenting, the gate, the
  grammar, the frame readers, until the fallback is decided;
* **answer** -- the whole run of a request it answers, for comparison, and **error** of one
  it refuses with a positioned error (a malformed payload);
* **instruction parse** -- the grammar's parse of the instruction of the reading the engine
  took (the surface rewrites applied), for the answered requests.

Each is timed first-time (everything the engine remembers of instructions forgotten before
the run: ``Engine.forget_instructions``) and again (remembered, as a service sees recurring
instructions). Figures are p50 and p95 over the cases of the least of ``--repeat`` passes per
case, so that load on a shared machine adds as little as it can. Targets (issue 14): parse p50
at most 200 µs, fallback decision p50 at most 2 ms without the router.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import statistics
import time
from pathlib import Path
from typing import Any

from zerolayer.cli.bench import engine_request, load_cases
from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.errors import Unsupported
from zerolayer.core.messages import EngineRequest, Route

HERE = Path(__file__).resolve().parent
DEFAULT = HERE / "paraphrase" / "dev.jsonl"
CLOCK = time.perf_counter


def least(fn: Any, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = CLOCK()
        fn()
        best = min(best, CLOCK() - start)
    return best


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(engine: Engine, requests: list[EngineRequest], repeat: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {
        f"{kind}, {when}": []
        for kind in ("fallback", "answer", "error")
        for when in ("first", "again")
    }
    parses: list[float] = []
    for request in requests:
        engine.forget_instructions()
        route = engine.run(request).route
        kind = {Route.DETERMINISTIC: "answer", Route.ERROR: "error"}.get(route, "fallback")

        def first(r: EngineRequest = request) -> None:
            engine.forget_instructions()
            engine.run(r)

        times[f"{kind}, first"].append(least(first, repeat))
        times[f"{kind}, again"].append(least(lambda r=request: engine.run(r), repeat))
        if kind == "answer":
            parses.append(_parse_time(engine, request, repeat))
    times["instruction parse"] = [t for t in parses if t == t]
    return times


def _parse_time(engine: Engine, request: EngineRequest, repeat: int) -> float:
    """The grammar's parse of the instruction of the reading the engine takes (NaN if the
    reading came from elsewhere than the last message)."""
    try:
        reading = engine._read(request.messages[-1].content, request.payloads)
    except Unsupported:
        return float("nan")
    instruction = reading.instruction

    def parse() -> None:
        engine._parse_cached.cache_clear()
        with contextlib.suppress(Unsupported):
            engine._parse_cached(instruction)

    return least(parse, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    engine = Engine(EngineConfig.from_env())
    cases = [c for path in args.files for c in load_cases(path)]
    requests = [engine_request(c) for c in cases]
    gc.disable()
    try:
        times = measure(engine, requests, args.repeat)
    finally:
        gc.enable()
    load = os.getloadavg()[0]
    print(f"# {len(requests)} requests, least of {args.repeat} per case, load average {load:.1f}")
    print("| what | requests | p50 ms | p95 ms |")
    print("| --- | ---: | ---: | ---: |")
    for name, values in times.items():
        if values:
            p50, p95 = statistics.median(values) * 1e3, percentile(values, 0.95) * 1e3
            print(f"| {name} | {len(values)} | {p50:.3f} | {p95:.3f} |")


if __name__ == "__main__":
    main()
