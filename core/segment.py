"""Split a user message into instruction text and payloads.

Payloads come as fenced blocks (``` or ~~~, three or more, with or without a language tag,
longer fences around payloads that contain fences), as text after a colon that ends the
instruction line, as paragraphs after the instruction, or as paragraphs before it ("… Convert
the JSON above to YAML."). ``<convert lang=… to=…>`` blocks carry their own instruction, and
their payload is the block's body, out of one enclosing fence whose tag agrees with the
block's language (``blocks.block_payload``).

The split is not always certain from the text alone, so ``segment`` returns candidates in
order of preference; the engine takes the first whose instruction parses. ``readings`` makes
them one at a time, so that a message read by its first reading costs no more.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from zerolayer.core.blocks.split import FenceLanguageError, TagBlock, block_payload, tag_blocks
from zerolayer.core.errors import PayloadError
from zerolayer.core.message import (
    BRACKETED_LABEL,
    INSTRUCTION_LABEL_LINE,
    LABEL_LINE,
    LABEL_PREFIX,
    TEMPLATE_LABEL,
    Fence,
    canonical_lang,
    fences,
    normalise_newlines,
    wrapped,
)

_ATTR = re.compile(r"""(\w+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))""")
# a blank line, or a template's label in brackets alone on its line ("…}\n【要求】\n将JSON…"):
# the label parts the message as a blank line does, and is no part's text
_PARAGRAPH_BREAK = re.compile(
    rf"\n[ \t]*\n+|\n[ \t]*{BRACKETED_LABEL}[ \t]*[:：]?[ \t]*\n+(?=[^\n])", re.IGNORECASE
)
_COLON_END = re.compile(r"[:：]\s*$")
# The instruction ends at the first colon of the line; data follows on the same line when it
# starts with a symbol rather than a word (a bracket, a quote, a tag, a YAML indicator, a
# Markdown block marker), reads as "key: value", or is a SELECT statement.
_INLINE_PAYLOAD = re.compile(
    r"^(?P<instr>(?:[^\n:：{}\[\]<>\"]|[-=]>)*)"  # one run (linear; an arrow "->" is a word)
    r"(?:[:：]+[ \t]*(?=[\[{<`\"])|[:：]+[ \t]+(?=[^\w\s]|[^\s:：][^\n:：]*[:：](?:[ \t]|\n|$)"
    r"|(?:SELECT|select|Select)[ \t]))"
    r"(?P<payload>.+)$",
    re.DOTALL,
)
# Data after a sentence on the instruction line ("Can you turn this JSON into YAML? Use flow
# style. {"a": 1}"): a bracket or brace opens it after the sentence's end and a space (so
# "![image](…)" stays Markdown); a line with a colon is read at its colon instead.
_SENTENCE_PAYLOAD = re.compile(
    r"^(?P<instr>[^\n{}\[\]:：]*?(?:[.?!][ \t]+|[。？！][ \t]*))(?P<payload>[\[{].*)$", re.DOTALL
)
_CJK = re.compile(r"[\u3400-\u9fff]")
# A closing sentence after the payload: one short line, after a blank line, that reads as
# prose rather than data (not indented as code, no brackets, braces or "key: value", no
# Markdown block marker).
_NOT_PROSE = re.compile(r"[{}\[\]<>`|=]|^(?:[#>*+\-]|\d{1,9}[.)])|\.\.\.|---")
# "key: value" is data, unless a label of one or two words opens a sentence of three words or
# more ("Note: keep the keys in order", "Output: YAML only, nothing else").
_KEY_VALUE = re.compile(r"^\S[^\n:：]*[:：][ \t]+\S")
_LABELLED_SENTENCE = re.compile(
    r"^[A-Za-z\u3400-\u9fff]+(?: [A-Za-z]+)?[:：][ \t]+(?:[^\s:：]+[ \t,]+){2,}[^\s:：]+$"
)
_CLOSING_MAX_WORDS = 16
# how a reading is named whose closing sentence stands right under the payload, no blank line
TIGHT_CLOSING = "tight-closing"
_CLOSING_MAX_CHARS = 80


@dataclass(frozen=True, slots=True)
class Payload:
    text: str
    lang: str | None = None  # the fence's language tag, lower case
    # where the payload's block lies in the (line-normalised) message, fence lines included
    span: tuple[int, int] | None = field(default=None, compare=False)
    # why the payload cannot be read as its block says (a fence tagged with another
    # language): the engine answers it as this error; the text is then the body as written
    error: PayloadError | None = field(default=None, compare=False)
    # a format's name alone before it may be a template's label or the data's own key
    # ("YAML:\n- a"): the engine does not answer such a reading
    ambiguous: bool = field(default=False, compare=False)

    @property
    def hint(self) -> str | None:
        return canonical_lang(self.lang)


@dataclass(frozen=True, slots=True)
class Segmented:
    """One reading of a message: the instruction, its payloads, and text before it."""

    instruction: str
    payloads: tuple[Payload, ...] = ()
    before: str = ""  # text of the same message that precedes the instruction (context)
    how: str = "plain"  # which rule produced this reading (for traces)
    closing: str = ""  # a sentence after the payload read as part of the instruction
    # the instruction's words after the last fence, when words stand before the first one too
    after_fence: str = ""


def convert_attributes(attrs: str) -> dict[str, str]:
    return {m[0].lower(): m[1] or m[2] or m[3] for m in _ATTR.findall(attrs)}


def segment(message: str, formats: frozenset[str] = frozenset()) -> list[Segmented]:
    """Candidate readings of ``message``, most likely first (``readings``, all of them)."""
    return list(readings(message, formats))


def readings(message: str, formats: frozenset[str] = frozenset()) -> Iterator[Segmented]:
    """Candidate readings of ``message``, most likely first, each made when it is asked for.
    ``formats`` are the format names the engine knows: a line that names one before a colon
    is a prompt template's slot label ("JSON:", "Python code:", "YAML:"), not data."""
    full = normalise_newlines(message)
    text = full.strip("\n")
    blocks = tag_blocks(text, ("convert",))
    if blocks:
        yield _convert_blocks(text, blocks)
        return
    found = [f for f in fences(full) if f.closed]
    if not found and (wrap := wrapped(full, formats)) is not None:
        found = [wrap]
    if found:
        yield _fenced(full, found, _slot_lines(formats))
        return
    yield from _unique(_unfenced(full, _slot_label(formats)))


