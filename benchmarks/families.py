"""Benchmark: per family, the engine against the bare library call on the same ~1 KB input.

    PYTHONPATH=.dev python3 benchmarks/families.py [--rounds N]

In one run, for each family, the median CPU time of

* ``engine``: ``Engine.run(instruction, payload)``, the instruction already parsed once (the
  parse cache is warm, as for any repeated instruction): gate, segmentation, plan, the
  family's op and its check, the answer;
* ``engine, cold``: the same with the parse cache cleared before each call;
* ``bare``: the library call a hand-written converter would make on the same input:
  ``json.loads`` + PyYAML's C emitter (JSON → YAML), ``MarkdownIt("commonmark").render``
  (Markdown → HTML), ``sqlglot.parse_one(...).sql()`` parse + generate (SQL → pandas);

timed in turn within each round so that a change in the machine's load hits all alike, and
the engine's overhead: ``engine / bare - 1`` (target: at most 20% at 1 KB).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlglot
import yaml
from markdown_it import MarkdownIt

sys.path.insert(0, str(Path(__file__).parent))
from json_yaml import make_payload
from markdown_html import SECTION
from sql_pandas import QUERY

from zerolayer.core.engine import Engine
from zerolayer.core.messages import Route


def _markdown_1k() -> str:
    text = SECTION
    while len(text.encode()) < 1000:
        text += SECTION
    return text


def families() -> list[tuple[str, str, str, Callable[[str], Any]]]:
    """(family, instruction, payload, bare library call) for each family."""
    md = MarkdownIt("commonmark")
    return [
        (
            "JSON → YAML",
            "Convert this JSON to YAML",
            json.dumps(make_payload(1_000), indent=2),
            lambda text: yaml.dump(
                json.loads(text), Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False
            ),
        ),
        ("Markdown → HTML", "Convert this Markdown to HTML", _markdown_1k(), md.render),
        (
            "SQL → pandas",
            "Translate this SQL query to pandas",
            QUERY,
            lambda text: sqlglot.parse_one(text, read="sqlite").sql(dialect="sqlite"),
        ),
    ]


def cpu_time(fn: Callable[[], Any], inner: int) -> float:
    start = time.process_time()
    for _ in range(inner):
        fn()
    return (time.process_time() - start) / inner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=61, help="timed rounds per family")
    args = parser.parse_args()
    engine = Engine()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"# CPython {platform.python_version()}, {os.cpu_count()} CPUs, CPU time, "
        f"load average {load:.2f}"
    )
    print("| family | input bytes | bare ms | engine ms | engine, cold ms | overhead |")
    print("| --- | --- | --- | --- | --- | --- |", flush=True)
    for family, instruction, payload, bare in families():
        result = engine.run(instruction, payload)
        if result.route is not Route.DETERMINISTIC:
            raise SystemExit(f"{family}: engine did not answer: {result.reason} {result.error}")

        def warm(i: str = instruction, p: str = payload) -> None:
            engine.run(i, p)

        def cold(i: str = instruction, p: str = payload) -> None:
            engine.forget_instructions()
            engine.run(i, p)

        def lib(p: str = payload, f: Callable[[str], Any] = bare) -> None:
            f(p)

        inner = max(1, int(0.02 / max(cpu_time(lib, 3), 1e-6)))  # about 20 ms a sample
        times: dict[str, list[float]] = {"bare": [], "engine": [], "cold": []}
        for _ in range(args.rounds):
            times["bare"].append(cpu_time(lib, inner))
            times["engine"].append(cpu_time(warm, inner))
            times["cold"].append(cpu_time(cold, inner))
        t = {k: statistics.median(v) for k, v in times.items()}
        # Overhead from the ratio within each round (engine and bare timed back to back),
        # so that a change of the machine's load between rounds cancels out.
        paired = statistics.median(
            e / b for e, b in zip(times["engine"], times["bare"], strict=True)
        )
        print(
            f"| {family} | {len(payload.encode()):,} | {t['bare'] * 1e3:.3f} "
            f"| {t['engine'] * 1e3:.3f} | {t['cold'] * 1e3:.3f} "
            f"| {(paired - 1) * 100:+.0f}% |",
            flush=True,
        )


if __name__ == "__main__":
    main()
