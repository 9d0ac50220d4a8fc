"""Strict RFC 8259 JSON reading with positioned, plain-language errors.

The fast path is the C scanner of :func:`json.loads`; only when it fails does
:func:`locate_json_error` (a small iterative scanner, safe for any nesting depth) run to
find the first offending character and say what is wrong there.

Rules beyond :func:`json.loads`:

* ``NaN``, ``Infinity`` and ``-Infinity`` are rejected (they are not JSON).
* A leading UTF-8 byte order mark (U+FEFF) is tolerated and skipped; positions still count
  it, so line and column always refer to the text as given.
* Strings with a lone surrogate (``"\\ud800"``) are rejected: they cannot be written out as
  UTF-8, so nothing exact can be produced from them.
* Numbers: integers stay ``int`` of any size (up to Python's 4300-digit conversion limit,
  beyond which :class:`LimitExceeded` is raised); numbers with a fraction or exponent
  become ``float`` with IEEE double precision, as ``JSON.parse`` does. A number too large
  for a double (``1e400``) raises :class:`Unsupported` rather than turning into infinity.
* Duplicate object keys: the last value wins, as in ``JSON.parse`` and :func:`json.loads`
  (RFC 8259 leaves this to the implementation; JSONTestSuite accepts it).
"""

from __future__ import annotations

import json
import re
from typing import Any

from zerolayer.core.errors import LimitExceeded, PayloadError, Unsupported, line_col

__all__ = ["locate_json_error", "parse_json"]

_BOM = "\ufeff"
_WS = " \t\n\r"
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_STRING_RUN = re.compile(r'[^"\\\x00-\x1f]*')
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_RAW_SURROGATE = re.compile(r"[\ud800-\udfff]")
_INFINITY = float("inf")


def may_hold_surrogate(text: str) -> bool:
    """Whether ``text`` might hold a lone surrogate (an escape or a raw one): only then is
    the parsed value walked for one. Ordinary payloads cost two substring tests."""
    return ("\\u" in text and _ESCAPED_SURROGATE.search(text) is not None) or (
        not text.isascii() and _RAW_SURROGATE.search(text) is not None
    )


class _NonFinite(ValueError):
    """Raised by the ``parse_constant`` hook for NaN / Infinity."""


def reject_constant(name: str) -> Any:
    raise _NonFinite(name)


class NumberOverflow(ValueError):
    """Raised by the ``parse_float`` hook for a number too large for a double."""


def read_float(text: str) -> float:
    """The ``parse_float`` hook: a JSON number as a double, refusing one that overflows."""
    value = float(text)
    if value == _INFINITY or value == -_INFINITY:
        raise NumberOverflow(text)
    return value


def parse_json(text: str) -> Any:
    """Parse strict RFC 8259 JSON ``text`` into plain Python values.

    Raises :class:`PayloadError` (``fmt="JSON"``, 1-based line and column) for text that is
    not JSON or holds a lone surrogate, :class:`LimitExceeded` for nesting or integers
    beyond Python's limits, and :class:`Unsupported` for a number that overflows a double.
    """
    start = 1 if text.startswith(_BOM) else 0
    src = text[start:] if start else text
    try:
        value = json.loads(src, parse_constant=reject_constant, parse_float=read_float)
    except (json.JSONDecodeError, _NonFinite):
        raise _payload_error(text, locate_json_error(text, start), start) from None
    except RecursionError:
        found = locate_json_error(text, start)
        if found is not None:
            raise _payload_error(text, found, start) from None
        raise LimitExceeded("JSON nesting is too deep to convert") from None
    except ValueError as exc:  # a double overflowed, or the int() digit limit of CPython
        found = locate_json_error(text, start)  # a syntax error anywhere is reported first
        if found is not None:
            raise _payload_error(text, found, start) from None
        if isinstance(exc, NumberOverflow):
            raise Unsupported(
                "json_number_out_of_range",
                "a JSON number is too large for a double-precision float",
            ) from None
        raise LimitExceeded(f"JSON number too long to convert exactly: {exc}") from None
    if may_hold_surrogate(src):
        _check_exact(value, text)
    return value


