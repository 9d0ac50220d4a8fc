"""Grammar transforms: from parsed clauses to directives (a reader step and a writer step)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.plan import Directive, Source, Step

READERS = {"csv": "csv.parse", "json": "csv.from_json", "markdown": "csv.from_markdown"}
WRITERS = {"csv": "csv.emit", "json": "csv.to_json", "markdown": "csv.to_markdown"}


def _formats(children: list[Any]) -> list[str]:
    return [c for c in children if isinstance(c, str) and c in READERS and not hasattr(c, "type")]


def _from_to(children: list[Any]) -> list[Directive]:
    formats = _formats(children)
    if len(formats) == 1:  # "转成CSV": no source stated
        return _to(children)
    source, target = formats
    if source == target:
        raise Unsupported("csv_same_format", f"{source} to {source} is not a conversion")
    return [Source(source), Step(READERS[source]), Step(WRITERS[target])]


def _to(children: list[Any]) -> list[Directive]:
    (target,) = _formats(children) or ["markdown"]  # `verb CSV_TABLE`: "make a Markdown table"
    return [Step(WRITERS[target])]


def _name(fmt: str) -> Callable[[list[Any]], str]:
    return lambda children: fmt


TRANSFORMS: dict[str, Callable[[list[Any]], Any]] = {
    "csv_from_to": _from_to,
    "csv_from_to_zh": _from_to,
    "csv_to": _to,
    "csv_src_csv": _name("csv"),
    "csv_src_json": _name("json"),
    "csv_src_markdown": _name("markdown"),
    "csv_dst_csv": _name("csv"),
    "csv_dst_json": _name("json"),
    "csv_dst_markdown": _name("markdown"),
}
