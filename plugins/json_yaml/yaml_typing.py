"""How a YAML scalar becomes a JSON value: the typing rules every YAML reader here shares.

Plain scalars follow the YAML 1.2 core schema (null / bool / int / float / str); quoted and
block scalars, and scalars tagged ``!`` or ``!!str``, are strings; ``!!null``, ``!!bool``,
``!!int`` and ``!!float`` are honoured. Plain scalars that YAML 1.1 and YAML 1.2 read to
different values (``yes``, ``0755``, ``1_000``, ``0b1``), ``.inf`` / ``.nan`` and other
tags raise :class:`Unsupported`. Keys that are not strings become strings only when their
source text is already the JSON spelling of the value (``1``, ``true``, ``null``).
"""

from __future__ import annotations

import re
from typing import Any

from zerolayer.core.errors import LimitExceeded, Unsupported

__all__ = [
    "CORE_TAG",
    "BadTaggedValue",
    "is_merge_key",
    "plain_value",
    "scalar_key",
    "tagged_value",
]

CORE_TAG = "tag:yaml.org,2002:"
_NULL = re.compile(r"(?:null|Null|NULL|~|)")
_TRUE = re.compile(r"(?:true|True|TRUE)")
_FALSE = re.compile(r"(?:false|False|FALSE)")
_INT10 = re.compile(r"[-+]?[0-9]+")
_INT8 = re.compile(r"0o[0-7]+")
_INT16 = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF_NAN = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_AMBIGUOUS = re.compile(
    r"(?:yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF"
    r"|[-+]?0[0-7_]*[0-7][0-7_]*"  # YAML 1.1 octal (0755), YAML 1.2 decimal
    r"|[-+]?[0-9][0-9_]*_[0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?"  # 1_000
    r"|[-+]?0b[01_]+)"
)
# First characters of every typed plain scalar (core schema and the ambiguous 1.1 forms).
_TYPED_FIRST = frozenset("0123456789+-.~nNtTfFyYoO")
_CORE_TYPES = ("null", "bool", "int", "float")


class BadTaggedValue(ValueError):
    """A scalar whose explicit core tag does not fit its text (``!!int abc``)."""


def plain_value(text: str) -> Any:
    """The JSON value of an untagged plain scalar (YAML 1.2 core schema)."""
    if text and text[0] not in _TYPED_FIRST:
        return text
    if _AMBIGUOUS.fullmatch(text):
        raise Unsupported(
            "yaml_version_ambiguous",
            f"the plain scalar {text!r} means a different value in YAML 1.1 and "
            "YAML 1.2; quote it to make it a string",
        )
    if _NULL.fullmatch(text):
        return None
    if _TRUE.fullmatch(text):
        return True
    if _FALSE.fullmatch(text):
        return False
    number = _core_int(text)
    if number is not None:
        return number
    if _FLOAT.fullmatch(text):
        return float(text)
    if _INF_NAN.fullmatch(text):
        _non_finite(text)
    return text


def tagged_value(text: str, tag: str) -> Any:
    """The JSON value of a scalar with the resolved ``tag`` (``"!"`` is non-specific).

    Raises :class:`BadTaggedValue` when a core tag does not fit the text and
    :class:`Unsupported` for tags with no JSON equivalent.
    """
    if tag == "!" or tag == CORE_TAG + "str":
        return text
    kind = tag[len(CORE_TAG) :] if tag.startswith(CORE_TAG) else None
    if kind == "null" and _NULL.fullmatch(text):
        return None
    if kind == "bool":
        if _TRUE.fullmatch(text):
            return True
        if _FALSE.fullmatch(text):
            return False
    if kind == "int":
        number = _core_int(text)
        if number is not None:
            return number
    if kind == "float":
        if _FLOAT.fullmatch(text) or _INT10.fullmatch(text):
            return float(text)
        if _INF_NAN.fullmatch(text):
            _non_finite(text)
    if kind in _CORE_TYPES:
        raise BadTaggedValue(f"{text!r} is not a valid !!{kind}")
    raise Unsupported("yaml_tag", f"the YAML tag {tag} has no JSON equivalent")


def scalar_key(value: Any, source: str | None) -> str:
    """The JSON key for a scalar key ``value`` written as ``source`` (None: not a scalar)."""
    if type(value) is str:
        return value
    if type(value) in (dict, list):
        raise Unsupported("yaml_complex_key", "a mapping or sequence used as a key")
    spelled = _json_spelling(value)
    if source is not None and source == spelled:
        return spelled
    raise Unsupported(
        "yaml_non_string_key",
        f"the key {source if source is not None else value!r} is not a string "
        "and has no unambiguous JSON spelling",
    )


def is_merge_key(text: str, plain_untagged: bool) -> bool:
    """Whether a key is the ``<<`` merge key (plain and untagged)."""
    return plain_untagged and text == "<<"


def _core_int(text: str) -> int | None:
    if _INT10.fullmatch(text):
        if len(text) > 4000:  # CPython refuses str <-> int beyond 4300 digits
            raise LimitExceeded("a YAML integer is too long to convert exactly")
        return int(text)
    if _INT8.fullmatch(text):
        return int(text[2:], 8)
    if _INT16.fullmatch(text):
        return int(text[2:], 16)
    return None


def _json_spelling(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return repr(value)


def _non_finite(text: str) -> None:
    raise Unsupported("yaml_non_finite_float", f"{text} has no JSON equivalent")
