"""YAML 1.2 reading with ruamel.yaml: the reference reader, and the wording of YAML errors.

The engine reads YAML payloads with two compiled parsers (see
:mod:`~zerolayer.plugins.json_yaml.yaml_read`); this pure-Python reader words the positioned
error when both reject a text, and is the reference the tests compare with. Its rules:

ruamel.yaml's pure-Python parser (YAML 1.2) produces the event stream; this module builds
values from the events itself, so every typing rule is explicit and JSON-shaped:

* Plain scalars follow the YAML 1.2 core schema (null / bool / int / float / str). Quoted
  and block scalars, and scalars tagged ``!`` or ``!!str``, are strings. ``!!int``,
  ``!!float``, ``!!bool``, ``!!null``, ``!!map``, ``!!seq`` are honoured.
* Plain scalars that YAML 1.1 readers (PyYAML, libyaml, go-yaml v2, ...) read as a bool
  or an int but YAML 1.2 as a string -- ``yes/no/on/off`` and their capitalised forms,
  ``0``-prefixed octals like ``0755``, numbers with ``_`` separators, ``0b`` binaries --
  raise :class:`Unsupported` (``yaml_version_ambiguous``): the author's intent is unclear.
  Dates, timestamps and ``1:30`` stay the strings they are written as (YAML 1.2).
* ``.inf`` / ``.nan`` (no JSON equivalent), other tags (``!!binary``, ``!!timestamp``,
  ``!!set``, ``!!omap``, local ``!foo`` tags), complex (collection) keys, recursive
  aliases and ``%YAML 1.1`` documents raise :class:`Unsupported`.
* Non-string scalar keys become strings only when their source text is already the JSON
  spelling (``1``, ``true``, ``null``); ``1: a`` -> ``{"1": "a"}``. Others (``0x1F``,
  ``1.50``, ``~``) are :class:`Unsupported`, as is a converted key that collides.
* Duplicate keys are a :class:`PayloadError`. Anchors and aliases are resolved (shared
  values); ``<<`` merge keys are applied like PyYAML and ruamel.yaml do (explicit keys win,
  earlier merged mappings win over later ones).
* :func:`parse_yaml` reads one document (here an empty stream is ``None``), several
  documents raise :class:`Unsupported` (``yaml_multi_document``);
  :func:`parse_yaml_documents` returns the list of all documents. A leading byte order
  mark is skipped.
* Collections nested more than :data:`MAX_DEPTH` (100) levels deep -- flow ``[``/``{`` and
  block alike -- raise :class:`PositionedLimit` at the collection that passes the limit.
  The YAML scanner's cost per token grows with the flow nesting depth, so the limit is
  what keeps reading linear in the size of the text; it is checked while scanning, before
  any deeper work is done. It is the same depth the YAML writer accepts.
* Double-quoted ``\\uD83D\\uDE00`` surrogate-pair escapes are joined (as in JSON); a lone
  surrogate escape is a :class:`PayloadError`.
* Texts ruamel.yaml is known to misread raise :class:`Unsupported`
  (``yaml_reader_limitation``): raw U+0085 / U+2028 / U+2029, a ``?`` glued to a scalar
  right after ``[``, ``{`` or ``,``, and a block scalar ending in a line of spaces with
  no line break. yaml-test-suite deviations are listed in
  ``tests/json_yaml_codec/cases/yaml_suite_exceptions.yaml``.
"""

from __future__ import annotations

import re
from typing import Any

import ruamel.yaml
from ruamel.yaml import events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError

from zerolayer.core.errors import (
    LimitExceeded,
    PayloadError,
    PositionedLimit,
    Unsupported,
    ZeroLayerError,
    line_col,
)
from zerolayer.plugins.json_yaml.yaml_typing import (
    CORE_TAG,
    BadTaggedValue,
    is_merge_key,
    plain_value,
    scalar_key,
    tagged_value,
)

__all__ = ["MAX_DEPTH", "parse_yaml", "parse_yaml_documents", "parse_yaml_ruamel_safe"]

MAX_DEPTH = 100  # nesting levels of collections a YAML payload may have (see the module docs)

_SURROGATE = re.compile("[\ud800-\udfff]")
_EXPANSION_FACTOR = 100  # aliases may expand a document to at most 100 nodes per char


class _TooDeep(Exception):
    """Raised by the scanner at the flow collection that passes ``MAX_DEPTH``."""

    def __init__(self, mark: Any) -> None:
        super().__init__("too deep")
        self.mark = mark


