"""Split a message written in blocks into its parts: deterministic blocks and open parts.

The current block syntax (see ``core/syntax.py``) has two kinds of block:
``<convert lang="…" to="…">…</convert>`` carries a complete deterministic instruction, and
``<ask>…</ask>`` is an open request for the model. A message is *written in blocks* when it
has two or more blocks, or an ``<ask>`` block. Its parts, in message order, are the blocks
and the prose between, before and after them (text that is only white space is no part).

A message with a single ``<convert>`` block and no ``<ask>`` block is not split: text around
the block is read as part of its instruction ("… with 4-space indentation"), as before.
Blocks inside fenced code are content, not blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_BLOCK = re.compile(
    r"<(?P<tag>convert|ask)\b(?P<attrs>[^>]*)>\n?(?P<body>.*?)\n?</(?P=tag)\s*>",
    re.DOTALL | re.IGNORECASE,
)
_FENCE = re.compile(
    r"^[ ]{0,3}(?P<fence>`{3,}|~{3,})[^\n]*\n.*?^[ ]{0,3}(?P=fence)[`~]*[ \t]*$",
    re.MULTILINE | re.DOTALL,
)

PartKind = Literal["convert", "ask", "prose"]


@dataclass(frozen=True, slots=True)
class Block:
    """One part of a message written in blocks.

    ``text`` is what answers it is asked with: the whole ``<convert>`` block (tags included)
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


def _fenced_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _FENCE.finditer(text)]


def find_blocks(text: str) -> list[re.Match[str]]:
    """The ``<convert>`` and ``<ask>`` blocks of ``text`` outside fenced code, in order."""
    if "<" not in text:
        return []
    fences = _fenced_spans(text)
    found: list[re.Match[str]] = []
    pos = 0
    while True:
        m = _BLOCK.search(text, pos)
        if m is None:
            return found
        inside = next((end for start, end in fences if start <= m.start() < end), None)
        if inside is not None:
            pos = inside
            continue
        found.append(m)
        pos = m.end()


def split_blocks(text: str) -> list[Block] | None:
    """The parts of a message written in blocks, in order; ``None`` for any other message."""
    matches = find_blocks(text)
    kinds = [m["tag"].lower() for m in matches]
    if not matches or (len(matches) == 1 and kinds[0] == "convert"):
        return None
    parts: list[Block] = []
    last = 0
    for number, (m, kind) in enumerate(zip(matches, kinds, strict=True), start=1):
        _prose(parts, text[last : m.start()])
        label = text[m.start() : m.start("body")].rstrip("\n")
        if kind == "convert":
            parts.append(Block("convert", m.group(0), number, label))
        else:
            parts.append(Block("ask", m["body"], number, label))
        last = m.end()
    _prose(parts, text[last:])
    return parts


def _prose(parts: list[Block], text: str) -> None:
    if text.strip():
        parts.append(Block("prose", text.strip()))
