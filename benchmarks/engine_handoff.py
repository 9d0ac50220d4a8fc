"""Benchmark: the CPU and wall time of one hand-off of an engine run to its worker thread
and back (``AnswerService.in_budget``), with a run that does nothing.

    python3 benchmarks/engine_handoff.py [--runs N]

Run it with another checkout first on ``PYTHONPATH`` to compare two versions on one machine
(alternate them: the figures of one process move from run to run on shared cores). The loop
is uvloop's, the worker pool has the service's default two threads and the interpreter's
switch interval is the service's 1 ms.
"""

from __future__ import annotations

import argparse
import sys
import time

import uvloop

from zerolayer.core.engine import Engine
from zerolayer.rules_api.cache import NullCache
from zerolayer.rules_api.metrics import ServiceMetrics
from zerolayer.rules_api.service import AnswerService
from zerolayer.rules_api.settings import ServiceSettings


def _nothing(value: int) -> int:
    return value


async def _measure(service: AnswerService, runs: int) -> tuple[float, float]:
    for _ in range(300):  # threads started, caches warm
        await service.in_budget("a hand-off", _nothing, 1)
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(runs):
        await service.in_budget("a hand-off", _nothing, 1)
    return (time.process_time() - cpu) / runs, (time.perf_counter() - wall) / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3000)
    args = parser.parse_args()
    sys.setswitchinterval(0.001)
    service = AnswerService(
        Engine(),
        fallback=None,
        cache=NullCache(),
        metrics=ServiceMetrics(),
        settings=ServiceSettings(),
    )
    cpu, wall = uvloop.run(_measure(service, args.runs))
    print(f"per hand-off: {cpu * 1e6:.1f} µs CPU, {wall * 1e6:.1f} µs wall ({args.runs} runs)")


if __name__ == "__main__":
    main()