def _payload_error(text: str, found: tuple[int, str] | None, start: int) -> PayloadError:
    offset, reason = found if found is not None else (start, "not valid JSON")
    line, column = line_col(text, offset)
    return PayloadError(reason, fmt="JSON", text=text, line=line, column=column)


def _check_exact(value: Any, text: str) -> None:
    """Reject lone surrogates (PayloadError)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            _check_string(item, text)
        elif isinstance(item, dict):
            for key, val in item.items():
                _check_string(key, text)
                stack.append(val)
        elif isinstance(item, list):
            stack.extend(item)


def _check_string(item: str, text: str) -> None:
    try:
        item.encode("utf-8")
    except UnicodeEncodeError:
        offset = _surrogate_offset(text)
        line, column = line_col(text, offset)
        raise PayloadError(
            "a string contains a lone UTF-16 surrogate (\\ud800-\\udfff without its pair), "
            "which no UTF-8 output can hold",
            fmt="JSON",
            text=text,
            line=line,
            column=column,
        ) from None


_PAIR = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_HALF = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}|[\ud800-\udfff]")


def _surrogate_offset(text: str) -> int:
    """Offset of the first surrogate escape or character that is not part of a valid pair."""
    pos = 0
    while True:
        half = _HALF.search(text, pos)
        if half is None:
            return 0
        pair = _PAIR.match(text, half.start())
        if pair is None:
            return half.start()
        pos = pair.end()


def _skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def _describe(text: str, i: int) -> str:
    if i >= len(text):
        return "end of input"
    ch = text[i]
    word = _WORD.match(text, i)
    if word:
        return f"'{word.group()}'"
    return repr(ch) if ch.isprintable() else f"character U+{ord(ch):04X}"


def _scan_string(text: str, i: int) -> tuple[int, str | None]:
    """Scan the string starting at the quote ``text[i]``: (end offset, None) or an error."""
    n = len(text)
    j = i + 1
    while True:
        j = _STRING_RUN.match(text, j).end()  # type: ignore[union-attr]
        if j >= n:
            return i, "unterminated string: the closing double quote is missing"
        ch = text[j]
        if ch == '"':
            return j + 1, None
        if ch == "\\":
            esc = text[j + 1 : j + 2]
            if esc == "u":
                if not _HEX4.match(text, j + 2):
                    return j, "invalid \\u escape: it needs exactly four hex digits"
                j += 6
            elif esc and esc in '"\\/bfnrt':
                j += 2
            elif esc and esc.isprintable() and not esc.isspace():
                return j, f"invalid escape '\\{esc}' in a string"
            else:
                shown = f"U+{ord(esc):04X}" if esc else "end of input"
                return j, f"invalid escape: a backslash followed by {shown}"
            continue
        if ch in "\n\r":
            return j, "a string cannot contain a raw line break; write it as \\n"
        return j, f"control character U+{ord(ch):04X} must be escaped in a string"


def _value_error(text: str, i: int, closing: str | None) -> str:
    """The reason why no JSON value starts at ``text[i]``."""
    if i >= len(text):
        return "unexpected end of input: expected a value"
    ch = text[i]
    if ch == "'":
        return "single quotes are not valid JSON; use double quotes"
    if text.startswith(("NaN", "Infinity", "-Infinity", "+Infinity"), i):
        return "NaN and Infinity are not valid JSON numbers"
    if ch == "," or (closing is not None and ch == closing):
        return f"unexpected {ch!r}: expected a value"
    if ch == "/" and text[i + 1 : i + 2] in ("/", "*"):
        return "comments are not allowed in JSON"
    if ch in "+.":
        return f"a JSON number cannot start with {ch!r}"
    word = _WORD.match(text, i)
    if word:
        return (
            f"unexpected word '{word.group()}': expected a value "
            "(strings need double quotes; the literals are true, false and null)"
        )
    if ch in " \t\n\r":
        return "unexpected whitespace"
    if ch.isspace() or not ch.isprintable():
        return f"character U+{ord(ch):04X} is not valid here"
    return f"unexpected character {ch!r}: expected a value"


def _number_error(text: str, i: int) -> tuple[int, str] | None:
    """An error for the number starting at ``text[i]``, or None when it is well formed."""
    m = _NUMBER.match(text, i)
    if m is None:
        if text.startswith("-", i):
            if text.startswith("-Infinity", i):
                return i, "NaN and Infinity are not valid JSON numbers"
            return i, "a minus sign must be followed by digits"
        return i, "invalid number"
    end = m.end()
    nxt = text[end : end + 1]
    if nxt.isdigit() and m.group().lstrip("-") == "0":
        return i, "numbers cannot have leading zeros"
    if nxt == ".":
        return end, "a decimal point must be followed by digits"
    if nxt in ("e", "E"):
        return end, "an exponent must be followed by digits"
    return None


_LITERALS = ("true", "false", "null")


def locate_json_error(text: str, start: int = 0) -> tuple[int, str] | None:
    """First syntax error in ``text`` (from offset ``start``) as (offset, reason), or None.

    Iterative, so arbitrarily deep nesting cannot overflow the Python stack.
    """
    stack: list[str] = []
    n = len(text)
    i = _skip_ws(text, start)
    state = "value"  # value | first_item | first_key | key | colon | after
    while True:
        i = _skip_ws(text, i)
        if state in ("value", "first_item"):
            closing = "]" if state == "first_item" else None
            if i < n and text[i] == "]" and stack and stack[-1] == "[":
                if state == "first_item":
                    stack.pop()
                    i += 1
                    state = "after"
                    continue
                return i, "trailing comma before ']' is not allowed"
            if i >= n:
                return i, "unexpected end of input: expected a value"
            ch = text[i]
            if ch == "{":
                stack.append("{")
                i += 1
                state = "first_key"
                continue
            if ch == "[":
                stack.append("[")
                i += 1
                state = "first_item"
                continue
            if ch == '"':
                end, err = _scan_string(text, i)
                if err is not None:
                    return end, err
                i = end
            elif ch == "-" or ch.isdigit():
                bad = _number_error(text, i)
                if bad is not None:
                    return bad
                i = _NUMBER.match(text, i).end()  # type: ignore[union-attr]
            else:
                word = _WORD.match(text, i)
                if word is None or word.group() not in _LITERALS:
                    return i, _value_error(text, i, closing)
                i = word.end()
            state = "after"
        elif state in ("first_key", "key"):
            if i >= n:
                return i, "unexpected end of input: expected a double-quoted object key"
            ch = text[i]
            if ch == "}":
                if state == "first_key":
                    stack.pop()
                    i += 1
                    state = "after"
                    continue
                return i, "trailing comma before '}' is not allowed"
            if ch == '"':
                end, err = _scan_string(text, i)
                if err is not None:
                    return end, err
                i = end
                state = "colon"
            elif ch == "'":
                return i, "single quotes are not valid JSON; use double quotes"
            elif ch == "/" and text[i + 1 : i + 2] in ("/", "*"):
                return i, "comments are not allowed in JSON"
            elif _WORD.match(text, i):
                return i, "object keys must be double-quoted strings"
            else:
                return i, f"expected a double-quoted object key, found {_describe(text, i)}"
        elif state == "colon":
            if i < n and text[i] == ":":
                i += 1
                state = "value"
            else:
                return i, f"expected ':' after an object key, found {_describe(text, i)}"
        else:  # after a complete value
            if not stack:
                if i >= n:
                    return None
                if text[i] == "," and stack == []:
                    return i, "unexpected ',' after the JSON value"
                return i, "unexpected content after the JSON value"
            top = stack[-1]
            ch = text[i] if i < n else ""
            if ch == ",":
                i += 1
                state = "value" if top == "[" else "key"
            elif (top == "[" and ch == "]") or (top == "{" and ch == "}"):
                stack.pop()
                i += 1
            elif ch == "/" and text[i + 1 : i + 2] in ("/", "*"):
                return i, "comments are not allowed in JSON"
            elif top == "[":
                return i, f"expected ',' or ']' after an array element, found {_describe(text, i)}"
            else:
                return (
                    i,
                    f"expected ',' or '}}' after an object member, found {_describe(text, i)}",
                )
