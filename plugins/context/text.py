"""Paragraphs and sections of a text, returned verbatim.

A *paragraph* is a run of non-blank lines separated from its neighbours by blank lines (lines
that hold only whitespace). A fenced code block (```` ``` ```` or ``~~~``) is kept whole even
when it contains blank lines. Paragraphs come back exactly as written, internal newlines
included; only the surrounding blank lines and the final line break are dropped.

Counting paragraphs is only unambiguous for prose. Blocks that a reader may or may not count
as a paragraph (a Markdown heading, a ``[SECTION: X]`` marker, a fenced code block, a table, a
list, a block quote, a horizontal rule, a one-line first block that ends with a colon or comma
such as "Here is the memo:" or "Dear team,", a short last block that starts with a line ending
in a comma such as "Best regards," and a name) are *uncertain*. ``paragraph`` counts both with
and without them and answers only when both counts pick the same block; otherwise it raises
``Unsupported``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from zerolayer.core.errors import LimitExceeded, OpError, Unsupported

#: Longest text the functions here accept (characters).
MAX_TEXT_CHARS = 2_000_000
#: A text with no paragraph break that is longer than this is never treated as one paragraph.
LONG_UNBROKEN_CHARS = 3000

BlockKind = Literal[
    "prose", "heading", "section", "code", "table", "list", "quote", "rule", "lead_in", "sign_off"
]

_LINE_RE = re.compile(r"[^\n]*\n|[^\n]+\Z")
_FENCE_OPEN_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SECTION_RE = re.compile(r"^\s*\[\s*SECTION\s*[:：]\s*(.*?)\s*\]\s*$", re.IGNORECASE)
_SECTION_END_RE = re.compile(r"^\s*\[\s*/\s*SECTION(?:\s*[:：][^\]]*)?\s*\]\s*$", re.IGNORECASE)
_RULE_RE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_LIST_RE = re.compile(r"^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_TABLE_DELIM_RE = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


@dataclass(frozen=True, slots=True)
class Block:
    """One blank-line separated block of a text: its verbatim text, kind and first line."""

    text: str
    kind: BlockKind
    line: int  # 1-based line number of the block's first line in the source text


@dataclass(frozen=True, slots=True)
class Section:
    """A named part of a text, from a ``[SECTION: NAME]`` marker or a Markdown heading.

    ``level`` is 0 for ``[SECTION: …]`` markers and 1–6 for ``#`` … ``######`` headings.
    ``heading`` is the marker or heading line itself; ``body`` is what follows it, verbatim,
    without surrounding blank lines, up to the next marker or heading of the same or a higher
    level (a ``[/SECTION]`` line also closes a marker section).
    """

    name: str
    level: int
    heading: str
    body: str
    line: int  # 1-based line number of the heading line


def _check_size(text: str) -> None:
    if len(text) > MAX_TEXT_CHARS:
        raise LimitExceeded(
            f"text of {len(text)} characters is over the limit of {MAX_TEXT_CHARS} characters"
        )


def _lines(text: str) -> list[str]:
    """The lines of ``text`` with their line breaks kept (only ``\\n`` splits lines)."""
    return _LINE_RE.findall(text)


def _is_blank(line: str) -> bool:
    return not line.strip()


def _fence_ranges(lines: list[str]) -> list[tuple[int, int]]:
    """Inclusive (start, end) line indexes of fenced code blocks (an unclosed fence runs to
    the end of the text)."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        m = _FENCE_OPEN_RE.match(lines[i])
        if not m:
            i += 1
            continue
        fence = m.group(1)
        close = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*\r?\n?$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        end = min(j, len(lines) - 1)
        out.append((i, end))
        i = end + 1
    return out


def _raw_blocks(text: str) -> list[tuple[str, int, bool]]:
    """(verbatim text, first line number, is fenced code) for each blank-line separated block."""
    lines = _lines(text)
    fenced = {start: end for start, end in _fence_ranges(lines)}
    blocks: list[tuple[str, int, bool]] = []
    current: list[str] = []
    start_line = 0
    i = 0

    def flush() -> None:
        if current:
            blocks.append(("".join(current).rstrip("\r\n"), start_line, False))
            current.clear()

    while i < len(lines):
        if i in fenced:
            flush()
            end = fenced[i]
            blocks.append(("".join(lines[i : end + 1]).rstrip("\r\n"), i + 1, True))
            i = end + 1
            continue
        if _is_blank(lines[i]):
            flush()
        else:
            if not current:
                start_line = i + 1
            current.append(lines[i])
        i += 1
    flush()
    return blocks


