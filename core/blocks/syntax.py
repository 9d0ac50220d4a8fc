"""Block syntax versions, and the compatibility layer that reads older syntax as the current one.

A request may say which block syntax it was written for (HTTP header
``x-zero-layer-syntax``, ``EngineRequest.syntax``):

- ``v1`` (deprecated since 2026-12-01): ``[CODE_CONVERSION]…[/CODE_CONVERSION]`` (Python to
  TypeScript; ``[CODE_CONVERSION lang=py to=ts]`` names the languages) and
  ``[OPINION_REQUEST]…`` (the closing ``[/OPINION_REQUEST]`` may be left out: the block then
  runs to the next block or the end of the message);
- ``v2`` (current): ``<convert lang="…" to="…">…</convert>`` and ``<ask>…</ask>``.

``[SECTION: NAME]`` markers belong to both: they structure a document and the context ops read
them wherever they are, so they are never rewritten.

``to_current`` rewrites v1 blocks of a message as v2 blocks before segmentation. A request
that names no version is read leniently: v1 blocks are rewritten and a warning says they are
deprecated. A request that declares ``v2`` is read exactly: v1 markers are text, and a warning
says so. Markers inside fenced code or inside a v2 block are content and stay as they are; a
v1 block that cannot be rewritten faithfully (no closing marker, an unknown attribute, a body
holding the v2 closing tag) stays text, with a warning naming its line.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from zerolayer.core.blocks.split import span_end, tag_blocks
from zerolayer.core.errors import ZeroLayerError
from zerolayer.core.message import fenced_spans

HEADER = "x-zero-layer-syntax"


@dataclass(frozen=True, slots=True)
class SyntaxVersion:
    """One version of the block syntax."""

    name: str
    blocks: tuple[str, ...]  # the block forms it reads, as written in requests
    deprecation_date: str | None = None  # ISO date since which it is deprecated
    sunset_date: str | None = None  # ISO date after which it is refused; None: not scheduled

    @property
    def deprecated(self) -> bool:
        return self.deprecation_date is not None

    def to_dict(self, current: str) -> dict[str, Any]:
        status = (
            "current" if self.name == current else "deprecated" if self.deprecated else "supported"
        )
        return {
            "version": self.name,
            "status": status,
            "deprecation_date": self.deprecation_date,
            "sunset_date": self.sunset_date,
            "blocks": list(self.blocks),
        }


_SECTION = "[SECTION: NAME]"
VERSIONS: dict[str, SyntaxVersion] = {
    "v1": SyntaxVersion(
        "v1",
        (
            "[CODE_CONVERSION]…[/CODE_CONVERSION]",
            "[CODE_CONVERSION lang=py to=ts]…[/CODE_CONVERSION]",
            "[OPINION_REQUEST]…[/OPINION_REQUEST]",
            _SECTION,
        ),
        deprecation_date="2026-12-01",
    ),
    "v2": SyntaxVersion("v2", ('<convert lang="py" to="ts">…</convert>', "<ask>…</ask>", _SECTION)),
}
CURRENT = "v2"
MAX_NOTES = 5  # markers read as text named one by one in the warnings
LEGACY_DEFAULTS = {"lang": "py", "to": "ts"}  # what a bare [CODE_CONVERSION] meant
REPLACEMENTS = {
    "[CODE_CONVERSION]": '<convert lang="py" to="ts">...</convert> (or the languages it names)',
    "[OPINION_REQUEST]": "<ask>...</ask>",
}


class SyntaxVersionError(ZeroLayerError, ValueError):
    """A syntax version zerolayer does not know."""

    code = "unknown_syntax_version"


def supported() -> str:
    """The supported versions in words, for error messages."""
    words = []
    for v in VERSIONS.values():
        note = "current" if v.name == CURRENT else f"deprecated since {v.deprecation_date}"
        words.append(f"{v.name} ({note})")
    return ", ".join(words)


def check_version(name: str | None) -> str | None:
    """The canonical name of a declared version (``None`` when none is declared).

    SyntaxVersionError when ``name`` is not a supported version.
    """
    if name is None:
        return None
    key = name.strip().lower()
    if key not in VERSIONS:
        shown = name if len(name) <= 40 else name[:40] + "…"
        raise SyntaxVersionError(
            f"unknown block syntax version {shown!r}; supported versions: {supported()}",
            hint=f"send the header {HEADER} with one of them, or leave it out",
        )
    return key


def status() -> dict[str, Any]:
    """The supported versions, their deprecation dates and the current one (GET /v1/beta/status)."""
    return {
        "header": HEADER,
        "current": CURRENT,
        "default": "without the header, v2 is read and v1 blocks are rewritten as v2 blocks",
        "versions": [v.to_dict(CURRENT) for v in VERSIONS.values()],
    }


# ---- the compatibility layer --------------------------------------------------------------

_OPEN = re.compile(
    r"\[(?P<name>CODE_CONVERSION|OPINION_REQUEST)(?P<attrs>[ \t][^\]\n]*)?\]", re.IGNORECASE
)
_ANY_OPENING = re.compile(
    r"\[(?:CODE_CONVERSION|OPINION_REQUEST)(?:[ \t][^\]\n]*)?\]|<(?:convert|ask)\b", re.IGNORECASE
)
_ATTR = re.compile(r"""(\w+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))""")
_VALUE = re.compile(r"[A-Za-z0-9_.+#-]{1,32}")
_ATTR_NAMES = {"lang": "lang", "from": "lang", "to": "to"}


@dataclass(frozen=True, slots=True)
class Translation:
    """A message in the current syntax, and what the compatibility layer did to it."""

    text: str
    rewritten: tuple[str, ...] = ()  # v1 markers rewritten as v2 blocks ("[CODE_CONVERSION]")
    literal: tuple[str, ...] = ()  # why v1 markers were left as text, one line each
    version: str | None = None  # the declared version (None: none declared)

    @property
    def warnings(self) -> tuple[str, ...]:
        """Deprecation and literal-reading notes for the caller (a response header)."""
        out: list[str] = []
        v1 = VERSIONS["v1"]
        if self.rewritten:
            names = list(dict.fromkeys(self.rewritten))
            instead = " and ".join(f"{REPLACEMENTS[n]} for {n}" for n in names)
            out.append(
                f"block syntax v1 ({', '.join(names)}) is deprecated since "
                f"{v1.deprecation_date}; write {instead}, and send {HEADER}: {CURRENT}"
            )
        elif self.version is not None and VERSIONS[self.version].deprecated:
            version = VERSIONS[self.version]
            out.append(
                f"block syntax {version.name} is deprecated since {version.deprecation_date}; "
                f"the current version is {CURRENT}"
            )
        out.extend(self.literal[:MAX_NOTES])
        if len(self.literal) > MAX_NOTES:
            out.append(f"and {len(self.literal) - MAX_NOTES} more v1 markers read as text")
        return tuple(out)


def _protected(text: str) -> list[tuple[int, int]]:
    """Spans whose markers are content: fenced code, and current-syntax blocks (sorted, not
    overlapping: a block that starts inside a fence is no block)."""
    fences = fenced_spans(text)
    spans = fences + [(b.start, b.end) for b in tag_blocks(text, skip=fences)]
    return sorted(spans)


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return span_end(spans, pos) is not None


def _convert_attrs(raw: str | None) -> dict[str, str] | str:
    """The <convert> attributes of a [CODE_CONVERSION …] marker, or why it cannot be read."""
    attrs = dict(LEGACY_DEFAULTS)
    raw = (raw or "").strip()
    rest = _ATTR.sub("", raw).strip(" \t,")
    if rest:
        return f"it has text that is not an attribute ({rest!r})"
    for m in _ATTR.finditer(raw):
        name, value = m[1].lower(), m[2] or m[3] or m[4] or ""
        if name not in _ATTR_NAMES:
            return f"its attribute {name!r} is unknown (lang, from and to are read)"
        if not _VALUE.fullmatch(value):
            return f"its attribute {name}={value!r} is not a language name"
        attrs[_ATTR_NAMES[name]] = value
    return attrs


def to_current(text: str, version: str | None = None) -> Translation:
    """``text`` with v1 blocks rewritten as v2 blocks (see the module docstring).

    ``version`` is the declared version (already checked), ``None`` when none was declared.
    Linear in the length of the text: markers are indexed once, then looked up.
    """
    version = check_version(version)
    reads_v1 = version != CURRENT
    if "[" not in text or _OPEN.search(text) is None:
        return Translation(text, version=version)
    spans = _protected(text)
    marks = _Marks(text)
    out: list[str] = []
    rewritten: list[str] = []
    literal: list[str] = []
    pos = line = counted = 0
    for m in _OPEN.finditer(text):
        if m.start() < pos or _inside(m.start(), spans):
            continue
        line, counted = line + text.count("\n", counted, m.start()), m.start()
        name = m["name"].upper()
        where = f"[{name}] at line {line + 1}"
        if not reads_v1:
            literal.append(
                f"{where} is v1 syntax and was read as text under {HEADER}: {CURRENT}; "
                "write it as a v2 block or declare v1"
            )
            continue
        block = _rewrite(text, m, name, marks)
        if isinstance(block, str):
            literal.append(f"{where} was read as text: {block}")
            continue
        end, replacement = block
        out.append(text[pos : m.start()])
        out.append(replacement)
        rewritten.append(f"[{name}]")
        pos = end
    out.append(text[pos:])
    return Translation("".join(out), tuple(rewritten), tuple(literal), version)


_CLOSE = {
    "CODE_CONVERSION": re.compile(r"\[/CODE_CONVERSION\s*\]", re.IGNORECASE),
    "OPINION_REQUEST": re.compile(r"\[/OPINION_REQUEST\s*\]", re.IGNORECASE),
}
_V2_CLOSE = {"convert": re.compile(r"</convert\s*>", re.I), "ask": re.compile(r"</ask\s*>", re.I)}


class _Marks:
    """Where the closing markers, v2 closing tags and block openings of a text are."""

    def __init__(self, text: str) -> None:
        self.closes = {k: [m.span() for m in r.finditer(text)] for k, r in _CLOSE.items()}
        self.v2_closes = {k: [m.start() for m in r.finditer(text)] for k, r in _V2_CLOSE.items()}
        self.openings = [m.start() for m in _ANY_OPENING.finditer(text)]

    def close(self, name: str, pos: int) -> tuple[int, int] | None:
        """The first closing marker of ``name`` at or after ``pos``."""
        spans = self.closes[name]
        i = bisect_left(spans, (pos, -1))
        return spans[i] if i < len(spans) else None

    def opening(self, pos: int) -> int | None:
        """The first block opening at or after ``pos``."""
        i = bisect_left(self.openings, pos)
        return self.openings[i] if i < len(self.openings) else None

    def holds_v2_close(self, tag: str, start: int, end: int) -> bool:
        """Whether a v2 closing tag starts in ``[start, end)``."""
        starts = self.v2_closes[tag]
        i = bisect_left(starts, start)
        return i < len(starts) and starts[i] < end


def _rewrite(text: str, m: re.Match[str], name: str, marks: _Marks) -> tuple[int, str] | str:
    """(end of the v1 block, its v2 form), or why it stays text."""
    start = m.end()
    if name == "CODE_CONVERSION":
        attrs = _convert_attrs(m["attrs"])
        if isinstance(attrs, str):
            return attrs
        close = marks.close(name, start)
        if close is None:
            return "it has no closing [/CODE_CONVERSION]"
        if marks.holds_v2_close("convert", start, close[0]):
            return "its body holds </convert>"
        body = _body(text[start : close[0]])
        tag = f'<convert lang="{attrs["lang"]}" to="{attrs["to"]}">'
        return close[1], f"{tag}\n{body}\n</convert>"
    if m["attrs"] and m["attrs"].strip():
        return "[OPINION_REQUEST] takes no attributes"
    close = marks.close(name, start)
    following = marks.opening(start)
    trail = ""
    if close is not None and (following is None or close[0] < following):
        body, end = text[start : close[0]], close[1]
    else:  # no closing marker: the block runs to the next block or the end of the message
        end = following if following is not None else len(text)
        body = text[start:end]
        trail = body[len(body.rstrip()) :]  # the blank line before the next block stays
        body = body.rstrip()
    if marks.holds_v2_close("ask", start, start + len(body)):
        return "its body holds </ask>"
    return end, f"<ask>\n{_body(body)}\n</ask>{trail}"


def _body(body: str) -> str:
    """A block's body without the marker lines' rest: a marker alone on its line takes its line
    break; text on the marker's line loses the spaces before it."""
    first, newline, rest = body.partition("\n")
    body = (rest if newline else "") if not first.strip() else body.lstrip(" \t")
    head, newline, last = body.rpartition("\n")
    return head if newline and not last.strip() else body.rstrip(" \t")
