"""JSON text from JSON-compatible values."""

from __future__ import annotations

import json
from typing import Any

import orjson

from zerolayer.core.errors import LimitExceeded, PlanError, Unsupported

__all__ = ["emit_json"]


def emit_json(
    value: Any,
    *,
    indent: int | None = 2,
    sort_keys: bool = False,
    ensure_ascii: bool = False,
    single_line: bool = False,
) -> str:
    """Write ``value`` as JSON text (no trailing newline).

    ``indent`` spaces per level (0-10); ``indent=None`` or ``single_line=True`` writes one
    line with ``","`` and ``":"`` separators (minified). ``ensure_ascii`` escapes non-ASCII as
    ``\\uXXXX``. Non-finite floats and non-JSON types raise :class:`Unsupported`.
    """
    if indent is not None and (type(indent) is not int or not 0 <= indent <= 10):
        raise PlanError(f"indent must be an integer from 0 to 10 or None, not {indent!r}")
    one_line = single_line or indent is None
    if indent == 2 and not one_line and not ensure_ascii:
        fast = _indented_by_orjson(value, sort_keys)
        if fast is not None:
            return fast
    try:
        return json.dumps(
            value,
            indent=None if one_line else indent,
            separators=(",", ":") if one_line else (",", ": "),
            sort_keys=sort_keys,
            ensure_ascii=ensure_ascii,
            allow_nan=False,
        )
    except ValueError as exc:
        if "float" in str(exc):  # allow_nan=False: "Out of range float values ..."
            raise Unsupported("json_non_finite_float", f"no JSON form: {exc}") from None
        raise LimitExceeded(f"a number is too long to write: {exc}") from None
    except TypeError as exc:
        raise Unsupported("json_unsupported_type", f"no JSON form for the value: {exc}") from None
    except RecursionError:
        raise Unsupported("json_too_deep", "the value is nested too deeply to write") from None


def _indented_by_orjson(value: Any, sort_keys: bool) -> str | None:
    """``json.dumps(value, indent=2, ensure_ascii=False)`` written by orjson (C), or None.

    With an indent, :func:`json.dumps` writes in pure Python (its C encoder only writes one
    line): for a large or deeply nested value that is most of a conversion's cost. orjson's
    two-space layout is the same as :func:`json.dumps`'s for the same tokens, but its tokens
    may differ (floats such as ``1e+16``, integers past 64 bits, keys that are not strings,
    lone surrogates): so its one-line text is compared with the C encoder's one-line text
    first, and only an identical one lets orjson write the answer. Anything orjson refuses
    (too deep, a cycle, a type it does not know) is None: :func:`json.dumps` decides.
    """
    option = orjson.OPT_SORT_KEYS if sort_keys else 0
    try:
        tokens = orjson.dumps(value, option=option)
        if tokens.decode() != json.dumps(
            value, separators=(",", ":"), sort_keys=sort_keys, ensure_ascii=False, allow_nan=False
        ):
            return None
        return orjson.dumps(value, option=option | orjson.OPT_INDENT_2).decode()
    except (TypeError, ValueError, RecursionError, UnicodeError):  # JSONEncodeError: TypeError
        return None
