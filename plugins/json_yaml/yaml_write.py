"""A fast YAML writer for JSON-compatible values (dict, list, str, int, float, bool, None).

Hand-written instead of a YAML library's emitter because it is ~10x faster than PyYAML's C
emitter path and ~100x faster than ruamel.yaml's pure one, and because it writes only the
subset of YAML that YAML 1.1 and YAML 1.2 readers provably read the same way (see
:mod:`zerolayer.plugins.json_yaml.yaml_scalars`). Layout:

* block mappings; a nested mapping sits ``indent`` columns right of its parent's keys;
* block sequences under a key are indented by ``indent`` (``key:\\n  - a``); a mapping or
  sequence that is a sequence item starts on the dash line (``- name: x``);
* ``seq_style="flow"`` writes a sequence whose items are all scalars as ``[a, b]``;
  sequences holding collections stay block;
* empty collections are ``{}`` and ``[]``; scalars never span lines (strings with line breaks
  are double-quoted with ``\\n``), so no reader folds or chomps anything;
* keys longer than 1000 characters use the explicit ``? key`` form (readers cap implicit
  keys at 1024 characters).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from zerolayer.core.errors import LimitExceeded, PlanError, Unsupported
from zerolayer.plugins.json_yaml.yaml_scalars import (
    double_quoted,
    float_text,
    is_plain_safe,
    single_quoted,
)

__all__ = ["QUOTE_STYLES", "SEQ_STYLES", "emit_yaml"]

QUOTE_STYLES = ("plain", "double", "single")
SEQ_STYLES = ("block", "flow")
_LONG_KEY = 1000
MAX_DEPTH = 100  # deeper YAML overflows the recursive readers (ruamel.yaml, PyYAML pure)


def emit_yaml(
    value: Any,
    *,
    quote: str = "plain",
    indent: int = 2,
    seq_style: str = "block",
    sort_keys: bool = False,
    explicit_start: bool = False,
    width: int | None = None,
) -> str:
    """Write ``value`` as YAML text that reads back to exactly ``value``.

    ``quote``: ``"plain"`` quotes only strings that need it (single quotes where they can
    express the string, else double); ``"double"`` / ``"single"`` quote every string value
    (mapping values, sequence items, a top-level string) that way, keys stay plain where
    safe; single quotes fall back to double quotes for strings they cannot hold (line
    breaks, tabs, control characters). ``indent`` (1-10) is the indentation of nested
    mappings and of sequences under a key. ``width`` (line folding) is not supported: any
    value other than None raises :class:`Unsupported`.
    """
    if quote not in QUOTE_STYLES:
        raise PlanError(f"quote must be one of {', '.join(QUOTE_STYLES)}, not {quote!r}")
    if seq_style not in SEQ_STYLES:
        raise PlanError(f"seq_style must be one of {', '.join(SEQ_STYLES)}, not {seq_style!r}")
    if type(indent) is not int or not 1 <= indent <= 10:
        raise PlanError(f"indent must be an integer from 1 to 10, not {indent!r}")
    if width is not None:
        raise Unsupported("yaml_line_width", "folding YAML lines to a width is not supported")
    writer = _Writer(quote, indent, seq_style == "flow", sort_keys)
    out = _Lines()
    if explicit_start:
        out.append("---")
    try:
        if type(value) is dict and value:
            writer.mapping(value, 0, out, 1)
        elif type(value) is list and value:
            if writer.flow and writer.all_scalars(value):
                out.append(writer.flow_seq(value))
            else:
                writer.sequence(value, 0, out, 1)
        else:
            out.append(writer.scalar(value))
    except RecursionError:
        raise _too_deep() from None
    except ValueError as exc:  # str() of an int beyond CPython's digit limit
        raise LimitExceeded(f"a number is too long to write: {exc}") from None
    return out.text()


class _Lines:
    """Collects output lines, joining them into chunks as it goes: a list of many small
    strings costs several times the text it holds, so only one chunk stays unjoined."""

    __slots__ = ("buffer", "chunks", "leads")

    CHUNK = 64

    def __init__(self) -> None:
        self.buffer: list[str] = []
        self.chunks: list[str] = []
        self.leads: list[tuple[str, int]] = []

    def lead(self, prefix: str, width: int) -> None:
        """The next line starts with ``prefix`` in place of its first ``width`` characters
        (the "- " of a sequence item whose value is a block)."""
        self.leads.append((prefix, width))

    def append(self, line: str) -> None:
        while self.leads:
            prefix, width = self.leads.pop()
            line = prefix + line[width:]
        self.buffer.append(line)
        if len(self.buffer) >= self.CHUNK:
            self.buffer.append("")
            self.chunks.append("\n".join(self.buffer))
            self.buffer = []

    def text(self) -> str:
        self.buffer.append("")
        self.chunks.append("\n".join(self.buffer))
        return "".join(self.chunks)


def _too_deep() -> LimitExceeded:
    return LimitExceeded(f"the value is nested more than {MAX_DEPTH} levels deep for YAML")


def _sorted_items(data: dict[str, Any]) -> list[tuple[str, Any]]:
    try:
        return sorted(data.items(), key=itemgetter(0))
    except TypeError:
        raise Unsupported(
            "yaml_non_string_key", "mapping keys of mixed types cannot be sorted"
        ) from None


class _Writer:
    """Per-call options and caches of rendered scalars."""

    def __init__(self, quote: str, indent: int, flow: bool, sort_keys: bool) -> None:
        self.quote = quote
        self.indent = indent
        self.flow = flow
        self.sort_keys = sort_keys
        self.values: dict[str, str] = {}
        self.flow_values: dict[str, str] = {}
        self.keys: dict[str, str] = {}

    # -- scalars -------------------------------------------------------------------------

    def string(self, text: str, flow: bool = False) -> str:
        cache = self.flow_values if flow else self.values
        out = cache.get(text)
        if out is None:
            quote = self.quote
            if quote == "double":
                out = double_quoted(text)
            elif quote == "plain" and is_plain_safe(text, flow):
                out = text
            else:
                out = single_quoted(text) or double_quoted(text)
            cache[text] = out
        return out

    def key(self, key: Any) -> str:
        if type(key) is not str:
            raise Unsupported(
                "yaml_non_string_key", f"mapping key {key!r} is not a string (JSON keys are)"
            )
        out = self.keys.get(key)
        if out is None:
            if is_plain_safe(key):
                out = key
            elif self.quote == "double":
                out = double_quoted(key)
            else:
                out = single_quoted(key) or double_quoted(key)
            self.keys[key] = out
        return out

    def scalar(self, value: Any, flow: bool = False) -> str:
        kind = type(value)
        if kind is str:
            return self.string(value, flow)
        if kind is bool:
            return "true" if value else "false"
        if kind is int:
            return str(value)
        if kind is float:
            return float_text(value)
        if value is None:
            return "null"
        if kind is dict:
            return "{}"
        if kind is list:
            return "[]"
        raise Unsupported(
            "yaml_unsupported_type", f"a {kind.__name__} value has no JSON-compatible YAML form"
        )

    # -- collections ---------------------------------------------------------------------

    @staticmethod
    def all_scalars(items: list[Any]) -> bool:
        for item in items:
            kind = type(item)
            if (kind is dict or kind is list) and item:
                return False
        return True

    def flow_seq(self, items: list[Any]) -> str:
        scalar = self.scalar
        return "[" + ", ".join([scalar(item, True) for item in items]) + "]"

    def mapping(self, data: dict[str, Any], col: int, out: _Lines, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _too_deep()
        pad = " " * col
        items = _sorted_items(data) if self.sort_keys else data.items()
        indent = self.indent
        for key, value in items:
            text = self.key(key)
            if len(text) > _LONG_KEY:
                out.append(f"{pad}? {text}")
                head = pad + ":"
            else:
                head = pad + text + ":"
            kind = type(value)
            if kind is dict and value:
                out.append(head)
                self.mapping(value, col + indent, out, depth + 1)
            elif kind is list and value:
                if self.flow and self.all_scalars(value):
                    out.append(head + " " + self.flow_seq(value))
                else:
                    out.append(head)
                    self.sequence(value, col + indent, out, depth + 1)
            elif kind is str:
                out.append(head + " " + self.string(value))
            else:
                out.append(head + " " + self.scalar(value))

    def sequence(self, items: list[Any], col: int, out: _Lines, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _too_deep()
        pad = " " * col
        dash = pad + "- "
        inner = col + 2
        for item in items:
            kind = type(item)
            if kind is dict and item:
                out.lead(dash, inner)
                self.mapping(item, inner, out, depth + 1)
            elif kind is list and item:
                if self.flow and self.all_scalars(item):
                    out.append(dash + self.flow_seq(item))
                else:
                    out.lead(dash, inner)
                    self.sequence(item, inner, out, depth + 1)
            elif kind is str:
                out.append(dash + self.string(item))
            else:
                out.append(dash + self.scalar(item))
