"""YAML 1.2 reading into JSON-compatible values: two conformant parsers, differentially.

Every payload is read twice, by two independent YAML 1.2 parsers written in compiled code:

1. rapidyaml (C++, :mod:`~zerolayer.plugins.json_yaml.yaml_ryml`): its tree is walked
   into values with the engine's typing rules (:mod:`~zerolayer.plugins.json_yaml.
   yaml_typing`: the YAML 1.2 core schema; YAML 1.1/1.2-ambiguous plain scalars, tags with
   no JSON form, ``.inf``, complex keys, recursive aliases fall back);
2. yaml-rs (Rust, ``yaml_rs.loads``), read as plain values.

The verdict:

* both read the same documents (same JSON, types and key order included): the answer;
* both reject the text: a :class:`PayloadError` with the line and column of the error
  (worded by the ruamel.yaml reader when it rejects the text too, else rapidyaml's report);
* they disagree (one rejects, or the values differ): :class:`Unsupported`
  (``yaml_readers_disagree``) -- the request goes to the fallback, never a guess;
* the first reading finds YAML with no exact JSON value: :class:`Unsupported` with the
  reason (see :mod:`~zerolayer.plugins.json_yaml.yaml_typing`); duplicate keys, undefined
  aliases and ``!!int abc`` are :class:`PayloadError` (positioned by the ruamel.yaml
  reader);
* characters YAML does not allow in a stream (C0/C1 controls other than tab and line
  breaks, lone surrogates, U+FFFE/U+FFFF) are a positioned :class:`PayloadError` before
  either parser runs.

yaml-rs returns one value for a one-document stream and a list for several, so a stream
whose first reading is one sequence is compared with yaml-rs's value as one document. It
does not apply ``<<`` merge keys (they are YAML 1.1); when the first reading applied some,
they are applied to the second reading the same way before the comparison.

An empty stream (nothing but white space and comments) has no documents:
:func:`parse_yaml_documents` returns ``[]`` and :func:`parse_yaml` raises a
:class:`PayloadError` saying the YAML is empty. Several documents are
:class:`Unsupported` (``yaml_multi_document``) for :func:`parse_yaml`.

The comment-preserving path (options that keep comments) uses ruamel.yaml's round-trip
loader elsewhere (:mod:`~zerolayer.plugins.json_yaml.stream`);
:func:`parse_yaml_ruamel_safe` is ruamel.yaml's own safe load, a reference for checks.
Conformance and cost of each reader on yaml-test-suite: docs/performance.md
(benchmarks/yaml_readers.py).
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml_rs

from zerolayer.core.errors import (
    LimitExceeded,
    PayloadError,
    PositionedLimit,
    Unsupported,
    line_col,
)
from zerolayer.plugins.json_yaml import yaml_ruamel, yaml_ryml
from zerolayer.plugins.json_yaml.yaml_ruamel import MAX_DEPTH, parse_yaml_ruamel_safe

__all__ = ["MAX_DEPTH", "parse_yaml", "parse_yaml_documents", "parse_yaml_ruamel_safe"]

# Nothing but white space, comments and a byte order mark: a stream with no document.
_EMPTY = re.compile(r"\ufeff?(?:[ \t\r\n]|#[^\n\r]*)*")
_BOM = "\ufeff"


def parse_yaml(text: str) -> Any:
    """Parse a single YAML 1.2 document into JSON-compatible values.

    Raises :class:`PayloadError` (``fmt="YAML"``, 1-based line and column) for text that
    both parsers reject, that repeats a key, or that holds no document;
    :class:`Unsupported` when the parsers disagree, for YAML with no exact JSON form, or
    for several documents; :class:`LimitExceeded` for alias bombs.
    """
    docs = parse_yaml_documents(text)
    if len(docs) > 1:
        raise Unsupported(
            "yaml_multi_document",
            f"the YAML text holds {len(docs)} documents; only one can be converted",
        )
    if not docs:
        raise PayloadError(
            "the YAML is empty: it holds no document, only white space or comments",
            fmt="YAML",
            text=text,
            line=1,
            column=1,
            hint="send the YAML document to convert",
        )
    return docs[0]


def parse_yaml_documents(text: str) -> list[Any]:
    """Every document of a YAML 1.2 stream as JSON-compatible values (see the module docs)."""
    _refuse_non_printable(text)
    if _EMPTY.fullmatch(text):
        return []
    try:
        first, merges = yaml_ryml.read_stream(text)
    except yaml_ryml.TooDeep:
        _report_from_ruamel(text)
        raise LimitExceeded(
            f"YAML collections are nested more than {MAX_DEPTH} levels deep"
        ) from None
    except yaml_ryml.Refused as refused:
        if not refused.semantic:
            try:
                _second_reading(text, [], merges=False)
            except _Rejected:
                pass
            else:
                raise Unsupported(
                    "yaml_readers_disagree",
                    "the two YAML parsers disagree: one rejects the text "
                    f"({refused.message}), the other reads it",
                ) from None
        _report_from_ruamel(text)
        raise PayloadError(
            f"{refused.message}",
            fmt="YAML",
            text=text,
            line=refused.line,
            column=refused.column,
        ) from None
    try:
        same = _second_reading(text, first, merges=merges)
    except _Rejected:
        raise Unsupported(
            "yaml_readers_disagree",
            "the two YAML parsers disagree: one reads the text, the other rejects it",
        ) from None
    if not same:
        raise Unsupported(
            "yaml_readers_disagree", "the two YAML parsers read the text to different values"
        )
    return first


# Characters a YAML stream may not hold (YAML 1.2 c-printable, as ruamel.yaml checks it).
_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def _refuse_non_printable(text: str) -> None:
    found = _NON_PRINTABLE.search(text)
    if found is None:
        return
    line, column = line_col(text, found.start())
    raise PayloadError(
        f"character U+{ord(found.group()):04X} is not allowed in YAML",
        fmt="YAML",
        text=text,
        line=line,
        column=column,
        hint="write it as an escape in a double-quoted string",
    )


class _Rejected(Exception):
    """The second parser rejects the text as YAML."""


def _second_reading(text: str, first: list[Any], *, merges: bool) -> bool:
    """Whether yaml-rs reads ``text`` to the same documents as ``first`` (see the module
    docs); raises :class:`_Rejected` when it rejects the text."""
    try:
        value = yaml_rs.loads(text.removeprefix(_BOM), parse_datetime=False)
    except yaml_rs.YAMLDecodeError:
        raise _Rejected from None
    except Exception:  # a value the binding cannot build: not the same reading
        return False
    if merges:
        value = _apply_merges(value, {})
    if len(first) == 0:
        return value is None
    try:
        return _canonical(first[0] if len(first) == 1 else first) == _canonical(value)
    except (TypeError, ValueError, RecursionError):  # a set, a tuple key, inf, a cycle
        return False


def _apply_merges(value: Any, done: dict[int, Any]) -> Any:
    """``value`` with ``<<`` keys merged as the first reading merges them (explicit keys
    win, earlier merged mappings win over later ones)."""
    if type(value) is list:
        key = id(value)
        if key not in done:
            done[key] = [_apply_merges(item, done) for item in value]
        return done[key]
    if type(value) is not dict:
        return value
    key = id(value)
    if key in done:
        return done[key]
    out = {k: _apply_merges(v, done) for k, v in value.items() if k != "<<"}
    if "<<" in value:
        source = _apply_merges(value["<<"], done)
        parts = source if type(source) is list else [source]
        merged: dict[Any, Any] = {}
        for part in reversed(parts):
            if type(part) is dict:
                merged.update(part)
        merged.update(out)
        out = merged
    done[key] = out
    return out


def _canonical(docs: list[Any]) -> str:
    """One text for a list of documents: JSON with types, key order and floats exact."""
    return json.dumps(docs, ensure_ascii=False, allow_nan=False)


def _report_from_ruamel(text: str) -> None:
    """Raise the ruamel.yaml reader's positioned report on ``text``, if it has one."""
    try:
        yaml_ruamel.parse_yaml_documents(text)
    except (PayloadError, PositionedLimit):
        raise
    except (Unsupported, LimitExceeded):
        return
