"""Benchmark: the engine end to end (instruction → plan → JSON→YAML → verify), in-process.

    python3 benchmarks/engine.py [--quick]

In one run, for JSON payloads of about 1 KB, 100 KB and 10 MB it reports the median time of

* ``engine``: ``Engine.run("Convert this JSON to YAML", payload)`` — gate, instruction parse
  (uncached: the parse cache is cleared before each call), plan, JSON read, YAML write and the
  read-back check under YAML 1.1 and 1.2;
* ``ruamel``: ruamel.yaml's safe dump of the already-parsed value, and ``pyyaml_c``: PyYAML's C
  emitter (``CSafeDumper``) of the same value — the bare libraries, with no parse, plan or check;

the ratios, the instruction parse time alone (median over a set of instructions, uncached),
and two memory measures of one engine call, each relative to the payload's UTF-8 size:

* ``peak mem``: the peak of tracemalloc's traced memory during ``Engine.run`` (Python
  allocations only: libyaml's C buffers are not traced), with the payload text already
  allocated and the instruction not cached;
* ``RSS delta``: in a fresh process that reads the payload text from a file and has run the
  engine once on a tiny payload, the process's peak resident set size during the call
  (``VmHWM``, reset just before it through ``/proc/self/clear_refs``) minus its resident set
  size before it: what the call made the process take from the OS, C buffers included.
  Linux only; small payloads stay within memory the allocator already holds (0).

Each answer is also read back with PyYAML (YAML 1.1) and ruamel.yaml (YAML 1.2), outside the
timings, and must equal the payload's value.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import ruamel.yaml
import yaml

sys.path.insert(0, str(Path(__file__).parent))
from json_yaml import (
    make_payload,
    median_time,
    peak_memory,
    pyyaml_c_dump,
    ruamel_dump,
)

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.errors import Unsupported
from zerolayer.core.messages import Route
from zerolayer.core.normalise import normalise

INSTRUCTION = "Convert this JSON to YAML"
# The plan's time limit (5 s by default) is lifted so that a loaded machine still measures
# the 10 MB case instead of stopping it.
CONFIG = EngineConfig(time_limit=600.0)
PARSE_SET = [
    "Convert the following JSON to YAML",
    "turn this json into yaml, use double quotes for strings",
    "JSON → YAML (indent 4)",
    "Sort these tickets by created_at descending, keep only id and name, then output YAML.",
    "把下面的JSON按created_at降序排列，只返回id和name字段",
    "YAML转JSON，键按字母顺序排序，缩进两个空格",
]


def interleaved(fns: list[Any], runs: int) -> list[float]:
    """Median CPU time of each function, timed in turn within each round."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, out in zip(fns, times, strict=True):
            out.append(median_time(fn, 1))
    return [statistics.median(t) for t in times]


def _proc_status(field: str) -> int:
    """A ``kB`` field of /proc/self/status, in bytes."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise SystemExit(f"/proc/self/status has no {field}")


def rss_child(path: str) -> None:
    """Print how far the resident set rises (bytes) during one engine call on ``path``."""
    engine = Engine(CONFIG)
    engine.run(INSTRUCTION, '[{"a": 1}]')
    text = Path(path).read_text(encoding="utf-8")
    gc.collect()
    with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
        fh.write("5")  # reset VmHWM to the current resident set
    before = _proc_status("VmRSS")
    result = engine.run(INSTRUCTION, text)
    peak = _proc_status("VmHWM")
    if result.route is not Route.DETERMINISTIC:
        raise SystemExit(f"engine did not answer: {result.reason} {result.error}")
    print(peak - before)


def rss_delta(text: str) -> int:
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as fh:
        fh.write(text)
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--rss-child", fh.name],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ,
        )
    finally:
        os.unlink(fh.name)
    return int(done.stdout.split()[-1])


def check_read_back(output: str, value: Any) -> None:
    """Raise unless PyYAML (1.1) and ruamel.yaml (1.2) both read ``output`` as ``value``."""
    want = json.dumps(value, sort_keys=True)
    for name, got in (
        ("PyYAML", yaml.load(output, Loader=yaml.CSafeLoader)),
        ("ruamel.yaml", ruamel.yaml.YAML(typ="safe", pure=True).load(io.StringIO(output))),
    ):
        if json.dumps(got, sort_keys=True) != want:
            raise SystemExit(f"{name} reads the answer back as another value")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="skip 10 MB, fewer runs")
    parser.add_argument("--rss-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rss_child:
        rss_child(args.rss_child)
        return
    engine = Engine(CONFIG)

    def run(text: str) -> None:
        engine.forget_instructions()  # measure the parse, not the cache
        result = engine.run(INSTRUCTION, text)
        if result.route is not Route.DETERMINISTIC:
            raise SystemExit(f"engine did not answer: {result.reason} {result.error}")

    sizes = [("1 KB", 1_000, 300), ("100 KB", 100_000, 15)]
    if not args.quick:
        sizes.append(("10 MB", 10_000_000, 3))
    print(f"# CPython {platform.python_version()}, {platform.machine()}, one process")
    print(
        "| payload | JSON bytes | engine ms | ruamel dump ms | PyYAML C dump ms "
        "| ruamel / engine | PyYAML C / engine | peak mem / payload | RSS delta / payload |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |", flush=True)
    for label, target, runs in sizes:
        value = make_payload(target)
        text = json.dumps(value, indent=2, ensure_ascii=False)
        runs = max(2, runs // 3) if args.quick else runs
        if target >= 10_000_000:
            engine_s = median_time(lambda t=text: run(t), runs)
            ruamel_s = median_time(lambda v=value: ruamel_dump(v), 1)
            pyyaml_s = median_time(lambda v=value: pyyaml_c_dump(v), 1)
        else:  # interleaved, so that a change in the machine's load hits all three alike
            engine_s, pyyaml_s = interleaved(
                [lambda t=text: run(t), lambda v=value: pyyaml_c_dump(v)], runs
            )
            ruamel_s = median_time(lambda v=value: ruamel_dump(v), max(1, runs // 3))
        peak = peak_memory(lambda t=text: run(t))
        check_read_back(engine.run(INSTRUCTION, text).output or "", value)
        size = len(text.encode())
        rss = rss_delta(text)
        print(
            f"| {label} | {size:,} | {engine_s * 1e3:.3f} | {ruamel_s * 1e3:.2f} "
            f"| {pyyaml_s * 1e3:.3f} | {ruamel_s / engine_s:.1f}x | {pyyaml_s / engine_s:.2f}x "
            f"| {peak / size:.2f}x | {rss / size:.2f}x |",
            flush=True,
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
