"""JSON bodies that never fail to encode.

JSON text may carry lone surrogates (``"\\ud800"``), which UTF-8 cannot encode. Answers are
written with literal UTF-8 when possible and fall back to ``\\uXXXX`` escapes (still valid
JSON that decodes to the same string) when the text holds a lone surrogate.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

from fastapi.responses import JSONResponse


def dump_json(data: Any) -> bytes:
    """``data`` as compact-ish JSON bytes: literal UTF-8, or ASCII escapes if it must."""
    try:
        return json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, ensure_ascii=True).encode("ascii")


def dump_str(text: str) -> bytes:
    """``dump_json(text)`` of a string, without an encoder made for it: the string as
    ``json.dumps`` writes one (literal UTF-8, or ASCII escapes if it must)."""
    try:
        return encode_basestring(text).encode("utf-8")
    except UnicodeEncodeError:
        return encode_basestring_ascii(text).encode("ascii")


def dump_value(value: Any) -> bytes:
    """``dump_json(value)``: a string, an int and None written without an encoder."""
    kind = type(value)
    if kind is str:
        return dump_str(value)
    if kind is int:
        return str(value).encode()
    if value is None:
        return b"null"
    return dump_json(value)


class SafeJSONResponse(JSONResponse):
    """A JSONResponse rendered with ``dump_json``."""

    def render(self, content: Any) -> bytes:
        """Encode the body (see ``dump_json``)."""
        return dump_json(content)
