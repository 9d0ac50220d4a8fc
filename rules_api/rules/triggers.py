"""Trigger phrases: instruction templates with typed slots, compiled to anchored regexes.

``"turn the contract clauses into a FAQ"`` matches that instruction (after the engine's own
normalisation, case-insensitively, with or without a final full stop). ``{name}`` or
``{name:int|word|text}`` marks a slot: ``int`` is up to 9 digits, ``word`` one word of at
most 64 characters, ``text`` up to 200 characters. Literal text is matched exactly, so a
trigger cannot contain regular-expression syntax; every slot is bounded, so matching is cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from zerolayer.core.normalise import normalise

SLOT = re.compile(r"\{([a-z][a-z0-9_]{0,31})(?::([a-z]+))?\}")
SLOT_PATTERNS = {"int": r"\d{1,9}", "word": r"[^\s]{1,64}", "text": r".{1,200}?"}
SLOT_SAMPLES = {"int": "3", "word": "sample", "text": "sample text"}
_END_PUNCT = re.compile(r"[\s.!?。！？:：]+$")
MIN_LITERAL_CHARS = 3


class TriggerError(ValueError):
    """A phrase that cannot be a trigger; ``column`` is 1-based in the phrase."""

    def __init__(self, message: str, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


@dataclass(frozen=True, slots=True)
class Trigger:
    """A compiled phrase: its anchored pattern, its slots, and a sample instruction."""

    phrase: str
    pattern: str
    slots: tuple[tuple[str, str], ...]
    sample: str
    key: str  # the normalised phrase with slots as {type}: equal keys collide

    def match(self, instruction_key: str) -> dict[str, Any] | None:
        """Slot values when the normalised instruction matches, else None."""
        m = _compiled(self.pattern).fullmatch(instruction_key)
        if m is None:
            return None
        return {
            name: int(m.group(name)) if kind == "int" else m.group(name)
            for name, kind in self.slots
        }


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        if len(_PATTERNS) > 4096:
            _PATTERNS.clear()
        compiled = _PATTERNS[pattern] = re.compile(pattern, re.DOTALL)
    return compiled


def instruction_key(text: str) -> str:
    """An instruction as triggers see it: normalised, case-folded, no final punctuation."""
    return _END_PUNCT.sub("", normalise(text).casefold()).strip()


def compile_trigger(phrase: str, *, max_slots: int = 4) -> Trigger:
    """Compile one phrase; ``TriggerError`` (with a column) when it cannot be a trigger."""
    if "\n" in phrase or "\r" in phrase:
        raise TriggerError("a phrase is one line", phrase.find("\n") + 1)
    slots: list[tuple[str, str]] = []
    pieces: list[str] = []
    last = 0
    for m in SLOT.finditer(phrase):
        name, kind = m.group(1), m.group(2) or "text"
        if kind not in SLOT_PATTERNS:
            raise TriggerError(
                f"unknown slot type {kind!r}; use {', '.join(SLOT_PATTERNS)}", m.start(2) + 1
            )
        if any(name == n for n, _ in slots):
            raise TriggerError(f"slot {name!r} appears twice", m.start() + 1)
        if slots and m.start() == last:
            raise TriggerError("two slots need literal text between them", m.start() + 1)
        pieces.append(phrase[last : m.start()])
        slots.append((name, kind))
        last = m.end()
    pieces.append(phrase[last:])
    for i, piece in enumerate(pieces):
        brace = next((j for j, ch in enumerate(piece) if ch in "{}"), None)
        if brace is not None:
            offset = sum(len(p) for p in pieces[:i])
            raise TriggerError(
                "braces only mark slots: {name} or {name:int|word|text}", offset + brace + 1
            )
    if len(slots) > max_slots:
        raise TriggerError(f"at most {max_slots} slots per phrase")
    literal = "".join(pieces)
    if sum(1 for ch in literal if not ch.isspace() and ch.isalnum()) < MIN_LITERAL_CHARS:
        raise TriggerError(f"a phrase needs at least {MIN_LITERAL_CHARS} letters besides slots")
    # normalise with placeholders where the slots are, then put the slot patterns there
    marks = [f"qqslot{chr(97 + i)}qq" for i in range(len(slots))]
    joined = pieces[0] + "".join(
        mark + piece for mark, piece in zip(marks, pieces[1:], strict=True)
    )
    key_text = instruction_key(joined)
    pattern, key, sample = re.escape(key_text), key_text, key_text
    for mark, (name, kind) in zip(marks, slots, strict=True):
        if mark not in key_text:
            raise TriggerError(f"slot {name!r} cannot be placed where it is")
        pattern = pattern.replace(re.escape(mark), f"(?P<{name}>{SLOT_PATTERNS[kind]})")
        key = key.replace(mark, "{" + kind + "}")
        sample = sample.replace(mark, SLOT_SAMPLES[kind])
    return Trigger(phrase, pattern, tuple(slots), sample, key)
