"""Checks that emitted JSON / YAML text reads back to exactly the intended value.

Equality is strict about JSON types: ``true`` is not ``1``, ``1`` is not ``1.0`` and
``-0.0`` is not ``0.0``; mapping key order is ignored unless ``ordered=True``.

YAML is read back with PyYAML's libyaml event parser (``CSafeLoader``, YAML 1.1) and each
event is compared with the intended value as it arrives, so no second value tree is built
(time and memory stay near the cost of the parse itself). Plain scalars are typed by
PyYAML's own resolver and constructors, i.e. exactly as ``yaml.safe_load`` would type
them; anything the writer never produces (tags, anchors, aliases, merge keys, repeated or
non-string keys, a second document) fails the check.

A YAML 1.2 read is not repeated on the hot path: the writer only emits the subset of YAML
on which YAML 1.1 and 1.2 readers agree (see :mod:`zerolayer.plugins.json_yaml.yaml_scalars`),
which the tests check with ruamel.yaml on corpora and random values; ``thorough=True`` runs
the ruamel.yaml (YAML 1.2) read as well.
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from yaml import events as ev

from zerolayer.core.errors import OpError

__all__ = ["canonical_json", "verify_json", "verify_yaml"]

# libyaml's event parser alone (the loader classes add a constructor and a resolver the
# check does not use); PyYAML's pure-Python loader where libyaml is missing.
_LOADER = yaml.cyaml.CParser if yaml.__with_libyaml__ else yaml.SafeLoader
_STR = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
# First characters with which a plain scalar may resolve to something other than a string
# (digits, signs, "~", "n", "t", "y", "o", ...). Any other plain scalar is a string; the check
# skips the resolver and the cache for it, which is safe only while the resolver has no
# wildcard or path resolvers.
_TYPED_FIRST = frozenset(_RESOLVER.yaml_implicit_resolvers)
_FIRST_DECIDES = None not in _TYPED_FIRST and not _RESOLVER.yaml_path_resolvers
_BUILD = {
    "tag:yaml.org,2002:int": _CONSTRUCTOR.construct_yaml_int,
    "tag:yaml.org,2002:float": _CONSTRUCTOR.construct_yaml_float,
    "tag:yaml.org,2002:bool": _CONSTRUCTOR.construct_yaml_bool,
    "tag:yaml.org,2002:null": _CONSTRUCTOR.construct_yaml_null,
}


class _Mismatch(Exception):
    """The read-back text differs from the intended value."""


def canonical_json(value: Any, *, sort_keys: bool = True) -> str:
    """The JSON text that identifies ``value`` up to key order (when ``sort_keys``)."""
    return json.dumps(value, sort_keys=sort_keys, ensure_ascii=True, check_circular=False)


def _plain_value(text: str, cache: dict[str, Any]) -> Any:
    """What PyYAML's safe loader makes of the plain scalar ``text``."""
    if _FIRST_DECIDES and text[:1] not in _TYPED_FIRST:
        return text
    try:
        return cache[text]
    except KeyError:
        pass
    tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))
    if tag == _STR:
        value: Any = text
    elif tag in _BUILD:
        value = _BUILD[tag](yaml.ScalarNode(tag, text))
    else:  # merge, value, timestamp, ...: never equal to a JSON scalar
        value = _Unequal(tag)
    cache[text] = value
    return value


class _Unequal:
    """A read-back scalar of a type no JSON value has."""

    def __init__(self, tag: str) -> None:
        self.tag = tag

    def __repr__(self) -> str:
        return f"<{self.tag}>"


_SCALAR = ev.ScalarEvent
_MAPPING = ev.MappingStartEvent
_MAPPING_END = ev.MappingEndEvent
_SEQUENCE = ev.SequenceStartEvent
_SEQUENCE_END = ev.SequenceEndEvent


def _where(event: Any) -> str:
    mark = getattr(event, "start_mark", None)
    return f" at line {mark.line + 1}" if mark is not None else ""


def _untagged(event: Any) -> None:
    if event.tag is not None or event.anchor is not None:
        raise _Mismatch(f"unexpected tag or anchor{_where(event)}")


def _scalar(event: Any, cache: dict[str, Any]) -> Any:
    """The value of a scalar event, typed as PyYAML's safe loader types it."""
    _untagged(event)
    text = event.value
    if not event.implicit[0]:  # quoted: a string
        return text
    if _FIRST_DECIDES and text[:1] not in _TYPED_FIRST:
        return text
    return _plain_value(text, cache)


def _same_scalar(got: Any, want: Any) -> bool:
    if type(got) is not type(want):
        return False
    if type(want) is float:
        return repr(got) == repr(want)
    return bool(got == want)


