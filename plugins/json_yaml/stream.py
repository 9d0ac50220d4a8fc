"""JSON text → YAML text without holding the whole parsed value.

``json_to_yaml(text, **options)`` returns exactly ``emit_yaml(parse_json(text), **options)``,
checked exactly as the ``yaml.emit`` op checks it, but for a payload whose top level is an
array or an object it reads, writes and checks the payload a batch of items at a time:

* each item of the top-level array (or entry of the top-level object) is read with the C
  scanner of :mod:`json` (``JSONDecoder.scan_once``) at its offset in the text;
* the value of a top-level object entry that is a non-empty array or object is itself
  read item by item, so ``{"data": [...]}`` streams too;
* every ``BATCH_CHARS`` characters of JSON, the items read so far are written with
  :func:`emit_yaml` and the YAML written is read back with :func:`verify_yaml` against
  them; then they are dropped and only the YAML text is kept.

Why the pieces add up to the whole. In block style the writer renders each sequence item
and each mapping entry from that item alone (caches only save time), so the text of a list
is the concatenation of the texts of its parts; for a nested entry the key line(s) come
once, then the item lines. Each batch is checked as a complete document — the batch alone,
or the key line(s) followed by the batch's lines, read against ``{key: batch}``. The writer
never writes multi-line scalars, comments, anchors or tags, so every item line sits inside
its own block-sequence entry or mapping entry, and a reader of the whole text reads the
same entries in the same order. Keys are checked to be distinct across batches here.

Anything else takes the whole-value path (:func:`parse_json`, :func:`emit_yaml`,
:func:`verify_yaml`): a scalar or empty top level, a byte order mark, text that may hold a
lone surrogate, a number that overflows a double, ``seq_style="flow"`` (whether a list fits on one
line depends on all its items), ``sort_keys`` at a level that would stream a mapping, and
duplicate keys at a streamed level. Whenever reading, writing or checking a batch fails,
the whole-value path runs from the start, so malformed payloads get exactly its
positioned errors and limits.
"""

from __future__ import annotations

import json
import re
from typing import Any

from zerolayer.plugins.json_yaml.json_read import (
    may_hold_surrogate,
    parse_json,
    read_float,
    reject_constant,
)
from zerolayer.plugins.json_yaml.verify import verify_yaml
from zerolayer.plugins.json_yaml.yaml_write import emit_yaml

__all__ = ["BATCH_CHARS", "json_to_yaml"]

#: Characters of JSON read before the items so far are written and checked. Small enough
#: that a batch's parsed value stays a small share of a large payload, large enough that
#: the per-batch cost (a reader and a writer) is a few percent of the work.
BATCH_CHARS = 8_192

_WS = re.compile(r"[ \t\n\r]*")
_NEXT = {
    "]": re.compile(r"[ \t\n\r]*(?:(,)[ \t\n\r]*|\])"),
    "}": re.compile(r"[ \t\n\r]*(?:(,)[ \t\n\r]*|\})"),
}
_COLON = re.compile(r"[ \t\n\r]*:[ \t\n\r]*")
# The C scanner json.loads uses: (value, end) for the JSON value at an offset.
_SCAN = json.JSONDecoder(parse_constant=reject_constant, parse_float=read_float).scan_once


class _GiveUp(Exception):
    """Streaming does not apply here; the whole-value path decides."""


def json_to_yaml(
    text: str,
    *,
    quote: str = "plain",
    indent: int = 2,
    seq_style: str = "block",
    sort_keys: bool = False,
    explicit_start: bool = False,
) -> str:
    """``emit_yaml(parse_json(text), ...)``, read back and checked, in bounded memory."""
    options: dict[str, Any] = {
        "quote": quote,
        "indent": indent,
        "seq_style": seq_style,
        "sort_keys": sort_keys,
    }
    if (
        len(text) > BATCH_CHARS
        and seq_style == "block"
        and not text.startswith("\ufeff")
        and not may_hold_surrogate(text)
    ):
        try:
            return _Stream(text, options, explicit_start).run()
        except Exception:  # the whole-value path gives the exact outcome, errors included
            pass
    value = parse_json(text)
    out = emit_yaml(value, explicit_start=explicit_start, **options)
    verify_yaml(out, value)
    return out