def _classify(block: str, fenced: bool, first: bool, last: bool) -> BlockKind:
    if fenced:
        return "code"
    lines = [ln.rstrip("\r") for ln in block.split("\n")]
    head = lines[0]
    if any(_SECTION_RE.match(ln) or _SECTION_END_RE.match(ln) for ln in lines):
        return "section"
    if any(_ATX_RE.match(ln) for ln in lines):
        return "heading"
    for above, below in pairwise(lines):
        if "|" in above and "-" in below and _TABLE_DELIM_RE.match(below):
            return "table"
        if re.match(r"^ {0,3}(=+|-+)[ \t]*$", below):
            return "heading"  # setext heading underline
    if _RULE_RE.match(head) and len(lines) == 1:
        return "rule"
    if _LIST_RE.match(head):
        return "list"
    if head.lstrip().startswith(">"):
        return "quote"
    if first and len(lines) == 1 and head.rstrip().endswith((":", "：", ",", "，")):
        return "lead_in"  # "Here is the memo:", "Dear team,"
    if (
        last
        and not first
        and len(lines) <= 3
        and head.rstrip().endswith((",", "，"))
        and all(len(ln.strip()) <= 40 for ln in lines)
    ):
        return "sign_off"  # "Best regards,\nAlice"
    return "prose"


def blocks(text: str) -> list[Block]:
    """Every blank-line separated block of ``text``, verbatim, with its kind."""
    _check_size(text)
    raw = _raw_blocks(text)
    return [
        Block(body, _classify(body, fenced, idx == 0, idx == len(raw) - 1), line)
        for idx, (body, line, fenced) in enumerate(raw)
    ]


def split_paragraphs(text: str) -> list[str]:
    """The blank-line separated paragraphs of ``text``, each verbatim.

    Internal newlines and indentation are kept; surrounding blank lines and the final line
    break of each paragraph are dropped. A fenced code block counts as one paragraph even if it
    contains blank lines.
    """
    return [b.text for b in blocks(text)]


def has_paragraph_breaks(text: str) -> bool:
    """True when ``text`` has at least two blank-line separated paragraphs."""
    return len(blocks(text)) >= 2


def _no_paragraphs(all_blocks: list[Block]) -> str | None:
    """Why the paragraphs of a text made of ``all_blocks`` cannot be told, or None."""
    if len(all_blocks) != 1:
        return None
    only = all_blocks[0]
    if "\n" in only.text.strip():
        return (
            "the text has line breaks but no blank lines between paragraphs, so where its "
            "paragraphs begin and end is not certain"
        )
    if len(only.text) > LONG_UNBROKEN_CHARS:
        return f"the text is {len(only.text)} characters with no paragraph breaks"
    return None


def unbroken(text: str) -> str | None:
    """Why ``text`` has no paragraphs that could be counted, or None: it is one block with
    line breaks but no blank line, or one unbroken run longer than ``LONG_UNBROKEN_CHARS``
    (the cases where ``paragraph`` raises ``context_no_paragraphs``)."""
    return _no_paragraphs(blocks(text))


def _ordinal(n: int) -> str:
    if n < 0:
        return "last" if n == -1 else f"{-n}th from last"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def paragraph(text: str, n: int) -> str:
    """Paragraph ``n`` of ``text``, verbatim: 1-based, or negative from the end (-1 = last).

    Raises ``OpError`` when the text has fewer paragraphs, and ``Unsupported`` when the answer
    is not certain: the text has no blank-line paragraph breaks but several lines, or is one
    unbroken run longer than ``LONG_UNBROKEN_CHARS``, or the count depends on whether headings,
    markers, code blocks, tables, lists, a lead-in or sign-off count as paragraphs, or on
    whether the single line breaks of a block whose lines all end a sentence separate
    paragraphs.
    """
    if n == 0:
        raise OpError("paragraph numbers start at 1 (or -1 for the last paragraph)")
    all_blocks = blocks(text)
    if not all_blocks:
        raise OpError("the text is empty: it has no paragraphs")
    doubt = _no_paragraphs(all_blocks)
    if doubt is not None:
        raise Unsupported("context_no_paragraphs", doubt)
    readings = {
        "blocks": all_blocks,
        "prose blocks": [b for b in all_blocks if b.kind == "prose"],
        "lines": _split_line_broken(all_blocks),
        "prose lines": _split_line_broken([b for b in all_blocks if b.kind == "prose"]),
    }
    picks = {name: _pick(items, n) for name, items in readings.items()}
    answers = {(b.line, b.text) if b is not None else None for b in picks.values()}
    if len(answers) == 1:
        (only_answer,) = answers
        if only_answer is not None:
            return only_answer[1]
        count = len(all_blocks)
        raise OpError(
            f"the text has {count} paragraph{'s' if count != 1 else ''}; "
            f"there is no {_ordinal(n)} paragraph"
        )
    doubts = sorted({b.kind for b in all_blocks if b.kind != "prose"})
    if picks["blocks"] != picks["lines"] or picks["prose blocks"] != picks["prose lines"]:
        doubts.append("lines ending in sentence punctuation")
    raise Unsupported(
        "context_ambiguous_paragraph",
        f"the {_ordinal(n)} paragraph depends on whether {', '.join(doubts)} count as paragraphs",
    )


_SENTENCE_END = tuple(".!?。！？…")
_CLOSING = "\"'”’）)」』"