class _Reader:
    """Reads the events of one document against the value they must spell."""

    def __init__(self, get: Any, ordered: bool) -> None:
        self.get = get
        self.ordered = ordered
        self.cache: dict[str, Any] = {}

    def node(self, event: Any, want: Any) -> None:
        """Consume the node that starts with ``event``; raise _Mismatch unless it is ``want``."""
        kind = type(event)
        if kind is _SCALAR:
            got = _scalar(event, self.cache)
            if not _same_scalar(got, want):
                raise _Mismatch(f"read {got!r} where {want!r} was written{_where(event)}")
        elif kind is _MAPPING:
            _untagged(event)
            if type(want) is not dict:
                raise _Mismatch(f"a mapping where {type(want).__name__} was written{_where(event)}")
            self.mapping(want)
        elif kind is _SEQUENCE:
            _untagged(event)
            if type(want) is not list:
                raise _Mismatch(
                    f"a sequence where {type(want).__name__} was written{_where(event)}"
                )
            self.sequence(want)
        else:
            raise _Mismatch(f"unexpected {kind.__name__}{_where(event)}")

    def mapping(self, want: dict[str, Any]) -> None:
        get, cache = self.get, self.cache
        order = list(want) if self.ordered else None
        seen: set[str] = set()
        event = get()
        while type(event) is not _MAPPING_END:
            if type(event) is not _SCALAR:
                raise _Mismatch(f"a collection used as a key{_where(event)}")
            key = _scalar(event, cache)
            if type(key) is not str or key not in want or key in seen:
                raise _Mismatch(f"unexpected or repeated key {key!r}{_where(event)}")
            if order is not None and order[len(seen)] != key:
                raise _Mismatch(f"key {key!r} out of order{_where(event)}")
            seen.add(key)
            item = want[key]
            event = get()
            if (  # the common case inline: a plain word that must be this string
                type(item) is str
                and type(event) is _SCALAR
                and event.implicit[0]
                and event.tag is None
                and event.anchor is None
                and _FIRST_DECIDES
                and event.value[:1] not in _TYPED_FIRST
            ):
                if event.value != item:
                    raise _Mismatch(
                        f"read {event.value!r} where {item!r} was written{_where(event)}"
                    )
            else:
                self.node(event, item)
            event = get()
        if len(seen) != len(want):
            raise _Mismatch(f"mapping ends with keys missing{_where(event)}")

    def sequence(self, want: list[Any]) -> None:
        get = self.get
        for count, item in enumerate(want):
            event = get()
            if type(event) is _SEQUENCE_END:
                raise _Mismatch(f"sequence ends after {count} items{_where(event)}")
            self.node(event, item)
        event = get()
        if type(event) is not _SEQUENCE_END:
            raise _Mismatch(f"sequence has extra items{_where(event)}")


def verify_yaml(text: str, value: Any, *, ordered: bool = False, thorough: bool = False) -> None:
    """Raise :class:`OpError` unless YAML ``text`` reads back to exactly ``value``.

    ``ordered``: mapping keys must also come back in ``value``'s order. ``thorough``: also
    read the text with ruamel.yaml (YAML 1.2) and require the same value.
    """
    loader = _LOADER(text)
    try:
        get = loader.get_event
        head = [type(get()), type(get())]
        if head != [ev.StreamStartEvent, ev.DocumentStartEvent]:
            raise _Mismatch("no document")
        _Reader(get, ordered).node(get(), value)
        tail = [type(get()), type(get())]
        if tail != [ev.DocumentEndEvent, ev.StreamEndEvent]:
            raise _Mismatch("more than one document")
    except (yaml.YAMLError, _Mismatch) as exc:
        raise OpError(f"internal: emitted YAML does not read back to the value: {exc}") from None
    finally:
        loader.dispose()
    if thorough:
        from zerolayer.plugins.json_yaml.yaml_read import parse_yaml_ruamel_safe

        _compare(parse_yaml_ruamel_safe(text), value, "YAML (1.2 reader)", ordered)


def _compare(got: Any, want: Any, fmt: str, ordered: bool) -> None:
    try:
        got_text = canonical_json(got, sort_keys=not ordered)
        want_text = canonical_json(want, sort_keys=not ordered)
    except (TypeError, ValueError) as exc:
        raise OpError(f"internal: emitted {fmt} cannot be compared: {exc}") from None
    if got_text != want_text:
        at = next(
            (i for i, (a, b) in enumerate(zip(got_text, want_text, strict=False)) if a != b),
            min(len(got_text), len(want_text)),
        )
        raise OpError(
            f"internal: emitted {fmt} does not read back to the same value "
            f"(read {got_text[max(0, at - 30) : at + 30]!r}, "
            f"expected {want_text[max(0, at - 30) : at + 30]!r})"
        )


def verify_json(text: str, value: Any, *, ordered: bool = False) -> None:
    """Raise :class:`OpError` unless JSON ``text`` reads back to exactly ``value``."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        data = dict(items)
        if len(data) != len(items):
            raise _Mismatch("a key is written twice")
        return data

    try:
        got = json.loads(text, object_pairs_hook=pairs)
    except (ValueError, _Mismatch, RecursionError) as exc:
        raise OpError(f"internal: emitted JSON does not read back: {exc}") from None
    _compare(got, value, "JSON", ordered)
