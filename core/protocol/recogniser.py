"""The protocol recogniser: a small phrase grammar over normalised instruction text.

A meta-instruction sits inside free text ("summarise this article in 3 bullet points", "give
me 3 pros and 3 cons of remote work"), so the recogniser searches for structure phrases
rather than parsing whole clauses. The phrases (rules below, each a regular expression built
from the word tables of ``vocabulary.py``):

- a counted list after a verb or a form preposition: "list 3 options", "ask me 3 challenging
  questions", "answer in exactly 5 bullet points", "用3点总结", "列出3个方案";
- two or more counted lists joined by "and": "3 pros and 3 cons", "3个优点和3个缺点",
  "优缺点各3点";
- "a 3-point summary", "a 5-step plan";
- titled sections: "in 2 sections: Summary and Risks", "按'问题-影响-方案-风险'4段式输出",
  "分为背景、分析、结论三部分", optionally "each with 3 bullet points" / "每部分3点";
- a chain of steps: "first …, then …, finally …" / "先…,再…,最后…", when the text asks
  for step-by-step reasoning or a step holds a counted list.

Only the first and the last paragraph outside code fences are searched (where people write
instructions), never a payload. The recogniser is strict: a vague count ("about 3", "3-5",
"at least 3", "3点左右"), two structure phrases that do not form one protocol, a section count that
differs from the titles given, or "3 pros and cons" (3 each, or 3 in all?) make the whole
message not a protocol, and it goes down the ordinary path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from zerolayer.core.normalise import chinese_to_int, normalise
from zerolayer.core.protocol.model import MAX_FILLS, MAX_ITEMS_PER_SLOT, Kind, Protocol, Slot
from zerolayer.core.protocol.vocabulary import (
    EN_FORM_PREPOSITIONS,
    EN_VERBS,
    ZH_AFTER_CLASSIFIER,
    ZH_CLASSIFIER_KINDS,
    ZH_CLASSIFIERS,
    ZH_NOUNS,
    ZH_VERBS,
    english_kind,
    english_noun_pattern,
)

if TYPE_CHECKING:
    from zerolayer.core.messages import EngineRequest


class _Refused(Exception):
    """The text asks for a structure, but not one that can be followed exactly."""


@dataclass(frozen=True, slots=True)
class _Found:
    start: int
    end: int
    slots: tuple[Slot, ...]
    keep: tuple[int, int] | None = None  # words inside the phrase that belong to the task


_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CP_ANCHOR = re.compile(r"\d{1,3}\s+[A-Za-z]")
# A paragraph with none of these cannot hold a protocol (checked before normalising it).
_MAYBE = re.compile(r"\d[ -]?[A-Za-z\u3400-\u9fff]|[二两三四五六七八九十段先各步]|部分|方面")
_MAYBE_WORDS = (
    "section", "part", "format", "structure", "template", "framework", "outline", "first",
    "1st", "each", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "teen", "twenty",
)  # fmt: skip
MAX_INSTRUCTION_CHARS = 2000  # a longer paragraph is a payload, not an instruction


def _maybe(paragraph: str) -> bool:
    if len(paragraph) > MAX_INSTRUCTION_CHARS:
        return False
    if _MAYBE.search(paragraph):
        return True
    lower = paragraph.lower()
    return any(word in lower for word in _MAYBE_WORDS)


@dataclass(frozen=True, slots=True)
class _Signals:
    """Cheap facts about a text that decide which rules can match at all (the rules' regular
    expressions are costly to run over text that cannot match)."""

    lower: str
    counted: bool  # an English count before a word: "3 options"
    cjk: bool

    @classmethod
    def of(cls, text: str) -> _Signals:
        counted = any(_CP_ONE.match(text, m.start()) for m in _CP_ANCHOR.finditer(text))
        return cls(text.lower(), counted, bool(_CJK.search(text)))


# ---- English ---------------------------------------------------------------------------

_NOUN = rf"(?:{english_noun_pattern()})(?![A-Za-z])"
# Up to three describing words between the number and the noun ("3 challenging questions").
_ADJ = (
    r"(?:(?!(?:and|or|to|of|in|per|each|more|less|fewer|than|plus)\b)"
    r"[A-Za-z][A-Za-z'-]*\s+){0,3}?"
)
_EXACT = r"(?:(?:exactly|precisely|just|only)\s+)?"
_CP = rf"{_EXACT}\d{{1,3}}\s+{_ADJ}{_NOUN}"
_CP_ONE = re.compile(rf"{_EXACT}(?P<n>\d{{1,3}})\s+(?P<adj>{_ADJ})(?P<noun>{_NOUN})", re.I)
_JOIN = r"(?:\s*,\s*and\s+|\s*,\s*|\s+and\s+|\s*&\s*|\s+plus\s+)"
_FORM_VERB = (
    r"(?:(?:answer|respond|reply)(?:\s+(?:to\s+)?(?:me|this|it|that))?\s+"
    r"|(?:format|put|present|write|give|lay\s+out|structure)\s+"
    r"(?:it|this|that|the\s+answer|your\s+answer|the\s+response|your\s+response)\s+)"
)
_LIST_STYLE = r"(?P<style>numbered|bulleted|bullet|ordered|unordered)"
_LEAD = (
    rf"(?:(?:{EN_VERBS})(?:\s+(?:me|us|them|the\s+user))?|(?:{EN_FORM_PREPOSITIONS}))"
    rf"(?:\s+(?:a|an|the))?(?:\s+{_LIST_STYLE})?(?:\s+(?:list|set|series)\s+of)?"
)
_EN_LIST = re.compile(
    rf"(?<![A-Za-z]){_FORM_VERB}?(?P<lead>{_LEAD})\s+(?:(?:the|a|an)\s+)?"
    rf"(?P<cps>{_CP}(?:{_JOIN}{_CP})*)",
    re.I,
)
_EN_PAIR = re.compile(rf"(?<![A-Za-z0-9])(?P<cps>{_CP}(?:{_JOIN}{_CP})+)", re.I)
# "3 questions about X": what the items are about (it also stays in the task).
_EN_ABOUT = re.compile(
    r"\s+((?:about|on|of|for|regarding|concerning|to)\s+[^\n.,;:!?()]{1,80}?)\s*(?=$|[\n.,;:!?()])",
    re.I,
)
# "3 pros and cons": 3 of each, or 3 in all? Not exact.
_EN_DANGLING = re.compile(rf"\s*(?:and|&|or|,)\s+{_ADJ}{_NOUN}", re.I)
_EN_VAGUE = re.compile(
    r"(?<![A-Za-z])(?:at\s+(?:least|most)|up\s+to|no\s+(?:more|less|fewer)\s+than|more\s+than"
    r"|less\s+than|fewer\s+than|over|under|between|(?:a\s+)?(?:maximum|minimum)\s+of|max|min"
    r"|about|around|roughly|approx(?:\.|imately)?|nearly|almost|circa|some|~)"
    rf"\s*{_CP}|\d+\s*-?ish(?![A-Za-z])"
    rf"|\d+\s*(?:-|–|~|to|or)\s*{_CP}|\d+\s*\+\s*{_ADJ}{_NOUN}|{_CP}\s+or\s+(?:more|fewer|less|so)",
    re.I,
)
_EN_EACH_PAIRS = {
    "pros and cons": ("Pros", "Cons"),
    "advantages and disadvantages": ("Advantages", "Disadvantages"),
    "benefits and drawbacks": ("Benefits", "Drawbacks"),
    "strengths and weaknesses": ("Strengths", "Weaknesses"),
    "upsides and downsides": ("Upsides", "Downsides"),
}
_EN_EACH = re.compile(
    r"(?<![A-Za-z])(?:(?:list|give|provide|name|write|share)(?:\s+(?:me|us))?\s+)?"
    r"(?:(?P<n1>\d{1,2})\s+)?(?:the\s+)?(?P<pair>"
    + "|".join(p.replace(" ", r"\s+") for p in _EN_EACH_PAIRS)
    + r")(?P<topic>\s+(?:of|for|about|on|in)\s+[^,.;:!?\n]{1,60}?)?"
    r"(?:\s*(?:,|:|-)?\s*(?:with\s+)?(?P<n2>\d{1,2})(?:\s+of)?)?\s+each(?![A-Za-z])",
    re.I,
)
_N_PART_KINDS = {
    "bullet": Kind.BULLET,
    "point": Kind.ITEM,
    "item": Kind.ITEM,
    "idea": Kind.ITEM,
    "tip": Kind.ITEM,
    "reason": Kind.ITEM,
    "step": Kind.STEP,
    "question": Kind.QUESTION,
    "option": Kind.OPTION,
    "paragraph": Kind.PARAGRAPH,
    "part": Kind.PARAGRAPH,
    "section": Kind.PARAGRAPH,
}
_EN_N_PART = re.compile(
    rf"(?<![A-Za-z])(?:{_FORM_VERB}?(?:in|as|with)\s+|(?:give|write)\s+(?:me\s+)?)?(?:a|an)\s+"
    rf"(?P<n>\d{{1,2}})[- ](?P<noun>{'|'.join(_N_PART_KINDS)})s?\s+"
    r"(?P<what>summary|list|plan|answer|overview|guide|explanation|outline|breakdown|response"
    r"|reply|recap|description|analysis|checklist|quiz|essay|report)(?![A-Za-z])",
    re.I,
)
_N_PART_ANCHOR = re.compile(rf"\d{{1,2}}[- ](?:{'|'.join(_N_PART_KINDS)})", re.I)
_SECTION_WORD = r"(?:sections?|parts?)"
_EN_SECTIONS = re.compile(
    rf"(?<![A-Za-z]){_FORM_VERB}?(?:in|into|with|using|as|under)\s+"
    r"(?:(?:the|these)\s+(?:following\s+)?)?(?:(?P<n>\d{1,2})\s+)?(?:(?:separate|distinct)\s+)?"
    rf"{_SECTION_WORD}\s*(?P<intro>:|,?\s*namely|\s+named|\s+called|\s+titled|\s+entitled|\()"
    r"\s*(?P<titles>[^\n.?!;()]+)\)?",
    re.I,
)
_EN_FORMAT = re.compile(
    rf"(?<![A-Za-z])(?:{_FORM_VERB}?(?:in|with|using|follow(?:ing)?|use)\s+)"
    r"(?:(?:the|this|a|an)\s+)?(?:(?P<q>['\"])(?P<qtitles>[^'\"\n]+)(?P=q)\s+"
    r"(?:(?P<n>\d{1,2})[- ](?:part|section)\s+)?(?:format|structure|template|framework|outline)"
    r"|(?:structure|template|framework|outline)\s*:\s*(?P<titles>[^\n.?!;]+))",
    re.I,
)
_EN_EACH_SLOT = re.compile(
    rf"\s*,?\s*(?:(?:each|every\s+(?:one|section|part))\s+(?:with|in|as|having|containing|of)"
    rf"\s+(?P<a>{_CP})|(?:with|in|as)\s+(?P<b>{_CP})\s+each)\s*$",
    re.I,
)
_EN_STEP_BY_STEP = re.compile(
    r"(?<![A-Za-z])(?:step[- ]by[- ]step|one\s+step\s+at\s+a\s+time)(?![A-Za-z])", re.I
)
_EN_FIRST = re.compile(
    r"(?:^|(?<=[\s:,;.(-]))(?P<first>first(?:ly)?|1st)(?![A-Za-z])\s*,?\s*", re.I
)
_EN_NEXT = re.compile(
    r"(?:\s*[,;.]\s*(?:and\s+)?(?:then|next|after\s+that|afterwards|second(?:ly)?|third(?:ly)?"
    r"|fourth(?:ly)?|finally|lastly|last)|\s+(?:and\s+)?(?:then|finally|afterwards))"
    r"(?![A-Za-z])\s*,?\s*",
    re.I,
)
_EN_LEAD_BEFORE = re.compile(
    r"(?:(?:let's|let\s+us|please)\s+)?(?:(?:reason|think|work|go|walk|answer|respond|proceed)"
    r"(?:\s+(?:it|this|me))?(?:\s+through(?:\s+it)?)?\s+)?"
    r"(?:step[- ]by[- ]step|one\s+step\s+at\s+a\s+time)\s*[:,.;-]?\s*$",
    re.I,
)

# ---- Chinese ---------------------------------------------------------------------------

_ZH_NUM = r"(?:\d{1,3}|[一二两三四五六七八九十]{1,3})"
_ZH_NOUN = "|".join(sorted(ZH_NOUNS, key=lambda w: (-len(w), w)))
_ZH_ALONE = "|".join(ZH_CLASSIFIER_KINDS)
# A classifier used alone names the items when a verb of speech follows ("用3条总结"); 点, 段
# and 步 also at the end of a clause ("总结成3点", "分3段"). "给出3条" alone is a row count.
_ZH_ALONE_AFTER = rf"\s*(?:{ZH_AFTER_CLASSIFIER})|(?<=[点段步])\s*(?:$|[,.;:!?'\")\]])"
_ZH_CP = (
    rf"{_ZH_NUM}\s*(?:(?:{ZH_CLASSIFIERS})\s*)?(?:[^\s,.;:!?'\"()]{{1,8}}?的)?(?:{_ZH_NOUN})"
    rf"|{_ZH_NUM}\s*(?:{_ZH_ALONE})(?={_ZH_ALONE_AFTER})"
)
_ZH_CP_ONE = re.compile(
    rf"(?P<n>{_ZH_NUM})\s*(?:(?P<cls>{ZH_CLASSIFIERS})\s*)?"
    rf"(?:(?P<adj>[^\s,.;:!?'\"()]{{1,8}}?)的)?(?P<noun>{_ZH_NOUN})"
    rf"|(?P<n2>{_ZH_NUM})\s*(?P<alone>{_ZH_ALONE})(?={_ZH_ALONE_AFTER})"
)
_ZH_NOUN_ANY = re.compile(_ZH_NOUN)
_ZH_JOIN = r"\s*(?:和|与|及|以及|,)\s*"
_ZH_LIST = re.compile(
    rf"(?P<lead>{ZH_VERBS})\s*(?:出\s*)?(?P<cps>(?:{_ZH_CP})(?:{_ZH_JOIN}(?:{_ZH_CP}))*)"
)
_ZH_PAIR = re.compile(rf"(?P<cps>(?:{_ZH_CP})(?:{_ZH_JOIN}(?:{_ZH_CP}))+)")
_ZH_EACH = re.compile(
    rf"(?:优缺点|利弊|优劣势?|好处和坏处)\s*各\s*(?:列出?|写出?|给出?|举出?)?\s*"
    rf"(?P<n>{_ZH_NUM})\s*(?:个|条|点|项)"
)
_ZH_VAGUE = re.compile(
    r"(?:至少|最多|不超过|不少于|最少|起码|顶多|超过|少于|不到|不低于|不高于|大概|大约|约|差不多"
    rf"|将近|接近|~)\s*{_ZH_NUM}"
    rf"|{_ZH_NUM}\s*(?:{ZH_CLASSIFIERS})?\s*(?:以上|以内|以下|之内|上下|左右)"
    rf"|{_ZH_NUM}\s*(?:多|来|余)\s*(?:{ZH_CLASSIFIERS})"
    rf"|{_ZH_NUM}\s*(?:到|至|-|~|或)\s*{_ZH_NUM}\s*(?:{ZH_CLASSIFIERS})"
)
_ZH_TITLE = r"[^\s'\",.;:!?()\-/|<>\[\]]{1,12}?"
_ZH_SECTION_WORD = r"(?:段式|部分式|个部分|部分|段|方面)"
_ZH_SHAPE_WORD = r"(?:的?(?:结构|格式|框架|模板|形式|顺序))?"
_ZH_AFTER_VERB = r"(?:\s*(?:输出|回答|作答|回复|展开|组织|写|来写|来回答|阐述|说明))?"
# Titles need a lead word or quotes, and "段" counts only after a number ("4段", "四段式"):
# "只返回id和name字段" holds no sections.
_ZH_SECTIONS = re.compile(
    rf"(?:(?:按照|按|以|用|采用|使用|分为|分成|包括|包含)\s*(?P<q>['\"]?)|(?P<q2>['\"]))"
    rf"(?P<titles>{_ZH_TITLE}(?P<sep>[-/,|]){_ZH_TITLE}(?:(?P=sep){_ZH_TITLE}){{0,10}})"
    rf"(?:(?P=q)|(?P=q2))\s*(?:的)?\s*"
    rf"(?:(?P<n>{_ZH_NUM})\s*(?:个)?{_ZH_SECTION_WORD}|段式|部分式|个?部分)"
    rf"{_ZH_SHAPE_WORD}{_ZH_AFTER_VERB}"
)
_ZH_SECTIONS_AFTER = re.compile(
    rf"分(?:为|成)?\s*(?P<n>{_ZH_NUM})\s*(?:个)?(?:部分|段|方面)\s*:\s*"
    rf"(?P<titles>{_ZH_TITLE}(?:(?P<sep>[-/,|]){_ZH_TITLE}(?:(?P=sep){_ZH_TITLE}){{0,10}})?)"
    r"(?=\s*(?:$|[.;!?\n]))"
)
_ZH_EACH_SLOT = re.compile(
    rf"\s*,?\s*每(?:个)?(?:部分|段|节|方面)\s*(?:各)?\s*(?:用|列|写|给出|列出|包含)?\s*"
    rf"(?P<cp>{_ZH_CP})"
)
_ZH_STEP_BY_STEP = re.compile(r"一步一步|一步步|逐步|分步骤?|循序渐进")
_ZH_FIRST = re.compile(r"(?:^|(?<=[\s,.;:!?]))(?P<first>首先|第1步|先)\s*[,:]?\s*")
_ZH_NEXT = re.compile(r"\s*[,;.]\s*(?:然后|再|接着|其次|之后|随后|最后|第[2-9]步)\s*[,:]?\s*")
_ZH_LEAD_BEFORE = re.compile(
    r"(?:请)?(?:一步一步|一步步|逐步|分步骤?|循序渐进)(?:地)?(?:思考|推理|分析|回答|来)?"
    r"\s*[:,.;]?\s*$"
)

_SENTENCE_END = re.compile(r"[.!?\n]")

# ---- helpers ---------------------------------------------------------------------------


def _number(text: str) -> int:
    return int(text) if text.isdigit() else chinese_to_int(text)


def _count(n: int) -> int:
    if not 1 <= n <= MAX_ITEMS_PER_SLOT:
        raise _Refused(f"{n} items in one slot")
    return n


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _words(text: str) -> str:
    return " ".join(text.split())


def _en_slots(
    cps: str, style: str | None = None, titled: bool | None = None, about: str = ""
) -> list[Slot]:
    """The slots of counted lists joined by "and": one untitled, several titled."""
    found = list(_CP_ONE.finditer(cps))
    titled = len(found) > 1 if titled is None else titled
    slots = []
    for m in found:
        kind = english_kind(m["noun"])
        if style and style.lower() in ("bulleted", "bullet", "unordered"):
            kind = Kind.BULLET if kind.listed else kind
        elif style and kind is Kind.BULLET:
            kind = Kind.ITEM
        noun = _words(m["adj"] + m["noun"])
        title = _capital(noun) if titled else None
        slots.append(Slot(kind, _count(int(m["n"])), title, noun, _words(about)))
    return slots


def _about(text: str, end: int) -> str:
    m = _EN_ABOUT.match(text, end)
    return m.group(1) if m else ""


def _zh_slots(cps: str, titled: bool | None = None) -> list[Slot]:
    found = list(_ZH_CP_ONE.finditer(cps))
    titled = len(found) > 1 if titled is None else titled
    slots = []
    for m in found:
        if m["alone"]:
            if titled:
                raise _Refused("a bare classifier cannot title a section")
            kind = ZH_CLASSIFIER_KINDS[m["alone"]]
            slots.append(Slot(kind, _count(_number(m["n2"])), None, m["alone"]))
            continue
        noun = (m["adj"] + "的" if m["adj"] else "") + m["noun"]
        kind = ZH_NOUNS[m["noun"]]
        slots.append(Slot(kind, _count(_number(m["n"])), m["noun"] if titled else None, noun))
    return slots


def _split_titles(text: str, expected: int | None, language: str) -> list[str]:
    """Section titles of "Summary and Risks", "A, B and C", "问题-影响-方案-风险"."""
    text = text.strip().strip("'\"").strip()
    readings: list[list[str]] = []
    if language == "en":
        parts = [p for p in re.split(r"\s*[,;]\s*", text)]
        if len(parts) > 1 or " and " in text:
            last = re.split(r"\s+(?:and|&)\s+", re.sub(r"^and\s+", "", parts[-1]))
            readings.append([*parts[:-1], *last])
            readings.append([re.sub(r"^and\s+", "", p) for p in parts])
        for sep in (r"\s*/\s*", r"\s*\|\s*", r"\s+-\s+", r"\s*–\s*", r"\s*->\s*", r"\s*→\s*", "-"):
            split = re.split(sep, text)
            if len(split) > 1:
                readings.append(split)
                break
    else:
        for sep in (r"\s*[,]\s*", r"\s*-\s*", r"\s*/\s*", r"\s*\|\s*", r"\s*和\s*"):
            split = re.split(sep, text)
            if len(split) > 1:
                last = re.split(r"\s*(?:和|与|及|以及)\s*", split[-1])
                readings += [[*split[:-1], *last], split]
                break
    readings.append([text])
    for titles in readings:
        titles = [t.strip().strip("'\"").strip() for t in titles]
        if expected is not None and len(titles) != expected:
            continue
        if expected is None and len(titles) < 2:
            continue
        _check_titles(titles)
        return titles
    raise _Refused("the section titles do not match the count")


def _check_titles(titles: list[str]) -> None:
    seen = set()
    for title in titles:
        words = title.split()
        if not title or len(title) > 40 or len(words) > 6:
            raise _Refused(f"{title!r} is not a section title")
        if not re.search(r"[A-Za-z\u3400-\u9fff]", title):
            raise _Refused(f"{title!r} is not a section title")
        if title.lower() in seen:
            raise _Refused(f"section {title!r} twice")
        seen.add(title.lower())


def _section_slots(titles: list[str], each: Slot | None) -> tuple[Slot, ...]:
    if not 1 <= len(titles) <= 12:
        raise _Refused(f"{len(titles)} sections")
    if each is None:
        return tuple(Slot(Kind.PARAGRAPH, 1, t, t) for t in titles)
    return tuple(Slot(each.kind, each.count, t, each.noun) for t in titles)


# ---- rules: each yields what it found in normalised text -------------------------------


def _rule_en_list(text: str, sig: _Signals) -> Iterator[_Found]:
    if not sig.counted:
        return
    for m in _EN_LIST.finditer(text):
        if _EN_DANGLING.match(text, m.end()):
            raise _Refused("a count shared by two nouns")
        slots = _en_slots(m["cps"], m["style"], about=_about(text, m.end()))
        yield _Found(m.start(), m.end(), tuple(slots))


def _rule_en_pair(text: str, sig: _Signals) -> Iterator[_Found]:
    if not sig.counted:
        return
    for m in _EN_PAIR.finditer(text):
        if _EN_DANGLING.match(text, m.end()):
            raise _Refused("a count shared by two nouns")
        slots = _en_slots(m["cps"], about=_about(text, m.end()))
        yield _Found(m.start(), m.end(), tuple(slots))


def _rule_en_each(text: str, sig: _Signals) -> Iterator[_Found]:
    if not any(pair in sig.lower for pair in _EN_EACH_PAIRS):
        return
    for m in _EN_EACH.finditer(text):
        if (m["n1"] and m["n2"]) or not (m["n1"] or m["n2"]):
            raise _Refused("two counts for one pair")
        n = _count(int(m["n1"] or m["n2"]))
        first, second = _EN_EACH_PAIRS[_words(m["pair"]).lower()]
        kind = Kind.BULLET
        slots = (Slot(kind, n, first, first.lower()), Slot(kind, n, second, second.lower()))
        yield _Found(m.start(), m.end(), slots, m.span("topic") if m["topic"] else None)


def _rule_en_n_part(text: str, sig: _Signals) -> Iterator[_Found]:
    if not _N_PART_ANCHOR.search(text):
        return
    for m in _EN_N_PART.finditer(text):
        kind = _N_PART_KINDS[m["noun"].lower()]
        noun = f"{m['noun'].lower()}s of the {m['what'].lower()}"
        yield _Found(m.start(), m.end(), (Slot(kind, _count(int(m["n"])), None, noun),))


def _each_en(titles: str) -> tuple[str, Slot | None]:
    m = _EN_EACH_SLOT.search(titles)
    if m is None:
        return titles, None
    slots = _en_slots(m["a"] or m["b"], titled=False)
    return titles[: m.start()], slots[0]


def _rule_en_sections(text: str, sig: _Signals) -> Iterator[_Found]:
    if "section" in sig.lower or "part" in sig.lower:
        yield from _en_sections(text)
    if any(w in sig.lower for w in ("format", "structure", "template", "framework", "outline")):
        yield from _en_format(text)


def _en_sections(text: str) -> Iterator[_Found]:
    for m in _EN_SECTIONS.finditer(text):
        titles_text, each = _each_en(m["titles"])
        expected = int(m["n"]) if m["n"] else None
        titles = _split_titles(titles_text, expected, "en")
        yield _Found(m.start(), m.end(), _section_slots(titles, each))


def _en_format(text: str) -> Iterator[_Found]:
    for m in _EN_FORMAT.finditer(text):
        raw = m["qtitles"] or m["titles"]
        titles_text, each = _each_en(raw)
        expected = int(m["n"]) if m["n"] else None
        titles = _split_titles(titles_text, expected, "en")
        yield _Found(m.start(), m.end(), _section_slots(titles, each))


def _rule_zh_list(text: str, sig: _Signals) -> Iterator[_Found]:
    if not sig.cjk:
        return
    for m in _ZH_LIST.finditer(text):
        yield _Found(m.start(), m.end(), tuple(_zh_slots(m["cps"])))


def _rule_zh_pair(text: str, sig: _Signals) -> Iterator[_Found]:
    if not sig.cjk or not _ZH_NOUN_ANY.search(text):
        return
    for m in _ZH_PAIR.finditer(text):
        yield _Found(m.start(), m.end(), tuple(_zh_slots(m["cps"])))


def _rule_zh_each(text: str, sig: _Signals) -> Iterator[_Found]:
    if "各" not in text:
        return
    for m in _ZH_EACH.finditer(text):
        n = _count(_number(m["n"]))
        slots = (Slot(Kind.BULLET, n, "优点", "优点"), Slot(Kind.BULLET, n, "缺点", "缺点"))
        yield _Found(m.start(), m.end(), slots)


def _each_zh(text: str, end: int) -> tuple[int, Slot | None]:
    m = _ZH_EACH_SLOT.match(text, end)
    if m is None:
        return end, None
    return m.end(), _zh_slots(m["cp"], titled=False)[0]


def _rule_zh_sections(text: str, sig: _Signals) -> Iterator[_Found]:
    if not sig.cjk or not any(w in text for w in ("段", "部分", "方面")):
        return
    for pattern in (_ZH_SECTIONS, _ZH_SECTIONS_AFTER):
        for m in pattern.finditer(text):
            expected = _number(m["n"]) if m["n"] else None
            titles = _split_titles(m["titles"], expected, "zh")
            end, each = _each_zh(text, m.end())
            yield _Found(m.start(), end, _section_slots(titles, each))


@dataclass(frozen=True, slots=True)
class _ChainWords:
    first: re.Pattern[str]
    next: re.Pattern[str]
    lead_before: re.Pattern[str]
    step_by_step: re.Pattern[str]
    list_rules: tuple[Callable[[str, _Signals], Iterator[_Found]], ...]
    title: Callable[[int, str], str]
    maybe: Callable[[str, _Signals], bool]


_CLAUSE_BREAK = re.compile(r"[,;:.!?\n]\s*")


def _clause_start(text: str, pos: int) -> int:
    """Where the clause holding ``pos`` begins (after the last , ; : . ! ? or newline)."""
    start = 0
    for m in _CLAUSE_BREAK.finditer(text, 0, pos):
        start = m.end()
    return start


def _steps(text: str, pos: int, words: _ChainWords) -> tuple[list[str], int]:
    """The steps from ``pos`` to the end of the sentence, split at "then" / "再" markers."""
    steps = []
    while True:
        nxt = words.next.search(text, pos)
        stop = _SENTENCE_END.search(text, pos)
        if nxt and (stop is None or nxt.start() <= stop.start()):
            steps.append(text[pos : nxt.start()].strip(" ,;:"))
            pos = nxt.end()
            continue
        end = stop.start() if stop else len(text)
        steps.append(text[pos:end].strip(" ,;:"))
        return steps, end


def _chain(text: str, sig: _Signals, words: _ChainWords) -> Iterator[_Found]:
    """ "first …, then …, finally …": one slot per step, titled with the step.

    A chain starts at "first" / "先", or at the clause of a counted list followed by "then"
    ("list 3 options, then recommend one"). It is a protocol when a step holds a counted list
    or the text asks for step-by-step reasoning; otherwise it is an ordinary chain of
    operations ("first sort by name, then keep only id") and left alone.
    """
    if not words.maybe(text, sig):
        return
    starts = {m.start(): m.end() for m in words.first.finditer(text)}
    for rule in words.list_rules:
        for found in rule(text, sig):
            clause = _clause_start(text, found.start)
            starts.setdefault(clause, clause)
    for start, pos in sorted(starts.items()):
        steps, end = _steps(text, pos, words)
        if len(steps) < 2:
            continue
        if len(steps) > 8 or any(not s or len(s) > 120 or len(s.split()) > 15 for s in steps):
            raise _Refused("the steps are not a short chain")
        slots, counted = [], False
        for i, step in enumerate(steps, 1):
            step_sig = _Signals.of(step)
            found = [f for rule in words.list_rules for f in rule(step, step_sig)]
            title = words.title(i, step)
            if not found:
                slots.append(Slot(Kind.PARAGRAPH, 1, title, step))
                continue
            if len(found) > 1 or len(found[0].slots) > 1:
                raise _Refused("a step with two lists")
            counted = True
            slots.append(replace(found[0].slots[0], title=title))
        lead = words.lead_before.search(text, 0, start)
        if not (counted or lead or words.step_by_step.search(text)):
            continue  # an ordinary chain of operations
        yield _Found(lead.start() if lead else start, end, tuple(slots))


_EN_CHAIN = _ChainWords(
    _EN_FIRST,
    _EN_NEXT,
    _EN_LEAD_BEFORE,
    _EN_STEP_BY_STEP,
    (_rule_en_list,),
    lambda i, step: f"Step {i}: {_capital(step)}",
    lambda text, sig: sig.counted or "first" in sig.lower or "1st" in sig.lower,
)
_ZH_CHAIN = _ChainWords(
    _ZH_FIRST,
    _ZH_NEXT,
    _ZH_LEAD_BEFORE,
    _ZH_STEP_BY_STEP,
    (_rule_zh_list,),
    lambda i, step: f"第{i}步：{step}",
    lambda text, sig: sig.cjk,
)

_Rule = Callable[[str, _Signals], Iterator[_Found]]
_EN_RULES: tuple[_Rule, ...] = (
    lambda t, sig: _chain(t, sig, _EN_CHAIN),
    _rule_en_sections,
    _rule_en_each,
    _rule_en_n_part,
    _rule_en_list,
    _rule_en_pair,
)
_ZH_RULES: tuple[_Rule, ...] = (
    lambda t, sig: _chain(t, sig, _ZH_CHAIN),
    _rule_zh_sections,
    _rule_zh_each,
    _rule_zh_list,
    _rule_zh_pair,
)


def _recognise_text(text: str) -> _Found | None:
    """The one structure phrase of a normalised paragraph, None, or _Refused."""
    sig = _Signals.of(text)
    found = [f for rules in (_EN_RULES, _ZH_RULES) for rule in rules for f in rule(text, sig)]
    if not found:
        return None
    if _EN_VAGUE.search(text) or _ZH_VAGUE.search(text):
        raise _Refused("a vague count")
    # A phrase inside a longer one is part of it ("list 3 options" inside a chain).
    outer = [
        f
        for f in found
        if not any(
            g is not f
            and g.start <= f.start
            and f.end <= g.end
            and (g.start, g.end) != (f.start, f.end)
            for g in found
        )
    ]
    spans = {(f.start, f.end) for f in outer}
    if len(spans) > 1:
        raise _Refused("two structure phrases")
    best = outer[0]
    if not best.slots:
        return None
    if sum(s.count for s in best.slots) > MAX_FILLS:
        raise _Refused("too many items")
    return best


# ---- messages ----------------------------------------------------------------------------

_FENCE = re.compile(
    r"^[ ]{0,3}(?P<fence>`{3,}|~{3,})[^\n]*\n(?:.*?^[ ]{0,3}(?P=fence)[`~]*[ \t]*$|.*\Z)",
    re.MULTILINE | re.DOTALL,
)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n+")
_LEADING_TOPIC = re.compile(r"^(?:of|about|on|for|regarding|concerning)\s+", re.I)


@dataclass(frozen=True, slots=True)
class _Block:
    text: str
    fenced: bool


def _blocks(message: str) -> list[_Block]:
    """Paragraphs outside code fences, and the fenced blocks whole, in order."""
    blocks: list[_Block] = []
    last = 0
    for m in _FENCE.finditer(message):
        blocks += [_Block(p, False) for p in _PARAGRAPH_BREAK.split(message[last : m.start()])]
        blocks.append(_Block(m.group(0).rstrip("\n"), True))
        last = m.end()
    blocks += [_Block(p, False) for p in _PARAGRAPH_BREAK.split(message[last:])]
    return [b for b in blocks if b.text.strip()]


def _tidy(before: str, after: str) -> str:
    """What is left of a paragraph once the meta-instruction (between the two) is taken out;
    "of remote work" right after a leading phrase loses its "of"."""
    if not before.strip():
        after = _LEADING_TOPIC.sub("", after.lstrip())
    text = re.sub(r"[ \t]+", " ", f"{before} {after}")
    text = re.sub(r" +([,.;:!?])", r"\1", text)
    text = re.sub(r"[,;:]\s*(?=[.!?])", "", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    text = re.sub(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])", "", text)
    text = text.lstrip(" \t\n.,;:-").rstrip(" \t\n,;:-")
    return "" if not re.search(r"\w", text) else text


def recognise(message: str) -> Protocol | None:
    """The protocol a user message asks for, or None (not a protocol: the ordinary path)."""
    blocks = _blocks(message)
    texts = [i for i, b in enumerate(blocks) if not b.fenced]
    if not texts:
        return None
    hits: list[tuple[int, str, _Found]] = []
    for i in dict.fromkeys((texts[0], texts[-1])):
        if not _maybe(blocks[i].text):
            continue
        normalised = normalise(blocks[i].text)
        try:
            found = _recognise_text(normalised)
        except _Refused:
            return None
        if found is not None:
            hits.append((i, normalised, found))
    if len(hits) != 1:
        return None  # none, or one in the first and one in the last paragraph
    index, normalised, found = hits[0]
    after = normalised[found.end :]
    if found.keep is not None:
        after = normalised[found.keep[0] : found.keep[1]] + " " + after
    rest = _tidy(normalised[: found.start], after)
    parts = [rest if i == index else b.text.strip("\n") for i, b in enumerate(blocks)]
    phrase = normalised[found.start : found.end].strip()
    return Protocol(
        slots=found.slots,
        task="\n\n".join(p for p in parts if p),
        phrase=phrase,
        language="zh" if _CJK.search(normalised) else "en",
    )


def recognise_request(request: EngineRequest) -> Protocol | None:
    """The protocol of a request's last user turn; None when the caller disabled zerolayer."""
    if request.disabled or not request.messages or request.messages[-1].role != "user":
        return None
    return recognise(request.messages[-1].content)
