"""One reading of a user message: its line endings, and its fenced code blocks.

Every stage that looks for structure in a message (segmentation, blocks, the block-syntax
layer, protocol recognition, context operations) reads it through this module, so they agree
on what a line is and where a fence starts and ends.

Line endings are normalised first, as CommonMark does: CRLF and a lone CR become LF. A CRLF
counts as one line break either way, so line numbers in error messages still point at the
lines the user wrote.

Fences follow CommonMark: an opening line of three or more backticks or tildes indented by at
most three spaces (a backtick fence's info string has no backtick), and a closing line of the
same character, at least as long, indented by at most three spaces, with nothing after it but
spaces or tabs. The body is the lines between, each with its line break, with as many leading
spaces removed as the opening fence was indented. A fence with no closing line runs to the end
of the text (``Fence.closed`` is false).

Language names: a fence's tag and a block's ``lang`` name a language in several spellings
(``py``, ``python``, ``python3``); ``canonical_lang`` gives the one name every stage compares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_OPENING = re.compile(r"^(?P<indent>[ ]{0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$", re.M)


LANG_ALIASES = {
    "yml": "yaml",
    "md": "markdown",
    "py": "python",
    "python3": "python",
    "ts": "typescript",
    "js": "javascript",
    "postgres": "sql",
    "postgresql": "sql",
    "mysql": "sql",
}


# The labels of prompt templates ("### Task", "Input:", "Output format:", "任务：", "输出要求："):
# label words, alone on their line or before a colon, say where the parts of a prompt are, not
# what to do.
_LABEL_WORD = (
    r"(?:task|instructions?|request|input|output|query|prompt|answer|response|result|format|"
    r"expected|system|任务|输入|输出|指令|要求|格式|回答|答案|结果|系统)"
)
TEMPLATE_LABEL = rf"{_LABEL_WORD}(?:[ \t]*{_LABEL_WORD}){{0,2}}"
# Labels of the instruction's own parts besides ("Requirements:", "## Rules", "IMPORTANT:",
# 注意：): in the words around the data only; a document's heading may be one of them ("##
# Requirements" in a README), so they are not read as labels of the data.
_INSTRUCTION_LABEL_WORD = (
    r"(?:requirements?|rules?|constraints?|guidelines?|notes?|important|规则|约束|注意|"
    rf"{_LABEL_WORD[3:-1]})"
)
INSTRUCTION_LABEL = rf"{_INSTRUCTION_LABEL_WORD}(?:[ \t]*{_INSTRUCTION_LABEL_WORD}){{0,2}}"
# a label in brackets, as some templates write it ("【输入】", "[Task]")
BRACKETED_LABEL = rf"[\[【][ \t]*{TEMPLATE_LABEL}[ \t]*[\]】]"
# a line that is a label alone ("### Output", "输出要求：") and a label before a sentence
LABEL_LINE = re.compile(
    rf"(?i)^[ \t]*(?:#{{1,6}}[ \t]*)?(?:{BRACKETED_LABEL}|{TEMPLATE_LABEL})[ \t]*[:：]?[ \t]*$"
)
# a line of the words around the data that is a label alone ("## Rules", "Requirements:")
INSTRUCTION_LABEL_LINE = re.compile(
    rf"(?i)^[ \t]*(?:#{{1,6}}[ \t]*)?(?:{BRACKETED_LABEL}|{INSTRUCTION_LABEL})[ \t]*[:：]?[ \t]*$"
)
LABEL_PREFIX = re.compile(rf"(?i)^[ \t]*(?:#{{1,6}}[ \t]*)?{TEMPLATE_LABEL}[ \t]*[:：][ \t]*")


def canonical_lang(name: str | None) -> str | None:
    """The one spelling of a language name (``py`` → ``python``), lower case; None for none."""
    if not name:
        return None
    key = name.strip().lower()
    return LANG_ALIASES.get(key, key) or None


def normalise_newlines(text: str) -> str:
    """``text`` with CRLF and lone CR line endings as LF."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


@dataclass(frozen=True, slots=True)
class Fence:
    """A fenced code block of a (normalised) text."""

    start: int  # the opening line's first character
    end: int  # just after the closing line and its line break (the end of the text if unclosed)
    marker: str  # the opening fence as written: ``` or ~~~~ …
    info: str  # the info string, stripped: "json", "python title=x.py"
    body: str  # the lines between the fences, each with its line break
    closed: bool

    @property
    def lang(self) -> str | None:
        """The info string's first word, lower case (the fence's language tag)."""
        word = self.info.split(maxsplit=1)[0] if self.info else ""
        return word.lower() or None

    @property
    def attributes(self) -> str:
        """The info string after its first word ("title=x.py")."""
        parts = self.info.split(maxsplit=1)
        return parts[1] if len(parts) == 2 else ""

    @property
    def span(self) -> tuple[int, int]:
        return self.start, self.end