def _convert_blocks(text: str, blocks: list[TagBlock]) -> Segmented:
    pieces, last = [], 0
    for block in blocks:
        pieces.append(text[last : block.start])
        last = block.end
    outside = " ".join([*pieces, text[last:]]).strip()
    attrs = convert_attributes(blocks[0].attrs)
    src, dst = attrs.get("lang", ""), attrs.get("to", "")
    instruction = f"convert {src} to {dst}".strip()
    if outside:
        instruction = f"{instruction} {outside}"
    payloads = tuple(_block_payload(b.body, src) for b in blocks)
    return Segmented(instruction, payloads, how="convert-block")


def _block_payload(body: str, lang: str) -> Payload:
    try:
        read = block_payload(body, lang or None)
    except FenceLanguageError as exc:
        return Payload(body, lang.lower() or None, error=exc)
    return Payload(read.text, read.lang)


def _fenced(text: str, found: list[Fence], slot_lines: re.Pattern[str]) -> Segmented:
    """A fence carries exactly its lines; the text around the fences is the instruction, but
    for the template's slot labels on lines of their own ("Python code:", "TypeScript:")."""
    payloads = tuple(Payload(f.body, f.lang, f.span) for f in found)
    pieces, last = [], 0
    for f in found:
        pieces.append(text[last : f.start])
        last = f.end
    pieces.append(text[last:])
    kept = [_without_labels(p, slot_lines) for p in pieces]
    instruction = _strip_colon(" ".join(p.strip() for p in kept if p.strip()))
    after = kept[-1].strip() if kept[0].strip() and len(kept) > 1 else ""
    if not instruction.endswith(f" {after}"):
        after = ""
    return Segmented(instruction, payloads, before="", how="fenced", after_fence=after)


