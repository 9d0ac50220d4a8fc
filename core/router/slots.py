"""Parameters: what an example's plan takes from its words, and carrying a request's over.

The values of a parsed instruction are its field names (``FieldRef``), its numbers, and the
literal strings its words contain (``df`` in "变量名为 df"); enum values a keyword chose
("descending" → ``desc``) are not values but meaning words (see ``evidence.py``). A request's
values are its numbers, its quoted strings and its words that name a field of the payload.

``carry_over`` puts the request's values into the example's instruction only where that is
exact: for each kind (numbers, fields) either the two lists are equal already, or each has
exactly one value and the example's appears exactly once in its text. With two or more
values of a kind the mapping would be a guess ("sort by A, keep B" against "keep B, sort
by A"), so the request is not routed. The proposal must then parse and yield exactly the
request's values (``same_values``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.fields import GLOSSARY, FieldRef, resolve
from zerolayer.core.plan import Option, Source, Step
from zerolayer.core.router.evidence import Vocabulary, has_cjk, numbers, quoted, stem, words


@dataclass(frozen=True)
class Values:
    """The values of an instruction, by kind, in order of appearance."""

    numbers: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    strings: tuple[str, ...] = ()


def _number_text(value: int | float) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def directive_values(directives: Sequence[Any]) -> Values:
    """The values of parsed directives (``Step`` params and ``Option`` values)."""
    nums: list[str] = []
    fields: list[str] = []
    strings: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, FieldRef):
            fields.append(str(value))
        elif isinstance(value, bool) or value is None:
            return
        elif isinstance(value, int | float):
            nums.append(_number_text(value))
        elif isinstance(value, str):
            strings.append(value)
        elif isinstance(value, Mapping):
            for key, item in value.items():
                walk(str(key))
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    for d in directives:
        if isinstance(d, Step):
            for item in d.params.values():
                walk(item)
        elif isinstance(d, Option):
            walk(d.value)
        elif not isinstance(d, Source):
            walk(d)
    return Values(tuple(nums), tuple(fields), tuple(strings))


def literal_strings(values: Values, text: str) -> tuple[str, ...]:
    """The string values that the instruction's text contains as written (not enum values
    a keyword chose): those a paraphrase must contain too."""
    lowered = text.lower()
    return tuple(s for s in values.strings if _occurrences(s, lowered) > 0)


def payload_keys(payloads: Sequence[str], limit: int = 256 * 1024) -> list[str]:
    """Keys of the first payload read as JSON, else YAML (records of a list included); none
    for a payload over ``limit`` bytes, whose field names then count as unknown words."""
    from zerolayer.core.fields import data_keys

    for text in payloads[:1]:
        if len(text) > limit:
            return []
        try:
            import json

            return data_keys(json.loads(text))
        except ValueError:
            pass
        try:
            import yaml

            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            return data_keys(yaml.load(text, Loader=loader))
        except Exception:
            return []
    return []


def request_values(text: str, keys: Sequence[str], vocab: Vocabulary) -> Values:
    """A request's numbers, quoted strings and words that name exactly one payload field."""
    found_fields: list[str] = []
    if keys:
        for word in words(re.sub(r"\"[^\"]*\"|'[^']*'|`[^`]*`", " ", text)):
            if word[0].isdigit() or vocab.format_of(word) or stem(word) in vocab.frame:
                continue
            if _names_field(word, keys):
                found_fields.append(word)
        if has_cjk(text):
            for zh in GLOSSARY:
                if zh in text and _names_field(zh, keys):
                    found_fields.append(zh)
    strings = tuple(quoted(text))
    for s in strings:
        if _names_field(s, keys):
            found_fields.append(s)
    unquoted = re.sub(r"\"[^\"]*\"|'[^']*'|`[^`]*`", " ", text)
    return Values(tuple(numbers(unquoted)), tuple(found_fields), strings)


def _names_field(word: str, keys: Iterable[str]) -> bool:
    try:
        resolve(word, list(keys))
    except Unsupported:
        return False
    return True


def _occurrences(value: str, lowered_text: str) -> int:
    v = re.escape(value.lower())
    return len(re.findall(rf"(?<![\w.]){v}(?![\w])", lowered_text))


def carry_over(example: str, example_values: Values, request: Values) -> str | None:
    """The example's instruction with the request's values in place, or None when the
    request's values cannot be put there exactly."""
    text = example
    for theirs, ours in (
        (request.numbers, example_values.numbers),
        (request.fields, example_values.fields),
    ):
        if len(theirs) != len(ours):
            return None
        if _same(theirs, ours):
            continue
        if len(ours) != 1 or _occurrences(ours[0], text.lower()) != 1:
            return None
        v, new = re.escape(ours[0]), theirs[0]
        text = re.sub(rf"(?i)(?<![\w.]){v}(?![\w])", lambda _m, n=new: n, text, count=1)
    return text


def same_values(proposal: Values, request: Values, literals: Iterable[str], text: str) -> bool:
    """True when the parsed proposal yields exactly the request's numbers and fields, and
    every literal string of the proposal and quoted string of the request is in both."""
    if not _same(proposal.numbers, request.numbers) or not _same(proposal.fields, request.fields):
        return False
    lowered = text.lower()
    if any(_occurrences(s, lowered) == 0 for s in literals):
        return False
    mentioned = {v.lower() for v in (*proposal.fields, *proposal.strings)}
    return all(s.lower() in mentioned for s in request.strings)


def _same(a: Iterable[str], b: Iterable[str]) -> bool:
    return Counter(_canon(x) for x in a) == Counter(_canon(x) for x in b)


def _canon(value: str) -> str:
    try:
        return _number_text(float(value))
    except ValueError:
        return value.lower()