def fences(text: str, *, unclosed: bool = False) -> list[Fence]:
    """The fenced code blocks of ``text`` (line endings already LF), in order.

    A fence with no closing line is returned only when ``unclosed`` is true; otherwise its
    opening line is text and the search goes on after it.
    """
    if "```" not in text and "~~~" not in text:
        return []
    found: list[Fence] = []
    pos = 0
    while (m := _next_opening(text, pos)) is not None:
        marker, info = m["fence"], m["info"]
        if marker[0] == "`" and "`" in info:
            pos = m.end() + 1
            continue
        body_start = m.end() + 1
        close = _next_closing(text, marker[0], len(marker), body_start)
        if close is None:
            if unclosed:
                body = _dedent(text[body_start:], len(m["indent"]))
                found.append(Fence(m.start(), len(text), marker, info.strip(), body, False))
                break
            pos = body_start
            continue
        end = min(close.end() + 1, len(text))
        body = _dedent(text[body_start : close.start()], len(m["indent"]))
        found.append(Fence(m.start(), end, marker, info.strip(), body, True))
        pos = end
    return found


def _next_opening(text: str, pos: int) -> re.Match[str] | None:
    """``_OPENING.search(text, pos)``, trying only the lines that hold three backticks or
    tildes (a line is a fence's opening when it starts at or after ``pos``)."""
    while True:
        ticks, tildes = text.find("```", pos), text.find("~~~", pos)
        at = min(ticks, tildes) if ticks >= 0 and tildes >= 0 else max(ticks, tildes)
        if at < 0:
            return None
        line = text.rfind("\n", 0, at) + 1
        if line >= pos and (m := _OPENING.match(text, line)) is not None:
            return m
        pos = text.find("\n", at) + 1  # no other opening on this line
        if not pos:
            return None


def _next_closing(text: str, char: str, length: int, pos: int) -> re.Match[str] | None:
    """The first line from ``pos`` on that closes a fence of ``length`` ``char``s, trying
    only the lines that hold that many (as ``_closing(char, length).search`` would find)."""
    closing, run = _closing(char, length), char * length
    while pos <= len(text):
        at = text.find(run, pos)
        if at < 0:
            return None
        line = text.rfind("\n", 0, at) + 1
        if line >= pos and (m := closing.match(text, line)) is not None:
            return m
        pos = text.find("\n", at) + 1
        if not pos:
            return None
    return None


@lru_cache(maxsize=64)
def _closing(char: str, length: int) -> re.Pattern[str]:
    """The closing line of a fence opened by ``length`` of ``char``."""
    return re.compile(rf"^[ ]{{0,3}}{re.escape(char)}{{{length},}}[ \t]*$", re.M)


# Delimiters prompt templates wrap a payload in besides fences: a line of three quotes, or a
# line with an opening tag that names the payload ("<json>", "<input>", "<code lang=x>") and
# one with the closing tag.
_QUOTE_LABEL = r"(?:(?P<label>[A-Za-z\u3400-\u9fff][\w\u3400-\u9fff -]{0,24}?)[ \t]*[:：][ \t]*)?"
_WRAP_OPEN = re.compile(
    rf"^[ \t]*(?:{_QUOTE_LABEL}(?P<quotes>\"\"\"|\'\'\')"
    r"|<(?P<tag>[A-Za-z][\w-]*)(?P<attrs>\s[^<>\n]*)?>)[ \t]*$",
    re.M,
)
# data in three quotes on one line of its own, with a label before it or not (Text: '''…''')
_QUOTED_LINE = re.compile(
    rf"^[ \t]*{_QUOTE_LABEL}(?P<quotes>\"\"\"|\'\'\')(?P<body>[^\n]+?)(?P=quotes)[ \t]*$", re.M
)
# a pair of tags around data on one line of its own ("<input>{"a": 1}</input>")
_WRAP_LINE = re.compile(r"^[ \t]*<(?P<tag>[A-Za-z][\w-]*)>(?P<body>[^\n]*)</(?P=tag)>[ \t]*$", re.M)
# a tag's attribute that names the language of its body ("<code lang="python">")
_LANG_ATTR = re.compile(r"""\b(?:lang|language)\s*=\s*["']?(?P<lang>[\w+#-]+)""", re.I)
_WRAP_NAMES = frozenset(("input", "document", "doc", "query", "payload", "snippet", "config"))
# HTML's own elements are the data's (an HTML block in Markdown), never a wrapper
_HTML_ELEMENTS = frozenset(
    re.findall(
        r"\w+",
        "html table code data text source content pre p div span body head template object "
        "output select option style script title main section article details summary label form",
    )
)
_AFTER_WRAP = re.compile(r"\s*(?:\n[ \t]*\n[^\n]{1,160}\n?)?\s*$")
# after a closing tag (not three quotes, which a docstring closes too) the short line may
# follow right under it ("</json>\n把标签里的JSON转换成YAML")
_AFTER_TAG = re.compile(r"[ \t]*(?:\n[ \t]*)?(?:\n[^\n<>]{1,160}\n?)?\s*$")


