"""Benchmark: instruction parse time, LALR (what the engine uses) against Earley.

    python3 benchmarks/instruction_parse.py

Both parsers are built from the same composed grammar (base + every built-in fragment).
For each instruction it reports the median parse time of the engine's LALR parser, of Lark's
Earley parser with the dynamic lexer, and whether Earley found the parse ambiguous; the time
of the surface rewrites (core/surface.py, uncached) that run before the parse; then the median
time to read a 1 KB message (segment it and parse the instruction of the reading the engine
takes) in the ways users write one.

    python3 benchmarks/instruction_parse.py --messages

times the messages alone: run it with another checkout first on ``PYTHONPATH`` to compare
two versions of the engine on one machine.
"""

from __future__ import annotations

import contextlib
import platform
import statistics
import sys
from pathlib import Path

from lark import Lark
from lark.exceptions import LarkError

sys.path.insert(0, str(Path(__file__).parent))
from json_yaml import median_time

from zerolayer.core.engine import Engine
from zerolayer.core.errors import Unsupported
from zerolayer.core.normalise import normalise
from zerolayer.core.segment import segment

_RECORDS = "".join(f'  {{"id": {i}, "name": "user {i}", "active": true}},\n' for i in range(24))
_JSON = "[\n" + _RECORDS.rstrip(",\n") + "\n]\n"
_YAML = "".join(f"- id: {i}\n  name: user {i}\n  active: true\n" for i in range(30))
MESSAGES = {
    "fenced JSON": f"Convert the following JSON to YAML:\n\n```json\n{_JSON}```\n",
    "fenced JSON, CRLF": f"Convert the following JSON to YAML:\n\n```json\n{_JSON}```\n".replace(
        "\n", "\r\n"
    ),
    "YAML after a colon": f"Convert this YAML to JSON:\n\n{_YAML}",
    "YAML, closing sentence": f"Convert this YAML to JSON:\n\n{_YAML}\nReturn only the JSON.",
}

INSTRUCTIONS = [
    "Convert the following JSON to YAML",
    "turn this json into yaml, use double quotes for strings",
    "JSON → YAML (indent 4)",
    "Sort these tickets by created_at descending, keep only id and name, then output YAML.",
    "Convert to YAML. Sort keys alphabetically and indent nested mappings by 4 spaces.",
    "将以下JSON转为YAML，确保数组项用'-'开头，字符串用双引号包裹",
    "把下面的JSON按created_at降序排列，只返回id和name字段",
    "How many students scored above 80? Reply with the number only.",
    "Convert this Markdown to HTML",
]


def main() -> None:
    engine = Engine()
    if "--messages" in sys.argv[1:]:
        messages(engine)
        return
    lalr = engine.parser
    earley = Lark(lalr.text, parser="earley", lexer="dynamic", ambiguity="explicit")
    print(f"# CPython {platform.python_version()}, {platform.machine()}")
    print("| instruction | surface µs | LALR µs | Earley µs | Earley / LALR | Earley ambiguous |")
    print("| --- | --- | --- | --- | --- | --- |")
    ratios = []
    lalr_times = []
    surface_times = []
    for raw in INSTRUCTIONS:
        written = normalise(raw)
        text = engine.surface.canonical(written)
        surface_s = median_time(lambda t=written: engine.surface.rewrite(t), 300)
        surface_times.append(surface_s)
        try:
            lalr.parse(text)
        except Unsupported as exc:
            print(f"| {raw[:60]} | {surface_s * 1e6:.0f} | falls back ({exc.reason}) | - | - | - |")
            continue
        lalr_s = median_time(lambda t=text: lalr.parse(t), 300)
        lalr_times.append(lalr_s)
        try:
            tree = earley.parse(text)
            ambiguous = "_ambig" in tree.pretty()
            earley_s = median_time(lambda t=text: earley.parse(t), 10)
            ratio = f"{earley_s / lalr_s:.0f}x"
            ratios.append(earley_s / lalr_s)
            earley_us = f"{earley_s * 1e6:.0f}"
        except LarkError as exc:
            earley_us, ratio, ambiguous = f"fails ({type(exc).__name__})", "-", "-"
        times = f"{surface_s * 1e6:.0f} | {lalr_s * 1e6:.0f} | {earley_us} | {ratio}"
        print(f"| {raw[:60]} | {times} | {ambiguous} |")
    print()
    print(f"surface median over instructions: {statistics.median(surface_times) * 1e6:.0f} µs")
    print(f"LALR median over instructions: {statistics.median(lalr_times) * 1e6:.0f} µs")
    if ratios:
        print(f"Earley / LALR median ratio: {statistics.median(ratios):.0f}x")
    print()
    messages(engine)


def forget(engine: Engine) -> None:
    """Forget every instruction read before (parses, rewrites, screens), in this version of
    the engine or an earlier one."""
    engine.forget_instructions()
    for remembered in ("_closing_cached", "surface", "frames"):
        part = getattr(engine, remembered, None)
        if part is not None:
            (getattr(part, "cache_clear", None) or part.forget)()


def messages(engine: Engine) -> None:
    """The median time to segment each 1 KB message and to read it (segment, then parse the
    instruction of the reading the engine takes, everything remembered of instructions
    forgotten each time: cold; or remembered: warm)."""
    print("| message (~1 KB) | segment µs | segment + parse µs, cold | warm |")
    print("| --- | --- | --- | --- |")
    for name, message in MESSAGES.items():
        segment_s = median_time(lambda m=message: segment(m), 300)

        def read(m: str = message) -> None:
            with contextlib.suppress(Unsupported):
                engine._read(m)

        def cold(m: str = message) -> None:
            forget(engine)
            read(m)

        cold_s, warm_s = median_time(cold, 300), median_time(read, 300)
        times = f"{segment_s * 1e6:.0f} | {cold_s * 1e6:.0f} | {warm_s * 1e6:.0f}"
        print(f"| {name} ({len(message)} B) | {times} |")


if __name__ == "__main__":
    main()