def _without_labels(piece: str, slot_lines: re.Pattern[str]) -> str:
    """The text between fences without the lines that are a template's labels alone ("JSON:",
    "## Input", "### Output format"): they say where the parts of a prompt are, and joined
    with the instruction's words they would read as words of it."""
    if ":" in piece or "：" in piece:
        piece = slot_lines.sub("", piece)
    if "#" in piece or "\n" in piece.strip():
        piece = _LABEL_LINES.sub("", piece)
    return piece


_LABEL_LINES = re.compile(INSTRUCTION_LABEL_LINE.pattern + r"\n?", re.M)


def _unfenced(full: str, slot: re.Pattern[str]) -> Iterator[Segmented]:
    """Readings of a message without fences. A payload after the instruction is the text to
    the end of the message as written (its final line break included); one before it is its
    lines, each with its line break."""
    lead = len(full) - len(full.lstrip("\n"))
    text = full.strip("\n")
    end = full[lead + len(text) :]  # the message's final line breaks
    inline = _INLINE_PAYLOAD.match(text)
    if inline and inline["instr"].strip() and _ends_instruction(inline["instr"]):
        # data follows the colon on the instruction line: the instruction takes no word of it
        base = Segmented(inline["instr"].strip(), (Payload(inline["payload"] + end),), how="inline")
        yield from _closing(base, slot)
        yield base
        yield Segmented(text.strip(), (), how="plain")
        return
    sentence = _SENTENCE_PAYLOAD.match(text)
    if sentence and _has_word(sentence["instr"]):
        data = (Payload(sentence["payload"] + end),)
        base = Segmented(sentence["instr"].strip(), data, how="inline")
        yield from _closing(base, slot)
        yield base
        yield Segmented(text.strip(), (), how="plain")
        return
    if "\n" not in text and (data := _data_on_the_line(text)) is not None:
        yield data
    if "\n" not in text and (marked := _marked_up_after_colon(text)) is not None:
        yield marked
    first_line, _, rest = text.partition("\n")
    colon = bool(rest.strip()) and _COLON_END.search(first_line) is not None
    if colon:
        reading = Segmented(
            _strip_colon(first_line), (_labelled(_payload(rest + end), None, slot),), how="colon"
        )
        yield from _closing(reading, slot)
        yield reading
    breaks = [b for b in _PARAGRAPH_BREAK.finditer(text) if text[: b.start()].strip()]
    if breaks and text[breaks[0].end() :].strip():
        head = text[: breaks[0].start()]
        tail = _labelled(_payload(text[breaks[0].end() :] + end), None, slot)
        if not _labels_data(head, slot):
            after = Segmented(_strip_colon(head), (tail,), how="after")
            yield from _closing(after, slot)
            yield after
        body, last = text[: breaks[-1].start()], text[breaks[-1].end() :]
        yield from _before_closing(text, breaks, last, slot)
        data = _labelled(*_without_lead_in(body + "\n", slot), slot)
        yield Segmented(last.strip(), (data,), before=body, how="before")
        if not colon and "\n" in head.strip() and _SENTENCE_END.search(first_line.rstrip()):
            # "Rewrite this Markdown as HTML.\n## Setup\n\n1. …": a sentence ended on the
            # first line, the data on the next one with no blank line between
            yield Segmented(
                first_line.strip(), (_labelled(rest + end, None, slot),), how="first-line"
            )
    elif rest.strip() and not colon:
        yield Segmented(first_line.strip(), (_labelled(rest + end, None, slot),), how="first-line")
    yield Segmented(text.strip(), (), how="plain")


