"""No input class costs superlinear time: adversarial shapes grown 8 K -> 64 K characters.

Each parser the engine runs on a request (the instruction grammar, JSON, YAML, Markdown,
SQL, Python) gets the shapes that stress parsers: deep nesting, long lines, many keys or
statements, many aliases, long runs of one character. Each request goes through the whole
engine (gate, instruction grammar, payload reader, plan), grown eightfold; its CPU time may
grow at most ~linearly: the check allows 3x slack over the 8x of linear growth (quadratic
growth is 64x), and sub-millisecond runs are floored so timer noise cannot fail it.
The budget in absolute time (50 ms of CPU per 10 KB) is not asserted here, where a loaded
machine would fail it: ``benchmarks/adversarial.py`` runs these shapes against it, and
``docs/performance.md`` ("Adversarial inputs") lists its figures.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest

from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message
from zerolayer.plugins.markdown_html.render import MAX_EMPHASIS_MARKERS

SMALL, LARGE = 8 * 1024, 64 * 1024
SLACK = 3.0  # allowed factor over linear growth
FLOOR_S = 0.002  # a small run is counted as at least this long

JSON = "Convert this JSON to YAML:\n\n"
YAML = "Convert this YAML to JSON:\n\n"
MD = "Convert this Markdown to HTML:\n\n"
SQL = "Convert this SQL to pandas:\n\n"
PY = "Convert this Python to TypeScript:\n\n```python\n"


def _lines(n: int, line: Callable[[int], str]) -> str:
    out, size, i = [], 0, 0
    while size < n:
        out.append(line(i))
        size += len(out[-1]) + 1
        i += 1
    return "\n".join(out)


def _marked_paragraphs(n: int, unit: str) -> str:
    """Paragraphs of ``unit`` repeated, each with just under the emphasis markers (``*``, ``_``)
    at which the Markdown renderer falls back, cut to ``n`` characters."""
    paragraph = unit * ((MAX_EMPHASIS_MARKERS - 1) // (unit.count("*") + unit.count("_")))
    return "\n\n".join([paragraph] * (n // len(paragraph) + 1))[:n]


SHAPES: dict[str, Callable[[int], str]] = {
    # the instruction grammar
    "instruction/long run of one word": lambda n: "Convert this " + "very " * (n // 5) + "JSON to YAML: {}",
    "instruction/many clauses": lambda n: "Convert " + "and then sort by a " * (n // 19) + "this JSON to YAML: {}",
    "instruction/run of one character": lambda n: "Convert this JSON to YAML " + "!" * n + ": {}",
    "instruction/nested parentheses": lambda n: "Convert this JSON to YAML (" * (n // 27) + "{}",
    # JSON
    "json/nesting": lambda n: JSON + "[" * (n // 2) + "]" * (n // 2),
    "json/many keys": lambda n: JSON + "{" + ",".join(f'"k{i}": {i}' for i in range(n // 10)) + "}",
    "json/long line": lambda n: JSON + '["' + "a" * n + '"]',
    "json/run of one character": lambda n: JSON + "[" * n,
    # YAML
    "yaml/flow nesting": lambda n: YAML + "[" * (n // 2) + "]" * (n // 2),
    "yaml/flow nesting under the limit": lambda n: YAML + _lines(n, lambda i: "- " + "[" * 90 + "1" + "]" * 90),
    "yaml/block nesting": lambda n: YAML + "- " * (n // 2) + "1",
    "yaml/many keys": lambda n: YAML + _lines(n, lambda i: f"k{i}: {i}"),
    "yaml/many aliases": lambda n: YAML + "a: &a [1, 2]\nb: [" + ", ".join("*a" for _ in range(n // 4)) + "]",
    "yaml/long line": lambda n: YAML + "k: " + "a" * n,
    "yaml/run of one character": lambda n: YAML + "-" * n,
    "yaml/run of keys": lambda n: YAML + "a:" * (n // 2),
    # Markdown
    "markdown/nested quotes": lambda n: MD + ">" * n + " x",
    "markdown/emphasis run": lambda n: MD + "*a" * (n // 2),
    "markdown/delimiter runs around a word": lambda n: MD + "*" * (n // 2) + "a" + "*" * (n // 2),
    "markdown/brackets run": lambda n: MD + "[" * n,
    "markdown/long line": lambda n: MD + "word " * (n // 5),
    "markdown/backticks run": lambda n: MD + "`a" * (n // 2),
    "markdown/many links": lambda n: MD + "[a](b) " * (n // 7),
    # emphasis markers below the fallback: many paragraphs, or markers spread out
    "markdown/emphasis spans": lambda n: MD + _marked_paragraphs(n, "*a* **b** "),
    "markdown/emphasis run, paragraphs": lambda n: MD + _marked_paragraphs(n, "*a"),
    "markdown/unmatched openers": lambda n: MD + _marked_paragraphs(n, "*a "),
    "markdown/alternating * and _": lambda n: MD + _marked_paragraphs(n, "*_"),
    "markdown/nested emphasis runs": lambda n: MD + _marked_paragraphs(n, "*_*_a_*_* "),
    "markdown/runs of three": lambda n: MD + _marked_paragraphs(n, "a***b*"),
    "markdown/openers then closers": lambda n: MD + _marked_paragraphs(n, "**a" * 500 + "a**" * 500),
    "markdown/emphasis spread out": lambda n: MD + ("*a* " + "word " * 13) * (n // 69),
    # SQL
    "sql/nested parentheses": lambda n: SQL + "SELECT " + "(" * (n // 2) + "1" + ")" * (n // 2) + " FROM t",
    "sql/many columns": lambda n: SQL + "SELECT " + ", ".join(f"c{i}" for i in range(n // 5)) + " FROM t",
    "sql/long condition": lambda n: SQL + "SELECT a FROM t WHERE " + " OR ".join(f"a = {i}" for i in range(n // 10)),
    "sql/long string": lambda n: SQL + "SELECT a FROM t WHERE b = '" + "x" * n + "'",
    # Python
    "python/nesting": lambda n: PY + "x = " + "[" * (n // 2) + "]" * (n // 2) + "\n```",
    "python/many statements": lambda n: PY + _lines(n, lambda i: f"x{i} = {i}") + "\n```",
    "python/many calls": lambda n: PY + _lines(n, lambda i: f"print({i}, [{i}])") + "\n```",
    "python/long expression": lambda n: PY + "x = " + " + ".join("1" for _ in range(n // 4)) + "\n```",
    "python/run of one character": lambda n: PY + "x = '" + "a" * n + "'\n```",
}  # fmt: skip


def cpu_seconds(engine: Engine, text: str, runs: int = 2) -> float:
    """The least CPU time of ``runs`` engine runs on ``text`` (the collector paused)."""
    request = EngineRequest(messages=(Message("user", text),), temperature=0)
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.process_time()
            engine.run(request)
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


@pytest.mark.parametrize("shape", SHAPES)
def test_time_grows_at_most_linearly(engine: Engine, shape: str) -> None:
    make = SHAPES[shape]
    engine.run(EngineRequest(messages=(Message("user", make(1024)),), temperature=0))  # warm
    small = max(cpu_seconds(engine, make(SMALL)), FLOOR_S)
    large = cpu_seconds(engine, make(LARGE), runs=1)
    if large > SLACK * (LARGE / SMALL) * small:  # one retry: a loaded machine stalls runs
        large = min(large, cpu_seconds(engine, make(LARGE), runs=1))
    assert large <= SLACK * (LARGE / SMALL) * small, (
        f"{shape}: {small * 1000:.1f} ms at {SMALL} chars, {large * 1000:.1f} ms at {LARGE}"
    )
