"""The skeleton of a protocol's answer, rendering it, and reading the structure back.

The answer is Markdown: a ``## title`` heading per titled slot, numbered lists for
questions, options, points and steps, ``-`` lists for bullet points, plain paragraphs
otherwise. Slots are separated by blank lines; each item is one line (``clean.py``).
``read_structure`` parses Markdown with markdown-it (CommonMark) and lists its top-level
blocks, so that a test or the filler can check that an answer has exactly the structure
its protocol asks for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it import MarkdownIt

from zerolayer.core.protocol.clean import clean_slot_text
from zerolayer.core.protocol.model import Protocol

Block = tuple[str, object]  # ("heading", text) | ("ordered", n) | ("bullet", n) | ("paragraph", 1)


class ProtocolDefect(RuntimeError):
    """A rendered answer does not have its protocol's structure (a bug, never the model's)."""


@dataclass(frozen=True, slots=True)
class Fill:
    """One piece of text the model writes: item ``index`` (from 1) of slot ``slot``; the
    skeleton text ``prefix`` comes right before it."""

    slot: int
    index: int
    prefix: str


@dataclass(frozen=True, slots=True)
class Skeleton:
    fills: tuple[Fill, ...]
    suffix: str = ""


def heading(title: str) -> str:
    """The heading line of a title: white space collapsed, ``\\`` and ``#`` escaped, NUL
    replaced as CommonMark does."""
    text = " ".join(title.split()).replace("\x00", "\ufffd")
    return "## " + text.replace("\\", "\\\\").replace("#", "\\#")


def skeleton(protocol: Protocol) -> Skeleton:
    """The fixed text around the slots' texts."""
    fills: list[Fill] = []
    pending = ""
    for s, slot in enumerate(protocol.slots):
        if s:
            pending += "\n\n"
        if slot.title is not None:
            pending += heading(slot.title) + "\n\n"
        for i in range(1, slot.count + 1):
            if slot.kind.listed:
                marker = f"{i}. " if slot.kind.ordered else "- "
                between = "\n"
            else:
                marker, between = "", "\n\n"
            fills.append(Fill(s, i, pending + (between if i > 1 else "") + marker))
            pending = ""
    return Skeleton(tuple(fills), pending)


def render(protocol: Protocol, texts: Sequence[str], *, caps: Sequence[int] | None = None) -> str:
    """The answer with ``texts`` (the model's raw text for each fill, in order) cleaned into
    the skeleton. ``caps``: the character cap of each fill (default 500 for list items, 1600
    for paragraphs)."""
    shape = skeleton(protocol)
    if len(texts) != len(shape.fills):
        raise ValueError(f"{len(shape.fills)} texts expected, got {len(texts)}")
    parts = []
    for n, (fill, raw) in enumerate(zip(shape.fills, texts, strict=True)):
        cap = caps[n] if caps else default_cap(protocol, fill)
        parts.append(fill.prefix + clean_slot_text(raw, cap))
    return "".join(parts) + shape.suffix


def default_cap(protocol: Protocol, fill: Fill) -> int:
    return 500 if protocol.slots[fill.slot].kind.listed else 1600


def expected_structure(protocol: Protocol) -> list[Block]:
    """The top-level blocks an answer to ``protocol`` has, as ``read_structure`` lists them."""
    blocks: list[Block] = []
    for slot in protocol.slots:
        if slot.title is not None:
            blocks.append(("heading", heading(slot.title)[3:]))
        if slot.kind.listed:
            blocks.append(("ordered" if slot.kind.ordered else "bullet", slot.count))
        else:
            blocks += [("paragraph", 1)] * slot.count
    return blocks


_MARKDOWN = MarkdownIt("commonmark")


def read_structure(markdown: str) -> list[Block]:
    """The top-level blocks of a Markdown text: headings with their source text, lists with
    their item count, paragraphs, and any other block by its token type."""
    blocks: list[Block] = []
    tokens = _MARKDOWN.parse(markdown)
    for i, token in enumerate(tokens):
        if token.level != 0 or token.nesting == -1:
            continue
        if token.type == "heading_open":
            blocks.append(("heading", tokens[i + 1].content))
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            depth, items = 0, 0
            for inner in tokens[i:]:
                depth += inner.nesting
                if inner.type == "list_item_open" and inner.level == 1:
                    items += 1
                if depth == 0:
                    break
            blocks.append(("bullet" if token.type == "bullet_list_open" else "ordered", items))
        elif token.type == "paragraph_open":
            blocks.append(("paragraph", 1))
        elif token.nesting == 0 or token.nesting == 1:
            blocks.append((token.type.removesuffix("_open"), 1))
    return blocks


def check_structure(markdown: str, protocol: Protocol) -> None:
    """ProtocolDefect when ``markdown`` does not have exactly ``protocol``'s structure."""
    found, expected = read_structure(markdown), expected_structure(protocol)
    if found != expected:
        raise ProtocolDefect(f"the answer's structure is {found}, expected {expected}")