# Data on the instruction's line with no colon before it: a SELECT statement after the
# instruction's words ("pandas equivalent of SELECT …"; in Chinese it ends where Chinese text
# starts outside quotes: 把 SELECT … 转成pandas; in a code span it ends at its backtick), or
# JSON that runs to the line's end and parses ("can u make this yaml {"a": 1}"), after a word
# of any kind and a space: a letter's, a number's ("recipes with spice level 3 [{…}]") or a
# closing mark's, the same data read the same wherever the instruction's last word ends.
_STATEMENT = re.compile(
    r"(?<=[ \t])(?:SELECT|select|Select)[ \t][^\n]*?[ \t](?:FROM|from|From)[ \t]"
)
_JSON_OPEN = re.compile(r"(?<=[^\s\[\]{}:：][ \t])[\[{]")
# a SELECT statement in a code span on the instruction's line: the backticks bound it
# ("How do I do `SELECT … FROM …` in pandas?")
_STATEMENT_SPAN = re.compile(
    r"(?<=[ \t])`((?:SELECT|select|Select)[ \t][^`\n]*?[ \t](?:FROM|from|From)[ \t][^`\n]*)`"
)


# Inline Markdown in prose after the instruction's colon ("convert to html: Hello **world**, this
# is *markdown*"): text that starts with a word is Markdown data when the markup of emphasis,
# strong emphasis or a link stands in it, closed on the line; plain words after a colon stay
# words.
_COLON_SPLIT = re.compile(
    r"^(?P<instr>[^\n:：{}\[\]<>\"`*]+?)(?::[ \t]+|：[ \t]*)(?P<payload>\w[^\n]*)$"
)
_INLINE_MARKUP = re.compile(
    r"(?<![\w*])\*\*[^\s*][^*\n]*?(?<=\S)\*\*(?![\w*])"
    r"|(?<![\w*])\*[^\s*][^*\n]*?(?<=\S)\*(?![\w*])"
    r"|\[[^\]\n]+\]\([^)\s]+\)"
)


def _marked_up_after_colon(text: str) -> Segmented | None:
    """The reading of a one-line message whose data after the instruction's colon is prose
    with inline Markdown markup (``_INLINE_MARKUP``); None when there is none."""
    split = _COLON_SPLIT.match(text)
    if split is None or not _ends_instruction(split["instr"]):
        return None
    if not _INLINE_MARKUP.search(split["payload"]):
        return None
    data = Payload(split["payload"], lang="markdown")  # the markup says its format
    return Segmented(split["instr"].strip(), (data,), how="inline")


def _data_on_the_line(text: str) -> Segmented | None:
    """The reading of a one-line message whose data follows the instruction's words with no
    colon (``_STATEMENT``, ``_JSON_OPEN``); None when there is none."""
    if (brace := _JSON_OPEN.search(text)) is not None and _has_word(text[: brace.start()]):
        data = text[brace.start() :].strip()
        try:
            json.loads(data)
        except (ValueError, RecursionError):
            return None
        return Segmented(text[: brace.start()].strip(), (Payload(data),), how="inline")
    if (span := _STATEMENT_SPAN.search(text)) is not None:
        before, after = text[: span.start()].strip(), text[span.end() :].strip()
        if _has_word(before):
            instruction = f"{before} {after}".strip()
            return Segmented(instruction, (Payload(span[1].strip()),), how="inline")
    if (sql := _STATEMENT.search(text)) is not None:
        end = _cjk_outside_quotes(text, sql.start())
        before, after = text[: sql.start()].strip(), text[end:].strip()
        if _has_word(before):
            instruction = f"{before} {after}".strip()
            return Segmented(instruction, (Payload(text[sql.start() : end].strip()),), how="inline")
    return None


def _cjk_outside_quotes(text: str, start: int) -> int:
    """Where the first Chinese character outside quotes after ``start`` is (the end of the
    text if none)."""
    quote = ""
    for i in range(start, len(text)):
        c = text[i]
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"`":
            quote = c
        elif _CJK.match(c):
            return i
    return len(text)


