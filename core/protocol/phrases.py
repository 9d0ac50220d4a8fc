"""What the recogniser's phrase rules share: what a rule finds, cheap facts about the text
that decide which rules run, and helpers for counts and section titles."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from zerolayer.core.normalise import chinese_to_int
from zerolayer.core.protocol.model import MAX_ITEMS_PER_SLOT, Kind, Slot


class Refused(Exception):
    """The text asks for a structure, but not one that can be followed exactly."""


@dataclass(frozen=True, slots=True)
class Found:
    """A structure phrase at ``start:end`` of the normalised text, and its slots."""

    start: int
    end: int
    slots: tuple[Slot, ...]
    keep: tuple[int, int] | None = None  # words inside the phrase that belong to the task


@dataclass(frozen=True, slots=True)
class Signals:
    """Cheap facts about a text that decide which rules can match at all (the rules' regular
    expressions are costly to run over text that cannot match)."""

    lower: str
    counted: bool  # an English count before a word: "3 options"
    cjk: bool


Rule = Callable[[str, Signals], Iterator[Found]]


def to_int(text: str) -> int:
    return int(text) if text.isdigit() else chinese_to_int(text)


def checked_count(n: int) -> int:
    if not 1 <= n <= MAX_ITEMS_PER_SLOT:
        raise Refused(f"{n} items in one slot")
    return n


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def collapse(text: str) -> str:
    return " ".join(text.split())


def split_titles(text: str, expected: int | None, language: str) -> list[str]:
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
    raise Refused("the section titles do not match the count")


def _check_titles(titles: list[str]) -> None:
    seen = set()
    for title in titles:
        words = title.split()
        if not title or len(title) > 40 or len(words) > 6:
            raise Refused(f"{title!r} is not a section title")
        if not re.search(r"[A-Za-z\u3400-\u9fff]", title):
            raise Refused(f"{title!r} is not a section title")
        if title.lower() in seen:
            raise Refused(f"section {title!r} twice")
        seen.add(title.lower())


def section_slots(titles: list[str], each: Slot | None) -> tuple[Slot, ...]:
    if not 1 <= len(titles) <= 12:
        raise Refused(f"{len(titles)} sections")
    if each is None:
        return tuple(Slot(Kind.PARAGRAPH, 1, t, t) for t in titles)
    return tuple(Slot(each.kind, each.count, t, each.noun) for t in titles)