def _too_deep(text: str, mark: Any) -> PositionedLimit:
    return PositionedLimit(
        f"collections are nested more than {MAX_DEPTH} levels deep, the limit for YAML",
        fmt="YAML",
        text=text,
        line=mark.line + 1,
        column=mark.column + 1,
        hint="flatten the document, or send it as JSON",
    )


class _BoundedScanner(ruamel.yaml.scanner.Scanner):  # type: ignore[misc]
    """ruamel.yaml's scanner refusing flow collections nested deeper than ``MAX_DEPTH``,
    with its simple-key bookkeeping made O(1) per token.

    The scanner keeps one possible simple key per open flow level and walked them all for
    every token (tokens x flow depth). A key is only saved at the current, deepest level
    (deeper levels have none: their keys go when their collections close), so the keys
    are in level order, oldest first, both in the dictionary and in the text. Staleness
    (another line, or more than 1024 characters back) is then monotone: stale keys form a
    prefix, and the nearest key is the first. Both checks stop at the first fresh key.
    """

    def stale_possible_simple_keys(self) -> None:
        keys = self.possible_simple_keys
        reader = self.reader
        while keys:
            level = next(iter(keys))
            key = keys[level]
            if key.line == reader.line and reader.index - key.index <= 1024:
                return
            if key.required:
                raise ruamel.yaml.scanner.ScannerError(
                    "while scanning a simple key",
                    key.mark,
                    "could not find expected ':'",
                    reader.get_mark(),
                )
            del keys[level]

    def next_possible_simple_key(self) -> Any:
        for key in self.possible_simple_keys.values():
            return key.token_number
        return None

    def fetch_flow_collection_start(self, TokenClass: Any, to_push: str) -> None:
        if len(self.flow_context) >= MAX_DEPTH:
            raise _TooDeep(self.reader.get_mark())
        super().fetch_flow_collection_start(TokenClass, to_push)


def _yaml() -> ruamel.yaml.YAML:
    yaml = ruamel.yaml.YAML(typ="safe", pure=True)
    yaml.Scanner = _BoundedScanner
    return yaml


def parse_yaml(text: str) -> Any:
    """Parse a single YAML 1.2 document into JSON-compatible values (None for no document).

    Raises :class:`PayloadError` (``fmt="YAML"``, 1-based line and column) for text that is
    not YAML or repeats a key, :class:`Unsupported` for YAML with no exact JSON form (see
    the module docs) or several documents, :class:`LimitExceeded` for alias bombs.
    """
    docs = parse_yaml_documents(text)
    if len(docs) > 1:
        raise Unsupported(
            "yaml_multi_document",
            f"the YAML text holds {len(docs)} documents; only one can be converted",
        )
    return docs[0] if docs else None


def parse_yaml_documents(text: str) -> list[Any]:
    """Every document of a YAML 1.2 stream as JSON-compatible values (see :func:`parse_yaml`)."""
    _refuse_known_misreads(text)
    builder = _Builder(text)
    try:
        for event in _yaml().parse(text):
            builder.feed(event)
    except _TooDeep as exc:
        raise _too_deep(text, exc.mark) from None
    except MarkedYAMLError as exc:
        reason, mark = _explain(exc)
        raise _positioned(text, reason, mark) from None
    except ReaderError as exc:
        line, column = line_col(text, exc.position)
        raise PayloadError(
            f"character U+{exc.character:04X} is not allowed in YAML"
            if isinstance(exc.character, int)
            else str(exc.reason),
            fmt="YAML",
            text=text,
            line=line,
            column=column,
        ) from None
    except YAMLError as exc:
        raise PayloadError(f"invalid YAML: {exc}", fmt="YAML", text=text) from None
    except RecursionError:
        raise LimitExceeded("YAML nesting is too deep to convert") from None
    except ZeroLayerError:
        raise
    except Exception as exc:  # a reader bug (e.g. an assertion on %YAML 1.3): fall back
        raise Unsupported(
            "yaml_reader_failure", f"the YAML reader failed: {type(exc).__name__}: {exc}"
        ) from None
    return builder.documents


# Texts ruamel.yaml is known to read to a different value than YAML 1.2 says
# (yaml-test-suite 652Z, HM87, JEF9/02, L24T/01): a '?' glued to a plain scalar right after
# a flow indicator ('[?x]', '{ ?x: y}') is taken for an explicit key marker, and a block
# scalar whose text ends in a line of spaces without a line break loses a line break.
# It also treats the raw characters U+0085, U+2028 and U+2029 as line breaks in places
# (YAML 1.1 rules), which YAML 1.2 reads as ordinary characters.
# All are rare; the checks err on the side of falling back.
_FLOW_QUESTION = re.compile(r"[\[{,][ \t\r\n]*\?[^ \t\r\n]")
_TRAILING_SPACES = re.compile(r"\n[ ]+\Z")