def _labels_data(head: str, slot: re.Pattern[str]) -> bool:
    """Whether a line of ``head`` before its last is a template's label of the data alone
    ("Input:", "JSON:"; not "### Task"): the lines under it are data, and a reading that
    ends the instruction after them cuts the data at a blank line of its own."""
    lines = head.strip("\n").split("\n")
    for line in lines[:-1]:
        label = slot.match(line)
        if label and (label["format"] or _INPUT_LABEL.search(line)):
            return True
    return False


# a template label that introduces the data, not the instruction ("Input:", "### 输入")
_INPUT_LABEL = re.compile(r"(?i)input|输入")


def _before_closing(
    text: str, breaks: list[re.Match[str]], last: str, slot: re.Pattern[str]
) -> list[Segmented]:
    """The reading of a payload followed by two paragraphs of one short line of prose each,
    the instruction and a closing sentence ("{…}\n\nChange this to YAML\n\nOutput YAML
    only."); it stands only when its instruction parses and the sentence reads as one."""
    if len(breaks) < 2:
        return []
    body, middle = text[: breaks[-2].start()], text[breaks[-2].end() : breaks[-1].start()]
    instruction, sentence = _prose_line(middle), _prose_line(last)
    if "\n" in middle or not instruction or not sentence or not body.strip():
        return []
    sentence = _strip_colon(sentence)
    return [
        Segmented(
            f"{_strip_colon(instruction)} {sentence}",
            (_labelled(body + "\n", None, slot),),
            before=body,
            how="before-closing",
            closing=sentence,
        )
    ]


@lru_cache(maxsize=8)
def _slot_label(formats: frozenset[str]) -> re.Pattern[str]:
    """A line that is a prompt template's label alone: a template label word ("Input:",
    "### Output", "输出要求：") or a format name with a noun ("JSON:", "Python code:")."""
    names = "|".join(sorted((re.escape(f) for f in formats), key=len, reverse=True)) or "(?!)"
    return re.compile(
        rf"(?i)^[ \t]*(?:#{{1,6}}[ \t]*)?(?:(?P<format>{names})(?:[ \t]+{_SLOT_NOUN})?"
        rf"|(?P<bracket>{BRACKETED_LABEL})|{TEMPLATE_LABEL})[ \t]*(?P<colon>[:：]?)[ \t]*$"
    )


@lru_cache(maxsize=8)
def _slot_lines(formats: frozenset[str]) -> re.Pattern[str]:
    """The lines of a text that are slot labels naming a format ("JSON:", "TypeScript code:",
    "### Python:": ``_slot_label`` with a format and a colon), each with its line break, to
    drop them in one pass."""
    names = "|".join(sorted((re.escape(f) for f in formats), key=len, reverse=True)) or "(?!)"
    return re.compile(
        rf"(?im)^[ \t]*(?:#{{1,6}}[ \t]*)?(?:{names})(?:[ \t]+{_SLOT_NOUN})?[ \t]*[:：][ \t]*$\n?"
    )


_SLOT_NOUN = (
    r"(?:code|query|snippet|document|data|text|input|output|version|format|file|markup|"
    r"source|statement|object|string|代码|格式|数据)"
)


# a label that names where the answer goes ("YAML:", "Output:", "Answer:") ends a template
_ANSWER_SLOT = re.compile(r"(?i)output|answer|result|response|输出|回答|答案|结果")


