"""English structure phrases: counted lists ("list 3 options", "answer in exactly 5 bullet
points"), several lists ("3 pros and 3 cons"), "a 3-point summary", titled sections ("in 2
sections: Summary and Risks") and the words of step chains ("first …, then …")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from zerolayer.core.protocol.model import Kind, Slot
from zerolayer.core.protocol.phrases import (
    Found,
    Refused,
    Rule,
    Signals,
    capitalised,
    checked_count,
    collapse,
    section_slots,
    split_titles,
)
from zerolayer.core.protocol.vocabulary import (
    EN_FORM_PREPOSITIONS,
    EN_VERBS,
    english_kind,
    english_noun_pattern,
)

_NOUN = rf"(?:{english_noun_pattern()})(?![A-Za-z])"
# Up to three describing words between the number and the noun ("3 challenging questions").
_ADJ = (
    r"(?:(?!(?:and|or|to|of|in|per|each|more|less|fewer|than|plus)\b)"
    r"[A-Za-z][A-Za-z'-]*\s+){0,3}?"
)
_EXACT = r"(?:(?:exactly|precisely|just|only)\s+)?"
_CP = rf"{_EXACT}\d{{1,3}}\s+{_ADJ}{_NOUN}"
CP_ONE = re.compile(rf"{_EXACT}(?P<n>\d{{1,3}})\s+(?P<adj>{_ADJ})(?P<noun>{_NOUN})", re.I)
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
VAGUE = re.compile(
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
STEP_BY_STEP = re.compile(
    r"(?<![A-Za-z])(?:step[- ]by[- ]step|one\s+step\s+at\s+a\s+time)(?![A-Za-z])", re.I
)
FIRST = re.compile(r"(?:^|(?<=[\s:,;.(-]))(?P<first>first(?:ly)?|1st)(?![A-Za-z])\s*,?\s*", re.I)
NEXT = re.compile(
    r"(?:\s*[,;.]\s*(?:and\s+)?(?:then|next|after\s+that|afterwards|second(?:ly)?|third(?:ly)?"
    r"|fourth(?:ly)?|finally|lastly|last)|\s+(?:and\s+)?(?:then|finally|afterwards))"
    r"(?![A-Za-z])\s*,?\s*",
    re.I,
)
LEAD_BEFORE = re.compile(
    r"(?:(?:let's|let\s+us|please)\s+)?(?:(?:reason|think|work|go|walk|answer|respond|proceed)"
    r"(?:\s+(?:it|this|me))?(?:\s+through(?:\s+it)?)?\s+)?"
    r"(?:step[- ]by[- ]step|one\s+step\s+at\s+a\s+time)\s*[:,.;-]?\s*$",
    re.I,
)


def _en_slots(
    cps: str, style: str | None = None, titled: bool | None = None, about: str = ""
) -> list[Slot]:
    """The slots of counted lists joined by "and": one untitled, several titled."""
    found = list(CP_ONE.finditer(cps))
    titled = len(found) > 1 if titled is None else titled
    slots = []
    for m in found:
        kind = english_kind(m["noun"])
        if style and style.lower() in ("bulleted", "bullet", "unordered"):
            kind = Kind.BULLET if kind.listed else kind
        elif style and kind is Kind.BULLET:
            kind = Kind.ITEM
        noun = collapse(m["adj"] + m["noun"])
        title = capitalised(noun) if titled else None
        slots.append(Slot(kind, checked_count(int(m["n"])), title, noun, collapse(about)))
    return slots


def _about(text: str, end: int) -> str:
    m = _EN_ABOUT.match(text, end)
    return m.group(1) if m else ""


def rule_list(text: str, sig: Signals) -> Iterator[Found]:
    if not sig.counted:
        return
    for m in _EN_LIST.finditer(text):
        if _EN_DANGLING.match(text, m.end()):
            raise Refused("a count shared by two nouns")
        slots = _en_slots(m["cps"], m["style"], about=_about(text, m.end()))
        yield Found(m.start(), m.end(), tuple(slots))


def rule_pair(text: str, sig: Signals) -> Iterator[Found]:
    if not sig.counted:
        return
    for m in _EN_PAIR.finditer(text):
        if _EN_DANGLING.match(text, m.end()):
            raise Refused("a count shared by two nouns")
        slots = _en_slots(m["cps"], about=_about(text, m.end()))
        yield Found(m.start(), m.end(), tuple(slots))


def rule_each(text: str, sig: Signals) -> Iterator[Found]:
    if not any(pair in sig.lower for pair in _EN_EACH_PAIRS):
        return
    for m in _EN_EACH.finditer(text):
        if (m["n1"] and m["n2"]) or not (m["n1"] or m["n2"]):
            raise Refused("two counts for one pair")
        n = checked_count(int(m["n1"] or m["n2"]))
        first, second = _EN_EACH_PAIRS[collapse(m["pair"]).lower()]
        kind = Kind.BULLET
        slots = (Slot(kind, n, first, first.lower()), Slot(kind, n, second, second.lower()))
        yield Found(m.start(), m.end(), slots, m.span("topic") if m["topic"] else None)


def rule_n_part(text: str, sig: Signals) -> Iterator[Found]:
    if not _N_PART_ANCHOR.search(text):
        return
    for m in _EN_N_PART.finditer(text):
        kind = _N_PART_KINDS[m["noun"].lower()]
        noun = f"{m['noun'].lower()}s of the {m['what'].lower()}"
        yield Found(m.start(), m.end(), (Slot(kind, checked_count(int(m["n"])), None, noun),))


def _each_en(titles: str) -> tuple[str, Slot | None]:
    m = _EN_EACH_SLOT.search(titles)
    if m is None:
        return titles, None
    slots = _en_slots(m["a"] or m["b"], titled=False)
    return titles[: m.start()], slots[0]


def rule_sections(text: str, sig: Signals) -> Iterator[Found]:
    if "section" in sig.lower or "part" in sig.lower:
        yield from _en_sections(text)
    if any(w in sig.lower for w in ("format", "structure", "template", "framework", "outline")):
        yield from _en_format(text)


def _en_sections(text: str) -> Iterator[Found]:
    for m in _EN_SECTIONS.finditer(text):
        titles_text, each = _each_en(m["titles"])
        expected = int(m["n"]) if m["n"] else None
        titles = split_titles(titles_text, expected, "en")
        yield Found(m.start(), m.end(), section_slots(titles, each))


def _en_format(text: str) -> Iterator[Found]:
    for m in _EN_FORMAT.finditer(text):
        raw = m["qtitles"] or m["titles"]
        titles_text, each = _each_en(raw)
        expected = int(m["n"]) if m["n"] else None
        titles = split_titles(titles_text, expected, "en")
        yield Found(m.start(), m.end(), section_slots(titles, each))


#: The rules, longest phrases first; the chain rule is the recogniser's (it spans languages).
RULES: tuple[Rule, ...] = (rule_sections, rule_each, rule_n_part, rule_list, rule_pair)
_CP_ANCHOR = re.compile(r"\d{1,3}\s+[A-Za-z]")


def counted(text: str) -> bool:
    """Whether the text has an English count before a word ("3 options")."""
    return any(CP_ONE.match(text, m.start()) for m in _CP_ANCHOR.finditer(text))


def step_title(i: int, step: str) -> str:
    return f"Step {i}: {capitalised(step)}"