class _Stream:
    """One streaming conversion; ``run`` returns the YAML text or raises."""

    def __init__(self, text: str, options: dict[str, Any], explicit_start: bool) -> None:
        self.text = text
        self.options = options
        self.chunks: list[str] = []
        self.prefix = "---\n" if explicit_start else ""  # written before the first batch

    # -- reading ---------------------------------------------------------------------------

    def skip(self, i: int) -> int:
        """The offset of the first non-space character at or after ``i``."""
        return _WS.match(self.text, i).end()  # type: ignore[union-attr]

    def decode(self, i: int) -> tuple[Any, int]:
        """The JSON value at ``i`` and the offset just past it."""
        return _SCAN(self.text, i)  # type: ignore[no-any-return]

    def after_item(self, i: int, close: str) -> tuple[bool, int]:
        """Past the ``,`` or ``close`` after an item: (whether the container goes on, offset
        of the next item or past ``close``)."""
        found = _NEXT[close].match(self.text, i)
        if found is None:
            raise _GiveUp
        return found[1] is not None, found.end()

    def key(self, i: int) -> tuple[str, int]:
        """An object key at ``i`` and the offset of its value."""
        if self.text[i : i + 1] != '"':
            raise _GiveUp
        key, i = _SCAN(self.text, i)
        found = _COLON.match(self.text, i)
        if found is None:
            raise _GiveUp
        return key, found.end()

    def opens_items(self, i: int) -> bool:
        """Whether a non-empty array or object starts at ``i``."""
        return self.text[i : i + 1] in ("[", "{") and self.text[
            self.skip(i + 1) : self.skip(i + 1) + 1
        ] not in ("]", "}", "")

    # -- the document ----------------------------------------------------------------------

    def run(self) -> str:
        i = self.skip(0)
        if not self.opens_items(i):
            raise _GiveUp  # a scalar, an empty container or broken text
        if self.text[i] == "[":
            i = self.array(self.skip(i + 1), _Target())
        else:
            i = self.mapping(self.skip(i + 1), _Target(), top=True)
        if self.skip(i) != len(self.text):
            raise _GiveUp
        return "".join(self.chunks)

    def array(self, i: int, target: _Target) -> int:
        """Stream the items of an array from its first item; return the offset past ``]``."""
        batch: list[Any] = []
        mark = i
        more = True
        while more:
            value, i = self.decode(i)
            batch.append(value)
            more, i = self.after_item(i, "]")
            if i - mark >= BATCH_CHARS or not more:
                self.flush(batch, target)
                batch = []
                mark = i
        return i

    def mapping(self, i: int, target: _Target, *, top: bool) -> int:
        """Stream the entries of an object from its first key; return the offset past
        ``}``. At the top level, entries whose value is a non-empty array or object are
        streamed item by item."""
        if self.options["sort_keys"]:
            raise _GiveUp
        batch: dict[str, Any] = {}
        seen: set[str] = set()
        mark = i
        more = True
        while more:
            key, i = self.key(i)
            if key in seen:
                raise _GiveUp  # a repeated key replaces the first one's value in place
            seen.add(key)
            if top and self.opens_items(i):
                if batch:
                    self.flush(batch, target)
                    batch = {}
                i = self.entry(key, i)
            else:
                value, i = self.decode(i)
                batch[key] = value
            more, i = self.after_item(i, "}")
            if batch and (i - mark >= BATCH_CHARS or not more):
                self.flush(batch, target)
                batch = {}
            if not batch:
                mark = i
        return i

    def entry(self, key: str, i: int) -> int:
        """Stream the top-level entry ``key`` whose value at ``i`` is a non-empty array or
        object; return the offset past the value."""
        array = self.text[i] == "["
        sample = emit_yaml({key: [0] if array else {"k": 0}}, **self.options)
        head = sample[: sample.rfind("\n", 0, len(sample) - 1) + 1]  # the key line(s)
        target = _Target(key, head)
        if array:
            return self.array(self.skip(i + 1), target)
        return self.mapping(self.skip(i + 1), target, top=False)

    # -- writing and checking --------------------------------------------------------------

    def flush(self, batch: Any, target: _Target) -> None:
        """Write ``batch``, check that the text reads back to it, keep only the text."""
        value = batch if target.head is None else {target.key: batch}
        out = emit_yaml(value, **self.options)
        head = target.head or ""
        if not out.startswith(head):
            raise _GiveUp
        verify_yaml(self.prefix + out, value)
        if target.written:
            out = out[len(head) :]  # the key line(s) were written with the first batch
        target.written = True
        self.chunks.append(self.prefix + out)
        self.prefix = ""


class _Target:
    """Where a batch goes: the top level (``head`` None) or the value of a top-level key,
    whose key line(s) ``head`` are written once, before the first batch."""

    __slots__ = ("head", "key", "written")

    def __init__(self, key: str = "", head: str | None = None) -> None:
        self.key = key
        self.head = head
        self.written = False