def _labelled(payload: str, lang: str | None, slot: re.Pattern[str]) -> Payload:
    """The payload without a template's label lines around the data: one that opens it
    ("Input:", "JSON:", "### Input", "输入：") and one alone at its end, where the answer goes
    ("YAML:", "Output:", "### Response"), and without a pair of delimiter lines around it
    ("---" … "---"). A label stays the data's where it may be: a word and an ASCII colon
    before indented lines or a sequence is a YAML key (when that word is a format's name,
    the reading is ambiguous); before other lines it may be a key with no value, and the
    reading is ambiguous but for a format's name (the label of a slot); a heading ("###
    Input") before indented lines is a YAML comment or the Markdown document's own heading:
    ambiguous too."""
    ambiguous = False
    first, sep, rest = payload.partition("\n")
    label = slot.match(first) if sep else None
    heading = first.lstrip().startswith("#")
    if label and (label["colon"] or label["bracket"] or heading):
        data = rest.lstrip("\n")
        nested = data.startswith((" ", "\t", "- "))
        if (
            "：" in first
            or label["bracket"]
            or data.startswith(("{", "["))
            or (label["format"] and not nested)
        ):
            payload = data
        elif heading or (
            label["colon"]
            and (
                label["format"]
                or not nested
                or first.lstrip()[:1].isupper()
                or data.lstrip().startswith(("{", "["))
            )
        ):
            # "Input:\nname: Kai" is a label, or a key of the data with no value; so is a
            # capitalised word before indented lines or a sequence ("Input:\n- a": YAML's
            # keys are seldom capitalised, templates' labels mostly are) or before indented
            # JSON; a lower-case word before them ("input:\n- a") is the data's key
            ambiguous = True
    payload, unsure = _without_answer_slot(payload, slot)
    payload, undelimited = _without_delimiters(payload)
    return Payload(payload, lang, ambiguous=ambiguous or unsure or undelimited)


def _without_answer_slot(payload: str, slot: re.Pattern[str]) -> tuple[str, bool]:
    """``payload`` without a label alone on its last line, where a template's answer goes
    ("YAML:", "TypeScript code:", "Output:", "### Response"), and whether that line may be
    the data's own, so that the reading is ambiguous. After a blank line, a label with a
    colon is the slot's, and so is a heading that names a format after data that ends in a
    bracket; any other heading is a Markdown document's own last one. Right under the
    data, a label after a closing bracket is the slot's; one with a colon or a heading may
    be the data's (a YAML key with no value, a Markdown paragraph's last line)."""
    body, sep, last = payload.rstrip("\n").rpartition("\n")
    label = slot.match(last) if sep else None
    if label is None or not (label["format"] or _ANSWER_SLOT.search(last)):
        return payload, False
    data_before = body.rstrip().endswith(("]", "}"))
    heading = last.lstrip().startswith("#")
    if not body.endswith("\n"):  # right under the data
        if data_before:
            return body + "\n", False
        return payload, bool(label["colon"]) or heading
    if label["colon"] or (label["format"] and heading and data_before):
        return body.rstrip("\n") + "\n", False
    return payload, False


# A line that prompt templates put above and below a payload ("---", "=====", "***").
_DELIMITER = re.compile(r"[ \t]*(?:-{3,}|={3,}|\*{3,}|_{3,})[ \t]*")


def _without_delimiters(payload: str) -> tuple[str, bool]:
    """``payload`` without the same delimiter line above and below it, when what they hold
    is JSON (which no such line can belong to); else the payload as it is, and whether the
    two lines may be delimiters, so that the reading is ambiguous (a YAML document's start
    marker and an empty document after it, a Markdown thematic break and a setext heading's
    underline)."""
    first, sep, rest = payload.partition("\n")
    if not sep or not _DELIMITER.fullmatch(first):
        return payload, False
    body, sep, last = rest.rstrip("\n").rpartition("\n")
    if not sep or last.strip() != first.strip() or not body.strip():
        return payload, False
    try:
        json.loads(body)
    except (ValueError, RecursionError):
        return payload, True
    return body + "\n", False


# A sentence that presents the data before it ("I have this YAML:", "Here is my JSON:",
# 下面是我的配置：): a presentational word, words rather than data, a colon at the end.
_LEAD_IN = re.compile(
    r"(?i)^(?=[^\n:：]*(?:\b(?:here|this|these|my|our|following|below|attached)\b|这|以下|下面|我的))"
    r"[^\n:：{}\[\]\"=]{3,80}[:：][ \t]*\n"
)


