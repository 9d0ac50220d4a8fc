"""Reference implementations that compute the expected answers of the paraphrase corpus.

They use the standard tools (json, PyYAML, markdown-it-py, CPython itself, exact fractions),
never zerolayer, so a gold is what an independent implementation answers.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml
from markdown_it import MarkdownIt

# ---------------------------------------------------------------- JSON queries


@dataclass(frozen=True)
class Sort:
    field: str
    desc: bool


@dataclass(frozen=True)
class Filter:
    field: str
    op: str  # > < >= <= ==
    value: Any


@dataclass(frozen=True)
class Project:
    fields: tuple[str, ...]


@dataclass(frozen=True)
class Limit:
    n: int


@dataclass(frozen=True)
class Top:
    """The n records with the highest (desc) or lowest value of ``field``, in that order."""

    n: int
    field: str
    desc: bool


@dataclass(frozen=True)
class Count:
    pass


@dataclass(frozen=True)
class Extreme:
    """The highest (desc) or lowest value of ``field``."""

    field: str
    desc: bool


@dataclass(frozen=True)
class Between:
    """``lo <= field <= hi``."""

    field: str
    lo: Any
    hi: Any


@dataclass(frozen=True)
class Exists:
    """Whether any record has ``field op value`` (a JSON boolean)."""

    field: str
    op: str
    value: Any


@dataclass(frozen=True)
class Pick:
    """The one record with the highest (desc) or lowest ``field``; with ``key``, its value."""

    field: str
    desc: bool
    key: str | None = None


QueryOp = Sort | Filter | Project | Limit | Top | Count | Extreme | Between | Exists | Pick

_COMPARE = {
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def run_query(records: list[dict[str, Any]], ops: list[QueryOp]) -> Any:
    """Apply ``ops`` in order; Count, Extreme, Exists and Pick end the chain with one value."""
    rows: Any = [dict(r) for r in records]
    for op in ops:
        if isinstance(op, Sort):
            values = [r[op.field] for r in rows]
            if len(set(values)) != len(values):
                raise ValueError(f"sort by {op.field} has ties")
            rows = sorted(rows, key=lambda r: r[op.field], reverse=op.desc)
        elif isinstance(op, Top):
            rows = run_query(rows, [Sort(op.field, op.desc), Limit(op.n)])
        elif isinstance(op, Filter):
            rows = [r for r in rows if _COMPARE[op.op](r[op.field], op.value)]
        elif isinstance(op, Project):
            rows = [{f: r[f] for f in op.fields} for r in rows]
        elif isinstance(op, Limit):
            rows = rows[: op.n]
        elif isinstance(op, Between):
            rows = [r for r in rows if op.lo <= r[op.field] <= op.hi]
        elif isinstance(op, Exists):
            return any(_COMPARE[op.op](r[op.field], op.value) for r in rows)
        elif isinstance(op, Pick):
            best = run_query(rows, [Sort(op.field, op.desc)])[0]
            return best if op.key is None else best[op.key]
        elif isinstance(op, Count):
            return len(rows)
        elif isinstance(op, Extreme):
            values = [r[op.field] for r in rows]
            return max(values) if op.desc else min(values)
    return rows


# ---------------------------------------------------------------- YAML and JSON


def yaml_load(text: str) -> Any:
    return yaml.safe_load(text)


def sort_keys_deep(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: sort_keys_deep(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sort_keys_deep(v) for v in value]
    return value


def yaml_block(value: Any) -> str:
    """A YAML rendering of ``value`` as a user would paste it (block style, order kept)."""
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, default_flow_style=False)


# ---------------------------------------------------------------- Markdown


def markdown_html(text: str, *, tables: bool = False) -> str:
    md = MarkdownIt("commonmark")
    if tables:
        md.enable("table")
    return md.render(text)


# ---------------------------------------------------------------- Python


def python_stdout(source: str) -> str:
    """What CPython prints running ``source``."""
    with tempfile.TemporaryDirectory(prefix="paraphrase-py-") as tmp:
        path = Path(tmp) / "main.py"
        path.write_text(source, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(path)], capture_output=True, text=True, timeout=30, check=True
        )
    return done.stdout


# ---------------------------------------------------------------- growth columns


def _number(cell: str) -> Fraction:
    return Fraction(cell.replace(",", ""))


def _round_half_up(value: Fraction, decimals: int) -> Fraction:
    scale = Fraction(10) ** decimals
    scaled = abs(value) * scale
    whole = int(scaled)
    if scaled - whole >= Fraction(1, 2):
        whole += 1
    return Fraction(whole if value >= 0 else -whole) / scale


def is_tie(value: Fraction, decimals: int) -> bool:
    scaled = value * Fraction(10) ** decimals
    return (scaled - int(scaled)) in (Fraction(1, 2), Fraction(-1, 2))


def growth_cell(previous: str, current: str, decimals: int) -> str:
    """(current − previous) / previous as a percentage with ``decimals`` places."""
    growth = (_number(current) - _number(previous)) / _number(previous) * 100
    if is_tie(growth, decimals):
        raise ValueError(f"growth {growth} is a rounding tie at {decimals} decimals")
    rounded = _round_half_up(growth, decimals)
    if rounded == 0 and growth < 0:
        raise ValueError("negative growth rounds to zero")
    return f"{float(rounded):.{decimals}f}%" if decimals else f"{int(rounded)}%"


def growth_table(
    header: list[str], rows: list[list[str]], name: str, decimals: int
) -> list[list[str]]:
    """The table with a growth column (previous = column 1, current = column 2 after the key)."""
    out = [[*header, name]]
    prev_col, cur_col = len(header) - 2, len(header) - 1
    for row in rows:
        out.append([*row, growth_cell(row[prev_col], row[cur_col], decimals)])
    return out


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)
