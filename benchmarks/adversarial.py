"""Benchmark: CPU time per 10 KB of each adversarial shape, through the whole engine.

    python3 benchmarks/adversarial.py [--size CHARS] [--repeat N] [--only SUBSTRING]

The shapes are those ``tests/test_linear_time.py`` grows (deep nesting, long lines, many
keys, columns or statements, many aliases, long runs of one character, per parser). Each
is made at ``--size`` characters (64 K by default) and sent to ``Engine.run`` in-process
as one request; the figure is the least process CPU time of ``--repeat`` single runs (the
collector paused), scaled to 10 KB of request text, with the answer's kind. Taking the
least of several runs is what makes the figure usable on a shared machine: load only ever
adds time.

Budget: every shape must be answered or refused within 50 ms per 10 KB (issue 19). Shapes
over it are marked ``OVER`` and the exit status is 1, so the benchmark is the assertion;
the unit test only checks growth, which a loaded machine does not move.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import sys
import time
from pathlib import Path

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.messages import EngineRequest, EngineResult, Message, Route

BUDGET_MS_PER_10KB = 50.0
HERE = Path(__file__).resolve().parent


def _shapes() -> dict:
    path = HERE.parent / "tests" / "test_linear_time.py"
    spec = importlib.util.spec_from_file_location("zerolayer_linear_time_shapes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SHAPES


def _answer(result: EngineResult) -> str:
    if result.route is Route.ERROR and result.error is not None:
        return f"400 {result.error.code}"
    return f"{result.route} {result.reason}" if result.reason else str(result.route)


def measure(engine: Engine, text: str, repeat: int) -> tuple[float, str]:
    """The least CPU seconds of ``repeat`` runs on ``text`` and the answer's kind."""
    request = EngineRequest(messages=(Message("user", text),), temperature=0)
    best, answer = float("inf"), ""
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            result = engine.run(request)
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
        answer = _answer(result)
    return best, answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=64 * 1024, help="characters per shape")
    parser.add_argument("--repeat", type=int, default=5, help="runs per shape (least kept)")
    parser.add_argument("--only", default="", help="shapes whose name contains this")
    args = parser.parse_args()

    engine = Engine(EngineConfig())
    shapes = {k: v for k, v in _shapes().items() if args.only in k}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# {len(shapes)} shapes at ~{args.size} chars, least of {args.repeat} runs, "
          f"load average {load:.1f}, {os.cpu_count()} cores")  # fmt: skip
    print(f"{'shape':42} {'chars':>7} {'ms':>8} {'ms/10KB':>8}  answer")
    over = []
    for name, make in shapes.items():
        engine.run(EngineRequest(messages=(Message("user", make(1024)),), temperature=0))
        text = make(args.size)
        seconds, answer = measure(engine, text, args.repeat)
        per = seconds * 1000 * 10240 / len(text)
        mark = "  OVER" if per > BUDGET_MS_PER_10KB else ""
        if mark:
            over.append(name)
        print(f"{name:42} {len(text):7} {seconds * 1000:8.1f} {per:8.1f}  {answer}{mark}")
    print(f"# over {BUDGET_MS_PER_10KB:g} ms per 10 KB: {', '.join(over) or 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
