"""Benchmark: how much longer a Python -> TypeScript translation is than its Python program.

Run from the repository root with the package importable (e.g. ``PYTHONPATH=.dev``):

    python benchmarks/py_ts_size.py [--dev PATH] [--each]

Translates the Python programs of the py_ts engine cases (``tests/cases/py_ts/en.yaml`` and
``zh.yaml``) and of the ``py_ts`` family of the zeroscore dev corpus (``--dev``, when the file
exists), and prints the ratio of output size to input size (bytes): over all programs
together, the median and the largest, with the lines of runtime helpers (the prelude) and of
the program itself. ``--each`` prints every program's figures.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from dataclasses import dataclass
from pathlib import Path

import yaml

from zerolayer.plugins.py_ts.emit_stmt import PRELUDE_END
from zerolayer.plugins.py_ts.translate import parse_python, python_to_typescript

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases" / "py_ts"
DEV = Path("/work/shared/zeroscore/dev.jsonl")
_FENCE = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.S)


@dataclass(frozen=True)
class Size:
    """The sizes of one translation."""

    name: str
    source_bytes: int
    output_bytes: int
    helper_lines: int
    program_lines: int

    @property
    def ratio(self) -> float:
        return self.output_bytes / self.source_bytes


def programs(dev: Path) -> list[tuple[str, str]]:
    """(name, Python source) of the engine cases and of the dev corpus' py_ts family."""
    out: list[tuple[str, str]] = []
    for lang in ("en", "zh"):
        for case in yaml.safe_load((CASES / f"{lang}.yaml").read_text(encoding="utf-8")):
            if case.get("payload"):
                out.append((case["id"], case["payload"]))
    if dev.exists():
        for line in dev.read_text(encoding="utf-8").splitlines():
            case = json.loads(line) if line.strip() else {}
            if case.get("category") != "py_ts":
                continue
            m = _FENCE.search(case["request"]["messages"][-1]["content"])
            if m:
                out.append((case["id"], m.group(1)))
    return out


def measure(name: str, source: str) -> Size:
    """The sizes of the translation of ``source``."""
    ts = python_to_typescript(parse_python(source))
    head, sep, body = ts.partition(PRELUDE_END)
    helpers = head.count("\n") + 1 if sep else 0
    program = (body if sep else ts).strip("\n").count("\n") + 1
    return Size(name, len(source.encode()), len(ts.encode()), helpers, program)


def main() -> None:
    """Translate every program and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dev", type=Path, default=DEV)
    parser.add_argument("--each", action="store_true")
    args = parser.parse_args()
    sizes = [measure(name, source) for name, source in programs(args.dev)]
    if args.each:
        for s in sizes:
            sizes_text = f"{s.source_bytes:6} B -> {s.output_bytes:6} B  x{s.ratio:5.1f}"
            lines = f"helpers {s.helper_lines:4} lines, program {s.program_lines:4} lines"
            print(f"{s.name:22} {sizes_text}  {lines}")
    total_in = sum(s.source_bytes for s in sizes)
    total_out = sum(s.output_bytes for s in sizes)
    ratios = [s.ratio for s in sizes]
    worst = max(sizes, key=lambda s: s.ratio)
    print(f"programs:                {len(sizes)}")
    print(f"output/input, all:       {total_out / total_in:6.2f}  ({total_out} / {total_in} bytes)")
    print(f"output/input, median:    {statistics.median(ratios):6.2f}")
    print(f"output/input, largest:   {worst.ratio:6.2f}  ({worst.name})")
    print(f"helper lines, mean:      {statistics.mean(s.helper_lines for s in sizes):6.1f}")
    print(f"helper lines, largest:   {max(s.helper_lines for s in sizes):6d}")


if __name__ == "__main__":
    main()
