"""Benchmark: YAML readers on yaml-test-suite (conformance) and on a ~100 KB document (cost).

    PYTHONPATH=.dev python3 benchmarks/yaml_readers.py [--suite PATH] [--repeat N]

Conformance, per reader, over the yaml-test-suite rows (``yaml-test-suite.jsonl``): valid
cases read to the suite's JSON ("right"), refused (an exception), or read to another value
("wrong"); error cases rejected or answered. Readers: the engine's differential reader
(``parse_yaml_documents``), its first reading alone (rapidyaml walked with the engine's
typing), the ruamel.yaml reader it replaced, and the raw loaders of the candidates (yaml-rs,
libfyaml, PyYAML's CSafeLoader as the YAML 1.1 reference). Raw loaders use their own typing,
so their "wrong" counts include typing differences (dates, sets, YAML 1.1 booleans).

Cost: median process CPU time of each reader on ~100 KB of YAML records, in ms and in
microseconds per KB, and the differential reader's ratio to CSafeLoader in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
import yaml_rs

from zerolayer.plugins.json_yaml import yaml_ruamel, yaml_ryml
from zerolayer.plugins.json_yaml.codec import emit_yaml, parse_yaml_documents

CORPORA = Path(os.environ.get("ZEROLAYER_CORPORA", "/work/shared/corpora"))


def _libfyaml() -> Callable[[str], list[Any]] | None:
    try:
        import libfyaml
    except ImportError:
        return None
    return lambda text: [d.to_python() for d in libfyaml.loads_all(text, collect_diag=True)]


def _yaml_rs(text: str) -> Any:
    return yaml_rs.loads(text, parse_datetime=False)


READERS: dict[str, Callable[[str], Any]] = {
    "zerolayer (differential)": parse_yaml_documents,
    "rapidyaml + engine typing": yaml_ryml.read_documents,
    "ruamel.yaml + engine typing": yaml_ruamel.parse_yaml_documents,
    "yaml-rs (raw)": _yaml_rs,
    "PyYAML CSafeLoader (1.1)": lambda t: list(yaml.load_all(t, Loader=yaml.CSafeLoader)),
}


def _json_documents(text: str) -> list[Any]:
    decoder = json.JSONDecoder()
    out, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        value, i = decoder.raw_decode(text, i)
        out.append(value)


def _same(got: Any, want: list[Any], single_value: bool) -> bool:
    if single_value:  # yaml-rs: one value for one document, a list for several
        want_value: Any = None if not want else want[0] if len(want) == 1 else want
        got, want = [got], [want_value]
    try:
        return json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True) and all(
            _string_keys(v) for v in got
        )
    except (TypeError, ValueError):
        return False


def _string_keys(value: Any) -> bool:
    if isinstance(value, dict):
        return all(type(k) is str and _string_keys(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_string_keys(v) for v in value)
    return True


def conformance(rows: list[dict[str, Any]], name: str, read: Callable[[str], Any]) -> dict:
    counts = {"right": 0, "refused": 0, "wrong": 0, "rejected": 0, "answered": 0}
    for row in rows:
        try:
            got = read(row["yaml"])
        except Exception:
            counts["rejected" if row["error"] else "refused"] += 1
            continue
        if row["error"]:
            counts["answered"] += 1
        elif _same(got, _json_documents(row["json"]), name.startswith("yaml-rs")):
            counts["right"] += 1
        else:
            counts["wrong"] += 1
    return counts


def records_yaml(target_bytes: int = 100_000) -> str:
    rnd = random.Random(7)
    items = []
    text = ""
    while len(text.encode()) < target_bytes:
        for _ in range(50):
            i = len(items)
            items.append(
                {
                    "id": i,
                    "name": f"user {i}",
                    "email": f"u{i}@example.com",
                    "active": i % 3 == 0,
                    "score": round(rnd.random() * 100, 3),
                    "tags": ["a", "b c", str(i)],
                    "note": None,
                    "address": {"city": "Town", "zip": f"{10000 + i}"},
                }
            )
        text = emit_yaml(items)
    return text


def cpu_median(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=Path, default=CORPORA / "yaml-test-suite")
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    readers = dict(READERS)
    fy = _libfyaml()
    if fy is not None:
        readers["libfyaml (raw)"] = fy
    suite = args.suite / "yaml-test-suite.jsonl"
    if suite.exists():
        rows = [json.loads(line) for line in suite.read_text(encoding="utf-8").splitlines()]
        valid = sum(not r["error"] for r in rows)
        print(f"yaml-test-suite: {valid} valid cases, {len(rows) - valid} error cases\n")
        columns = ["valid right", "valid refused", "valid wrong", "errors rejected"]
        print("| reader | " + " | ".join(columns) + " | errors answered |")
        print("| --- | --- | --- | --- | --- | --- |")
        for name, read in readers.items():
            c = conformance(rows, name, read)
            print(
                f"| {name} | {c['right']} | {c['refused']} | {c['wrong']} "
                f"| {c['rejected']} | {c['answered']} |"
            )
    else:
        print(f"{suite} not found: conformance skipped", file=sys.stderr)
    text = records_yaml()
    kb = len(text.encode()) / 1024
    print(f"\ncost on {kb:.0f} KB of YAML records (median CPU time of {args.repeat} runs)\n")
    print("| reader | ms | µs per KB |")
    print("| --- | --- | --- |")
    times = {}
    for name, read in readers.items():
        times[name] = cpu_median(lambda r=read: r(text), args.repeat)
        print(f"| {name} | {times[name] * 1e3:.2f} | {times[name] * 1e6 / kb:.0f} |")
    ratio = times["zerolayer (differential)"] / times["PyYAML CSafeLoader (1.1)"]
    print(f"\ndifferential reader / CSafeLoader: {ratio:.2f}x")


if __name__ == "__main__":
    main()
