"""The ``x-zero-layer-*`` response headers and how their values are made header-safe."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote

STATUS = "x-zero-layer-status"
CACHE_HIT = "x-zero-layer-cache-hit"
PLAN = "x-zero-layer-plan"
REASON = "x-zero-layer-reason"
PARTS = "x-zero-layer-parts"  # zero,model,zero: who answered each part of a mixed answer
SYNTAX_WARNING = "x-zero-layer-syntax-warning"  # deprecated block syntax, markers read as text
PROTOCOL = "x-zero-layer-protocol"  # the structure a model answer follows (docs/protocols.md)
CONTROL = "x-zero-layer"  # request header; the value "disable" forces the neural fallback
SYNTAX = "x-zero-layer-syntax"  # request header: the block syntax version (v1, v2)

# Printable ASCII stays as it is, except "%" (the escape character itself).
_SAFE = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != "%")
_ELLIPSIS = "%E2%80%A6"  # "…", marks a value cut at the length limit


def header_safe(value: str, limit: int = 2048) -> str:
    """Percent-encode every byte outside printable ASCII (and ``%``) as UTF-8 ``%XX``.

    ``urllib.parse.unquote`` gives back the original text. A value longer than ``limit``
    characters once encoded is cut (never inside an escape) and ends with an encoded ``…``.
    """
    encoded = quote(value, safe=_SAFE, errors="backslashreplace")
    if len(encoded) <= limit:
        return encoded
    budget = max(limit - len(_ELLIPSIS), 0)
    kept: list[str] = []
    for char in value:  # whole characters only: never split an escape or a UTF-8 sequence
        piece = quote(char, safe=_SAFE, errors="backslashreplace")
        if len(piece) > budget:
            break
        kept.append(piece)
        budget -= len(piece)
    return "".join(kept) + _ELLIPSIS


def answer_headers(
    *,
    active: bool,
    cache_hit: bool = False,
    plan: str | None = None,
    reason: str | None = None,
    parts: Sequence[str] = (),
    warnings: Sequence[str] = (),
    protocol: str | None = None,
    limit: int = 2048,
) -> dict[str, str]:
    """The zerolayer headers of one answer: status, cache hit, the plan or the reason, the
    kinds of the parts of a message written in blocks, block syntax warnings, and the
    protocol the answer follows."""
    headers = {STATUS: "active" if active else "inactive", CACHE_HIT: str(cache_hit).lower()}
    if plan:
        headers[PLAN] = header_safe(plan, limit)
    if reason:
        headers[REASON] = header_safe(reason, limit)
    if parts:
        headers[PARTS] = ",".join(parts)
    if warnings:
        headers[SYNTAX_WARNING] = header_safe(" | ".join(warnings), limit)
    if protocol:
        headers[PROTOCOL] = header_safe(protocol, limit)
    return headers
