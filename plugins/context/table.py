"""Tables: parse Markdown and CSV tables, render canonical Markdown, and exact table ops.

Cells are strings and stay verbatim: ops add or rewrite only the cells they are about. Numbers
are read with :mod:`zerolayer.plugins.context.numbers` (``Decimal``, never floats) and every
computed value is exact before it is rounded once, with a stated tie rule.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from zerolayer.core.errors import LimitExceeded, OpError, PayloadError, Unsupported
from zerolayer.plugins.context.numbers import (
    CellNumber,
    Rounding,
    check_decimals,
    format_like,
    is_tie,
    parse_cell_number,
    plain,
    round_decimal,
    round_fraction,
)

Alignment = Literal["left", "right", "center"] | None
MAX_TABLE_CELLS = 200_000

_DELIM_CELL_RE = re.compile(r"^:?-+:?$")


@dataclass(slots=True)
class Table:
    """A table of string cells: a header row, data rows and per-column alignment.

    ``alignment`` has one entry per header cell: ``"left"``, ``"right"``, ``"center"`` or
    ``None`` (no colon in the delimiter row). Data rows are kept as written, so a row may have
    fewer or more cells than the header; ops that need a rectangular table refuse one that is
    not (``Unsupported``).
    """

    header: list[str]
    rows: list[list[str]]
    alignment: list[Alignment] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.alignment:
            self.alignment = [None] * len(self.header)
        if len(self.alignment) != len(self.header):
            raise OpError("a table needs one alignment entry per header cell")


@dataclass(frozen=True, slots=True)
class TableMatch:
    """A table found inside a larger text, with its 1-based first and last line numbers."""

    table: Table
    start_line: int
    end_line: int


# --------------------------------------------------------------------------- parsing


def split_row(line: str) -> list[str]:
    """The trimmed cells of one Markdown table row; ``\\|`` is an escaped pipe.

    Leading and trailing pipes are optional. A backslash before any other character is kept.
    """
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells: list[str] = []
    cur: list[str] = []
    i = 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            cur.append("|")
            i += 2
            continue
        if ch == "|":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    cells.append("".join(cur).strip())
    return cells


def _has_unescaped_pipe(line: str) -> bool:
    return re.search(r"(?<!\\)\|", line) is not None


def _delimiter(line: str) -> list[Alignment] | None:
    """The alignments of a delimiter row, or ``None`` when ``line`` is not one."""
    if not _has_unescaped_pipe(line):  # "---" alone is a setext underline or a rule
        return None
    cells = split_row(line)
    out: list[Alignment] = []
    for cell in cells:
        c = cell.replace(" ", "")
        if not _DELIM_CELL_RE.match(c):
            return None
        if c.startswith(":") and c.endswith(":"):
            out.append("center")
        elif c.endswith(":"):
            out.append("right")
        elif c.startswith(":"):
            out.append("left")
        else:
            out.append(None)
    return out


def _table_at(lines: list[str], i: int) -> tuple[Table, int] | None:
    """The table whose header is ``lines[i]``, and the index after its last row, if any."""
    if i + 1 >= len(lines) or not _has_unescaped_pipe(lines[i]):
        return None
    header = split_row(lines[i])
    align = _delimiter(lines[i + 1])
    if align is None or len(align) != len(header):
        return None
    rows: list[list[str]] = []
    j = i + 2
    while j < len(lines) and lines[j].strip() and _has_unescaped_pipe(lines[j]):
        rows.append(split_row(lines[j]))
        j += 1
    return Table(header, rows, align), j


def _check_cells(table: Table) -> None:
    cells = len(table.header) + sum(len(r) for r in table.rows)
    if cells > MAX_TABLE_CELLS:
        raise LimitExceeded(f"table of {cells} cells is over the limit of {MAX_TABLE_CELLS}")


def parse_markdown_table(text: str) -> Table:
    """The Markdown table that makes up ``text`` (surrounding blank lines allowed).

    Needs a header row, a delimiter row with one ``---`` cell per header cell (colons set the
    alignment) and any number of data rows; outer pipes are optional and ``\\|`` is a literal
    pipe. Raises ``PayloadError`` (with line and column) when ``text`` is not exactly one table.
    """
    lines = text.split("\n")
    first = next((k for k, ln in enumerate(lines) if ln.strip()), None)
    if first is None:
        raise PayloadError("no table: the text is empty", fmt="Markdown table")
    found = _table_at(lines, first)
    if found is None:
        bad = first + 1 if _has_unescaped_pipe(lines[first]) else first
        if bad >= len(lines):
            bad = first
        msg = (
            "expected a delimiter row like | --- | --- | with one cell per header cell"
            if bad == first + 1
            else "expected a header row with cells separated by |"
        )
        raise PayloadError(msg, fmt="Markdown table", text=text, line=bad + 1, column=1)
    table, end = found
    for k in range(end, len(lines)):
        if lines[k].strip():
            raise PayloadError(
                "text after the end of the table",
                fmt="Markdown table",
                text=text,
                line=k + 1,
                column=1,
            )
    _check_cells(table)
    return table


def find_tables(text: str) -> list[TableMatch]:
    """Every Markdown table inside ``text``, in order, with its line span.

    A table starts at a row followed by a matching delimiter row and ends at the first line
    that is blank or has no ``|`` (a caption line right after a table is not a row).
    """
    lines = text.split("\n")
    out: list[TableMatch] = []
    i = 0
    while i < len(lines):
        found = _table_at(lines, i)
        if found is None:
            i += 1
            continue
        table, end = found
        _check_cells(table)
        out.append(TableMatch(table, i + 1, end))
        i = end
    return out


def parse_csv_table(text: str, delimiter: str | None = None) -> Table:
    """The CSV (or TSV) table in ``text``; the first record is the header.

    The delimiter is ``delimiter`` when given, else a tab when the first line has one, else a
    comma. Fields may be double-quoted (RFC 4180). Every record must have as many fields as the
    header; otherwise ``PayloadError`` names the line.
    """
    body = text.strip("\r\n")
    if not body.strip():
        raise PayloadError("no table: the text is empty", fmt="CSV")
    if delimiter is None:
        delimiter = "\t" if "\t" in body.split("\n", 1)[0] else ","
    if len(delimiter) != 1:
        raise OpError("a CSV delimiter is one character")
    reader = csv.reader(io.StringIO(body), delimiter=delimiter, strict=True)
    records: list[list[str]] = []
    try:
        for rec in reader:
            if not rec or (len(rec) == 1 and not rec[0].strip()):
                continue
            if records and len(rec) != len(records[0]):
                raise PayloadError(
                    f"record has {len(rec)} fields but the header has {len(records[0])}",
                    fmt="CSV",
                    text=body,
                    line=reader.line_num,
                    column=1,
                )
            records.append([c.strip() for c in rec])
    except csv.Error as exc:
        raise PayloadError(str(exc), fmt="CSV", text=body, line=reader.line_num, column=1) from exc
    table = Table(records[0], records[1:])
    _check_cells(table)
    return table


# --------------------------------------------------------------------------- rendering


def _escape(cell: str) -> str:
    if "\n" in cell or "\r" in cell:
        raise OpError(f"a Markdown table cell cannot hold a line break: {cell!r}")
    return cell.replace("|", "\\|")


def _delim_cell(align: Alignment) -> str:
    return {"left": ":---", "right": "---:", "center": ":---:"}.get(align or "", "---")


def to_markdown(table: Table) -> str:
    """The table as canonical Markdown: ``| a | b |`` rows and a ``| --- | --- |`` delimiter.

    Cells are written verbatim (a ``|`` inside a cell becomes ``\\|``); alignment colons are
    kept. An empty cell is written as ``|  |``. No trailing newline.
    """
    lines = ["| " + " | ".join(_escape(c) for c in table.header) + " |"]
    lines.append("| " + " | ".join(_delim_cell(a) for a in table.alignment) + " |")
    for row in table.rows:
        lines.append("| " + " | ".join(_escape(c) for c in row) + " |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- columns


def _norm_header(name: str) -> str:
    return " ".join(name.split()).casefold()


def column_index(table: Table, column: str | int) -> int:
    """The 0-based index of ``column``: a header name or a 0-based index.

    Names match exactly first, then case-insensitively with whitespace collapsed. A name that
    matches several headers raises ``Unsupported``; no match raises ``OpError``.
    """
    if isinstance(column, int) and not isinstance(column, bool):
        if not 0 <= column < len(table.header):
            raise OpError(f"the table has {len(table.header)} columns; no column {column + 1}")
        return column
    exact = [i for i, h in enumerate(table.header) if h == column]
    if not exact:
        exact = [i for i, h in enumerate(table.header) if _norm_header(h) == _norm_header(column)]
    if len(exact) > 1:
        raise Unsupported("table_ambiguous_column", f"several columns are called {column!r}")
    if not exact:
        names = ", ".join(repr(h) for h in table.header)
        raise OpError(f"the table has no column {column!r}; its columns are {names}")
    return exact[0]


def _require_rectangular(table: Table) -> None:
    for r, row in enumerate(table.rows, start=1):
        if len(row) != len(table.header):
            raise Unsupported(
                "table_ragged_rows",
                f"row {r} has {len(row)} cells but the header has {len(table.header)}",
            )


def _number(table: Table, r: int, c: int) -> CellNumber:
    """The number in data row ``r`` (0-based), column ``c``; ``OpError`` if there is none."""
    cell = table.rows[r][c]
    parsed = parse_cell_number(cell)
    if parsed is None:
        raise OpError(
            f"row {r + 1} ({_row_label(table, r)}), column {table.header[c]!r}: "
            f"{cell!r} is not a number"
        )
    return parsed


def _row_label(table: Table, r: int) -> str:
    row = table.rows[r]
    return repr(row[0]) if row else "empty row"


_TOTAL_WORDS = {"total", "totals", "sum", "grand total", "subtotal", "合计", "总计", "小计", "总和"}


def _check_no_total_row(table: Table, what: str) -> None:
    for r, row in enumerate(table.rows, start=1):
        if row and _norm_header(row[0]).strip("*_ ").rstrip(":：") in _TOTAL_WORDS:
            raise Unsupported(
                "table_total_row",
                f"row {r} ({row[0]!r}) looks like a total row; {what} would be ambiguous",
            )


def _copy(table: Table) -> Table:
    return Table(list(table.header), [list(r) for r in table.rows], list(table.alignment))


# --------------------------------------------------------------------------- growth column

#: Header words that mark the current and the previous period.
CURRENT_WORDS = (
    "this year", "current year", "this period", "current period", "this month",
    "this quarter", "今年", "本年", "本年度", "本期", "当期", "本月", "本季度", "今年度",
)  # fmt: skip
PREVIOUS_WORDS = (
    "last year", "previous year", "prior year", "last period", "previous period",
    "prior period", "last month", "last quarter", "去年", "上年", "上年度", "上期", "上月",
    "上季度", "去年同期", "上年同期",
)  # fmt: skip

_YEAR_RE = re.compile(r"^(?:FY\s?)?((?:19|20|21)\d\d)(?:\s*年(?:度)?)?$", re.IGNORECASE)
# a fiscal year written with two digits after "FY" ("FY23", "FY 24", "FY'24"): 2000 + the digits
_FY_SHORT_RE = re.compile(r"^FY\s?['’]?(\d\d)$", re.IGNORECASE)


def _year_of(header: str) -> int | None:
    """The year a header names alone ("2024", "FY2023", "2023年", "FY23"), or None."""
    if m := _YEAR_RE.match(header.strip()):
        return int(m.group(1))
    if m := _FY_SHORT_RE.match(header.strip()):
        return 2000 + int(m.group(1))
    return None


def _has_word(header: str, words: Sequence[str]) -> bool:
    h = _norm_header(header)
    for w in words:
        if w.isascii():
            if re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", h):
                return True
        elif w in h:
            return True
    return False


def _year_columns(table: Table) -> list[tuple[int, int]]:
    out = []
    for i, h in enumerate(table.header):
        if (year := _year_of(h)) is not None:
            out.append((year, i))
    return out


def _period_column(table: Table, name: str | int) -> int:
    """``column_index``, and for a year that names no header exactly, the one year header
    for that year ("2023" finds "FY2023" or "2023年")."""
    try:
        return column_index(table, name)
    except OpError:
        named = _year_of(name) if isinstance(name, str) else None
        same = [i for year, i in _year_columns(table) if named is not None and year == named]
        if len(same) == 1:
            return same[0]
        raise


def resolve_growth_columns(
    table: Table, current: str | int | None = None, previous: str | int | None = None
) -> tuple[int, int]:
    """The (current, previous) column indexes for a growth column.

    Named columns are looked up with ``column_index`` (a year also finds its one year header:
    "2023" finds "FY2023" or "2023年"). When one or both are not named:
    a header with a current-period word (``this year``, ``今年``, ``本期`` …) and one with a
    previous-period word (``last year``, ``去年``, ``上期`` …), each unique; or exactly two
    year headers (``2022``, ``FY2023``, ``2023年``), the later one being current. When these
    rules find nothing, or disagree with each other or with a named column, ``Unsupported``.
    """
    cur = _period_column(table, current) if current is not None else None
    prev = _period_column(table, previous) if previous is not None else None
    if cur is not None and prev is not None:
        if cur == prev:
            raise OpError("the current and previous columns are the same column")
        return cur, prev

    candidates: list[tuple[int, int]] = []
    cur_words = [i for i, h in enumerate(table.header) if _has_word(h, CURRENT_WORDS)]
    prev_words = [i for i, h in enumerate(table.header) if _has_word(h, PREVIOUS_WORDS)]
    if len(cur_words) == 1 and len(prev_words) == 1 and cur_words != prev_words:
        candidates.append((cur_words[0], prev_words[0]))
    years = _year_columns(table)
    if len(years) == 2 and years[0][0] != years[1][0]:
        (_, a), (_, b) = sorted(years)
        candidates.append((b, a))
    candidates = [
        (c, p)
        for c, p in dict.fromkeys(candidates)
        if (cur is None or c == cur) and (prev is None or p == prev)
    ]
    if len(candidates) != 1:
        why = "no" if not candidates else "more than one"
        raise Unsupported(
            "table_growth_columns",
            f"{why} pair of current/previous columns found in headers "
            f"{', '.join(repr(h) for h in table.header)}; name the columns",
        )
    return candidates[0]


@dataclass(frozen=True, slots=True)
class NumberFormat:
    """How a computed ratio is written.

    ``percent``: ratio × 100 rounded to ``decimals`` places followed by ``%`` (``12.34%``);
    ``ratio``: the ratio itself rounded to ``decimals`` places (``0.1234``). ``plus_sign``
    writes ``+`` before positive values. ``ties="refuse"`` raises ``Unsupported`` for a value
    exactly halfway between two results (where conventions disagree) instead of rounding it.
    """

    kind: Literal["percent", "ratio"] = "percent"
    decimals: int = 2
    rounding: Rounding = "half_up"
    plus_sign: bool = False
    ties: Literal["round", "refuse"] = "round"


def format_ratio(value: Fraction, fmt: NumberFormat) -> str:
    """``value`` written as ``fmt`` says, rounded once from the exact value.

    A nonzero negative value that rounds to zero raises ``Unsupported``: whether it should read
    ``-0.00%`` or ``0.00%`` is a convention the request does not settle.
    """
    if fmt.kind not in ("percent", "ratio"):
        raise OpError(f"unknown number format {fmt.kind!r}; use 'percent' or 'ratio'")
    check_decimals(fmt.decimals)
    scaled = value * 100 if fmt.kind == "percent" else value
    if fmt.ties == "refuse" and is_tie(scaled, fmt.decimals):
        raise Unsupported(
            "table_rounding_tie",
            f"{plain(round_fraction(scaled, fmt.decimals + 1))} is exactly halfway at "
            f"{fmt.decimals} decimals; the tie rule is not stated",
        )
    rounded = round_fraction(scaled, fmt.decimals, fmt.rounding)
    if rounded == 0 and scaled < 0:
        raise Unsupported(
            "table_negative_zero",
            f"{float(scaled):.6g} rounds to zero at {fmt.decimals} decimals: -0 or 0 is unclear",
        )
    text = plain(rounded)
    if fmt.plus_sign and rounded > 0:
        text = "+" + text
    return text + ("%" if fmt.kind == "percent" else "")


def growth(current: Decimal, previous: Decimal) -> Fraction:
    """Exact growth ``(current − previous) / previous``; ``ZeroDivisionError`` when previous
    is zero."""
    return (Fraction(current) - Fraction(previous)) / Fraction(previous)


def add_growth_column(
    table: Table,
    *,
    name: str,
    current: str | int | None = None,
    previous: str | int | None = None,
    fmt: NumberFormat | None = None,
) -> Table:
    """A copy of ``table`` with a column ``name`` appended: ``(current − previous) / previous``.

    Columns are chosen by ``resolve_growth_columns``. Each value is computed exactly and
    rounded once as ``fmt`` says (default: percent, 2 decimals, half-up). Raises ``OpError``
    for a cell that is not a number (naming row and column) or a previous value of zero (naming
    the row), and ``Unsupported`` for a ragged table, an existing column called ``name`` or a
    negative previous value (``(this − last) / last`` and ``/ |last|`` both have users).
    """
    fmt = fmt or NumberFormat()
    _require_rectangular(table)
    if any(_norm_header(h) == _norm_header(name) for h in table.header):
        raise Unsupported("table_column_exists", f"the table already has a column {name!r}")
    c, p = resolve_growth_columns(table, current, previous)
    out = _copy(table)
    out.header.append(name)
    out.alignment.append(None)
    for r, row in enumerate(out.rows):
        cur = _number(table, r, c).value
        prev = _number(table, r, p).value
        if prev == 0:
            raise OpError(
                f"row {r + 1} ({_row_label(table, r)}): the previous value in column "
                f"{table.header[p]!r} is 0, so growth is undefined (division by zero)"
            )
        if prev < 0:
            raise Unsupported(
                "table_growth_negative_base",
                f"row {r + 1} ({_row_label(table, r)}): the previous value is negative; "
                "growth over a negative base has more than one convention",
            )
        row.append(format_ratio(growth(cur, prev), fmt))
    return out


# --------------------------------------------------------------------------- other ops


def column_numbers(table: Table, column: str | int) -> list[Decimal]:
    """The numbers of one column, top to bottom (``OpError`` for a non-numeric cell)."""
    _require_rectangular(table)
    c = column_index(table, column)
    return [_number(table, r, c).value for r in range(len(table.rows))]


def sum_column(table: Table, column: str | int) -> Decimal:
    """The exact sum of a numeric column, with as many decimal places as its most precise
    cell. A table with a total row raises ``Unsupported``."""
    _check_no_total_row(table, "a sum")
    values = column_numbers(table, column)
    total = sum((Fraction(v) for v in values), Fraction(0))
    places = max((-v.as_tuple().exponent for v in values if v.as_tuple().exponent < 0), default=0)
    return round_fraction(total, places)  # exact: a sum has no more places than its terms


def average_column(
    table: Table,
    column: str | int,
    *,
    decimals: int | None = None,
    rounding: Rounding = "half_up",
) -> Decimal:
    """The mean of a numeric column, exact, or rounded to ``decimals`` places.

    Without ``decimals`` the mean must be an exact decimal (``Unsupported`` for 10/3). No data
    rows raises ``OpError``; a total row raises ``Unsupported``.
    """
    _check_no_total_row(table, "an average")
    values = column_numbers(table, column)
    if not values:
        raise OpError("the table has no data rows to average")
    mean = sum((Fraction(v) for v in values), Fraction(0)) / len(values)
    if decimals is not None:
        return round_fraction(mean, decimals, rounding)
    den = mean.denominator
    for prime in (2, 5):
        while den % prime == 0:
            den //= prime
    if den != 1:
        raise Unsupported(
            "table_inexact_average", "the average is not a finite decimal; say how to round it"
        )
    places = 0
    while (mean * 10**places).denominator != 1:
        places += 1
    return round_fraction(mean, places)


def _sort_key_kind(table: Table, c: int) -> Literal["number", "text"]:
    kinds = set()
    for r in range(len(table.rows)):
        kinds.add("number" if parse_cell_number(table.rows[r][c]) is not None else "text")
    if kinds == {"number", "text"}:
        raise Unsupported(
            "table_mixed_column", f"column {table.header[c]!r} mixes numbers and text"
        )
    return "number" if kinds == {"number"} else "text"


def sort_rows(table: Table, by: str | int, *, desc: bool = False) -> Table:
    """A copy of ``table`` with its rows sorted by column ``by`` (stable: ties keep order).

    A column of numbers sorts by value. A text column sorts case-insensitively only when all
    its cells are ASCII (other collations, such as pinyin order, are not certain:
    ``Unsupported``). Mixed columns and tables with a total row raise ``Unsupported``.
    """
    _require_rectangular(table)
    _check_no_total_row(table, "sorting")
    c = column_index(table, by)
    out = _copy(table)
    if _sort_key_kind(table, c) == "number":
        keyed = [(_number(table, r, c).value, row) for r, row in enumerate(out.rows)]
        keyed.sort(key=lambda kv: kv[0], reverse=desc)
        out.rows = [row for _, row in keyed]
        return out
    cells = [row[c] for row in out.rows]
    if not all(cell.isascii() for cell in cells):
        raise Unsupported(
            "table_sort_collation", f"column {table.header[c]!r} has non-ASCII text to sort"
        )
    folded = {}
    for cell in cells:
        if folded.setdefault(cell.casefold(), cell) != cell:
            raise Unsupported(
                "table_sort_collation",
                f"{folded[cell.casefold()]!r} and {cell!r} differ only in case",
            )
    out.rows.sort(key=lambda row: row[c].casefold(), reverse=desc)
    return out


Comparison = Literal["==", "!=", "<", "<=", ">", ">="]


def select_rows(table: Table, column: str | int, op: Comparison, value: str) -> Table:
    """A copy of ``table`` keeping the rows where ``cell op value`` holds, in order.

    When ``value`` is a number the comparison is numeric and every cell of the column must be
    a number (``OpError`` names the first that is not). Otherwise only ``==`` and ``!=`` are
    allowed, comparing the trimmed cell text exactly.
    """
    ops = {
        "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
    }
    if op not in ops:
        raise OpError(f"unknown comparison {op!r}; use one of {', '.join(ops)}")
    _require_rectangular(table)
    c = column_index(table, column)
    target = parse_cell_number(value)
    out = _copy(table)
    if target is not None:
        out.rows = [
            row
            for r, row in enumerate(out.rows)
            if ops[op](_number(table, r, c).value, target.value)
        ]
        return out
    if op not in ("==", "!="):
        raise OpError(f"{value!r} is not a number, so {op} cannot compare with it")
    want = value.strip()
    out.rows = [row for row in out.rows if ops[op](row[c].strip(), want)]
    return out


def round_column(
    table: Table,
    column: str | int,
    decimals: int,
    *,
    rounding: Rounding = "half_up",
    ties: Literal["round", "refuse"] = "round",
) -> Table:
    """A copy of ``table`` whose column cells are rounded to ``decimals`` places.

    Each cell keeps its own style (currency sign, thousands separators, parentheses). A
    nonzero negative cell that rounds to zero raises ``Unsupported`` (``-0.00`` vs ``0.00``);
    so does a tie when ``ties="refuse"``.
    """
    check_decimals(decimals)
    _require_rectangular(table)
    c = column_index(table, column)
    out = _copy(table)
    for r, row in enumerate(out.rows):
        number = _number(table, r, c)
        if ties == "refuse" and is_tie(number.value, decimals):
            raise Unsupported(
                "table_rounding_tie", f"row {r + 1}: {row[c]!r} is exactly halfway; tie rule?"
            )
        rounded = round_decimal(number.value, decimals, rounding)
        if rounded == 0 and number.value < 0:
            raise Unsupported(
                "table_negative_zero",
                f"row {r + 1}: {row[c]!r} rounds to zero; -0 or 0 is unclear",
            )
        row[c] = format_like(number, rounded)
    return out
