"""The plugin's ops: three readers into a ``csv-table`` and three writers out of it."""

from __future__ import annotations

from zerolayer.core.ops import OpSpec
from zerolayer.core.types import JSON_TEXT, MARKDOWN_TEXT, TEXT
from zerolayer_csv import table

TABLE = "csv-table"
# CSV output: not a textual type, so no other family's op can read it as its own input
# ("… to CSV, then sort by name" falls back); `csv.text` hands it out as the answer.
CSV_TEXT = "csv-text"


def _answer(text: str) -> str:
    return text


def _sniff_csv(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0]
    return "," in first and first[:1] not in "[{|"


def _sniff_json(text: str) -> bool:
    return text.lstrip().startswith("[")


def _sniff_markdown(text: str) -> bool:
    return text.lstrip().startswith("|")


OPS: tuple[OpSpec, ...] = (
    OpSpec(
        "csv.parse",
        TEXT,
        TABLE,
        table.read_csv,
        description="Read comma-separated text into a table.",
        implicit=True,
        formats=("csv",),
        sniff=_sniff_csv,
    ),
    OpSpec(
        "csv.from_json",
        TEXT,
        TABLE,
        table.read_json_records,
        description="Read a JSON array of flat objects with the same keys into a table.",
        implicit=True,
        formats=("json",),
        sniff=_sniff_json,
    ),
    OpSpec(
        "csv.from_markdown",
        TEXT,
        TABLE,
        table.read_markdown_table,
        description="Read one Markdown pipe table into a table.",
        implicit=True,
        formats=("markdown", "md"),
        sniff=_sniff_markdown,
    ),
    OpSpec("csv.emit", TABLE, CSV_TEXT, table.write_csv, description="Write the table as CSV."),
    OpSpec(
        "csv.text",
        CSV_TEXT,
        TEXT,
        _answer,
        description="CSV text as the answer.",
        implicit=True,
    ),
    OpSpec(
        "csv.to_json",
        TABLE,
        JSON_TEXT,
        table.write_json_records,
        description="Write the table as a JSON array of objects (values are the cells' text).",
    ),
    OpSpec(
        "csv.to_markdown",
        TABLE,
        MARKDOWN_TEXT,
        table.write_markdown_table,
        description="Write the table as a Markdown pipe table.",
    ),
)