def wrapped(text: str, formats: frozenset[str] = frozenset()) -> Fence | None:
    """The payload a prompt template wraps in three quotes or a pair of tags, as a fence:
    the opening line, the body, the closing line, then nothing but at most one short closing
    paragraph (so a Python docstring or an HTML block inside the data is not taken for one).
    A tag must name a format or the payload (``formats``, or input, payload …), and not be
    one of HTML's own elements."""
    if '"""' not in text and "'''" not in text and "<" not in text:
        return None
    for m in _WRAP_OPEN.finditer(text):
        tag = (m["tag"] or "").lower()
        named = _attr_lang(m["attrs"], formats)
        if (
            m["tag"] is not None
            and named is None
            and (tag in _HTML_ELEMENTS or (tag not in formats and tag not in _WRAP_NAMES))
        ):
            continue  # a tag of the data ("<div>"), not a wrapper: look further
        closing = m["quotes"] or f"</{m['tag']}>"
        close = re.compile(rf"^[ \t]*{re.escape(closing)}[ \t]*$", re.M).search(text, m.end() + 1)
        after = _AFTER_WRAP if m["quotes"] else _AFTER_TAG
        if close is None or not after.fullmatch(text, close.end()):
            return None  # the first wrapper line opens none: the data's own (a docstring)
        body = text[m.end() + 1 : close.start()]
        lang = named or (tag if tag in formats else "") or _label_lang(m["label"], formats)
        end = min(close.end() + 1, len(text))
        return Fence(m.start(), end, m.group(0).strip(), lang, body, True)
    return _wrapped_line(text, formats) or _quoted_line(text, formats)


def _label_lang(label: str | None, formats: frozenset[str]) -> str:
    """The format a label before quoted data names (Markdown: '''…'''), else ""."""
    name = canonical_lang(label)
    return name if name is not None and name in formats else ""


# the text before quoted data that presents it: nothing, or a line ended by a colon or a blank
_PRESENTS = re.compile(r"(?:\A|[:：][ \t]*\n|\n[ \t]*\n)\Z")


def _quoted_line(text: str, formats: frozenset[str]) -> Fence | None:
    """The one line that is data in three quotes (Text: '''Hello *world*'''), with nothing but
    a short line of prose after it; None when there is not exactly one."""
    if '"""' not in text and "'''" not in text:
        return None
    found = list(_QUOTED_LINE.finditer(text))
    if len(found) != 1 or not _AFTER_TAG.fullmatch(text, found[0].end()):
        return None
    m = found[0]
    body = m["body"].strip()
    before = text[: m.start()].rstrip(" \t")
    if not body or m.group(0)[:1].isspace() or not (m["label"] or _PRESENTS.search(before)):
        return None  # a docstring of a program ends its data: the data's own
    end = min(m.end() + 1, len(text))
    return Fence(m.start(), end, m["quotes"], _label_lang(m["label"], formats), body + "\n", True)


def _attr_lang(attrs: str | None, formats: frozenset[str]) -> str | None:
    """The format a tag's ``lang`` attribute names (``<code lang="python">``), if it names
    one the engine knows."""
    m = _LANG_ATTR.search(attrs or "")
    lang = canonical_lang(m["lang"]) if m else None
    return lang if lang is not None and lang in formats else None


def _wrapped_line(text: str, formats: frozenset[str]) -> Fence | None:
    """The one line that is a pair of a wrapper's tags around data ("<input>{"a": 1}</input>"),
    with nothing but short lines of prose around it; None when there is not exactly one."""
    found = list(_WRAP_LINE.finditer(text))
    if len(found) != 1:
        return None
    m = found[0]
    tag = m["tag"].lower()
    if tag in _HTML_ELEMENTS or (tag not in formats and tag not in _WRAP_NAMES):
        return None
    if not m["body"].strip() or not _AFTER_TAG.fullmatch(text, m.end()):
        return None
    end = min(m.end() + 1, len(text))
    lang = tag if tag in formats else ""
    return Fence(m.start(), end, f"<{m['tag']}>", lang, m["body"].strip() + "\n", True)


def enclosing_fence(text: str) -> Fence | None:
    """The one closed fence that holds all of ``text`` but white space before and after it;
    None when there is no such fence (no fence, several, or text outside it)."""
    found = fences(text)
    if len(found) != 1:
        return None
    fence = found[0]
    if text[: fence.start].strip() or text[fence.end :].strip():
        return None
    return fence


def fenced_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the closed fenced code blocks of ``text``."""
    return [f.span for f in fences(text)]


def _dedent(body: str, indent: int) -> str:
    if not indent or not body:
        return body
    lines = body.split("\n")
    out = []
    for line in lines:
        n = len(line) - len(line.lstrip(" "))
        out.append(line[min(n, indent) :])
    return "\n".join(out)