def presented_data(message: str) -> Payload | None:
    """The data a message only presents, on the line of the sentence that presents it ("这是我的
    数据：{…}", "Here is my JSON: […]"): JSON after the colon of a lead-in sentence, which
    parses; None for any other message (one that asks for something, or holds more)."""
    text = normalise_newlines(message).strip()
    inline = _INLINE_PAYLOAD.match(text)
    if inline is None or "\n" in inline["payload"].strip():
        return None
    lead_in = inline["instr"].strip()
    if not _ends_instruction(lead_in) or not _LEAD_IN.match(f"{lead_in}:\n"):
        return None
    if not _PRESENTS_ONLY.fullmatch(lead_in):
        return None
    try:
        json.loads(inline["payload"])
    except (ValueError, RecursionError):
        return None
    return Payload(inline["payload"].strip() + "\n", lang="json")


# A sentence that only presents data: a pointing word, a verb of being or having and a noun of
# data, nothing that asks ("这是我的数据", "下面是配置", "here is my data", "I have this JSON").
_PRESENTS_ONLY = re.compile(
    r"(?i)(?:(?:这|下面|以下)(?:是|为)?|我有)(?:我的|一[份个段]|这[份个段])?"
    r"(?:数据|配置|内容|JSON|json|对象|数组|记录)"
    r"|(?:here\s+is|here's|this\s+is|i\s+have)\s+(?:my|the|some|this|a)?\s*"
    r"(?:data|config|json|object|array|payload|records?)"
)


def _without_lead_in(payload: str, slot: re.Pattern[str]) -> tuple[str, str | None]:
    """``payload`` without a sentence that presents it on its first line (the payload before
    the instruction: "I have this YAML:\n\na: 1\n\nConvert it to JSON"), and the format the
    sentence names, which the payload is then said to be in."""
    m = _LEAD_IN.match(payload)
    if m is None or not _ends_instruction(m.group(0).strip().rstrip(":：")):
        return payload, None
    named = {w.lower() for w in _WORDS.findall(m.group(0)) if slot.match(f"{w}:")}
    lang = named.pop() if len(named) == 1 else None
    return payload[m.end() :].lstrip("\n"), lang


_WORDS = re.compile(r"[A-Za-z]+")


def _has_word(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]{2}|[\u3400-\u9fff]", text))


def _ends_instruction(text: str) -> bool:
    """Whether the colon after ``text`` can end an instruction: two words or more (or Chinese)
    before it, and no parenthesis left open ("(tables: orders(id, …))")."""
    if text.count("(") != text.count(")") or text.count("（") != text.count("）"):
        return False
    return len(text.split()) > 1 or _CJK.search(text) is not None


def _closing(reading: Segmented, slot: re.Pattern[str]) -> list[Segmented]:
    """The reading with a closing sentence after its payload read as instruction ("…\n\nReturn
    only the YAML"): one short prose line after a blank line, the payload before it not empty.
    Offered before the reading without it; it stands only when its instruction parses."""
    text = reading.payloads[0].text.rstrip("\n")
    cut = text.rfind("\n")  # the last line starts after it; a blank line must precede it
    if cut <= 0:
        return []
    last_line = text[cut + 1 :]
    if ":" in last_line or "：" in last_line:
        last_line = LABEL_PREFIX.sub("", last_line)
    sentence = _prose_line(last_line)
    if not sentence:
        return []
    label = text.rfind("\n", 0, cut)  # a template label may stand alone on the line before
    if label > 0 and text[label + 1 : cut].strip() and LABEL_LINE.match(text[label + 1 : cut]):
        cut = label
    blank = text.rfind("\n", 0, cut)
    how = f"{reading.how}-closing"
    if blank < 0 or text[blank + 1 : cut].strip(" \t"):
        # no blank line before it: a sentence right under the data is offered too, and
        # stands only when it is answer-only words ("SELECT …\nNo explanation needed.")
        blank, how = cut, TIGHT_CLOSING
    body, unsure = _without_answer_slot(text[: blank + 1], slot)
    body, undelimited = _without_delimiters(body)
    if not body.strip():
        return []
    sentence = _strip_colon(sentence)
    instruction = f"{reading.instruction} {sentence}"
    ambiguous = unsure or undelimited or reading.payloads[0].ambiguous
    return [
        Segmented(instruction, (Payload(body, ambiguous=ambiguous),), how=how, closing=sentence)
    ]


