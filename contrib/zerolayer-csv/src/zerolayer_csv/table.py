"""The table value this plugin's ops pass along, and its readers and writers.

A ``Table`` is a header and rows of cell texts. Readers raise ``PayloadError`` (with line
and column) for text that is not what it claims to be, and ``Unsupported`` for text they
could read in more than one way; writers raise ``Unsupported`` when the target format
cannot hold a cell exactly.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass

from zerolayer.core.errors import PayloadError, Unsupported


@dataclass(frozen=True, slots=True)
class Table:
    """A header and rows of cell texts; every row has as many cells as the header."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


# ---------------------------------------------------------------- CSV


def read_csv(text: str) -> Table:
    """Read comma-separated text (RFC 4180 quoting) into a table."""
    lines = text.strip("\r\n")
    if not lines.strip():
        raise PayloadError("the CSV is empty", fmt="CSV", text=text, line=1, column=1)
    reader = csv.reader(io.StringIO(lines, newline=""), strict=True)
    records: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            records.append((reader.line_num, row))
    except csv.Error as exc:
        raise PayloadError(str(exc), fmt="CSV", text=lines, line=reader.line_num + 1) from None
    header = records[0][1]
    if len(header) == 1 and re.search(r"[;\t]", header[0]):
        raise Unsupported("csv_delimiter", "the CSV seems to use another delimiter than a comma")
    rows: list[tuple[str, ...]] = []
    for line, row in records[1:]:
        if not row:
            raise Unsupported("csv_blank_line", f"line {line} of the CSV is blank")
        if len(row) != len(header):
            raise PayloadError(
                f"this row has {len(row)} fields; the header has {len(header)}",
                fmt="CSV",
                text=lines,
                line=line,
                column=1,
            )
        rows.append(tuple(row))
    return Table(tuple(header), tuple(rows))


def write_csv(table: Table) -> str:
    """CSV text: quoted only where needed, one ``\\n`` after every row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.header)
    writer.writerows(table.rows)
    return out.getvalue()


# ---------------------------------------------------------------- JSON


class _Number(str):
    """A JSON number kept as the text it was written as (``1.50`` stays ``1.50``)."""


def read_json_records(text: str) -> Table:
    """Read a JSON array of flat objects that all have the same keys."""
    try:
        data = json.loads(text, parse_int=_Number, parse_float=_Number)
    except json.JSONDecodeError as exc:
        raise PayloadError(
            exc.msg, fmt="JSON", text=text, line=exc.lineno, column=exc.colno
        ) from None
    if not isinstance(data, list) or not data or not all(isinstance(r, dict) for r in data):
        raise Unsupported(
            "csv_json_shape", "only a non-empty JSON array of objects becomes a table"
        )
    header = tuple(data[0])
    rows: list[tuple[str, ...]] = []
    for i, record in enumerate(data, 1):
        if set(record) != set(header) or len(record) != len(header):
            raise Unsupported(
                "csv_json_keys", f"object {i} has other keys than the first; no exact table"
            )
        rows.append(tuple(_cell(record[k], k) for k in header))
    return Table(header, tuple(rows))


def _cell(value: object, key: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):  # a string, or a number as written (_Number)
        return str(value)
    if value is None:
        raise Unsupported("csv_json_null", f"{key!r} is null; a table cell has no null")
    raise Unsupported("csv_json_nested", f"{key!r} holds a nested value; a cell holds text")


def write_json_records(table: Table) -> str:
    """A JSON array with one object per row; every value is the cell's text."""
    if len(set(table.header)) != len(table.header):
        raise Unsupported("csv_duplicate_header", "two columns share a name; JSON keys cannot")
    records = [dict(zip(table.header, row, strict=True)) for row in table.rows]
    return json.dumps(records, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- Markdown tables

_DELIMITER_CELL = re.compile(r"^\s*:?-+:?\s*$")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _split_row(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = [c.strip() for c in _UNESCAPED_PIPE.split(body)]
    for cell in cells:
        if "\\" in cell.replace("\\|", ""):
            raise Unsupported("markdown_table_escape", "a cell holds a Markdown escape")
    return [c.replace("\\|", "|") for c in cells]


def read_markdown_table(text: str) -> Table:
    """Read one pipe table (header, delimiter row, data rows) and nothing else."""
    lines = [line for line in text.strip("\r\n").splitlines()]
    if len(lines) < 2 or any(not line.strip() for line in lines):
        raise Unsupported("markdown_table_shape", "the payload is not exactly one Markdown table")
    header = _split_row(lines[0])
    delimiter = _split_row(lines[1])
    if "|" not in lines[0] or not all(_DELIMITER_CELL.match(c) for c in delimiter):
        raise Unsupported("markdown_table_shape", "the second line is not a table delimiter row")
    if len(delimiter) != len(header):
        raise Unsupported("markdown_table_shape", "the delimiter row and the header differ")
    rows = []
    for line in lines[2:]:
        cells = _split_row(line)
        if len(cells) != len(header):
            raise Unsupported("markdown_table_ragged", "a row has another number of cells")
        rows.append(tuple(cells))
    return Table(tuple(header), tuple(rows))


def write_markdown_table(table: Table) -> str:
    """A pipe table with a ``---`` delimiter row; ``|`` in a cell is written ``\\|``."""
    lines = [_row(table.header), _row(tuple("---" for _ in table.header))]
    lines += [_row(row) for row in table.rows]
    return "\n".join(lines) + "\n"


def _row(cells: tuple[str, ...]) -> str:
    for cell in cells:
        if "\n" in cell or "\r" in cell:
            raise Unsupported("markdown_table_newline", "a cell holds a line break")
        if cell != cell.strip():
            raise Unsupported(
                "markdown_table_spaces", "a cell starts or ends with spaces, which tables trim"
            )
        if "\\" in cell:
            raise Unsupported("markdown_table_backslash", "a cell holds a backslash")
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
