"""Benchmark: the engine end to end (instruction → plan → JSON→YAML → verify), in-process.

    python3 benchmarks/engine.py [--quick]

In one run, for JSON payloads of about 1 KB, 100 KB and 10 MB it reports the median time of

* ``engine``: ``Engine.run("Convert this JSON to YAML", payload)`` — gate, instruction parse
  (uncached: the parse cache is cleared before each call), plan, JSON read, YAML write and the
  read-back check under YAML 1.1 and 1.2;
* ``ruamel``: ruamel.yaml's safe dump of the already-parsed value, and ``pyyaml_c``: PyYAML's C
  emitter (``CSafeDumper``) of the same value — the bare libraries, with no parse, plan or check;

the ratios, the instruction parse time alone (median over a set of instructions, uncached),
and the peak memory of the engine call (tracemalloc) relative to the payload size.
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ruamel.yaml
import yaml

sys.path.insert(0, str(Path(__file__).parent))
from json_yaml import make_payload

from zerolayer.core.engine import Engine
from zerolayer.core.errors import Unsupported
from zerolayer.core.messages import Route
from zerolayer.core.normalise import normalise

INSTRUCTION = "Convert this JSON to YAML"
PARSE_SET = [
    "Convert the following JSON to YAML",
    "turn this json into yaml, use double quotes for strings",
    "JSON → YAML (indent 4)",
    "Sort these tickets by created_at descending, keep only id and name, then output YAML.",
    "把下面的JSON按created_at降序排列，只返回id和name字段",
    "YAML转JSON，键按字母顺序排序，缩进两个空格",
]


def median_time(fn: Callable[[], Any], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def ruamel_dump(value: Any) -> str:
    stream = io.StringIO()
    ruamel.yaml.YAML(typ="safe", pure=True).dump(value, stream)
    return stream.getvalue()


def pyyaml_c_dump(value: Any) -> str:
    return yaml.dump(value, Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="skip 10 MB, fewer runs")
    args = parser.parse_args()
    engine = Engine()

    def run(text: str) -> None:
        engine._parse_cached.cache_clear()  # measure the parse, not the cache
        result = engine.run(INSTRUCTION, text)
        if result.route is not Route.DETERMINISTIC:
            raise SystemExit(f"engine did not answer: {result.reason} {result.error}")

    sizes = [("1 KB", 1_000, 300), ("100 KB", 100_000, 15)]
    if not args.quick:
        sizes.append(("10 MB", 10_000_000, 3))
    print(f"# CPython {platform.python_version()}, {platform.machine()}, one process")
    print(
        "| payload | JSON bytes | engine ms | ruamel dump ms | PyYAML C dump ms "
        "| ruamel / engine | PyYAML C / engine | peak mem / payload |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, target, runs in sizes:
        value = make_payload(target)
        text = json.dumps(value, indent=2, ensure_ascii=False)
        runs = max(2, runs // 3) if args.quick else runs
        engine_s = median_time(lambda t=text: run(t), runs)
        lib_runs = 1 if target >= 10_000_000 else runs
        ruamel_s = median_time(lambda v=value: ruamel_dump(v), max(1, lib_runs // 3))
        pyyaml_s = median_time(lambda v=value: pyyaml_c_dump(v), lib_runs)
        tracemalloc.start()
        run(text)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        size = len(text.encode())
        print(
            f"| {label} | {size:,} | {engine_s * 1e3:.3f} | {ruamel_s * 1e3:.2f} "
            f"| {pyyaml_s * 1e3:.3f} | {ruamel_s / engine_s:.1f}x | {pyyaml_s / engine_s:.2f}x "
            f"| {peak / size:.2f}x |"
        )
    parse_times = []
    for instruction in PARSE_SET:
        text = normalise(instruction)
        try:
            engine.parser.parse(text)
        except Unsupported as exc:
            print(f"(not parsed, left out: {instruction!r}: {exc.reason})")
            continue
        parse_times.append(median_time(lambda t=text: engine.parser.parse(t), 500))
    print()
    print(
        f"instruction parse (uncached, LALR): median {statistics.median(parse_times) * 1e6:.0f} µs"
        f" over {len(PARSE_SET)} instructions; "
        f"range {min(parse_times) * 1e6:.0f}–{max(parse_times) * 1e6:.0f} µs"
    )


if __name__ == "__main__":
    main()
