"""Split a message written in blocks into its parts: deterministic blocks and open parts.

The current block syntax (see ``syntax``) has two kinds of block:
``<convert lang="…" to="…">…</convert>`` carries a complete deterministic instruction, and
``<ask>…</ask>`` is an open request for the model. A message is *written in blocks* when it
has two or more blocks, or an ``<ask>`` block. Its parts, in message order, are the blocks
and the prose between, before and after them (text that is only white space is no part).

A message with a single ``<convert>`` block and no ``<ask>`` block is not split: text around
the block is read as part of its instruction ("… with 4-space indentation"), as before.
Blocks inside fenced code are content, not blocks.

A block's body may itself be one fenced code block (```` ```python ```` … ```` ``` ````), the
most natural way to write code: ``block_payload`` takes the code out of one enclosing fence
whose tag agrees with the block's language (same language in any spelling, or no tag); a tag
that names another language is a ``FenceLanguageError`` naming it (HTTP 400).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Literal

from zerolayer.core.errors import PayloadError
from zerolayer.core.message import canonical_lang, enclosing_fence, fenced_spans

_OPENING = re.compile(r"<(?P<tag>convert|ask)\b(?P<attrs>[^>]*)>", re.IGNORECASE)
_CLOSING = re.compile(r"</(?P<tag>convert|ask)\s*>", re.IGNORECASE)
PartKind = Literal["convert", "ask", "prose"]


@dataclass(frozen=True, slots=True)
class Block:
    """One part of a message written in blocks.

    ``text`` is what its answerer is given: the whole ``<convert>`` block (tags included)
    for the engine, the body of an ``<ask>`` block or the prose itself for the model.
    ``number`` counts the tagged blocks of the message from 1 (``None`` for prose).
    """

    kind: PartKind
    text: str
    number: int | None = None
    label: str = ""  # the opening tag as written, for messages

    @property
    def deterministic(self) -> bool:
        return self.kind == "convert"


@dataclass(frozen=True, slots=True)
class TagBlock:
    """A ``<convert …>…</convert>`` or ``<ask>…</ask>`` block found in a text."""

    tag: str  # convert | ask (lower case)
    start: int
    end: int
    attrs: str  # the opening tag's attribute text
    body: str  # without one line break after the opening tag and one before the closing


class FenceLanguageError(PayloadError):
    """The fence inside a block is tagged with a language other than the block's."""

    code = "fence_language_mismatch"


@dataclass(frozen=True, slots=True)
class BlockPayload:
    """What a block's body gives its answerer: the code (out of its fence, if it had one)
    and its language (the block's ``lang``, else the fence's tag)."""

    text: str
    lang: str | None  # as written, lower case
    fenced: bool = False


def block_payload(body: str, lang: str | None, tag: str = "convert") -> BlockPayload:
    """The payload of a block whose body is ``body`` and whose language is ``lang``.

    A body that is one closed fenced code block, with only white space around it, gives the
    fence's body when the fence's tag agrees with ``lang`` (the same language in any spelling:
    ``py``, ``python``, ``python3``), when it has no tag, or when the block names no language
    (the fence's tag is then the language). Any other body is the payload as it is.
    FenceLanguageError, with the tag's line and column in the body, when the tag names
    another language than ``lang``.
    """
    lang = lang.lower() if lang else None
    fence = enclosing_fence(body)
    if fence is None:
        return BlockPayload(body, lang)
    wanted, given = canonical_lang(lang), canonical_lang(fence.lang)
    if wanted is not None and given is not None and given != wanted:
        written = fence.info.split(maxsplit=1)[0]
        opening = body[fence.start :].partition("\n")[0]
        line = body.count("\n", 0, fence.start) + 1
        column = opening.index(fence.marker) + len(fence.marker) + 1
        column += len(opening[column - 1 :]) - len(opening[column - 1 :].lstrip())
        raise FenceLanguageError(
            f'its fence is tagged "{written}", but the block\'s lang is "{lang}"',
            fmt=f"<{tag}> block",
            text=body,
            line=line,
            column=column,
            hint=f'tag the fence "{lang}" or leave its tag out, or set lang="{written}" '
            "if that is the language of the code",
        )
    return BlockPayload(fence.body, lang or fence.lang, fenced=True)


def tag_blocks(
    text: str,
    tags: tuple[str, ...] = ("convert", "ask"),
    *,
    skip: list[tuple[int, int]] | None = None,
) -> list[TagBlock]:
    """The blocks of ``text`` with the given tags, in order, not overlapping.

    A block is an opening tag and the first closing tag of the same name after it (tag names
    are case-insensitive); an opening tag with no closing tag after it is text. An opening tag
    inside a ``skip`` span (fenced code) is content: the search goes on after the span.
    Linear in the length of the text (a regular expression with a lazy body would scan to
    the end of the text for every unclosed tag).
    """
    if "<" not in text:
        return []
    wanted = {t.lower() for t in tags}
    closings: dict[str, list[tuple[int, int]]] = {t: [] for t in wanted}
    for m in _CLOSING.finditer(text):
        if m["tag"].lower() in wanted:
            closings[m["tag"].lower()].append(m.span())
    starts = {t: [span[0] for span in spans] for t, spans in closings.items()}
    found: list[TagBlock] = []
    pos = 0
    while (m := _OPENING.search(text, pos)) is not None:
        tag = m["tag"].lower()
        inside = span_end(skip, m.start()) if skip else None
        if inside is not None:
            pos = max(inside, m.start() + 1)
            continue
        i = bisect_left(starts[tag], m.end()) if tag in wanted else 0
        if tag not in wanted or i == len(starts[tag]):
            pos = m.end()
            continue
        close_start, close_end = closings[tag][i]
        body = text[m.end() : close_start]
        body = body[1:] if body.startswith("\n") else body
        body = body[:-1] if body.endswith("\n") else body
        found.append(TagBlock(tag, m.start(), close_end, m["attrs"], body))
        pos = close_end
    return found


def span_end(spans: list[tuple[int, int]], pos: int) -> int | None:
    """The end of the span of ``spans`` (sorted, not overlapping) that holds ``pos``."""
    i = bisect_right(spans, (pos, float("inf"))) - 1
    if i >= 0 and spans[i][0] <= pos < spans[i][1]:
        return spans[i][1]
    return None


def find_blocks(text: str) -> list[TagBlock]:
    """The ``<convert>`` and ``<ask>`` blocks of ``text`` outside fenced code, in order."""
    if "<" not in text:
        return []
    return tag_blocks(text, skip=fenced_spans(text))


def split_blocks(text: str) -> list[Block] | None:
    """The parts of a message written in blocks, in order; ``None`` for any other message."""
    matches = find_blocks(text)
    if not matches or (len(matches) == 1 and matches[0].tag == "convert"):
        return None
    parts: list[Block] = []
    last = 0
    for number, m in enumerate(matches, start=1):
        _prose(parts, text[last : m.start])
        whole = text[m.start : m.end]
        label = whole[: whole.index(">") + 1]
        if m.tag == "convert":
            parts.append(Block("convert", whole, number, label))
        else:
            parts.append(Block("ask", m.body, number, label))
        last = m.end
    _prose(parts, text[last:])
    return parts


def _prose(parts: list[Block], text: str) -> None:
    if text.strip():
        parts.append(Block("prose", text.strip()))
