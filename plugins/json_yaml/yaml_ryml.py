"""YAML read with rapidyaml (ryml, C++): the fast first reading of a YAML payload.

rapidyaml parses the whole stream into its tree in C++; :func:`read_documents` walks that
tree once and builds JSON-compatible values with the typing rules of
:mod:`~zerolayer.plugins.json_yaml.yaml_typing` (the same rules as the ruamel.yaml reader).
It resolves anchors, aliases and ``<<`` merge keys itself, refuses duplicate keys,
recursive aliases, alias expansion past a budget and nesting past ``MAX_DEPTH``.

rapidyaml's tree keeps no positions, so everything this reader refuses is a
:class:`Refused` carrying rapidyaml's position for parse errors and none for the checks
made on the tree; the caller gets positioned reports from the ruamel.yaml reader.
rapidyaml writes a line to standard error for each parse error it raises.
"""

from __future__ import annotations

import re
from typing import Any

import ryml
from ryml import _ryml

from zerolayer.core.errors import LimitExceeded, Unsupported
from zerolayer.plugins.json_yaml.yaml_typing import (
    CORE_TAG,
    BadTaggedValue,
    plain_value,
    scalar_key,
    tagged_value,
)

__all__ = ["MAX_DEPTH", "Refused", "TooDeep", "read_documents", "read_stream"]

MAX_DEPTH = 100  # nesting levels of collections (the ruamel.yaml reader's limit)
_EXPANSION_FACTOR = 100  # aliases may expand a document to at most 100 nodes per char
_VERSION = re.compile(r"^%YAML[ \t]+([^ \t\r\n#]+)", re.MULTILINE)
_TAG_DIRECTIVE = re.compile(r"^%TAG[ \t]", re.MULTILINE)

# The walk reads each node's type bits once (one call) instead of asking ``is_map``,
# ``has_val_anchor``, ``is_val_ref`` ... one by one, and calls rapidyaml's C functions
# directly rather than through the ``ryml.Tree`` methods that wrap them: per node, the
# walk is the cost of reading a YAML payload.
_MAP, _SEQ = ryml.MAP, ryml.SEQ
_VALREF, _VALANCH, _VALTAG, _VAL_PLAIN = ryml.VALREF, ryml.VALANCH, ryml.VALTAG, ryml.VAL_PLAIN
_KEYREF, _KEYANCH, _KEYTAG, _KEY_PLAIN = ryml.KEYREF, ryml.KEYANCH, ryml.KEYTAG, ryml.KEY_PLAIN
_NONE = ryml.NONE
_type = _ryml.Tree_type
_val = _ryml.Tree_val
_key = _ryml.Tree_key
_first_child = _ryml.Tree_first_child
_next_sibling = _ryml.Tree_next_sibling


class Refused(Exception):
    """rapidyaml, or a check on its tree, refuses the text (``line`` is None if unknown)."""

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        *,
        semantic: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.semantic = semantic  # the text parsed; a check on the tree refused it


class TooDeep(Refused):
    """Collections nested deeper than :data:`MAX_DEPTH`."""


def read_documents(text: str) -> list[Any]:
    """Every document of the YAML stream ``text`` as JSON-compatible values (see
    :func:`read_stream`)."""
    return read_stream(text)[0]


