"""Benchmark: zerolayer's YAML writer (+ read-back check) against library emitters.

    PYTHONPATH=.dev python3 benchmarks/json_yaml.py [--quick]

For payloads of about 1 KB, 100 KB and 10 MB of JSON (deterministic records with strings
that need quoting, numbers, bools, nulls, nesting) it reports median wall times of

* ``emit``: :func:`emit_yaml` alone, ``emit+verify``: emit then :func:`verify_yaml`
  (the engine's path), ``parse_json``: :func:`parse_json` of the payload,
  ``parse_yaml``: :func:`parse_yaml` of the emitted YAML (the YAML -> JSON direction);
* ``ruamel``: ruamel.yaml ``YAML(typ="safe", pure=True).dump`` and ``pyyaml_c``: PyYAML
  ``yaml.dump(Dumper=CSafeDumper)`` of the same value;

the ratios of the library times to emit+verify, and the peak memory (tracemalloc) of
emit+verify relative to the JSON payload size. Times are process CPU time by default
(``--clock wall`` for wall time): on a shared machine CPU time is what other jobs distort
least.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import ruamel.yaml
import yaml

from zerolayer.plugins.json_yaml.codec import emit_yaml, parse_json, parse_yaml, verify_yaml

_WORDS = ["alpha", "yes", "no", "null", "2024-03-01", "0755", "a: b", "x #y", "1.10", "true"]


def make_payload(target_bytes: int, seed: int = 7) -> Any:
    """A JSON-compatible list of records whose JSON text is about ``target_bytes`` long."""
    rng = random.Random(seed)
    records: list[Any] = []
    size = 2
    i = 0
    while size < target_bytes:
        record = {
            "id": i,
            "name": f"user {i} {rng.choice(_WORDS)}",
            "email": f"user{i}@example.com",
            "active": rng.random() < 0.5,
            "score": round(rng.random() * 100, 3),
            "tags": [rng.choice(_WORDS) for _ in range(3)],
            "address": {"street": f"{i} Elm St", "zip": f"{rng.randrange(100000):05d}"},
            "note": None,
        }
        records.append(record)
        size += len(json.dumps(record)) + 2
        i += 1
    return records


CLOCK = time.process_time


def median_time(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = CLOCK()
        fn()
        times.append(CLOCK() - start)
    return statistics.median(times)


def peak_memory(fn: Callable[[], Any]) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def ruamel_dump(value: Any) -> str:
    stream = io.StringIO()
    ruamel.yaml.YAML(typ="safe", pure=True).dump(value, stream)
    return stream.getvalue()


def pyyaml_c_dump(value: Any) -> str:
    return yaml.dump(value, Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False)


def engine_path(value: Any) -> None:
    verify_yaml(emit_yaml(value), value)


def run(sizes: list[tuple[str, int, int]]) -> Iterator[dict[str, Any]]:
    for label, target, repeat in sizes:
        value = make_payload(target)
        payload = json.dumps(value, indent=2)
        n = len(payload.encode())
        emit = median_time(lambda v=value: emit_yaml(v), repeat)
        both = median_time(lambda v=value: engine_path(v), repeat)
        parse = median_time(lambda p=payload: parse_json(p), repeat)
        lib_repeat = max(1, repeat // 5) if n > 1_000_000 else repeat
        text = emit_yaml(value)
        parse_y = median_time(lambda t=text: parse_yaml(t), lib_repeat)
        rua = median_time(lambda v=value: ruamel_dump(v), lib_repeat)
        pyc = median_time(lambda v=value: pyyaml_c_dump(v), lib_repeat)
        peak = peak_memory(lambda v=value: engine_path(v))
        yield (
            {
                "size": label,
                "bytes": n,
                "emit_ms": emit * 1e3,
                "emit_verify_ms": both * 1e3,
                "parse_json_ms": parse * 1e3,
                "parse_yaml_ms": parse_y * 1e3,
                "ruamel_ms": rua * 1e3,
                "pyyaml_c_ms": pyc * 1e3,
                "ruamel_x": rua / both,
                "pyyaml_c_x": pyc / both,
                "peak_x_payload": peak / n,
            }
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 10 MB payload")
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="cpu: process CPU time (default; least distorted on a shared machine), wall",
    )
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    sizes = [("1 KB", 1_000, 201), ("100 KB", 100_000, 21)]
    if not args.quick:
        sizes.append(("10 MB", 10_000_000, 3))
    python = f"{platform.python_implementation()} {platform.python_version()}"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"# {python}, {os.cpu_count()} CPUs, {platform.machine()}, "
        f"{args.clock} clock, load average {load:.2f}"
    )
    header = (
        "| payload | JSON bytes | emit ms | emit+verify ms | parse_json ms | parse_yaml ms "
        "| ruamel dump ms | PyYAML C dump ms | ruamel / ours | PyYAML C / ours "
        "| peak mem / payload |"
    )
    print(header)
    print("|" + " --- |" * 11, flush=True)
    for r in run(sizes):
        print(
            f"| {r['size']} | {r['bytes']:,} | {r['emit_ms']:.3f} | {r['emit_verify_ms']:.3f} "
            f"| {r['parse_json_ms']:.3f} | {r['parse_yaml_ms']:.2f} | {r['ruamel_ms']:.2f} "
            f"| {r['pyyaml_c_ms']:.3f} | {r['ruamel_x']:.1f}x | {r['pyyaml_c_x']:.2f}x "
            f"| {r['peak_x_payload']:.2f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
