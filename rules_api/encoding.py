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
from pydantic import BaseModel


def dump_json(data: Any) -> bytes:
    """``data`` as compact-ish JSON bytes: literal UTF-8, or ASCII escapes if it must."""
    try:
        return json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, ensure_ascii=True).encode("ascii")


def unencodable_field(value: Any, path: str = "") -> tuple[str, str] | None:
    """The path (``messages.0.content.1.text``, as validation errors name fields) of the
    first string of a request body (a model, or JSON values) that UTF-8 cannot encode, one
    with a lone surrogate (JSON ``"\\ud800"``), and that surrogate; None when every string
    encodes. A key is looked at as its value is. It walks the whole body: for a request
    whose upstream body failed to encode, not for every request."""
    if type(value) is str:
        if value.isascii():
            return None
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return path or "body", value[exc.start]
        return None
    if isinstance(value, BaseModel):
        items: Any = value.__dict__.items()
        if value.__pydantic_extra__:
            items = [*items, *value.__pydantic_extra__.items()]
    elif isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        where = f"{path}.{key}" if path else str(key)
        if type(key) is str and (bad := unencodable_field(key, where)) is not None:
            return bad
        found = unencodable_field(item, where)
        if found is not None:
            return found
    return None


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