_YAML11_BREAK = re.compile("[\x85\u2028\u2029]")


def _refuse_known_misreads(text: str) -> None:
    """Raise Unsupported for texts that ruamel.yaml is known to misread (see above)."""
    if _YAML11_BREAK.search(text):
        raise Unsupported(
            "yaml_reader_limitation",
            "raw U+0085, U+2028 or U+2029 characters are not read reliably by the YAML "
            "reader; write them as escapes in a double-quoted string",
        )
    if ("[" in text or "{" in text) and _FLOW_QUESTION.search(text):
        raise Unsupported(
            "yaml_reader_limitation",
            "a '?' right after '[', '{' or ',' is not read reliably by the YAML reader",
        )
    if ("|" in text or ">" in text) and _TRAILING_SPACES.search(text):
        raise Unsupported(
            "yaml_reader_limitation",
            "a block scalar ending in a line of spaces without a line break is not read "
            "reliably by the YAML reader",
        )


def parse_yaml_ruamel_safe(text: str) -> Any:
    """ruamel.yaml's own YAML 1.2 safe load of ``text`` (a reference reader for checks)."""
    return _yaml().load(text)


def _explain(exc: MarkedYAMLError) -> tuple[str, Any]:
    """A plain-language reason and the mark to point at for a ruamel.yaml error."""
    context = exc.context or ""
    problem = exc.problem or ""
    mark = exc.problem_mark or exc.context_mark
    found = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    if context.startswith("while parsing a flow") and exc.context_mark is not None:
        opener = "[" if "sequence" in context else "{"
        closer = "]" if opener == "[" else "}"
        got = re.search(r"but (?:got|found) (.*)$", problem)
        shown = got.group(1) if got else "something else"
        if "end>" in shown:
            shown = "the end of the text"
            found = ""
        return (
            f"the '{opener}' opened here is not closed: expected ',' or '{closer}'"
            f" but found {shown}{found}",
            exc.context_mark,
        )
    if problem == "mapping values are not allowed here":
        return "unexpected ':' here; check the indentation of this line", mark
    if "expected <block end>" in problem:
        return "bad indentation: this line does not line up with the lines above it", mark
    if "found character '\\t' that cannot start any token" in problem:
        return "a tab cannot be used for indentation or separation here; use spaces", mark
    return " ".join(part for part in (context, problem) if part) or "invalid YAML", mark


def _positioned(text: str, reason: str, mark: Any) -> PayloadError:
    if mark is None:
        return PayloadError(reason, fmt="YAML", text=text)
    return PayloadError(reason, fmt="YAML", text=text, line=mark.line + 1, column=mark.column + 1)


class _Frame:
    """An open mapping or sequence while its events arrive."""

    __slots__ = (
        "anchor",
        "is_map",
        "key",
        "key_event",
        "key_source",
        "merges",
        "seen",
        "size",
        "value",
    )

    def __init__(self, value: Any, is_map: bool, anchor: str | None) -> None:
        self.value = value
        self.is_map = is_map
        self.anchor = anchor
        self.size = 1
        self.key: Any = _NO_KEY
        self.key_event: Any = None
        self.key_source: Any = None
        self.merges: list[dict[str, Any]] = []
        self.seen: set[tuple[type, Any]] = set()


_NO_KEY = object()
_MERGE = object()