def _line_broken(block: Block) -> bool:
    """True for a prose block of several lines that each end a sentence: its line breaks may
    separate paragraphs (common in Chinese text), not wrap one."""
    lines = [ln.strip() for ln in block.text.split("\n")]
    return (
        block.kind == "prose"
        and len(lines) > 1
        and all(ln.rstrip(_CLOSING).endswith(_SENTENCE_END) for ln in lines)
    )


def _split_line_broken(items: list[Block]) -> list[Block]:
    """``items`` with each line-broken block replaced by one block per line."""
    out: list[Block] = []
    for b in items:
        if _line_broken(b):
            out.extend(
                Block(ln.rstrip("\r"), "prose", b.line + k)
                for k, ln in enumerate(b.text.split("\n"))
            )
        else:
            out.append(b)
    return out


def _pick(items: list[Block], n: int) -> Block | None:
    idx = n - 1 if n > 0 else len(items) + n
    return items[idx] if 0 <= idx < len(items) else None


def _heading_name(raw: str) -> str:
    """A heading's text without trailing colon and surrounding emphasis markers."""
    name = raw.strip()
    for mark in ("**", "__", "*", "_"):
        if len(name) > 2 * len(mark) and name.startswith(mark) and name.endswith(mark):
            name = name[len(mark) : -len(mark)].strip()
    return name.rstrip(":：").strip()


def sections(text: str) -> list[Section]:
    """The named sections of ``text`` in document order.

    Sections start at ``[SECTION: NAME]`` marker lines (level 0) and ATX Markdown headings
    ``#`` … ``######`` (levels 1–6); markers and headings inside fenced code blocks are ignored.
    A section's body runs to the next marker or heading of the same or a higher (smaller)
    level, so a heading's body includes its sub-headings; a ``[/SECTION]`` line closes the open
    marker section and everything inside it.
    """
    _check_size(text)
    lines = _lines(text)
    in_fence: set[int] = set()
    for start, end in _fence_ranges(lines):
        in_fence.update(range(start, end + 1))
    marks: list[tuple[int, int, str | None]] = []  # (line index, level, name or None=close)
    for i, line in enumerate(lines):
        if i in in_fence:
            continue
        bare = line.rstrip("\r\n")
        if m := _SECTION_RE.match(bare):
            marks.append((i, 0, m.group(1).strip()))
        elif _SECTION_END_RE.match(bare):
            marks.append((i, 0, None))
        elif (m := _ATX_RE.match(bare)) and (m.group(2) or "").strip():
            marks.append((i, len(m.group(1)), _heading_name(m.group(2) or "")))
    out: list[Section] = []
    for k, (i, level, name) in enumerate(marks):
        if name is None:
            continue
        end = len(lines)
        for j, jlevel, _ in marks[k + 1 :]:
            if jlevel <= level:
                end = j
                break
        body = "".join(lines[i + 1 : end])
        body_lines = body.split("\n")
        while body_lines and _is_blank(body_lines[0]):
            body_lines.pop(0)
        body = "\n".join(body_lines).rstrip()
        out.append(Section(name, level, lines[i].rstrip("\r\n"), body, i + 1))
    return out


_NUMBERING_RE = re.compile(
    r"^(?:\d+(?:\.\d+)*(?:[.)、:：]\s*|\s+)|(?:[ivxlcdm]+|[a-z])[.)]\s+|"
    r"[一二三四五六七八九十百]+[、.．]\s*|第[一二三四五六七八九十百\d]+[章节部分]+\s*)",
    re.IGNORECASE,
)


def _norm_name(name: str, *, numbering: bool) -> str:
    out = " ".join(_heading_name(name).split()).casefold()
    if numbering:
        out = _NUMBERING_RE.sub("", out, count=1).strip()
    return out


def section(text: str, name: str, *, include_heading: bool = False) -> str:
    """The body of the section called ``name`` (verbatim; with its heading line if asked).

    Names match case-insensitively with whitespace collapsed and a trailing colon or emphasis
    markers ignored; when nothing matches that way, leading numbering ("2.", "II.", "一、",
    "第三章") is ignored too. More than one match raises ``Unsupported``; none raises
    ``OpError`` listing the sections there are.
    """
    found = sections(text)
    if not found:
        raise OpError("the text has no sections ([SECTION: NAME] markers or Markdown headings)")
    for numbering in (False, True):
        want = _norm_name(name, numbering=numbering)
        hits = [s for s in found if _norm_name(s.name, numbering=numbering) == want and want]
        if len(hits) > 1:
            raise Unsupported(
                "context_ambiguous_section",
                f"{len(hits)} sections are called {name!r} (lines "
                f"{', '.join(str(s.line) for s in hits)})",
            )
        if hits:
            hit = hits[0]
            return f"{hit.heading}\n\n{hit.body}".rstrip() if include_heading else hit.body
    names = ", ".join(repr(s.name) for s in found)
    raise OpError(f"no section called {name!r}; the sections are: {names}")