def read_stream(text: str) -> tuple[list[Any], bool]:
    """Every document of the YAML stream ``text`` as JSON-compatible values, and whether
    a ``<<`` merge key was applied (YAML 1.1 merge keys are not part of YAML 1.2).

    Raises :class:`Refused` for text rapidyaml or the tree checks refuse,
    :class:`Unsupported` for YAML with no exact JSON value, :class:`LimitExceeded` for
    alias bombs.
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused("the text holds a lone surrogate, which is not a character") from None
    try:
        tree = ryml.parse_in_arena(data)
    except ryml.ExceptionParse as exc:
        if "containers as keys" in str(exc.msg):  # valid YAML that rapidyaml cannot hold
            raise Unsupported("yaml_complex_key", "a mapping or sequence used as a key") from None
        location = exc.errdata_parse.ymlloc
        raise Refused(str(exc.msg), location.line, location.col) from None
    version = _VERSION.search(text) if "%" in text else None
    if version is not None and version.group(1) != "1.2":
        raise Unsupported(
            "yaml_version",
            f"%YAML {version.group(1)} documents are not converted; "
            "only YAML 1.2 typing is supported",
        )
    walker = _Walker(tree, len(text), bool("%" in text and _TAG_DIRECTIVE.search(text)))
    root = tree.root_id()
    if tree.is_stream(root):
        docs = []
        child = tree.first_child(root)
        while child != ryml.NONE:
            walker.anchors = {}
            docs.append(walker.node(child, 0))
            child = tree.next_sibling(child)
        return docs, walker.merged
    if tree.type_str(root) == "NOTYPE":
        return [], False
    return [walker.node(root, 0)], walker.merged


class _Walker:
    """Builds values from one rapidyaml tree (see the module docs)."""

    def __init__(self, tree: Any, size: int, tag_directives: bool) -> None:
        self.tree = tree
        self.tag_directives = tag_directives
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.open_anchors: set[str] = set()
        self.budget = _EXPANSION_FACTOR * size + 10_000
        self.size = 0  # nodes in the value last built
        self.merged = False  # whether a << merge key was applied

    def node(self, n: int, depth: int) -> Any:
        """The value of node ``n`` (its value part, for a key/value child)."""
        t = self.tree
        kind = _type(t, n)
        if kind & _VALREF:
            return self.alias(_text(t.val_ref(n)))
        anchor = _text(t.val_anchor(n)) if kind & _VALANCH else None
        if kind & (_MAP | _SEQ):
            if depth >= MAX_DEPTH:
                raise TooDeep(f"collections are nested more than {MAX_DEPTH} levels deep")
            if kind & _VALTAG:
                self.collection_tag(t, n, "map" if kind & _MAP else "seq")
            if anchor is not None:
                self.open_anchors.add(anchor)
            value = self.mapping(n, depth) if kind & _MAP else self.sequence(n, depth)
            if anchor is not None:
                self.open_anchors.discard(anchor)
        else:
            raw = _val(t, n)
            if kind & _VALTAG:
                value = self.scalar(raw, _text(t.val_tag(n)), bool(kind & _VAL_PLAIN))
            elif raw is None:
                value = plain_value("") if kind & _VAL_PLAIN else ""
            else:
                text = _text(raw)
                value = plain_value(text) if kind & _VAL_PLAIN else text
            self.size = 1
        self.budget -= 1
        if self.budget < 0:
            raise LimitExceeded("YAML aliases expand to too large a value")
        if anchor is not None:
            self.anchors[anchor] = (value, self.size)
        return value

    def sequence(self, n: int, depth: int) -> list[Any]:
        t = self.tree
        items = []
        size = 1
        child = _first_child(t, n)
        while child != _NONE:
            items.append(self.node(child, depth + 1))
            size += self.size
            child = _next_sibling(t, child)
        self.size = size
        return items

    def mapping(self, n: int, depth: int) -> dict[str, Any]:
        t = self.tree
        out: dict[str, Any] = {}
        merges: list[dict[str, Any]] = []
        seen: set[tuple[type, Any]] = set()
        size = 1
        child = _first_child(t, n)
        while child != _NONE:
            key_value, key_source, merge = self.key(child)
            value = self.node(child, depth + 1)
            size += self.size + 1
            child = _next_sibling(t, child)
            if merge:
                merges.extend(_merge_sources(value))
                continue
            key = scalar_key(key_value, key_source)
            ident = (type(key_value), key_value)
            if ident in seen:
                raise Refused(f"duplicate key {key!r} in a mapping", semantic=True)
            if key in out:
                raise Unsupported(
                    "yaml_key_collision",
                    f"two different YAML keys both become the JSON key {key!r}",
                )
            seen.add(ident)
            out[key] = value
        self.size = size
        if merges:
            self.merged = True
            merged: dict[str, Any] = {}
            for part in reversed(merges):
                merged.update(part)
            merged.update(out)
            return merged
        return out

    def key(self, n: int) -> tuple[Any, str | None, bool]:
        """The key of child ``n``: its value, its source text (scalars), whether ``<<``."""
        t = self.tree
        kind = _type(t, n)
        if kind & _KEYREF:
            return self.alias(_text(t.key_ref(n))), None, False
        tag = _text(t.key_tag(n)) if kind & _KEYTAG else None
        raw = _key(t, n)
        source = "" if raw is None else _text(raw)
        plain = bool(kind & _KEY_PLAIN)
        value = self.scalar(raw, tag, plain)
        if kind & _KEYANCH:
            self.anchors[_text(t.key_anchor(n))] = (value, 1)
        return value, source, plain and tag is None and source == "<<"

    def scalar(self, raw: Any, tag: str | None, plain: bool) -> Any:
        text = "" if raw is None else _text(raw)
        if tag is None:
            return plain_value(text) if plain else text
        try:
            return tagged_value(text, self.resolve_tag(tag))
        except BadTaggedValue as exc:
            raise Refused(str(exc), semantic=True) from None

    def resolve_tag(self, tag: str) -> str:
        if self.tag_directives and tag != "!":
            raise Unsupported("yaml_tag", "tags under a %TAG directive are not converted")
        if tag.startswith("!!"):
            return CORE_TAG + tag[2:]
        if tag.startswith("<") and tag.endswith(">"):
            return tag[1:-1]
        return tag

    def collection_tag(self, t: Any, n: int, kind: str) -> None:
        if not t.has_val_tag(n):
            return
        tag = self.resolve_tag(_text(t.val_tag(n)))
        if tag != "!" and tag != CORE_TAG + kind:
            raise Unsupported("yaml_tag", f"the YAML tag {tag} has no JSON equivalent")

    def alias(self, name: str) -> Any:
        if name.startswith("*"):
            name = name[1:]
        if name in self.open_anchors:
            raise Unsupported(
                "yaml_recursive_alias", f"alias *{name} refers to a node that contains it"
            )
        if name not in self.anchors:
            raise Refused(f"found undefined alias *{name}", semantic=True)
        value, size = self.anchors[name]
        self.spend(size)
        self.size = size
        return value

    def spend(self, nodes: int) -> None:
        self.budget -= nodes
        if self.budget < 0:
            raise LimitExceeded("YAML aliases expand to too large a value")


def _merge_sources(value: Any) -> list[dict[str, Any]]:
    if type(value) is dict:
        return [value]
    if type(value) is list and all(type(item) is dict for item in value):
        return list(value)
    raise Unsupported("yaml_merge", "a << merge key whose value is not a mapping")


def _text(view: Any) -> str:
    data = bytes(view)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:  # \uD83D\uDE00 escapes, which rapidyaml writes one by one
        return _join_surrogates(data)


def _join_surrogates(data: bytes) -> str:
    """Text whose UTF-16 surrogate escapes are joined in pairs (as in JSON)."""
    try:
        text = data.decode("utf-8", "surrogatepass")
        return text.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeError:
        raise Refused(
            "a string contains a lone UTF-16 surrogate escape, which no UTF-8 output can hold",
            semantic=True,
        ) from None
