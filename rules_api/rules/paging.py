"""Paging of list routes: ``?limit=N&cursor=C`` in, ``next_cursor`` out, the same everywhere.

Every list route (``GET /v1/audit``, ``/v1/zero-rules/{name}/audit``, ``/v1/zero-rules``,
``/v1/keys``) returns at most ``limit`` items (default ``DEFAULT_LIMIT``, at most
``MAX_LIMIT``) in a fixed order, and ``next_cursor``: an opaque string that, passed back as
``cursor``, continues after the last item; ``null`` on the last page. A cursor holds the sort
values of the last item seen (base64url JSON), so pages stay consistent while items are
added: each item is seen at most once.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zerolayer.rules_api.rules.errors import Issue, RulesError

DEFAULT_LIMIT = 100
MAX_LIMIT = 500
MAX_CURSOR_CHARS = 512


@dataclass(frozen=True, slots=True)
class Page:
    """What a list request asks for: at most ``limit`` items after ``after`` (None: first)."""

    limit: int
    after: tuple[Any, ...] | None


def page_of(query: Mapping[str, str], width: int) -> Page:
    """The page a request's query asks for; RulesError (400) naming the parameter if bad.
    ``width`` is the number of sort values a cursor of this list holds."""
    raw_limit = query.get("limit")
    limit = DEFAULT_LIMIT
    if raw_limit is not None:
        if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= MAX_LIMIT:
            raise RulesError(
                f"limit must be a whole number from 1 to {MAX_LIMIT}",
                errors=[Issue("query:limit", f"1 to {MAX_LIMIT}")],
            )
        limit = int(raw_limit)
    cursor = query.get("cursor")
    if not cursor:
        return Page(limit, None)
    return Page(limit, _decode(cursor, width))


def _decode(cursor: str, width: int) -> tuple[Any, ...]:
    bad = RulesError(
        "cursor is not one this list returned; start again without it",
        errors=[Issue("query:cursor", "a next_cursor of this list")],
    )
    if len(cursor) > MAX_CURSOR_CHARS:
        raise bad
    try:
        values = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise bad from None
    if not isinstance(values, list) or len(values) != width:
        raise bad
    if not all(isinstance(v, str | int) and not isinstance(v, bool) for v in values):
        raise bad
    return tuple(values)


def encode(values: Sequence[Any]) -> str:
    """The cursor that continues after an item with these sort values."""
    raw = json.dumps(list(values), separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def paged(key: str, rows: list[dict[str, Any]], page: Page, sort: Sequence[str]) -> dict[str, Any]:
    """The answer of a list route: ``{key: rows[:limit], "next_cursor": …}``, given up to
    ``limit + 1`` rows read after the cursor (one more tells whether a next page exists)."""
    items = rows[: page.limit]
    more = len(rows) > page.limit
    cursor = encode([items[-1][s] for s in sort]) if more and items else None
    return {key: items, "next_cursor": cursor}