class _Builder:
    """Builds JSON-compatible values from a ruamel.yaml event stream."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.documents: list[Any] = []
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.open_anchors: set[str] = set()
        self.budget = _EXPANSION_FACTOR * len(text) + 10_000
        self.root: Any = None

    # -- events --------------------------------------------------------------------------

    def feed(self, event: Any) -> None:
        kind = type(event)
        if kind is ev.ScalarEvent:
            value = self.scalar(event)
            if event.anchor is not None:
                self.anchors[event.anchor] = (value, 1)
            self.add(value, 1, event)
        elif kind is ev.AliasEvent:
            name = event.anchor
            if name in self.open_anchors:
                raise Unsupported(
                    "yaml_recursive_alias", f"alias *{name} refers to a node that contains it"
                )
            if name not in self.anchors:
                raise self.error(f"found undefined alias *{name}", event)
            value, size = self.anchors[name]
            self.add(value, size, event, cost=size)
        elif kind is ev.MappingStartEvent or kind is ev.SequenceStartEvent:
            is_map = kind is ev.MappingStartEvent
            self.check_collection_tag(event, "map" if is_map else "seq")
            if len(self.stack) >= MAX_DEPTH:
                raise _too_deep(self.text, event.start_mark)
            if event.anchor is not None:
                self.open_anchors.add(event.anchor)
            self.stack.append(_Frame({} if is_map else [], is_map, event.anchor))
        elif kind is ev.MappingEndEvent or kind is ev.SequenceEndEvent:
            frame = self.stack.pop()
            value = frame.value
            if frame.merges:
                merged: dict[str, Any] = {}
                for part in reversed(frame.merges):
                    merged.update(part)
                merged.update(value)
                value = merged
            if frame.anchor is not None:
                self.open_anchors.discard(frame.anchor)
                self.anchors[frame.anchor] = (value, frame.size)
            self.add(value, frame.size, event)
        elif kind is ev.DocumentStartEvent:
            version = event.version
            if version is not None and tuple(version) != (1, 2):
                raise Unsupported(
                    "yaml_version",
                    f"%YAML {'.'.join(map(str, version))} documents are not converted; "
                    "only YAML 1.2 typing is supported",
                )
            self.anchors = {}
            self.root = None
        elif kind is ev.DocumentEndEvent:
            self.documents.append(self.root)

    def error(self, reason: str, event: Any) -> PayloadError:
        return _positioned(self.text, reason, event.start_mark)

    # -- values --------------------------------------------------------------------------

    def add(self, value: Any, size: int, event: Any, cost: int = 1) -> None:
        """Place a node of ``size`` nodes; ``cost`` is how many new nodes it makes (an
        alias copies its whole target, a new node is one: its children were counted)."""
        self.budget -= cost
        if self.budget < 0:
            raise LimitExceeded("YAML aliases expand to too large a value")
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        frame.size += size
        if not frame.is_map:
            frame.value.append(value)
            return
        if frame.key is _NO_KEY:
            frame.key = self.key(value, event)
            frame.key_source = value
            frame.key_event = event
            return
        key, frame.key = frame.key, _NO_KEY
        if key is _MERGE:
            frame.merges.extend(self.merge_sources(value, event))
            return
        ident = (type(frame.key_source), frame.key_source)
        if ident in frame.seen:
            raise self.error(f"duplicate key {key!r} in a mapping", frame.key_event)
        if key in frame.value:
            raise Unsupported(
                "yaml_key_collision",
                f"two different YAML keys both become the JSON key {key!r}",
            )
        frame.seen.add(ident)
        frame.value[key] = value

    def key(self, value: Any, event: Any) -> Any:
        is_scalar = type(event) is ev.ScalarEvent
        if type(value) is str and is_scalar and is_merge_key(value, _is_plain_untagged(event)):
            return _MERGE
        return scalar_key(value, event.value if is_scalar else None)

    def merge_sources(self, value: Any, event: Any) -> list[dict[str, Any]]:
        if type(value) is dict:
            return [value]
        if type(value) is list and all(type(item) is dict for item in value):
            return list(value)
        raise Unsupported("yaml_merge", "a << merge key whose value is not a mapping")

    def check_collection_tag(self, event: Any, kind: str) -> None:
        tag = event.tag
        if tag is None or tag == "!" or tag == CORE_TAG + kind:
            return
        raise Unsupported("yaml_tag", f"the YAML tag {tag} has no JSON equivalent")

    def scalar(self, event: Any) -> Any:
        tag = event.tag
        text = event.value
        if event.style == '"' and _SURROGATE.search(text):
            text = self.join_surrogates(text, event)
        if tag is None:
            return plain_value(text) if event.style is None else text
        try:
            return tagged_value(text, tag)
        except BadTaggedValue as exc:
            raise self.error(str(exc), event) from None

    def join_surrogates(self, text: str, event: Any) -> str:
        """Join JSON-style ``\\uD83D\\uDE00`` escape pairs; a lone surrogate is an error."""
        try:
            return text.encode("utf-16", "surrogatepass").decode("utf-16")
        except UnicodeDecodeError:
            raise self.error(
                "a string contains a lone UTF-16 surrogate escape, which no UTF-8 output can hold",
                event,
            ) from None


def _is_plain_untagged(event: Any) -> bool:
    return event.tag is None and event.style is None