def _prose_line(line: str) -> str:
    """``line`` stripped when it reads as one short sentence of prose, else ""."""
    sentence = line.strip()
    if (
        not sentence
        or line.startswith(("    ", "\t"))  # indented code, not a sentence
        or _NOT_PROSE.search(sentence)
        or (_KEY_VALUE.search(sentence) and not _LABELLED_SENTENCE.match(sentence))
        or len(sentence) > _CLOSING_MAX_CHARS
        or len(sentence.split()) > _CLOSING_MAX_WORDS
    ):
        return ""
    return sentence


def last_sentence(reading: Segmented) -> str:
    """The last paragraph of a reading's unfenced payload when it is one short line of prose
    (in "null\n\nConvert the JSON above.\n\nReturn only the YAML" the reading that takes
    the last line as instruction has a payload ending in a sentence that may be the
    instruction, and so has one with two closing sentences, or one whose payload is that
    sentence alone); else ""."""
    if not reading.payloads or reading.how in ("fenced", "explicit", "convert-block"):
        return ""
    text = reading.payloads[0].text.rstrip("\n")
    tail = text[-(_CLOSING_MAX_CHARS + 8) :]  # the sentence is short: the end is enough
    breaks = list(_PARAGRAPH_BREAK.finditer(tail))
    last = tail[breaks[-1].end() :] if breaks else text  # else the payload is one paragraph
    return "" if "\n" in last else _prose_line(last)


def first_sentence(reading: Segmented) -> str:
    """The words that open the payload of a reading that takes its instruction after the
    payload, when they read as a sentence of two words or more: the first line, up to a
    colon that ends it ("Convert this JSON to YAML: null\n\nReturn only the YAML" has an
    instruction before the data as well as after it); else ""."""
    if reading.how not in ("before", "before-closing") or not reading.payloads:
        return ""
    line = reading.payloads[0].text.lstrip("\n").partition("\n")[0]
    head = re.split(r"[:：]", line, maxsplit=1)[0]
    return head.strip() if _ends_instruction(head) and _has_word(head) else ""


_SENTENCE_END = re.compile(r"[.!?。！？]$")


def is_prose(text: str) -> bool:
    """Whether ``text`` is one short line of prose (a sentence, not data)."""
    stripped = text.strip()
    return "\n" not in stripped and bool(_prose_line(stripped)) and len(stripped.split()) > 1


def is_one_sentence(reading: Segmented, sentence: str) -> bool:
    """Whether a reading's payload is ``sentence`` alone, ended as a sentence is (the
    user's words, such as an instruction the grammar does not read, not data)."""
    return bool(_SENTENCE_END.search(sentence)) and reading.payloads[0].text.strip() == sentence


def _strip_colon(instruction: str) -> str:
    return _COLON_END.sub("", instruction.strip()).strip()


def _payload(text: str) -> str:
    """``text`` without the line breaks that separate it from the instruction (a line of
    spaces or tabs is the payload's own)."""
    return text.lstrip("\n")


def _unique(items: Iterator[Segmented]) -> Iterator[Segmented]:
    seen: set[tuple[str, tuple[Payload, ...]]] = set()
    for item in items:
        key = (item.instruction, item.payloads)
        if key not in seen:
            seen.add(key)
            yield item
