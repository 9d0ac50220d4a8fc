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
from collections.abc import Iterator
from typing import Any

import yaml
from yaml import events as ev

from zerolayer.core.errors import OpError

__all__ = ["canonical_json", "verify_json", "verify_yaml"]

_LOADER = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
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


def _scalar(event: Any, cache: dict[str, Any]) -> Any:
    if event.tag is not None or event.anchor is not None:
        raise _Mismatch(f"unexpected tag or anchor on {event.value!r}")
    if event.implicit[0]:
        return _plain_value(event.value, cache)
    return event.value


def _same_scalar(got: Any, want: Any) -> bool:
    if type(got) is not type(want):
        return False
    if type(want) is float:
        return repr(got) == repr(want)
    return bool(got == want)


def _where(event: Any) -> str:
    mark = getattr(event, "start_mark", None)
    return f" at line {mark.line + 1}" if mark is not None else ""


def _compare_events(events: Iterator[Any], value: Any, ordered: bool) -> None:
    """Walk ``events`` (after DocumentStart) and ``value`` together; raise _Mismatch."""
    cache: dict[str, Any] = {}
    # frames: [is_map, expected, index, pending_key, seen, keys]
    stack: list[list[Any]] = []
    for event in events:
        kind = type(event)
        frame = stack[-1] if stack else None
        if frame is not None and frame[0]:  # inside a mapping
            if kind is ev.MappingEndEvent:
                if len(frame[4]) != len(frame[1]):
                    raise _Mismatch(f"mapping ends with keys missing{_where(event)}")
                stack.pop()
                if not stack:
                    return
                continue
            if frame[3] is None:  # a key
                if kind is not ev.ScalarEvent:
                    raise _Mismatch(f"a collection used as a key{_where(event)}")
                key = _scalar(event, cache)
                if type(key) is not str or key not in frame[1] or key in frame[4]:
                    raise _Mismatch(f"unexpected or repeated key {key!r}{_where(event)}")
                if ordered and frame[5][frame[2]] != key:
                    raise _Mismatch(f"key {key!r} out of order{_where(event)}")
                frame[2] += 1
                frame[4].add(key)
                frame[3] = key
                continue
            want = frame[1][frame[3]]
            frame[3] = None
        elif frame is not None:  # inside a sequence
            if kind is ev.SequenceEndEvent:
                if frame[2] != len(frame[1]):
                    raise _Mismatch(f"sequence ends after {frame[2]} items{_where(event)}")
                stack.pop()
                if not stack:
                    return
                continue
            if frame[2] >= len(frame[1]):
                raise _Mismatch(f"sequence has extra items{_where(event)}")
            want = frame[1][frame[2]]
            frame[2] += 1
        else:
            want = value
        if kind is ev.ScalarEvent:
            got = _scalar(event, cache)
            if not _same_scalar(got, want):
                raise _Mismatch(f"read {got!r} where {want!r} was written{_where(event)}")
            if not stack:
                return
        elif kind is ev.MappingStartEvent:
            if type(want) is not dict or event.tag is not None or event.anchor is not None:
                raise _Mismatch(f"a mapping where {type(want).__name__} was written{_where(event)}")
            stack.append([True, want, 0, None, set(), list(want) if ordered else None])
        elif kind is ev.SequenceStartEvent:
            if type(want) is not list or event.tag is not None or event.anchor is not None:
                raise _Mismatch(
                    f"a sequence where {type(want).__name__} was written{_where(event)}"
                )
            stack.append([False, want, 0, None, None, None])
        else:
            raise _Mismatch(f"unexpected {kind.__name__}{_where(event)}")
    raise _Mismatch("the document ends early")


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
        _compare_events(iter(get, None), value, ordered)
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
