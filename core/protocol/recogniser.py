"""The protocol recogniser: a small phrase grammar over normalised instruction text.

A meta-instruction sits inside free text ("summarise this article in 3 bullet points", "give
me 3 pros and 3 cons of remote work"), so the recogniser searches for structure phrases
rather than parsing whole clauses. The phrases (rules in ``english.py`` and ``chinese.py``,
regular expressions built from the word tables of ``vocabulary.py``; step chains here):

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

from zerolayer.core.message import fences, normalise_newlines
from zerolayer.core.normalise import normalise
from zerolayer.core.protocol import chinese, english
from zerolayer.core.protocol.model import MAX_FILLS, Kind, Protocol, Slot
from zerolayer.core.protocol.phrases import Found, Refused, Rule, Signals

if TYPE_CHECKING:
    from zerolayer.core.messages import EngineRequest

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# A paragraph with none of these cannot hold a protocol (checked before normalising it).
_MAYBE = re.compile(r"\d[ -]?[A-Za-z\u3400-\u9fff]|[二两三四五六七八九十段先各步]|部分|方面")
_MAYBE_WORDS = (
    "section", "part", "format", "structure", "template", "framework", "outline", "first",
    "1st", "each", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "teen", "twenty",
)  # fmt: skip
MAX_INSTRUCTION_CHARS = 2000  # a longer paragraph is a payload, not an instruction
_SENTENCE_END = re.compile(r"[.!?\n]")


def _maybe(paragraph: str) -> bool:
    if len(paragraph) > MAX_INSTRUCTION_CHARS:
        return False
    if _MAYBE.search(paragraph):
        return True
    lower = paragraph.lower()
    return any(word in lower for word in _MAYBE_WORDS)


def _signals(text: str) -> Signals:
    return Signals(text.lower(), english.counted(text), bool(_CJK.search(text)))


# ---- chains of steps ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _ChainWords:
    first: re.Pattern[str]
    next: re.Pattern[str]
    lead_before: re.Pattern[str]
    step_by_step: re.Pattern[str]
    list_rules: tuple[Rule, ...]
    title: Callable[[int, str], str]
    maybe: Callable[[str, Signals], bool]


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


def _chain(text: str, sig: Signals, words: _ChainWords) -> Iterator[Found]:
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
            raise Refused("the steps are not a short chain")
        slots, counted = [], False
        for i, step in enumerate(steps, 1):
            step_sig = _signals(step)
            found = [f for rule in words.list_rules for f in rule(step, step_sig)]
            title = words.title(i, step)
            if not found:
                slots.append(Slot(Kind.PARAGRAPH, 1, title, step))
                continue
            if len(found) > 1 or len(found[0].slots) > 1:
                raise Refused("a step with two lists")
            counted = True
            slots.append(replace(found[0].slots[0], title=title))
        lead = words.lead_before.search(text, 0, start)
        if not (counted or lead or words.step_by_step.search(text)):
            continue  # an ordinary chain of operations
        yield Found(lead.start() if lead else start, end, tuple(slots))


_EN_CHAIN = _ChainWords(
    english.FIRST,
    english.NEXT,
    english.LEAD_BEFORE,
    english.STEP_BY_STEP,
    (english.rule_list,),
    english.step_title,
    lambda text, sig: sig.counted or "first" in sig.lower or "1st" in sig.lower,
)
_ZH_CHAIN = _ChainWords(
    chinese.FIRST,
    chinese.NEXT,
    chinese.LEAD_BEFORE,
    chinese.STEP_BY_STEP,
    (chinese.rule_list,),
    chinese.step_title,
    lambda text, sig: sig.cjk,
)
_RULES: tuple[Rule, ...] = (
    lambda t, sig: _chain(t, sig, _EN_CHAIN),
    *english.RULES,
    lambda t, sig: _chain(t, sig, _ZH_CHAIN),
    *chinese.RULES,
)


# ---- paragraphs -------------------------------------------------------------------------


def _recognise_text(text: str) -> Found | None:
    """The one structure phrase of a normalised paragraph, None, or Refused."""
    sig = _signals(text)
    found = [f for rule in _RULES for f in rule(text, sig)]
    if not found:
        return None
    if english.VAGUE.search(text) or chinese.VAGUE.search(text):
        raise Refused("a vague count")
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
        raise Refused("two structure phrases")
    best = outer[0]
    if not best.slots:
        return None
    if sum(s.count for s in best.slots) > MAX_FILLS:
        raise Refused("too many items")
    return best


# ---- messages ----------------------------------------------------------------------------

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n+")
_LEADING_TOPIC = re.compile(r"^(?:of|about|on|for|regarding|concerning)\s+", re.I)


@dataclass(frozen=True, slots=True)
class _Block:
    text: str
    fenced: bool


def _blocks(message: str) -> list[_Block]:
    """Paragraphs outside code fences, and the fenced blocks whole, in order."""
    message = normalise_newlines(message)
    blocks: list[_Block] = []
    last = 0
    for fence in fences(message, unclosed=True):
        blocks += [_Block(p, False) for p in _PARAGRAPH_BREAK.split(message[last : fence.start])]
        blocks.append(_Block(message[fence.start : fence.end].rstrip("\n"), True))
        last = fence.end
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
    hits: list[tuple[int, str, Found]] = []
    for i in dict.fromkeys((texts[0], texts[-1])):
        if not _maybe(blocks[i].text):
            continue
        normalised = normalise(blocks[i].text)
        try:
            found = _recognise_text(normalised)
        except Refused:
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
