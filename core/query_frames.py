"""Query frames: record queries worded freely, read by slots and rewritten into the grammar.

When neither the grammar nor the conversion frame reader (core/frames.py) reads an instruction
and the payload is a JSON array of records, the query frame reader reads the instruction clause
by clause (clauses end at punctuation and at "then"). Each clause is one operation with slots:

- **sort**: a sort verb (sort, order, rank, arrange, put … in order), a field and an optional
  direction (ascending, descending, lowest first, from high to low …) → ``sort by F dir``;
- **top N**: "the N with the highest F", "top N by F", "bottom N by F" → ``top N by F dir``;
- **projection**: keep / just / only and the field names → ``keep only F, G``;
- **limit**: "limit to N", "the first N" → ``first N``;
- **filter**: "only those with F under N", "where F > N", "filter to F < N" →
  ``filter where F < N``;
- a clause that is a direction alone ("highest first") sets the direction of the sort or
  top N before it, and must agree with the one it implies.

Every field slot must be a key of every record, written as the key; every other word must be
of a closed class (the operation words, comparison and direction words, numbers, and benign
words such as "hey", "the", "them", "pls", "records"). A word of no class — a negation
outside a value filter, a vague quantity ("a few", "about"), an open question word ("why",
"how"), a quoted phrase — makes the request fall back, and so does a benign word that is also
a key of the records (it could be the field). The sentence written is parsed by the grammar,
so the plan is the grammar's.

Fields and values are found in the data, not in a word list:

- a field is a key written as it is (case aside), as its words ("flight time" for
  ``flight_time``), in a simple word form ("ages"), or through the field glossary of
  core/fields.py ("pay" → ``salary``), and only to exactly one key; "level" after a field is
  part of its name ("stock level");
- a value is a text value of the records written as it is ("Sales", "Desk lamp"): "the ones
  in Sales", "where dept is Sales", "dept isn't Engineering", "everyone except Sales" filter by
  it (``filter where dept is "Sales"``); without its field, exactly one field must hold it;
- more clauses: "at least"/"at most", "between 30 and 40 inclusive" (exclusive too; a range
  that says neither falls back), a count ("count the …", "how many …"), an answer asked for as
  a number ("bare integer", "number only"), an aggregate of a number field ("the highest
  stock", "the average pay") and one field of the record with the highest or lowest value
  ("who earns the most? just the name");
- more conditions: values joined by "or" ("pending or shipped orders": one of them), a test
  of a string's text by the literal after it ("name starts with L", "contains 'Hub'": its
  case kept, and a case-dependent answer falls back), what an array field holds ("users with
  the admin role"), a string inside an object every record has ("users in Toronto" for
  ``address.city``: filters only), and a flag with more of the same clause ("in-stock
  products that cost more than 40": the flag first).
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextvars import ContextVar
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from decimal import Decimal
from functools import partial as bind
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.fields import RECORD_NOUNS, resolve
from zerolayer.core.fields import _forms as word_forms
from zerolayer.core.lexicon_zh import UNIT_WORDS
from zerolayer.core.query_zh import english_clauses, null_field, unheld_field

_SORT = frozenset(
    {"sort", "sorted", "order", "ordered", "rank", "ranked", "arrange", "put"}
    | {"sorting", "ordering", "ranking", "arranged", "reorder", "reordered", "resort"}
)
_KEEP = frozenset({"keep", "just", "only", "select", "retain"})
_FIELDWORDS = frozenset(
    {"field", "fields", "column", "columns", "key", "keys", "value", "values", "property"}
    | {"properties", "attribute", "attributes"}
)
_BENIGN = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "these",
        "those",
        "them",
        "it",
        "they",
        "here",
        "here's",
        "given",
        "listed",
        "shown",
        "list",
        "below",
        "above",
        "following",
        "data",
        "json",
        "array",
        "records",
        "record",
        "entries",
        "entry",
        "items",
        "item",
        "rows",
        "row",
        "ones",
        "hey",
        "hi",
        "hello",
        "pls",
        "please",
        "plz",
        "thanks",
        "thank",
        "thx",
        "you",
        "u",
        "me",
        "give",
        "show",
        "find",
        "display",
        "return",
        "output",
        "print",
        "want",
        "need",
        "get",
        "can",
        "could",
        "would",
        "i",
        "i'd",
        "and",
        "for",
        "each",
        "every",
        "all",
        "from",
        "reply",
        "answer",
        "respond",
        "nothing",
        "else",
        "result",
        "results",
        "full",
        "complete",
        "whole",
        "entire",
        "everyone",
        "everybody",
        "everything",
        "anyone",
        "anybody",
        "anything",
        "help",
        "its",
        "their",
    ]
)
# Words a question or a value filter may hold around its slots ("what's the highest stock
# in this list", "the ones in Sales", "who earns the most").
_LINKS = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "of",
        "in",
        "at",
        "with",
        "to",
        "where",
        "whose",
        "who",
        "which",
        "what",
        "what's",
        "who's",
        "takes",
        "lasts",
        "among",
        "across",
        "still",
        "that's",
        "yet",
        "currently",
        "that",
        "those",
        "only",
        "just",
        "filter",
        "there",
        "have",
        "has",
    ]
)
_UP = frozenset({"highest", "biggest", "largest", "most", "greatest", "maximum", "max"})
_DOWN = frozenset({"lowest", "smallest", "least", "fewest", "minimum", "min"})
_AGGREGATES = {"total": "total", "sum": "total", "average": "average", "mean": "average"}
_NUMBER_WORDS = frozenset({"number", "integer", "bare", "plain", "digits", "digit"})
# Direction phrases, longest first: each becomes one mark, "asc" or "desc" for an order,
# "up" or "down" for a magnitude ("highest first"), which only a number field has.
_UPWARD = r"high(?:est)?|big(?:gest)?|large(?:st)?|great(?:est)?|most|max(?:imum)?"
_DOWNWARD = r"low(?:est)?|small(?:est)?|least|fewest|min(?:imum)?"
# "so the highest is on top", "biggest ones first": which end comes first
_SO_THE = r"(?:so\s+(?:that\s+)?)?(?:the\s+)?"
_ON_TOP = r"\s+(?:ones?\s+)?(?:(?:is|are|comes?|goes?)\s+)?(?:first|on\s+top|at\s+the\s+top)"
_DIRECTIONS: tuple[tuple[str, str], ...] = (
    (r"in\s+ascending\s+order", "asc"),
    (r"in\s+descending\s+order", "desc"),
    (rf"(?:from\s+)?(?:the\s+)?(?:{_UPWARD})\s+to\s+(?:the\s+)?(?:{_DOWNWARD})", "down"),
    (rf"(?:from\s+)?(?:the\s+)?(?:{_DOWNWARD})\s+to\s+(?:the\s+)?(?:{_UPWARD})", "up"),
    (rf"{_SO_THE}(?:highest|biggest|largest|greatest|most){_ON_TOP}", "down"),
    (rf"{_SO_THE}(?:lowest|smallest|least|fewest){_ON_TOP}", "up"),
    (r"ascending|asc|increasing", "asc"),
    (r"descending|desc|decreasing|(?:in\s+)?reverse(?:d)?(?:\s+order)?", "desc"),
    # points in time: the grammar sorts by them only a field of dates or years
    (r"(?:newest|latest|most\s+recent)\s+first|from\s+(?:newest|latest)\s+to\s+oldest", "new"),
    (r"earliest\s+first|from\s+(?:oldest|earliest)\s+to\s+(?:newest|latest)", "old"),
)
_ORDER = {"up": "asc", "down": "desc"}  # a magnitude's order
# An order of text ("alphabetically", "A-Z", "in reverse alphabetical order", "Z-A"): read only
# of the distinct values of a field (a sort by a text field is the grammar's)
_ALPHA_DESC = re.compile(
    r"(?<![a-z0-9_])(?:(?:in\s+)?reverse(?:d)?\s+alphabetical(?:ly)?(?:\s+order)?"
    r"|z\s*(?:-|–|→|->|to)\s*a)(?![a-z0-9_])"
)
_ALPHA = re.compile(
    r"(?<![a-z0-9_])(?:(?:in\s+)?alphabetical(?:ly)?(?:\s+order)?|alphabeti[sz]ed"
    r"|a\s*(?:-|–|→|->|to)\s*z)(?![a-z0-9_])"
)
# "the distinct statuses", "what statuses appear in these orders", "unique values": the
# different values of one field
_DISTINCT = frozenset({"distinct", "unique", "different"})
_APPEAR = frozenset(
    {"appear", "appears", "occur", "occurs", "exist", "exists", "present", "used", "found"}
)
# Extremes in time ("the earliest order", "the most recent hire"): the lowest or the highest
# of a field of dates or years, said or the one such field (%time marks them).
_TIME_EXTREME = re.compile(
    r"(?<![a-z0-9_@#])(earliest|latest|newest|most\s+recent(?:ly)?)(?![a-z0-9_])"
)
_TIME_ENDS_OF = {"earliest": "lowest", "latest": "highest", "newest": "highest"}
_TIME_ENDS_OF |= {"most": "highest", "first": "lowest", "last": "highest"}
# "who was hired first", "the last one to join": "first" or "last" beside a participle that
# names a field of dates or years; a number or a unit of time after it is no extreme ("hired
# first 3", "joined last year")
_TIME_FIRST = re.compile(
    r"(?<![a-z0-9_@#])(?:(?P<verb>[a-z]+ed)\s+(?P<end>first|last)"
    r"|(?P<end2>first|last)\s+(?:to\s+be\s+)?(?P<verb2>[a-z]+ed))"
    r"(?![a-z0-9_])(?!\s+(?:\d|year|month|week|day|quarter|time|one|two|three))"
)
# "from highest salary to lowest": the field between the two ends of a magnitude.
_FIELD_BETWEEN = re.compile(
    rf"(?<![a-z0-9_@#])(?:from\s+)?(?:the\s+)?({_UPWARD}|{_DOWNWARD})\s+([a-z_%][\w%]*)"
    rf"\s+to\s+(?:the\s+)?({_UPWARD}|{_DOWNWARD})(?![a-z0-9_])"
)
_MORE = r"(?:greater|more|higher|larger|bigger)"
_LESS = r"(?:less|fewer|lower|smaller)"
_COMPARISONS: tuple[tuple[str, str], ...] = (
    (rf"(?:is\s+)?{_MORE}\s+than\s+or\s+equal\s+to", ">="),
    (rf"(?:is\s+)?{_LESS}\s+than\s+or\s+equal\s+to", "<="),
    (rf"at\s+least|(?:no|not)\s+{_LESS}\s+than", ">="),
    (rf"at\s+most|(?:no|not)\s+{_MORE}\s+than", "<="),
    (r"not\s+(?:below|under|(?:less|lower|smaller)\s+than)", ">="),
    (r"not\s+(?:above|over|(?:higher|greater|larger|bigger)\s+than)", "<="),
    (r"(?:is\s+not|isn't|not\s+equal\s+to|does\s+not\s+equal)(?=\s+\d)", "!="),
    (r"(?:is\s+)?(?:equal\s+to|equals|exactly)|is(?=\s+\d)", "=="),
    (rf"(?:is\s+)?{_MORE}\s+than|above|over|exceeding|exceeds?", ">"),
    (r"(?:is\s+)?(?:less|fewer|lower|smaller)\s+than|below|under", "<"),
    (r"on\s+or\s+after|since(?=\s+(?:\d|%[dh]))|from(?=\s+%[dh])", ">="),
    (r"on\s+or\s+before|until(?=\s+(?:\d|%[dh]))", "<="),
    (r"after(?=\s+(?:\d|%[dh]))|later\s+than", ">"),  # a point in time: "after 2018"
    (r"before(?=\s+(?:\d|%[dh]))|earlier\s+than", "<"),
)
# "30 or more", "50 or less", "40+", "30 or older": a bound that is included; the comparative
# names its concept's field ("older": age).
_OR_BEYOND = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:or\s+(?:(more|higher|greater|above|over|bigger|larger|up)"
    r"|(less|lower|fewer|below|under|smaller)|([a-z]+(?:\s+expensive)?))(?![a-z0-9_])|\+)"
)
# "how old is Bob", "how long is LH4": a question of the concept's field; "how much is the
# webcam": of the field of cost, unless the clause names another ("how much does Ann earn").
_HOW_CONCEPTS = {"old": "age %ask", "long": "duration %ask", "heavy": "weight %ask"}
_HOW_CONCEPTS |= {"much": "%much"}
_HOW = re.compile(r"(?<![a-z0-9_])how\s+(old|long|heavy|much)(?![a-z0-9_])")
# "the cheapest item's name": a possessive of a word, not a contraction ("what's", "it's").
_POSSESSIVE = re.compile(
    r"(?<![a-z0-9_'])(?!(?:what|who|here|that|it|there|let)'s)([a-z_]+)'s(?![a-z])"
)
# "15 million", "100k", "2.5 thousand": a number times its magnitude word.
_MAGNITUDE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(k|thousand|million|mn|billion|bn)(?![a-z0-9_])"
)
_MAGNITUDES = {"k": 1000, "thousand": 1000, "million": 10**6, "mn": 10**6}
# "more than 20 million people": people after a number are a count of them, the field of
# population when the records have one
_PEOPLE_COUNTED = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s+(?:people|inhabitants|residents)(?![a-z0-9_])"
)
_MAGNITUDES |= {"billion": 10**9, "bn": 10**9}
# "is there any …", "does anyone …", "are any of them …": a question whether any record is so,
# answered true or false; "yes or no" says the answer's shape.
_ANY = re.compile(
    r"(?:^|(?<=[,.;:!?\n]))\s*(?:(?:hey|so|ok|and|but|also)\s+)?(?:(?:is|are)\s+there(?:\s+(?:any(?:one|body|thing)?|some(?:one|body|thing)?"
    r"|a|an|at\s+least\s+(?:one|1)))?"
    r"|(?:is|are|does|do|did|has|have)\s+(?:any(?:one|body|thing)?|some(?:one|body))"
    r"(?:\s+of\s+(?:them|these|those|the))?"
    r"|(?:is|are)\s+at\s+least\s+(?:one|1)"
    r"|do\s+we\s+have(?:\s+any(?:one|body|thing)?)?"
    r"|(?:does|do)\s+(?:the|this|these)\s+(?:list|data|array|records?)\s+(?:contain|have|include)"
    r"(?:\s+any(?:one|body|thing)?)?)(?![a-z0-9_])"
)
# "are all of these books rated above 3.5?", "does every employee earn over 50k?": whether
# every record is so, answered true or false
_ALL = re.compile(
    r"(?:^|(?<=[,.;:!?\n]))\s*(?:(?:hey|so|ok|and|but|also)\s+)?(?:is|are|do|does|did|were|was"
    r"|have|has)\s+(?:all|every|each)(?:\s+(?:one|single))?(?:\s+of)?(?:\s+(?:them|these|those"
    r"|the))?(?![a-z0-9_])"
)
# a question that opens with "any …" ("anyone over 30?"): whether any record is so, when a
# yes/no answer is asked for
_BARE_ANY = re.compile(
    r"(?:^|(?<=[,.;:!?\n]))\s*any(?:one|body|thing)?(?![a-z0-9_])(?=[^,.;:!?\n]*\?)"
)
_YES_NO = re.compile(r"(?<![a-z0-9_])(?:yes\s*(?:or|/)\s*no|true\s*(?:or|/)\s*false)(?![a-z0-9_])")
# A sum of money ("under $60", "over 50 dollars"): a number of the one field of cost.
_MONEY = re.compile(
    r"\$\s*(\d+(?:\.\d+)?)(?!\w|\.\d)"
    r"|(?<![\w.])(\d+(?:\.\d+)?)\s*(?:dollars|bucks|usd|euros?|eur)(?![a-z])"
)
# Comparisons written as symbols, with or without spaces around them ("price<65", "qty != 0").
_SYMBOLS = re.compile(r"(?<![<>=!#])(>=|≥|<=|≤|!=|≠|==?|>|<)(?![<>=])")
_SYMBOL_MARKS = {"≥": ">=", "≤": "<=", "≠": "!=", "=": "=="}
# Removal verbs before a filter ("remove the records where dept is Sales", "filter out …").
_REMOVE = frozenset({"remove", "drop", "exclude", "delete", "omit", "%out", "discard", "eliminate"})
_INVERSE = {"<": ">=", ">": "<=", ">=": "<", "<=": ">", "!=": "==", "==": "!="}
# a bound said without saying whether it is included (以下 below, 以上 above): read as strict
# when no record holds the bound itself, when both readings agree
_LOOSE = {"xlt": "<", "xgt": ">"}
_INVERSE |= {"xlt": "xgt", "xgt": "xlt"}
_EQUALITY = {"ne": True, "!=": True, "==": False}  # before a text value: negated or not
_CMP_WORDS = {">": ">", "<": "<", ">=": "at least", "<=": "at most", "!=": "!=", "==": "="}
# Words a top N ("which 3 have the highest stock") and a filter ("the ones whose age is over
# 30") may hold besides their slots.
_TOP_WORDS = frozenset({"with", "by", "first", "which", "have", "has", "the", "that"})
_FILTER_WORDS = frozenset(
    {"only", "just", "with", "where", "filter", "to", "for", "those", "that", "whose", "is"}
    | {"are", "have", "has", "keep", "which", "who", "of", "was", "were"}
    # "filter down to …", "narrow it down to …", "leave only …", "price should be under 50"
    | {"down", "narrow", "leave", "should", "must", "be", "limit"}
)
_NUM = r"\d+(?:\.\d+)?"
# "between 30 and 40 inclusive": two comparisons; a range that says neither inclusive nor
# exclusive is left as it is written, and its words fall back.
_RANGE = re.compile(
    rf"(?:between\s+({_NUM})\s+and|from\s+({_NUM})\s+to)\s+({_NUM})(?![\d.])\s*(?:\(\s*)?"
    r"(?:(?:both\s+)?(?:ends\s+)?(inclusive|included|exclusive|excluded))?(?:\s*\))?"
)
# "550-650", "30–40": two numbers joined by a dash, a range when the first is the lower.
_DASHED = re.compile(rf"(?<![\w.%-])({_NUM})\s*[-–~]\s*({_NUM})(?![\w.-])")
# Superlatives that name a field concept and an extreme ("the cheapest" is the lowest cost):
# the concept reaches a key only through the glossary of core/fields.py, and only when it
# names exactly one key of the records; "the best", "the nicest" name no field and fall back.
_SUPERLATIVES: dict[str, tuple[str, str]] = {
    "cheapest": ("lowest", "cost"),
    "least expensive": ("lowest", "cost"),
    "most populous": ("highest", "population"),
    "least populous": ("lowest", "population"),
    "most populated": ("highest", "population"),
    "least populated": ("lowest", "population"),
    "most expensive": ("highest", "cost"),
    "priciest": ("highest", "cost"),
    "oldest": ("highest", "age"),
    "youngest": ("lowest", "age"),
    "longest": ("highest", "duration"),
    "shortest": ("lowest", "duration"),
    "heaviest": ("highest", "weight"),
    "lightest": ("lowest", "weight"),
    "hottest": ("highest", "temperature"),
    "warmest": ("highest", "temperature"),
    "coldest": ("lowest", "temperature"),
    "coolest": ("lowest", "temperature"),
}
_SUPERLATIVE = re.compile(
    r"(?<![a-z0-9_])(" + "|".join(w.replace(" ", r"\s+") for w in _SUPERLATIVES) + r")(?![a-z0-9_])"
)
_CONCEPTS = frozenset(concept for _, concept in _SUPERLATIVES.values())
# "the most humid", "the least popular": "most"/"least" and an adjective (see _most_adjective)
_MOST_ADJECTIVE = re.compile(r"(?<![a-z0-9_])(most|least)\s+([a-z]{3,})(?![a-z0-9_])")
_RECORD_MARK = "%s"  # beside the field a superlative names: the extreme of a record
# "from youngest to oldest", "most expensive to cheapest": the two ends of one concept.
_SUPERLATIVE_RANGE = re.compile(
    r"(?<![a-z0-9_])(?:from\s+)?(?:the\s+)?"
    + _SUPERLATIVE.pattern.removeprefix(r"(?<![a-z0-9_])")
    + r"\s+to\s+(?:the\s+)?"
    + _SUPERLATIVE.pattern.removeprefix(r"(?<![a-z0-9_])")
)
# "youngest first", "cheapest first": the direction of a sort by the concept's field.
_SUPERLATIVE_FIRST = re.compile(_SUPERLATIVE.pattern + r"\s+first(?![a-z0-9_])")
# Comparatives of the same concepts: "older than 30" is age > 30, "cheaper than 600" cost < 600.
_COMPARATIVES: dict[str, tuple[str, str]] = {
    "cheaper": ("<", "cost"),
    "less expensive": ("<", "cost"),
    "more expensive": (">", "cost"),
    "pricier": (">", "cost"),
    "older": (">", "age"),
    "younger": ("<", "age"),
    "longer": (">", "duration"),
    "shorter": ("<", "duration"),
    "heavier": (">", "weight"),
    "lighter": ("<", "weight"),
    "hotter": (">", "temperature"),
    "warmer": (">", "temperature"),
    "colder": ("<", "temperature"),
    "cooler": ("<", "temperature"),
}
_COMPARATIVE = re.compile(
    r"(?<![a-z0-9_])("
    + "|".join(w.replace(" ", r"\s+") for w in _COMPARATIVES)
    + r")\s+than(?![a-z0-9_])"
)
# "sort it so the biggest price comes first": the magnitude, said around the field.
_FIELD_FIRST = re.compile(
    r"(highest|biggest|largest|greatest|most|lowest|smallest|least|fewest)"
    r"\s+(?!(?:is|are|comes?|goes?|first|on)(?![a-z0-9_]))([a-z_%][\w%]*)"
    r"(\s+level)?\s+(?:(?:comes?|goes?|is|are)\s+)?(?:first|on\s+top)(?![a-z0-9_])"
)
# "drop everything except name, age", "strip each object down to name, age": a projection.
_KEEP_PHRASES = re.compile(
    r"(?:drop|remove|delete|strip)\s+(?:everything|(?:all|every)\s+(?:the\s+)?(?:other\s+)?"
    r"(?:fields?|keys?))"
    r"\s+(?:except|but)(?:\s+for)?"
    r"|strip\s+(?:each|every|the)?\s*(?:object|record|item|entry|row)s?\s+down\s+to"
    r"|project\s+(?:(?:it|them)\s+)?(?:on)?to(?=\s)|(?:only\s+)?care\s+about|pull\s+out"
    r"|(?:trim|reduce|cut|pare)\s+(?:(?:each|every|the|it|them|all)\s+)?"
    r"(?:(?:object|record|item|entry|row)s?\s+)?(?:down\s+)?to(?=\s)"
)
# "books with 'History' in the title": a quoted text in a field, the test said after it
_QUOTED_IN = re.compile(
    r"(?<![\w'])(?:with|having|that\s+(?:have|has))\s+"
    r"""(?P<quoted>"[^"\n]{1,40}"|'[^'\n]{1,40}'|“[^”\n]{1,40}”|‘[^’\n]{1,40}’)"""
    r"\s+in\s+(?:the|its|their)\s+(?P<field>[A-Za-z_][\w]*)(?![\w'])"
)
# "the average comments per issue": per record, the average over the records
_PER_RECORD = re.compile(
    r"(?<![a-z])((?:average|mean|avg)\s+[a-z_][\w]*)\s+per\s+([a-z]+)(?![a-z0-9_])"
)


# "how many seats in total", "how many servings do all the recipes make altogether"
_HOW_MANY_TOTAL = re.compile(
    r"(?<![a-z])how\s+many\s+([a-z_]+)\s+(?:(?:do|does|did|will|would)\s+(.+?)\s+"
    r"(?:have|make|hold|offer|provide|serve|give|contain|seat)\s+)?"
    r"(?:in\s+total|altogether|combined|all\s+together|total)(?![a-z])"
)


def _how_many_total(m: re.Match[str], lowered: Mapping[str, str], keys: Mapping[str, bool]) -> str:
    """ "total <key> of <records>" when ``m`` counts a key of numbers ("how many servings …
    in total"), else ``m`` as written."""
    field = _field(m[1], lowered)
    if field is None or not keys.get(field) or m[1] in RECORD_NOUNS:
        return m[0]
    return f" total {m[1]} of {m[2]} " if m[2] else f" total {m[1]} "


def _per_record(m: re.Match[str], lowered: Mapping[str, str]) -> str:
    """ "average salary per employee": the average, when the noun is the records'."""
    return m[1] if m[2] in RECORD_NOUNS and m[2] not in lowered else m[0]


# "average order value", "the total basket value": a record's noun, then "value"
_RECORD_VALUE = re.compile(r"(?<![a-z])([a-z]+)\s+values?(?![a-z0-9_])")
# "the lowest total", "the highest total": an extreme of the field named "total" (the one key
# whose words hold it), not a sum
_EXTREME_TOTAL = re.compile(
    r"(?<![a-z])(highest|lowest|biggest|largest|smallest|greatest)\s+total(?!\s+(?:of|number))"
    r"(?![a-z0-9_])"
)
# "ignore nulls", "skipping the null one", "excluding missing values": an aggregate of the
# values that are there
_NULLS = re.compile(
    r"(?<![a-z])(?:ignor(?:e|ing)|skip(?:ping)?|exclud(?:e|ing)|leav(?:e|ing)\s+out|without"
    r"|not\s+counting)\s+(?:the\s+|any\s+|all\s+)?(?:null\s+(?:ones?|values?|readings?"
    r"|entries|records|rows)|nulls?|missing\s+(?:ones?|values?)|empty\s+(?:ones?|values?))(?![a-z])"
)
# "rounded to 2 decimals", "round to 1 decimal place", "2 dp": the number an aggregate
# gives, rounded (half up, as the grammar rounds)
_ROUND = re.compile(
    r"(?<![\w.])(?:(?:round(?:ed)?(?:\s+off)?|rounding)\s+(?:it\s+|that\s+)?to\s+|to\s+)?"
    r"(\d)\s*(?:decimal(?:\s+places?|\s+digits?|s)?|dp)(?![a-z])"
)
# "name and dept for everyone", "… for each of them": fields of every record, said at the
# end of a clause (not "the average for all employees", where a noun follows)
_FOR_ALL = re.compile(
    r"(?<![a-z])for\s+(?:everyone|everybody|all(?:\s+of\s+them)?|each(?:\s+one|\s+of\s+them)?"
    r"|every\s+(?:one|record|row|entry))(?=\s*(?:[,.;:!?\n]|$))"
)
# A negation before a value ("dept isn't Sales", "everyone except Sales").
_NOT_VALUE = re.compile(
    r"(?:is\s+not|isn't|aren't|wasn't|weren't|not\s+in|not|(?:except(?:\s+for)?|other\s+than|excluding|apart\s+from"
    r"|but(?:\s+for)?|without)(?:\s+(?:those|the\s+ones|ones|people|records|anyone|any))?"
    r"(?:\s+(?:in|from|at|of|based\s+in))?)"  # "except those in Asia", "but the ones from HR"
    r"\s+(?:the\s+)?(?=%v\d)"
)
_TOKEN = re.compile(
    r"[A-Za-z_%][A-Za-z0-9_'%]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*|[\u3400-\u9fff]+|\d+(?:\.\d+)?|[<>!=]=?|\n|\S"
)  # a run of Chinese is one word: a key of the records (人口)
# Contractions written without their apostrophe ("whats the cheapest").
_BARE_CONTRACTION = re.compile(r"(?<![a-z0-9_'])(what|here)s(?![a-z0-9_'])")
_NUMBER = re.compile(r"\d+(?:\.\d+)?$")
_DATE_TOKEN = re.compile(r"%d\d{8}$")
# A point in time written as ISO 8601 with a time of day ("2024-06-03T08:03:00Z"), marked
# %dYYYYMMDDtHHMM[SS][z|pHHMM|mHHMM] and compared as text with a field whose every value has
# its shape (one length, one zone: text order is time order)
_DATE_TIMES = re.compile(
    r"(?<![\w-])(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?(?![\w:.+-])"
)
# A time of day after a word of comparison ("before 9am", "after 14:30", "until 6 pm"),
# marked %hHHMM; compared with a field of date-times that all fall on one day
_CLOCK = re.compile(
    r"(?<![\w-])(before|after|until|since|by|than|from)\s+(?:(\d{1,2})(?::([0-5]\d))?\s*"
    r"(am|pm|a\.m\.|p\.m\.)|([01]?\d|2[0-3]):([0-5]\d))(?![\w:])",
    re.IGNORECASE,
)
_CLOCK_TOKEN = re.compile(r"%h(\d{4})$")
# A record named by its number: the records' noun or the identifier key, then the number
# ("issue 421", "order number 1005", "id 7"), marked %kN%key
_RECORD_NUMBER = re.compile(
    r"(?<![\w%#.])([a-z_]+)\s+(?:(?:number|no|nr)\s+)?(\d+)(?![\w.%])(?!\s*%)"
)
_RECORD_NUMBER_TOKEN = re.compile(r"%k(\d+)%([a-z0-9_]+)$")
_ID_ENDS = frozenset({"id", "number", "no", "nr", "num"})
# A value, and a key in brackets after it ("opened by dtran (author.login)"), with the
# participle and preposition before the value
_HINTED = re.compile(
    r"(?:(?<![\w%])[A-Za-z]+(?:ed|ing)\s+(?:by|to|in|on|at|from|with)\s+)?"
    r"(%v\d+)\s*\(\s*([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\s*\)"
)
_DATE_TIME_TOKEN = re.compile(r"%d(\d{8})t(\d{4}(?:\d{2})?)(z|[pm]\d{4})?$")
# Dates written as ISO (2024-02-15), with a month's name (March 1, 2024; 1 March 2024) or in
# Chinese (2024年3月1日): compared with a field of ISO dates, as text of one shape.
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        ("january jan", "february feb", "march mar", "april apr", "may", "june jun",
         "july jul", "august aug", "september sep sept", "october oct", "november nov",
         "december dec")
    )
    for m in names.split()
}  # fmt: skip
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DATES = re.compile(
    r"(?<![\w-])(?:(\d{4})-(\d{1,2})-(\d{1,2})"
    rf"|{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})"
    rf"|(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH},?\s+(\d{{4}}))(?![\w-])",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}$")
# A period of time said whole: a year or a month of a year after "in" or "during", a decade
# ("the 1990s"), a year and on ("from 2021 onwards", "2019 or later")
_PERIOD = re.compile(
    r"(?<![\w%#])(?:(?:in|during)\s+(?:the\s+year\s+)?(?P<year>[12]\d{3})"
    rf"|(?:in|during)\s+{_MONTH.replace('(', '(?P<month>', 1)}\s+(?P<myear>[12]\d{{3}})"
    rf"|(?P<bound>before|after|since)\s+{_MONTH.replace('(', '(?P<bmonth>', 1)}"
    r"\s+(?P<byear>[12]\d{3})"
    r"|(?:in\s+|during\s+)?the\s+(?P<decade>[12]\d{2})0s"
    r"|(?:(?:from|since)\s+)?(?P<onward>[12]\d{3})\s+(?:on(?:wards?)?|and\s+later|or\s+later"
    r"|and\s+after|or\s+after))(?![\w-])",
    re.IGNORECASE,
)
_VALUE_TOKEN = re.compile(r"%v\d+$")
_FLAG_TOKEN = re.compile(r"%[tf]\d+$")
# "from the list below": where the records are, not a field named "from".
_PLACE = re.compile(
    r"(?<![a-z0-9_])from\s+(?:the|this|these)\s+(?:list|data|array|records|json|items)"
    r"(?:\s+(?:below|above))?(?![a-z0-9_])"
)
# A last clause that asks for the result in another format than the payload's: "then output
# YAML" (of JSON records), "and give me JSON" (of YAML records).
_CONVERT = frozenset({"convert", "turn", "to", "into", "in", "as", "format", "back"})
_FORMATS = {"json": "json", "yaml": "yaml", "yml": "yaml"}
# A request verb starts a clause of its own (a clause may open with it: "just return …").
_REQUESTS = frozenset({"give", "return", "output", "convert", "turn", "show"})
# Verbs that place a record in a value ("how many people work in Sales", "the ones based in
# Lima"): said before the value, they say the record holds it.
_MEMBERSHIP = frozenset(
    {"work", "works", "working", "belong", "belongs", "based", "live", "lives", "located"}
    | {"living", "belonging", "residing", "reside", "resides"}
)
# Request verbs that ask for "the one" record ("give me the one with the fewest people").
_ASKS = frozenset({"give", "return", "output", "show", "find", "get", "display", "print"})
# A request verb or a sort participle after a slot starts a clause of its own ("the ones in
# Sales sorted by salary").
_STARTS = _REQUESTS | frozenset({"sorted", "ordered", "ranked", "arranged"})
# "and" before one of these starts a new clause ("sort by age and just the name").
_AND_SPLITS = _KEEP | {"give", "return", "output", "convert", "turn", "show"}
# Text values read as values: short, a word or a few, never a word of the closed classes.
_VALUE_TEXT = re.compile(
    r"[A-Za-z\u3400-\u9fff][\w&' .-]{1,39}$"
    r"|\d+(?:\.\d+){2,3}$"  # a version ("2.1.0"), never a number
    r"|\d+[A-Za-z][A-Za-z\d-]{0,19}$"  # a code that opens with digits ("10C", "3B-east")
)
_MAX_VALUES = 400
# Words of a key written short, and the word said in full ("flightNo": "flight number").
_SHORT = {
    "no": "number", "nr": "number", "num": "number", "qty": "quantity", "amt": "amount",
    "pct": "percent(?:age)?", "dept": "department", "addr": "address", "desc": "description",
}  # fmt: skip
# "the number of comments", "by count of pages": the field itself when the noun after "of"
# is a key that is a number in every record (not the records, which "count" counts).
_NUMBER_OF = re.compile(
    r"(?<![a-z])(?:the\s+)?(?:number|count)\s+of\s+([a-z_][a-z0-9_]*)(?![a-z0-9_])"
)
# "name starts with L", "ends with 'son'", "contains Hub": a test of a field's text by the
# literal said after it (quoted, or one word), which keeps its case; "contains" and
# "includes" also test whether an array field holds the literal.
_TEXT_TEST = re.compile(
    r"(?<![\w'])(?:(starts?|begins?|starting|beginning)|(ends?|ending)|(contains?|containing"
    r"|includes?|including))\s+(?:with\s+)?(?(3)|(?<=with\s))"
    r"(?:(?:the\s+letter|an?)\s+(?=[A-Za-z0-9](?![\w'])))?"  # "begins with a C"
    r"""(?:"([^"\n]{1,40})"|'([^'\n]{1,40})'|“([^”\n]{1,40})”|‘([^’\n]{1,40})’"""
    r"|([A-Za-z0-9][A-Za-z0-9_.-]{0,39}?))(?=[\s,.;:!?)]|$)"
)
_TEXT_TESTS = ("starts", "ends", "contains")


def _own_word(field_word: str, word: str) -> bool:
    """Whether ``word`` after a field word is part of the field's name when no key is so named:
    "customer name", and "code" only of a zip or postal code (a "country code" is no country)."""
    return word == "name" or (word == "code" and field_word in ("zip", "postal", "post"))


_LITERAL_TOKEN = re.compile(r"%l\d+$")
# The mark a number field holds, said after the field ("the math score", "english scores"):
# the field's own word, where it names no key itself.
_MARKS = frozenset({"score", "scores", "mark", "marks", "grade", "grades"})
# "pending or shipped", "Asia, Europe or Africa": one field equal to one of the values
_ONE_OF = re.compile(
    r"%v\d+(?:\s*,\s*(?:the\s+)?%v\d+)*\s*,?\s+or\s+(?:the\s+)?%v\d+(?![\w])", re.IGNORECASE
)
_CLOSED = (
    _SORT | _KEEP | _FIELDWORDS | _BENIGN | _LINKS | _UP | _DOWN | _NUMBER_WORDS
    | frozenset(_AGGREGATES) | _CONVERT | frozenset(_FORMATS)
    | frozenset({"top", "bottom", "first", "last", "limit", "count", "how", "many", "by",
                 "not", "except", "then", "between", "and", "or", "level"})
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Op:
    kind: str  # sort | top | keep | first | filter | is | count | number | agg | convert
    fields: tuple[str, ...] = ()
    direction: str = ""  # asc | desc | "" (not said)
    number: str = ""
    comparison: str = ""
    magnitude: bool = False  # the direction was said as a magnitude ("highest first")
    value: str = ""  # a text value (is, is not), as the grammar quotes it
    negated: bool = False
    record: bool = False  # an extreme said by a superlative asks for a record, not a value
    whole: bool = False  # the record itself is the answer ("which item has the highest …")
    inverted: bool = False  # a filter said as what to remove ("drop those under 30")

    def sentence(self, name: Callable[[str], str]) -> str:
        """The grammar's words for the operation, each field written by ``name``."""
        field = name(self.fields[0]) if self.fields else ""
        if self.kind == "sort":
            return " ".join(w for w in ("sort by", field, _word(self.direction)) if w)
        if self.kind == "top":
            return f"top {self.number} by {field} {_word(self.direction)}"
        if self.kind == "keep":
            return "keep only " + ", ".join(map(name, self.fields))
        if self.kind == "convert":
            return f"convert to {self.fields[0]}"
        if self.kind == "first":
            return f"first {self.number}"
        if self.kind == "last":
            return f"last {self.number}"
        if self.kind == "count":
            return "count"
        if self.kind == "group":
            return f"count by {field}"
        if self.kind == "notnull":
            return f"filter where {field} is not null"
        if self.kind == "null":
            return f"filter where {field} is null"
        if self.kind == "none":
            return "whether none remain"
        if self.kind == "exists":
            return "whether any remain"
        if self.kind == "round":
            return f"round to {self.number} decimals"
        if self.kind == "agg" and self.whole:
            return f"which record has the {self.comparison} {field}"
        if self.kind == "agg":
            return f"the {self.comparison} {field}"
        if self.kind == "is":
            return f"filter where {field} is {'not ' * self.negated}{self.value}"
        if self.kind == "one_of":
            return f"filter where {field} is one of {self.value}"
        if self.kind == "text":
            test = {"starts": "starts with", "ends": "ends with", "contains": "contains"}
            return f"filter where {field} {test[self.comparison]} {self.value}"
        if self.kind == "distinct":
            order = {"asc": ", then alphabetically", "desc": ", then in reverse alphabetical order"}
            return f"list the distinct {field}{order.get(self.direction, '')}"
        if self.kind == "lookup":  # the one record whose second field holds the value
            return f"give the {field} of the record where {name(self.fields[1])} is {self.value}"
        return f"filter where {field} {_CMP_WORDS[self.comparison]} {self.number}"


def _word(direction: str) -> str:
    words = {"asc": "ascending", "desc": "descending", "new": "newest first"}
    return words.get(direction, "oldest first" if direction == "old" else "")


@dataclass(frozen=True, slots=True)
class Records:
    """What a query frame needs to know of a JSON array of records: the keys every record
    has, each with whether its value is a number in every record, and the text values of
    each key."""

    numeric: Mapping[str, bool]
    texts: Mapping[str, frozenset[str]]
    flags: frozenset[str] = frozenset()  # the keys whose value is true or false in every record
    # the keys whose value is an array of strings in every record, with the strings
    members: Mapping[str, frozenset[str]] = dataclass_field(default_factory=dict)
    # the numbers of each key that is a number in every record, and of each key that is a
    # number or null in every record (its numbers; ``numeric`` says False for it)
    numbers: Mapping[str, frozenset[int | float]] = dataclass_field(default_factory=dict)
    # the keys whose value is a number or null in every record, with at least one of each
    nullable: frozenset[str] = frozenset()
    # the keys whose value is null in some record and not in every one
    nulls: frozenset[str] = frozenset()
    # the keys some records lack or hold null, whose other values are strings, with them
    partial: Mapping[str, frozenset[str]] = dataclass_field(default_factory=dict)
    # of those, the keys some records lack, plain and named once: read only as the field of
    # a value said ("issues in milestone v2.1")
    sparse: Mapping[str, frozenset[str]] = dataclass_field(default_factory=dict)


def record_shape(payload: str | None) -> Records | None:
    """The keys and text values of a JSON array of objects; None for any other payload."""
    if payload is None or not payload.lstrip().startswith("["):
        return None
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    return records_of(data)


def records_of(data: Any) -> Records | None:
    """The keys and text values of a list of objects (as JSON or YAML reads into data); None
    for any other value."""
    if not isinstance(data, list) or not data or not all(isinstance(r, dict) for r in data):
        return None
    keys = [k for k in data[0] if all(k in record for record in data[1:])]
    numeric = {
        k: all(isinstance(r[k], int | float) and not isinstance(r[k], bool) for r in data)
        for k in keys
        if isinstance(k, str)
    }
    texts = {k: frozenset(r[k] for r in data if isinstance(r[k], str)) for k in numeric}
    flags = frozenset(k for k in numeric if all(isinstance(r[k], bool) for r in data))
    for k in list(numeric):  # address.city: a string in an object every record has
        if not all(isinstance(r[k], dict) for r in data) or "." in k:
            continue
        inner = [s for s in data[0][k] if isinstance(s, str) and "." not in s]
        for sub in (s for s in inner if all(isinstance(r[k].get(s), str) for r in data)):
            numeric[f"{k}.{sub}"] = False
            texts[f"{k}.{sub}"] = frozenset(r[k][sub] for r in data)
        # nutrition.calories: a number in an object every record has (read by a filter, an
        # aggregate or an extreme, whose ops follow a path; a sort or a top N reads keys)
        for sub in (s for s in inner if all(_number(r[k].get(s)) for r in data)):
            numeric[f"{k}.{sub}"] = True
            texts[f"{k}.{sub}"] = frozenset()
    members = {
        k: frozenset(item for r in data for item in r[k])
        for k in numeric
        if "." not in k
        and all(isinstance(r[k], list) and all(isinstance(i, str) for i in r[k]) for r in data)
    }
    numbers = {k: frozenset(_at(r, k) for r in data) for k, number in numeric.items() if number}
    for k in (k for k, number in numeric.items() if not number and "." not in k):
        held = [r[k] for r in data if r[k] is not None]  # a number or null in every record
        if held and len(held) < len(data) and all(_number(v) for v in held):
            numbers[k] = frozenset(held)
    nullable = frozenset(
        k
        for k in numeric
        if "." not in k
        and any(r[k] is None for r in data)
        and any(_number(r[k]) for r in data)
        and all(r[k] is None or _number(r[k]) for r in data)
    )
    members = {k: v for k, v in members.items() if v}
    nulls = frozenset(
        k
        for k in numeric
        if "." not in k and any(r[k] is None for r in data) and not all(r[k] is None for r in data)
    )
    partial = _partial(data)
    every = {k.lower() for k in numeric}
    sparse = {
        k: vs
        for k, vs in partial.items()
        if k not in numeric
        and "." not in k
        and k.lower() not in every
        and sum(p.lower() == k.lower() for p in partial) == 1
    }
    return Records(numeric, texts, flags, members, numbers, nullable, nulls, partial, sparse)


def _partial(data: list[dict[Any, Any]]) -> dict[str, frozenset[str]]:
    """The keys some records lack or hold null, whose other values are all strings (one at
    least), with those strings: a field some records leave out ("没有 milestone 的不算")."""
    found: dict[str, frozenset[str]] = {}
    for key in dict.fromkeys(k for r in data for k in r if isinstance(k, str)):
        held = [r[key] for r in data if r.get(key) is not None]
        if held and len(held) < len(data) and all(isinstance(v, str) for v in held):
            found[key] = frozenset(held)
    return found


def _at(record: Mapping[str, Any], key: str) -> Any:
    """``record``'s value of a key, or of a key inside an object it holds ("nutrition.calories",
    a key of the shape read by ``records_of``)."""
    if key in record:
        return record[key]
    outer, _, inner = key.partition(".")
    return record[outer][inner]


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def wrapped_records(data: Any) -> tuple[str, list[Any]] | None:
    """The records of an object that holds them under one key beside nothing but scalars
    (``{"exported_at": "…", "invoices": [{…}, …]}``): that key and its list; None otherwise."""
    if not isinstance(data, dict):
        return None
    held = [k for k, v in data.items() if isinstance(v, list | dict)]
    if len(held) != 1 or not isinstance(held[0], str) or records_of(data[held[0]]) is None:
        return None
    return held[0], data[held[0]]


def record_keys(payload: str | None) -> dict[str, bool] | None:
    """The keys every record of a JSON array of objects has, each with whether its value is a
    number in every record; None for any other payload."""
    shape = record_shape(payload)
    return None if shape is None else dict(shape.numeric)


def query_sentence(
    instruction: str,
    keys: Mapping[str, bool],
    texts: Mapping[str, frozenset[str]] | None = None,
    source: str = "json",
    reserved: frozenset[str] = frozenset(),
    flags: frozenset[str] = frozenset(),
    members: Mapping[str, frozenset[str]] | None = None,
    numbers: Mapping[str, frozenset[int | float]] | None = None,
    nullable: frozenset[str] = frozenset(),
    nulls: frozenset[str] = frozenset(),
    partial: Mapping[str, frozenset[str]] | None = None,
    sparse: Mapping[str, frozenset[str]] | None = None,
    nouns: Mapping[str, tuple[str, tuple[str, ...]]] | None = None,
) -> str:
    """The grammar's sentence for a query worded freely on records with ``keys`` (each with
    whether its values are numbers: a filter by a number and a top N need numbers), the
    text values ``texts`` of each key, read from a payload in the format ``source`` ("json"
    or "yaml": a conversion asked for is to the other); a key that is one of the ``reserved``
    words of the grammar is quoted in the sentence ("code" is a word the grammar skips); the
    ``members`` (keys whose values are arrays of strings, with the strings) are filtered by
    the strings they hold ("users with the admin role"); the
    ``flags`` (keys whose values are true or false) are said as adjectives of the records
    ("the remote ones" for ``isRemote``); the ``numbers`` of each number key decide a bound
    said without saying whether it is included (以下, 以上): only when no record holds it;
    the ``nullable`` keys (a number or null in every record) are read by a filter that keeps
    the records it names (a null is above nothing and below nothing), never by one inverted;
    the ``nulls`` (keys null in some records, not in all) are tested for null ("series is
    null", "the sensors with no battery_pct value"). The ``partial`` keys (some records lack
    them or hold null; strings otherwise) are read only where the instruction leaves those
    records out ("没有 milestone 的不算"): the query is then of the records that hold one; the
    ``sparse`` ones among them (some records lack them) also as the field of a value said
    ("issues in milestone v2.1"). The ``nouns`` the data gives its records
    (core/fields.data_record_nouns) are read as "records" ("the cheapest shipment").
    ``Unsupported`` when a word has no class or the clauses do not make one certain query."""
    if re.search(r"[@#%]", instruction):
        raise _refuse("the instruction holds the reader's own marks")
    instruction = said_as_records(instruction, nouns or {})
    instruction, unheld = unheld_field(instruction, {k.lower(): k for k in partial or {}})
    if unheld is not None:  # the records that hold a value of the field, and it is a key
        keys = {**keys, unheld: False}
        texts = {**(texts or {}), unheld: (partial or {})[unheld]}
    # "没有负责人的 issue": the records whose field (every record has it) holds null
    held = {k.lower(): k for k in (*(k for k in partial or {} if k in keys), *nullable)}
    instruction, null = null_field(instruction, held) if unheld is None else (instruction, None)
    lowered = {k.lower(): k for k in keys}
    if len(lowered) != len(keys):
        raise _refuse("the records have keys that differ only in case")
    nested = [k for k in keys if "." in k]
    for key in nested:  # "city" for address.city, when no other key is so named
        last = key.lower().rsplit(".", 1)[1]
        if last not in lowered and sum(k.lower().endswith("." + last) for k in nested) == 1:
            lowered[last] = key
    instruction = _ZH_TEXT_TEST.sub(_zh_text_test, instruction)  # 以L开头: starts with L
    instruction = _QUOTED_IN.sub(r" whose \g<field> contains \g<quoted> ", instruction)
    instruction, literals = _mark_literals(instruction, lowered)
    if re.search(r"[\"`“”‘’]|(?<![A-Za-z])'|'(?![A-Za-z])", instruction):
        raise _refuse("the instruction quotes words")
    members = members or {}
    if members and texts is not None and set(members) & {k for k, vs in texts.items() if vs}:
        raise _refuse("a key holds strings and arrays of strings")
    texts = {**(sparse or {}), **(texts or {}), **members}
    if any("\u3400" <= ch <= "\u9fff" for ch in instruction):
        values = {v for vs in (texts or {}).values() for v in vs}
        dates = {k: vs for k, vs in (texts or {}).items() if _all_dates(vs)}
        flagged = {lowered.get(k.lower(), k) for k in flags}
        instruction = english_clauses(instruction, lowered, values, dates, flagged)  # query_zh
        # "标签包含 bug": a text test after a field said in Chinese, now said as its key
        instruction, more = _mark_literals(instruction, lowered, len(literals))
        literals += more
    instruction = _DATE_TIMES.sub(_date_time_mark, instruction)  # 2024-06-03T08:03:00Z
    instruction = _CLOCK.sub(_clock_mark, instruction)  # "before 9am", "after 14:30"
    instruction = _mark_dates(instruction)  # "after March 1, 2024": %d20240301
    instruction = _ON_DAY.sub(r" == \1", instruction)  # "created on 2024-05-06": that day
    instruction = _PERIOD.sub(_period, instruction)  # "in March 2024", "from 2021 onwards"
    text, values = _mark_values(instruction, lowered, texts or {})
    # "issues opened by dtran (author.login)": the key in brackets after a value is its field
    text = _HINTED.sub(lambda m: _hinted(m, lowered, values, texts or {}), text)
    text = _MOTION.sub(lambda m: _motion(m, values, texts or {}), text)  # "headed to Prague"
    # "how many tickets does priya have": the records that hold the value
    text = _HOLDS.sub(r" \1 ", text)
    text = _RUNS.sub(" with ", text)
    text = _ONE_OF.sub(  # "in the basement or the attic": "the" before a value said again
        lambda m: re.sub(r",?\s*(?:,|\bor\b)\s*(?:the\s+)?", " %or ", m[0], flags=re.I), text
    )
    text = _BARE_CONTRACTION.sub(r"\1's", _PLACE.sub(" ", text.lower()))
    text = _ALPHA_DESC.sub(" %alphadesc ", text)  # "Z-A", "in reverse alphabetical order"
    text = _ALPHA.sub(" %alpha ", text)  # "alphabetically", "A-Z": an order of text
    text = _YES_NO.sub(" %yn ", text)  # before "/" joins fields: "yes/no", "true/false"
    text, shapes = _answer_shapes(text, source)  # "as a JSON array": the answer's own shape
    # "how many servings do the recipes make in total": the total of a key that counts
    text = _HOW_MANY_TOTAL.sub(lambda m: _how_many_total(m, lowered, keys), text)
    per_record = bind(_per_record, lowered=lowered)
    text = _PER_RECORD.sub(per_record, text)
    # "the average order value": the value of a record is its one field of cost
    text = _RECORD_VALUE.sub(
        lambda m: (
            " cost "
            if m[1] in RECORD_NOUNS and m[1] not in lowered and _field("cost", lowered)
            else m[0]
        ),
        text,
    )
    totals = [k for k in keys if "total" in key_words(k)]
    if len(totals) == 1:
        text = _EXTREME_TOTAL.sub(lambda m: f"{m[1]} {totals[0].lower()}", text)
    # "ignoring nulls", 空值不算 (%nn, core/query_zh.py): left out of an average
    unnulled = _NULLS.search(text) is not None or "%nn" in text
    text = _ROUND.sub(lambda m: f" %r{m[1]} ", text)  # "rounded to 2 decimals"
    text = _NULLS.sub(" ", text)
    text = re.sub(r"\s[-–—]+\s", " , ", text)  # "sort by salary - highest to lowest"
    text = re.sub(
        r"(?<![a-z])(?:based\s+on|according\s+to|on\s+the\s+basis\s+of)(?![a-z])", " by ", text
    )
    text = re.sub(r"\s*(?:→|->)\s*", " to ", text)  # "low→high"
    # "the biggest flat (by sqm)": the field an extreme is by, in brackets, is of its clause
    text = re.sub(r"[(（]\s*(by\s+[a-z_][\w .]{0,39}?)\s*[)）]", r" \1 ", text)
    text = re.sub(r"(?<![a-z])(?:add|sum)\s+up(?![a-z])", " sum ", text)
    plural: set[str] = set()  # the keys of several words said in the plural ("listing ids")
    _PLURAL_KEYS.set(plural)  # read by ``_said_plural``

    def said_key(key: str, m: re.Match[str]) -> str:
        if m["s"]:
            plural.add(key)
        return key

    for key in sorted(lowered, key=len, reverse=True):  # "flight time" for flight_time
        words = key_words(lowered[key].replace(".", "_"))  # "owner type" for owner.type
        if len(words) > 1:  # the last word in a plural form too ("last names")
            # a word of the key written short is said in full too ("flight number" for
            # flightNo, "stock quantity" for stock_qty)
            said = [
                rf"(?:{re.escape(w)}|{_SHORT[w]})" if w in _SHORT else re.escape(w) for w in words
            ]
            phrase = r"[\s_-]*".join(said) + "(?P<s>e?s)?"
            found = re.compile(rf"(?<![a-z0-9_]){phrase}(?![a-z0-9_])")
            text = found.sub(lambda m, k=key: said_key(k, m), text)
    text = _ACTION_TIME.sub(lambda m: _action_time(m, lowered), text)  # "delivery date"
    # after the keys' words ("the track number of …" for trackNo is no count)
    text = _NUMBER_OF.sub(lambda m: _number_of(m, lowered, keys), text)
    text = _PER_RECORD.sub(per_record, text)  # "the average number of forks per repo"
    # "issue 421", "order number 1005": the one record whose identifier holds the number
    text = _RECORD_NUMBER.sub(lambda m: _record_number(m, lowered, keys, numbers or {}), text)
    text = re.sub(
        r"(?<![a-z])(?:the\s+)?(?:total\s+)?(?:number|count)\s+of(?![a-z])", " count ", text
    )
    text = _mark_flags(text, flags)
    text = re.sub(r"(?<=[a-z])-(?=[a-z0-9])", " ", text)  # "highest-priced", "top-2"
    text = _MONEY.sub(lambda m: f" {m[1] or m[2]} %money ", text)
    text = _KEEP_PHRASES.sub(" keep ", text)
    text = _FOR_ALL.sub(" %forall ", text)  # "name and city for everyone": a projection
    text = re.sub(r"(?<![a-z0-9_])(?:filter|take|leave|throw)\s+out(?![a-z0-9_])", " %out ", text)
    # "from newest to oldest": an order in time, before "oldest" is read as an age
    text = re.sub(r"(?<![a-z])from\s+(?:newest|latest)\s+to\s+oldest(?![a-z])", " @new ", text)
    text = re.sub(
        r"(?<![a-z])from\s+(?:oldest|earliest)\s+to\s+(?:newest|latest)(?![a-z])", " @old ", text
    )
    text = _SUPERLATIVE_RANGE.sub(_superlative_range, text)
    text = _FIELD_BETWEEN.sub(_field_between, text)
    text = _SUPERLATIVE_FIRST.sub(_superlative_first, text)
    text = _SUPERLATIVE.sub(_superlative, text)
    # "the most humid sensor": an adjective whose noun is a key (humidity), the extreme
    text = _MOST_ADJECTIVE.sub(lambda m: _most_adjective(m, lowered), text)
    text = _COMPARATIVE.sub(_comparative, text)
    text = _FIELD_FIRST.sub(lambda m: f" {m[2]} {_first_mark(m[1])} ", text)
    text = _DASHED.sub(_dashed, text)  # "priced 550-650": a range, low to high
    text = _RANGE.sub(_range_marks, text)
    text = _OR_BEYOND.sub(_or_beyond, text)
    text = re.sub(r"(%v\d+)\s*'s(?![a-z0-9_])", r"\1 %poss ", text)  # "Bob's age"
    text = _POSSESSIVE.sub(r"\1 %poss ", text)  # "the cheapest item's name"
    text = _MAGNITUDE.sub(_magnitude, text)  # "over 15 million", "100k"
    if _field("population", lowered):  # "more than 20 million people": people counted
        text = _PEOPLE_COUNTED.sub(r"\1 population ", text)
    text = _HOW.sub(lambda m: f" {_HOW_CONCEPTS[m[1]]} ", text)
    text = _ANY.sub(" %any ", text)
    text = _ALL.sub(" %all ", text)
    if "%yn" in text and "%any" not in text:  # "anyone earning over 9000? true or false"
        text = _BARE_ANY.sub(" %any ", text, count=1)
    if "%yn" in text and "%any" not in text:
        raise _refuse("yes or no, asked of no question whether any record is so")
    if "%any" in text and set(_TOKEN.findall(text)) & (_ASKS | {"list"}):
        # "is there any city with more than 20 million people? give me those cities": the
        # question asks for the records that are so
        text = text.replace("%any", " ")
    text = re.sub(r"(?<=[a-z0-9_])\s*[&+/]\s*(?=[a-z_])", " and ", text)  # "name + price"
    text = _NOT_VALUE.sub(" #ne ", text)
    for pattern, word in _DIRECTIONS:
        text = re.sub(rf"(?<![a-z0-9_@#])(?:{pattern})(?![a-z0-9_])", f" @{word} ", text)
    # "the earliest order", "the most recent hire", "who was hired first": an extreme in time,
    # of a field of dates or years (after the directions: "newest first" is an order)
    text = _TIME_EXTREME.sub(lambda m: f" {_TIME_ENDS_OF[m[1].split()[0]]} %time ", text)
    text = _TIME_FIRST.sub(lambda m: _time_first(m, lowered, keys, texts or {}), text)
    text = _SYMBOLS.sub(lambda m: f" #{_SYMBOL_MARKS.get(m[1], m[1])} ", text)
    # "after 2019", "before 2015": a year, compared with a field of dates or years
    text = re.sub(
        r"(?<![a-z])(after|before|since|until|later\s+than|earlier\s+than)\s+([12]\d{3})(?![\d.])",
        r" \1 \2 %year ",
        text,
    )
    for pattern, word in _COMPARISONS:
        text = re.sub(rf"(?<![a-z0-9_@#])(?:{pattern})(?![a-z0-9_=])", f" #{word} ", text)
    # "2-bedroom apartments", "with 3 servings", "with spice level 3": a number said with a key
    # that counts or measures, the records holding it
    text = _NUMBER_KEY.sub(lambda m: _number_key(m, lowered, keys, numbers or {}), text)
    numeric = tuple(k for k, number in keys.items() if number)
    ops: list[_Op] = [_Op("notnull", (unheld,))] if unheld is not None else []
    ops += [_Op("null", (null,))] if null is not None else []
    for op in (
        op
        for clause in _clauses(text)
        for op in _literal_clause(clause, lowered, literals)
        or _null_clause(clause, lowered, nulls)
        or _clause(clause, lowered, values, texts or {}, source, tuple(sorted(flags)), numeric)
    ):
        if op.kind == "filter" and op.comparison in _LOOSE:  # 30岁以下: 30 itself or not?
            held = (numbers or {}).get(op.fields[0], frozenset())
            if not held or any(Decimal(str(v)) == Decimal(op.number) for v in held):
                raise _refuse(f"a record holds {op.number}: is the bound included or not?")
            op = replace(op, comparison=_LOOSE[op.comparison])
        if (
            any("." in f for f in op.fields)
            and op.kind not in _PATH_KINDS
            and not (op.kind in _NUMBER_PATH_KINDS and all(keys.get(f) for f in op.fields))
        ):
            raise _refuse("a field inside an object is read only by a filter")
        if op.fields and op.fields[0] in members and op.kind == "distinct":
            pass  # "every distinct label": the strings the arrays hold
        elif op.fields and op.fields[0] in members and op.kind != "text":  # "the admin role"
            if op.kind != "is" or op.negated:
                raise _refuse(f"'{op.fields[0]}' holds arrays: only what they hold is read")
            op = replace(op, kind="text", comparison="contains")
        elif any(f in members for f in op.fields[1:]):
            raise _refuse("an array field in an operation that reads no array")
        if ops and ops[-1].kind == "convert":
            raise _refuse("a query after the conversion")
        if ops and ops[-1].kind == "distinct" and op.kind not in ("distinct", "alpha", "convert"):
            raise _refuse("an operation after the distinct values")
        if op.kind in ("distinct", "alpha") and not op.fields:
            # "just the distinct values", "alphabetically": of the distinct values before, or
            # (distinct) of the one field said alone in the clause before
            last = ops[-1] if ops else None
            if (
                op.kind == "distinct"
                and last
                and last.kind in ("fields", "keep")
                and len(last.fields) == 1
            ):
                last = ops[-1] = _Op("distinct", last.fields)
            if last is None or last.kind != "distinct":
                raise _refuse("distinct values or an order of text with no field")
            if op.direction and last.direction not in ("", op.direction):
                raise _refuse("the orders contradict")
            ops[-1] = replace(last, direction=op.direction or last.direction)
            continue
        if op.kind == "filter" and op.number.startswith('"%h'):
            # a time of day: of a field whose date-times all fall on one day
            at = _on_the_day(op.number[3:7], (texts or {}).get(op.fields[0], frozenset()))
            if at is None:
                raise _refuse(f"'{op.fields[0]}' holds no times of one day")
            op = replace(op, number=json.dumps(at))
        elif op.kind == "filter" and op.number.startswith('"') and "T" in op.number:
            # a date and a time of day: of a field of date-times of its shape
            if not _same_shape(json.loads(op.number), (texts or {}).get(op.fields[0], frozenset())):
                raise _refuse(f"'{op.fields[0]}' does not hold a time of the same shape")
        elif op.kind == "filter" and op.number.startswith('"'):  # a date: of a field of dates
            if keys[op.fields[0]] and key_words(op.fields[0])[-1] == "year":
                op = _day_as_year(op)  # "published in the 1990s" of publishedYear
            elif _all_date_times((texts or {}).get(op.fields[0], frozenset())):
                # "created on 2024-05-06" of date-times: compared by the day
                ops.extend(_days_of_date_times(op)[:-1])
                op = _days_of_date_times(op)[-1]
            elif not _all_dates((texts or {}).get(op.fields[0], frozenset())):
                raise _refuse(f"'{op.fields[0]}' does not hold a date in every record")
        elif op.kind == "filter" and _YEAR.match(op.number) and not keys[op.fields[0]]:
            # "hired after 2019" of a field of dates: from 2020-01-01 on
            if not _all_dates((texts or {}).get(op.fields[0], frozenset())):
                raise _refuse(f"'{op.fields[0]}' is not a number in every record")
            ops.extend(_year_of_dates(op)[:-1])
            op = _year_of_dates(op)[-1]
        elif op.kind == "filter" and op.fields[0] in nullable and not op.inverted:
            # "readings above 30 degrees": a null is not above 30, nor below it; is it other
            # than 30 ("!=")? not said
            if op.comparison == "!=":
                raise _refuse(f"'{op.fields[0]}' is null in some records")
        elif op.kind in ("top", "agg") and op.fields[0] in nullable:
            # "the 2 coldest readings", "the max humidity": a null is no extreme; a total or
            # an average leaves nulls out only when the instruction says so
            if op.kind == "agg" and op.comparison not in ("highest", "lowest") and not unnulled:
                raise _refuse(f"'{op.fields[0]}' holds nulls: say whether they are left out")
            ops.append(_Op("notnull", op.fields[:1]))
        elif _extreme(op) and _time_key(op.fields[0], numeric, texts or {}):
            pass  # "the most recent hire": ISO dates, whose text order is time order
        elif op.kind in ("top", "filter", "agg") and not keys[op.fields[0]]:
            raise _refuse(f"'{op.fields[0]}' is not a number in every record")
        if ops and ops[-1].kind == "per":  # "cities per continent - a count for each"
            if op.kind != "count" or op.fields:
                raise _refuse("a field to group by and no count of each group after it")
            if not (texts or {}).get(ops[-1].fields[0]):
                raise _refuse("a count per value of a field with no text values")
            ops[-1] = _Op("group", ops[-1].fields)
            continue
        if op.kind == "fields" and ops and ops[-1].record and _extreme(ops[-1]):
            op = replace(op, kind="keep")  # "most recent hire - name and department"
        if op.kind == "fields" and (not ops or ops[-1].kind != "keep"):
            ops.append(op)  # a field alone: an order may follow ("price: low to high")
            continue
        if op.kind == "fields":
            if not ops or ops[-1].kind != "keep":
                raise _refuse("field names that no operation uses")
            ops[-1] = _Op("keep", tuple(dict.fromkeys((*ops[-1].fields, *op.fields))))
            continue
        if op.kind == "some":  # "largest population first, only 2": the first 2 of the sort
            if not ops or ops[-1].kind != "sort":
                raise _refuse("a number of records and no sort before it")
            op = replace(op, kind="first")
        if op.kind == "ranks":  # "sort by total desc, top 2": the first 2 of the sort
            if not ops or ops[-1].kind != "sort" or ops[-1].direction != "desc":
                raise _refuse("a top N of no field after no descending sort is no query")
            op = replace(op, kind="first")
        lone = ops[-1].fields if ops and ops[-1].kind == "fields" else ()
        if op.kind == "dir" and not op.fields and len(lone) == 1:
            ops[-1] = _Op("by", lone)  # "price: low to high", "price, high to low"
        if op.kind == "dir" and op.fields and not (ops and ops[-1].kind in ("sort", "top", "by")):
            op = _Op("sort", op.fields, op.direction, magnitude=op.magnitude)  # "age ascending"
        if (
            op.kind == "dir"
            and not op.fields
            and op.magnitude
            and ops
            and ops[-1].kind == "filter"
            and numeric == ops[-1].fields[:1]
        ):
            # "invoices over 2000, largest first": a magnitude of the one number field, which
            # the filter before it compares
            ops.append(_Op("sort", ops[-1].fields, op.direction, magnitude=True))
            continue
        if op.kind == "dir":
            if not ops or ops[-1].kind not in ("sort", "top", "by"):
                raise _refuse("a direction names no sort")
            last = ops[-1]
            if op.fields and op.fields != last.fields:
                raise _refuse("a direction names another field than the sort's")
            if last.direction and last.direction != op.direction:
                raise _refuse("the directions contradict")
            magnitude = last.magnitude or op.magnitude
            kind = "sort" if last.kind == "by" else last.kind  # "by age, ascending"
            ops[-1] = _Op(kind, last.fields, op.direction, last.number, magnitude=magnitude)
            op = ops[-1]
        else:
            ops.append(op)
        if op.kind == "sort" and op.magnitude and not keys[op.fields[0]]:
            raise _refuse(f"'{op.fields[0]}' is not a number: 'highest' and 'lowest' say no order")
    inside = {f.split(".")[0] for op in ops for f in op.fields if "." in f}
    if inside & {f for op in ops for f in op.fields}:  # "buyers in FR": the buyers, or orders?
        raise _refuse("an object that is filtered by a field inside it and also named itself")
    if any(op.kind == "per" for op in ops):
        raise _refuse("a field to group by and no count of each group after it")
    if any(op.kind == "by" for op in ops):
        raise _refuse("a field after 'by' with no word of sorting or order")
    last = ops[-1] if ops else None
    if (
        last is not None
        and last.kind == "fields"
        and (len(last.fields) > 1 or {f.lower() for f in last.fields} <= plural)
        and len(ops) > 1
        and all(op.kind in _OF_RECORDS for op in ops[:-1])
    ):
        # "furnished flats under 900, listing ids", "… largest first: invoiceNo and amount":
        # fields said alone (in the plural, or two and more) after the records are picked
        ops[-1] = replace(last, kind="keep")
    if any(op.kind == "fields" for op in ops):
        raise _refuse("field names that no operation uses")
    _shaped(ops, shapes)
    return _sentence(
        ops, lambda key: json.dumps(key, ensure_ascii=False) if _quoted(key, reserved) else key
    )


def quoted_zh(sentence: str, keys: Iterable[str]) -> str:
    """``sentence`` with each of ``keys`` in Chinese quoted where it stands as a bare name (员工数,
    是否营业: the grammar's own Chinese words may run inside such a key and misread it)."""
    for key in sorted(keys, key=len, reverse=True):
        if any("\u3400" <= ch <= "\u9fff" for ch in key):
            quoted = json.dumps(key, ensure_ascii=False)
            sentence = re.sub(rf'(?<!["\w]){re.escape(key)}(?!["\w])', quoted, sentence)
    return sentence


def _quoted(key: str, reserved: frozenset[str]) -> bool:
    """Whether ``key`` is quoted in the grammar's sentence: a word of the grammar ("code")."""
    return key.lower() in reserved


# A number said right before a key ("2-bedroom", "3 servings") or after one that "with" opens
# or "on" opens ("with spice_level 3", "on floor 2"); see ``_number_key``.
_NUMBER_KEY = re.compile(
    r"(?<![\w.#@%-])(?P<n>\d+)(?:\s*-\s*|\s+)(?P<key>[a-z][a-z_]*)(?![\w-])"
    r"|(?<![\w-])(?:with|on)\s+(?P<key2>[a-z][a-z_]*)\s+(?P<n2>\d+)(?![\w.%-])"
)
# Words after which a number is a count of records or a bound, not a key's value.
_NOT_A_VALUE = frozenset({"top", "bottom", "first", "last", "limit", "than", "between", "to"})


def _number_key(
    m: re.Match[str],
    lowered: Mapping[str, str],
    keys: Mapping[str, bool],
    numbers: Mapping[str, frozenset[int | float]],
) -> str:
    """ "2-bedroom" as "bedrooms #== 2", when the word names a key that is a number in every
    record (or a number or null: ``numbers``) and nothing before the number makes it a count,
    a bound or a rank; a number before the key only of a key that counts (a plural:
    bedrooms, servings), a number after it ("with floor 2") of any."""
    word, number = (m["key"], m["n"]) if m["n"] else (m["key2"], m["n2"])
    key = _field(word, dict(lowered))
    before = m.string[: m.start()].split()[-1:]
    if key is None or not (keys.get(key) or key in numbers) or (before and before[0][:1] in "#@%"):
        return m[0]
    if before and (before[0] in _NOT_A_VALUE or _NUMBER.match(before[0])):
        return m[0]
    if m["n"] and not _counts_things(key):
        return m[0]  # "2 floors" of a key floor: a count of floors, or the floor?
    return f" {'with ' if m['key2'] else ''}{key.lower()} #== {number} "


# The answer's shape said in JSON's words, at a clause's end ("…, as a JSON array", "as a
# JSON object", "as JSON"): the answer is written in JSON, so the words add nothing when the
# answer has that shape.
_SHAPE = re.compile(
    r"(?<![a-z0-9_])(?:as|in)\s+(?:an?\s+)?(?:(json)\s*)?(array|list|object|dict)?(?![a-z0-9_])"
)
_SHAPE_WORDS = {"array": "list", "list": "list", "object": "object", "dict": "object"}
# The operations whose answer is no list of records or values, and those whose is an object.
_NOT_A_LIST = frozenset({"count", "agg", "exists", "none", "group", "lookup", "round", "number"})


def _answer_shapes(text: str, source: str) -> tuple[str, list[str]]:
    """``text`` without the answer shapes said in JSON's words ("as a JSON array"), and those
    shapes ("list", "object"; "" for "as JSON"). A shape said without "JSON" ("as a list") is
    one only at a clause's end; "as JSON" of a payload in another format is a conversion."""
    shapes: list[str] = []

    def said(m: re.Match[str]) -> str:
        end = m.string[m.end() :].lstrip()[:1]
        if (m[1] is None and m[2] is None) or (m[1] and source != "json"):
            return m[0]
        if m[1] is None and end not in ("", ",", ".", ";", "!", "?", "\n"):
            return m[0]
        shapes.append(_SHAPE_WORDS.get(m[2] or "", ""))
        return " "

    return _SHAPE.sub(said, text), shapes


def _shaped(ops: Sequence[_Op], shapes: Sequence[str]) -> None:
    """``Unsupported`` unless the answer of ``ops`` has every shape asked for: a list (no
    count, aggregate, yes/no, count per value or single value) or an object (a count per
    value)."""
    for shape in shapes:
        kinds = {op.kind for op in ops}
        if shape == "list" and kinds & _NOT_A_LIST:
            raise _refuse("an array asked for of an answer that is none")
        if shape == "object" and (not ops or ops[-1].kind != "group"):
            raise _refuse("an object asked for of an answer that is none")


# What a field inside an object (address.city) is read by: a filter, a count per value, the
# distinct values (the ops follow the dotted path)
_PATH_KINDS = frozenset({"is", "one_of", "text", "per", "group", "distinct"})
# The operations that give records (a projection may follow them)
_OF_RECORDS = frozenset({"filter", "is", "one_of", "text", "null", "notnull", "sort", "top"})
_OF_RECORDS |= {"first", "last"}
# The kinds that read a number inside an object by its path (a filter, an aggregate, the
# record with an extreme, a sort and a top N)
_NUMBER_PATH_KINDS = frozenset({"filter", "agg", "sort", "top"})


# Words of a closed class whose slips are read as the word (one letter dropped, changed or
# two swapped, never one added: "slowest" is no "lowest"), besides the records' nouns
_RESPELT_WORDS = frozenset({"average", "maximum", "minimum"})


def _swapped(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with two adjacent letters swapped."""
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b, strict=True)) == 2 and _slip(a, b)


def _slip(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with one letter dropped or changed, or two adjacent swapped."""
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and (a[diff[0]], a[diff[1]]) == (b[diff[1]], b[diff[0]])
        )
    return len(a) == len(b) - 1 and any(b[:i] + b[i + 1 :] == a for i in range(len(b)))


def respelt(instruction: str, nouns: Iterable[str], known: Iterable[str] = ()) -> str:
    """``instruction`` with a slip of typing read as the word meant: two adjacent letters
    swapped in one of the records' ``nouns`` ("shipmnets", "apartmnets"), or one slip in a word
    of ``_RESPELT_WORDS`` ("avrage"). Only a word of six letters or more that is no noun, no
    ``known`` word (the records' keys and values) and the slip of exactly one word is read."""
    targets = {n.lower() for n in nouns if n.isascii() and n.isalpha()}
    seen = {w.lower() for w in known} | targets | _RESPELT_WORDS

    def fix(m: re.Match[str]) -> str:
        word = m[0].lower()
        if len(word) < 6 or word in seen:
            return m[0]
        meant = {n for n in targets if _swapped(word, n)}
        meant |= {w for w in _RESPELT_WORDS if _slip(word, w)}
        return meant.pop() if len(meant) == 1 else m[0]

    return re.sub(r"(?<![\w.-])[A-Za-z]+(?![\w.-])", fix, instruction)


def said_as_records(instruction: str, nouns: Mapping[str, tuple[str, tuple[str, ...]]]) -> str:
    """``instruction`` with each of the records' own ``nouns`` written as the word it is read
    as ("record", "records"), except where the noun begins a key's name ("room number" for
    roomNumber: one of the words that follow it) and where it is a word of the reader's
    classes ("order" sorts); a noun the reader knows for records (core/fields.RECORD_NOUNS)
    is left as it is."""
    for noun, (word, after) in sorted(nouns.items(), key=lambda item: -len(item[0])):
        if noun in _CLOSED or noun in RECORD_NOUNS:
            continue
        ends = "|".join(
            rf"{re.escape(w)}|{_SHORT[w]}" if w in _SHORT else re.escape(w) for w in after
        )
        key = rf"(?![\s_-]*(?:{ends})(?:e?s)?(?![a-z]))" if after else ""
        instruction = re.sub(
            rf"(?<![\w.$-]){re.escape(noun)}(?![\w-]){key}", word, instruction, flags=re.I
        )
    return instruction


def _sentence(ops: list[_Op], name: Callable[[str], str]) -> str:
    """The clauses' operations as the grammar's sentence: an aggregate or a count ends the
    chain (only a number may be asked of it), and a pick of one field after an extreme
    names a field of the record with that extreme."""
    if not ops:
        raise _refuse("the instruction asks for no query")
    number = [op for op in ops if op.kind == "number"]
    rounded = [op for op in ops if op.kind == "round"]
    ops = [op for op in ops if op.kind not in ("number", "round")]
    if rounded:  # "…, rounded to 2 decimals": of the one number an aggregate gives
        last = ops[-1] if ops else None
        if (
            len(rounded) > 1
            or last is None
            or last.kind != "agg"
            or last.record
            or last.whole
            or any(op.kind in ("keep", "lookup", "count", "group") for op in ops)
        ):
            raise _refuse("a rounding of no one number")
        sentence = _sentence(ops, name)
        return f"{sentence}, rounded to {rounded[0].number} decimals" + (
            ". Number only." if number else ""
        )
    if not ops:
        raise _refuse("the instruction asks for no query")
    if any(op.record and op.kind == "agg" and not op.whole for op in ops[-1:]):
        raise _refuse("a superlative asks for a record: name the field to answer with")
    if any(op.kind == "lookup" for op in ops) and len(ops) > 1:
        raise _refuse("a value of one record asked for with another operation")
    ends = [
        i
        for i, op in enumerate(ops)
        if op.kind in ("count", "agg", "lookup", "exists", "none", "group")
    ]
    if ends and ends[0] != len(ops) - 1:
        last = ops[ends[0]]
        after = ops[ends[0] + 1 :]
        if not (
            last.kind == "agg"
            and last.comparison in ("highest", "lowest")
            and len(after) == 1
            and after[0].kind == "keep"
            and not number
        ):
            raise _refuse("an operation after a count or an aggregate")
        head = ", then ".join(op.sentence(name) for op in ops[: ends[0]])
        if len(after[0].fields) > 1:  # "the most recent hire - name and department"
            if not last.record:
                raise _refuse("fields of no record after an aggregate")
            pick = f"{replace(last, whole=True).sentence(name)}, then {after[0].sentence(name)}"
            return f"{head}, then {pick}" if head else pick
        field, by = name(after[0].fields[0]), name(last.fields[0])
        pick = f"the {field} of the record with the {last.comparison} {by}"
        return f"{head}, then {pick}" if head else pick
    if number and not ends:
        raise _refuse("a number asked for of records")
    sentence = ", then ".join(op.sentence(name) for op in ops)
    return f"{sentence}. Number only." if number else sentence


def _number_of(m: re.Match[str], lowered: Mapping[str, str], keys: Mapping[str, bool]) -> str:
    """ "number of comments" → ``comments`` when the noun is a key (as written or a plural
    of it) that holds a number in every record and names no records; else as written."""
    noun = m[1]
    others = [w for w in _TOKEN.findall(m.string) if w in RECORD_NOUNS and w != noun]
    if (
        noun in RECORD_NOUNS
        and keys.get(lowered.get(noun, ""))
        and any(w not in lowered for w in others)
    ):  # "the total number of items across all orders": items, a number of each order
        return f" {noun} "
    if noun in RECORD_NOUNS or noun in _CLOSED:
        return m[0]
    key = _field(noun, lowered)
    if key is None or not keys.get(key):
        return m[0]
    return f" {key.lower()} "


def _mark_dates(instruction: str) -> str:
    """``instruction`` with each date written in it replaced by a mark ``%dYYYYMMDD``; a date
    that is no day of the calendar is left as written."""

    def mark(m: re.Match[str]) -> str:
        if m[1]:
            year, month, day = int(m[1]), int(m[2]), int(m[3])
        elif m[4]:
            year, month, day = int(m[6]), _MONTHS[m[4].lower()], int(m[5])
        else:
            year, month, day = int(m[9]), _MONTHS[m[8].lower()], int(m[7])
        try:
            day = datetime.date(year, month, day)
        except ValueError:
            return m[0]
        return f" %d{day:%Y%m%d} "

    return _DATES.sub(mark, instruction)


def _time_key(key: str, numeric: Sequence[str], texts: Mapping[str, frozenset[str]]) -> bool:
    """Whether ``key`` holds a point in time: an ISO date in every record, or a number of
    years (its last word "year": publishedYear)."""
    if key in numeric:
        return key_words(key)[-1:] == ["year"]
    values = texts.get(key, frozenset())
    return _all_dates(values) or (bool(values) and _same_shape(next(iter(values)), values))


def _time_first(
    m: re.Match[str],
    lowered: Mapping[str, str],
    keys: Mapping[str, bool],
    texts: Mapping[str, frozenset[str]],
) -> str:
    """ "hired first", "the last to join": the lowest or highest of the field of dates or
    years the participle names; as written for any other participle."""
    verb, end = m["verb"] or m["verb2"], m["end"] or m["end2"]
    key = _field(verb, lowered)
    if key is None or not _time_key(key, [k for k, n in keys.items() if n], texts):
        return m[0]
    return f" {_TIME_ENDS_OF[end]} %time {verb} "


def _date_time_mark(m: re.Match[str]) -> str:
    """2024-06-03T08:03:00Z → %d20240603t080300z (see _DATE_TIMES)."""
    zone = m[7] or ""
    zone = "z" if zone == "Z" else zone.replace("+", "p").replace("-", "m").replace(":", "")
    return f" %d{m[1]}{m[2]}{m[3]}t{m[4]}{m[5]}{m[6] or ''}{zone} "


def _record_number(
    m: re.Match[str],
    keys: Mapping[str, str],
    numeric: Mapping[str, bool],
    numbers: Mapping[str, frozenset[int | float]],
) -> str:
    """ "issue 421" → %k421%number: the records' noun (or an identifier key) and a number that
    exactly one identifier key (a number in every record, its last word id, number, no)
    holds; as written otherwise."""
    noun, number = m[1], int(m[2])
    ids = [
        k
        for k, held in numbers.items()
        if numeric.get(k)
        and re.fullmatch(r"\w+", k)
        and key_words(k)[-1:]
        and key_words(k)[-1] in _ID_ENDS
        and number in held
    ]
    one = noun in RECORD_NOUNS and noun not in keys and not noun.endswith("s")  # "issue 421"
    said = one or (noun in keys and keys[noun] in ids)
    if len(ids) != 1 or not said:
        return m[0]
    return f" %k{number}%{ids[0].lower()} "


def _hinted(
    m: re.Match[str],
    keys: Mapping[str, str],
    values: Sequence[str],
    texts: Mapping[str, frozenset[str]],
) -> str:
    """ "opened by %v0 (author.login)" → "author.login %v0": the key written in brackets after
    a value names its field, when the key holds the value (the words that said how are its
    own); as written otherwise."""
    key = keys.get(m[2].lower())
    if key is None or values[int(m[1][2:])] not in texts.get(key, frozenset()):
        return m[0]
    return f" {key} {m[1]} "


def _clock_mark(m: re.Match[str]) -> str:
    """ "9am" → %h0900, "6:30 pm" → %h1830, "14:30" → %h1430; as written for an hour that is
    no hour of a 12-hour clock."""
    if m[4]:
        hour = int(m[2])
        if not 1 <= hour <= 12:
            return m[0]
        hour = hour % 12 + (12 if m[4].lower().startswith("p") else 0)
        return f" {m[1]} %h{hour:02d}{m[3] or '00'} "
    return f" {m[1]} %h{int(m[5]):02d}{m[6]} "


def _on_the_day(clock: str, values: frozenset[str]) -> str | None:
    """The date-time at ``clock`` (HHMM) on the one day all ``values`` fall on, in their shape
    (ISO date-times of one length, with no zone: a time of day said has none); None when
    they are not so."""
    shape = re.compile(r"(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2})?$")
    matched = [shape.match(v) for v in values]
    if not values or any(m is None for m in matched) or len({len(v) for v in values}) != 1:
        return None
    days = {m[1] for m in matched if m}
    if len(days) != 1:
        return None
    seconds = ":00" if any(m and m[2] for m in matched) else ""
    return f"{days.pop()}T{clock[:2]}:{clock[2:]}{seconds}"


def _date_time(token: str) -> str:
    """%d20240603t080300z → "2024-06-03T08:03:00Z" (a JSON string)."""
    m = _DATE_TIME_TOKEN.match(token)
    assert m is not None
    day, time, zone = m[1], m[2], (m[3] or "").upper()
    clock = ":".join(time[i : i + 2] for i in range(0, len(time), 2))
    if zone[:1] in ("P", "M"):
        zone = ("+" if zone[0] == "P" else "-") + zone[1:3] + ":" + zone[3:]
    return json.dumps(f"{day[:4]}-{day[4:6]}-{day[6:]}T{clock}{zone}")


def _same_shape(point: str, values: frozenset[str]) -> bool:
    """Whether every value is an ISO date-time of the shape of ``point`` (one length, one
    zone, "T" between day and time), so that text order is time order."""
    zone = re.search(r"(?:Z|[+-]\d{2}:\d{2})$", point)
    ends = zone[0] if zone else ""
    shape = re.compile(
        r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?" + re.escape(ends) + "$"
    )
    return bool(values) and all(len(v) == len(point) and shape.match(v) for v in values)


def _lone_date(texts: Mapping[str, frozenset[str]]) -> str:
    """The one key that holds an ISO date in every record (or, where none does, an ISO
    date-time of one shape); ``Unsupported`` for none or several."""
    found = [key for key, values in texts.items() if _all_dates(values)]
    if not found:  # "logins on 2024-03-02": the one field of date-times, by the day
        found = [key for key, values in texts.items() if _all_date_times(values)]
    if len(found) != 1:
        raise _refuse(f"a date, and {len(found)} fields hold dates: name one")
    return found[0]


def _lone_time(texts: Mapping[str, frozenset[str]], numeric: tuple[str, ...]) -> str:
    """The one key that holds an ISO date in every record or is a number of years (its last
    word "year": startYear); ``Unsupported`` for none or several (a year is never a
    comparison of some other number: "orders after 2019" is no amount above 2019)."""
    found = [key for key in texts if key not in numeric and _time_key(key, numeric, texts)]
    found += [key for key in numeric if key_words(key)[-1:] == ["year"]]
    if len(found) != 1:
        raise _refuse(f"a year, and {len(found)} fields of dates or years: name one")
    return found[0]


def _all_dates(values: frozenset[str]) -> bool:
    """Whether every text value of a field is an ISO date (so text order is time order)."""
    return bool(values) and all(_ISO_DATE.match(v) for v in values)


_YEAR = re.compile(r"[12]\d{3}$")
# "hired after 2019", "in 2019", "before 2015": a year compared with a field of dates is the
# day it starts or the day after it ends, so that text order on ISO dates is exact
_YEAR_BOUNDS = {">": (">=", 1), ">=": (">=", 0), "<": ("<", 0), "<=": ("<", 1)}


# "on 2024-05-06" (a date, marked): that day
_ON_DAY = re.compile(r"(?<![A-Za-z])on\s+(%d\d{8})(?![\dTt])")
_ISO_DATE_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$"
)
# A day compared with date-times: from its start (>=, "since"), or before it (<); "after" and
# "until" a day are left unsaid (after its start, or after its end?)
_DAY_BOUNDS = {">=": (">=", 0), "<": ("<", 0)}


def _all_date_times(values: frozenset[str]) -> bool:
    """Whether every value is an ISO date-time of one length and one zone (text order is time
    order, and a day "YYYY-MM-DD" sorts before every time of that day)."""
    shapes = {(len(v), m[1]) for v in values if (m := _ISO_DATE_TIME.match(v))}
    return bool(values) and len(shapes) == 1 and all(_ISO_DATE_TIME.match(v) for v in values)


def _days_of_date_times(op: _Op) -> list[_Op]:
    """A filter of a day on a field of date-times as filters of the days that bound it: on
    2024-05-06 (==) from its start and before the next day's; since a day, before a day."""
    day = datetime.date.fromisoformat(json.loads(op.number))
    after = json.dumps((day + datetime.timedelta(days=1)).isoformat())
    if op.comparison == "==" and not op.inverted:
        return [replace(op, comparison=">="), replace(op, comparison="<", number=after)]
    if op.comparison not in _DAY_BOUNDS or op.inverted:
        raise _refuse("a day compared with date-times in a way that names no bound")
    comparison, later = _DAY_BOUNDS[op.comparison]
    return [replace(op, comparison=comparison, number=after if later else op.number)]


def _year_of_dates(op: _Op) -> list[_Op]:
    """A filter of a year on a field of ISO dates as filters of days: after 2019 is on or
    after 2020-01-01, "2019 or earlier" before 2020-01-01, in 2019 (==) both bounds."""
    year = int(op.number)
    if op.comparison == "==":
        return [
            replace(op, comparison=">=", number=f'"{year}-01-01"'),
            replace(op, comparison="<", number=f'"{year + 1}-01-01"'),
        ]
    if op.comparison not in _YEAR_BOUNDS or op.inverted:
        raise _refuse("a year compared with a field of dates in a way that names no day")
    comparison, later = _YEAR_BOUNDS[op.comparison]
    return [replace(op, comparison=comparison, number=f'"{year + later}-01-01"')]


def _day_as_year(op: _Op) -> _Op:
    """A bound of a period ("the 1990s": from 1990-01-01, before 2000-01-01) on a field of
    years: the year, when the bound is the first day of a year and is compared so that the
    year says the same (at least, before); ``Unsupported`` otherwise."""
    m = re.fullmatch(r'"([12]\d{3})-01-01"', op.number)
    if m is None or op.comparison not in (">=", "<"):
        raise _refuse(f"a day compared with '{op.fields[0]}', a field of years")
    return replace(op, number=m[1])


def _period(m: re.Match[str]) -> str:
    """ "in 2019", "in March 2024", "in the 1990s", "from 2021 onwards": the first day of the
    period and the first day after it, as two comparisons of dates; "before/after/since March
    2024" one of them; "2019" alone compares a year (of a field of years or of dates)."""
    if m["onward"]:
        return f" #>= {m['onward']} %year "
    if m["bound"]:  # "before August 2024", "after May 2024", "since May 2024": whole months
        year, month = int(m["byear"]), _MONTHS[m["bmonth"].lower()]
        after = (year + 1, 1) if month == 12 else (year, month + 1)
        if m["bound"].lower() == "after":
            return f" #>= %d{after[0]}{after[1]:02d}01 "
        return f" #{'<' if m['bound'].lower() == 'before' else '>='} %d{year}{month:02d}01 "
    if m["decade"]:
        start = int(m["decade"]) * 10
        return f" #>= %d{start}0101 #< %d{start + 10}0101 "
    if m["month"]:
        year, month = int(m["myear"]), _MONTHS[m["month"].lower()]
        after = (year + 1, 1) if month == 12 else (year, month + 1)
        return f" #>= %d{year}{month:02d}01 #< %d{after[0]}{after[1]:02d}01 "
    return f" #== {m['year']} %year "


def _mark_values(
    instruction: str, keys: Mapping[str, str], texts: Mapping[str, frozenset[str]]
) -> tuple[str, list[str]]:
    """``instruction`` with each text value of the records written in it (as it is, as whole
    words) replaced by a mark ``%vN``; the values in mark order. Values that are words of the
    closed classes or keys are not marked (they read as those words)."""
    candidates = {v for vs in texts.values() for v in vs if _VALUE_TEXT.match(v)}
    if len(candidates) > _MAX_VALUES:
        return instruction, []
    values: list[str] = []
    for value in sorted(candidates, key=len, reverse=True):
        low = value.lower()
        if low in keys or low.split()[0] in _CLOSED or value not in instruction:
            continue
        pattern = rf"(?<![\w%]){re.escape(value)}(?![\w])"
        if re.search(pattern, instruction):
            instruction = re.sub(pattern, f" %v{len(values)} ", instruction)
            values.append(value)
    return _mark_value_forms(instruction, keys, candidates, values)


def _mark_value_forms(
    instruction: str, keys: Mapping[str, str], candidates: set[str], values: list[str]
) -> tuple[str, list[str]]:
    """``instruction`` with each word of no class that is another form of exactly one
    one-word text value of the records ("the engineers" for Engineering, "marketers" for
    Marketing, "lights" for lighting: the same stem once plural, agent and activity endings
    are taken off) replaced by that value's mark; ``values`` extended with them."""
    stems: dict[str, set[str]] = {}
    for value in candidates:
        if value.isalpha() and value.isascii():
            for stem in _stems(value):
                stems.setdefault(stem, set()).add(value)

    def mark(m: re.Match[str]) -> str:
        word = m[0].lower()
        if word in _CLOSED or word in RECORD_NOUNS or _field(word, keys) is not None:
            return m[0]
        found = {v for stem in _stems(word, place=True) for v in stems.get(stem, ())}
        if len(found) != 1 or m[0] == next(iter(found)):
            return m[0]
        (value,) = found
        if value not in values:
            values.append(value)
        return f" %v{values.index(value)} "

    return re.sub(r"(?<![\w%])[A-Za-z]{4,}(?![\w])", mark, instruction), values


def _stems(word: str, *, place: bool = False) -> set[str]:
    """``word`` (lower case) and what is left of it as its plural, agent and activity endings
    are taken off one at a time (engineers → engine; Engineering → engineer → engine), each
    stem at least four letters; with ``place`` (a word of the instruction), a place's
    adjective less its ending too (Asian: asia, European: europe)."""
    w = word.lower()
    out = {w}
    for _ in range(3):
        end = next(
            (e for e in ("ers", "ists", "ings", "er", "ist", "ing", "s") if w.endswith(e)), ""
        )
        if not end or len(w) - len(end) < 4 or w.endswith("ss"):
            break
        w = w[: -len(end)]
        out.add(w)
    w = word.lower()
    if not place:  # a value is no place's adjective ("Asian" cuisine is no Asia)
        return out
    if w.endswith("ean") and len(w) >= 7:  # European: Europe
        out.add(w[:-2])
    elif w.endswith("an") and len(w) >= 5:  # Asian, African: Asia, Africa
        out.add(w[:-1])
    return out


def _mark_flags(text: str, flags: frozenset[str]) -> str:
    """``text`` with each flag said as an adjective right before the records' noun ("the
    remote ones", "non-remote employees" for ``isRemote``) written as a mark ``%tN`` (true)
    or ``%fN`` (false), N the flag's place in sorted order."""
    nouns = "|".join(sorted(RECORD_NOUNS | {"one", "ones"}, key=len, reverse=True))
    for n, key in enumerate(sorted(flags)):
        words = key_words(key)
        if len(words) > 1 and words[0] in ("is", "has", "can"):
            words = words[1:]
        if len(words) > 1 and words[0] == "in":  # in_stock, inStock: "in stock", "out of stock"
            rest = r"[\s_-]*".join(map(re.escape, words[1:]))
            text = re.sub(
                rf"(?<![a-z0-9_%])(?:not\s+in|out\s+of)\s+{rest}(?![a-z0-9_])", f" %f{n} ", text
            )
            text = re.sub(
                rf"(?<![a-z0-9_%]){re.escape(key.lower())}(?![a-z0-9_])", f" %t{n} ", text
            )
            text = re.sub(rf"(?<![a-z0-9_%])in[\s_-]+{rest}(?![a-z0-9_])", f" %t{n} ", text)
            text = re.sub(rf"(?<![a-z0-9_%])not\s+%t{n}(?![0-9])", f" %f{n} ", text)
            continue
        if any(w in _CLOSED for w in words):
            continue
        adjective = r"[\s_-]*".join(map(re.escape, words))
        # "people who work remotely", "not remotely": the flag said as an adverb after a verb
        # that places a record (work, live, …)
        verbs = "|".join(sorted(_MEMBERSHIP))
        text = re.sub(
            rf"(?<![a-z0-9_%-])((?:do\s+not|don't|does\s+not|doesn't)\s+)?(?:{verbs})\s+"
            rf"{adjective}ly(?![a-z0-9_])",
            lambda m, n=n: f" %{'f' if m[1] else 't'}{n} ",
            text,
        )
        text = re.sub(
            rf"(?<![a-z0-9_%-])(non-?|not\s+|in|un)?{adjective}(?=\s+(?:{nouns})(?![a-z0-9_]))",
            lambda m, n=n: f" %{'f' if m[1] else 't'}{n} ",
            text,
        )
        first = key_words(key)[0]
        if first not in ("is", "can") and (first == "has" or not words[-1].endswith("ed")):
            # "trains with wifi", "rooms with a sea view", "no balcony", "without wifi": a
            # flag whose words are a noun, said as what a record has or lacks; an article
            # only before a key of "has" or of two words and more (a noun; "a remote"?)
            article = r"(?:(?:a|an|any)\s+)?" if first == "has" or len(words) > 1 else ""
            text = re.sub(
                rf"(?<![a-z0-9_%-])(with|having|has|have|without|no|(?:do\s+not|don't|does\s+not"
                rf"|doesn't)\s+have)\s+(?:both\s+)?{article}{adjective}(?![a-z0-9_])"
                r"(?!\s*(?:is|are|set\s+to|=+)\s)",  # "with active set to true": said after
                lambda m, n=n: f" %{'t' if m[1] in ('with', 'having', 'has', 'have') else 'f'}{n} ",
                text,
            )
        # "cities that are not coastal", "which cities are coastal", "express is true",
        # "在职 set to false"
        text = re.sub(
            rf"(?<![a-z0-9_%-])(?:(?:(?:that|which|who)\s+)?(?:is|are)\s+(not\s+)?)?{adjective}"
            r"(?:\s+(?:is|are|set\s+to|=+)\s+(true|false))?(?![a-z0-9_])",
            lambda m, n=n: _flag_said(m, n),
            text,
        )
    for n, key in enumerate(sorted(flags)):  # "allow pets" (petsAllowed), "don't allow pets"
        words = key_words(key)
        if len(words) != 2 or not words[1].endswith("ed") or words[0] in _CLOSED:
            continue
        verbs = sorted({v for v in word_forms(words[1]) if len(v) >= 4 and v != words[1]})
        if not verbs:
            continue
        said = "|".join(rf"{re.escape(v)}(?:s|es)?" for v in verbs)
        text = re.sub(
            rf"(?<![a-z0-9_%-])((?:do\s+not|don't|does\s+not|doesn't)\s+)?(?:{said})\s+"
            rf"{re.escape(words[0])}(?![a-z0-9_])",
            lambda m, n=n: f" %{'f' if m[1] else 't'}{n} ",
            text,
        )
    for n, key in enumerate(sorted(flags)):  # "still unpaid", "the unfurnished ones": false
        words = key_words(key)
        if len(words) == 1 and len(words[0]) >= 4 and words[0] not in _CLOSED:
            text = re.sub(
                rf"(?<![a-z0-9_%-])un-?{re.escape(words[0])}(?![a-z0-9_])", f" %f{n} ", text
            )
    for n, key in enumerate(sorted(flags)):  # "with a sea view and a balcony": both true
        words = key_words(key)
        if len(words) > 1 and words[0] == "has":
            words = words[1:]
        if words[0] in ("is", "can", "in") or any(w in _CLOSED for w in words):
            continue
        adjective = r"[\s_-]*".join(map(re.escape, words))
        text = re.sub(
            rf"(%([tf])\d+\s+(?:and|&)\s+(?:(?:a|an)\s+)?){adjective}(?![a-z0-9_])",
            lambda m, n=n: f"{m[1]} %{m[2]}{n} ",
            text,
        )
    return text


def _flag_said(m: re.Match[str], n: int) -> str:
    """ "that are not coastal", "are not coastal" → the flag false; "express is true" → true;
    the flag's words
    alone stay as they are written (a field of the clause)."""
    said = m[0].split()
    if m[2] is None and said[0] not in ("that", "which", "who", "is", "are"):
        return m[0]
    false = bool(m[1]) != (m[2] == "false")
    return f" %{'f' if false else 't'}{n} "


def _superlative(m: re.Match[str]) -> str:
    extreme, concept = _SUPERLATIVES[re.sub(r"\s+", " ", m[1])]
    return f" {extreme} {concept} {_RECORD_MARK} "


def _most_adjective(m: re.Match[str], keys: Mapping[str, str]) -> str:
    """ "most humid", "least popular": the highest or lowest of the one key whose last word is
    the adjective's noun (humidity, popularity, darkness; -ity, -ness), a record's extreme; as
    written for an adjective that is a key or names none."""
    adjective = m[2]
    if adjective in keys or adjective in _CLOSED:
        return m[0]
    nouns = {adjective + "ity", adjective + "ness"}
    if adjective.endswith("e"):
        nouns.add(adjective[:-1] + "ity")  # dense: density
    if adjective.endswith("y"):
        nouns.add(adjective[:-1] + "iness")  # noisy: noisiness
    if adjective.endswith("ed"):  # "the most commented": the count of comments
        nouns |= {stem + "s" for stem in word_forms(adjective) if len(stem) >= 3}
    found = {
        k for k in keys.values() if key_words(k)[-1:] and _said_words(key_words(k))[-1] in nouns
    }
    if len(found) != 1:
        return m[0]
    extreme = "highest" if m[1] == "most" else "lowest"
    return f" {extreme} {found.pop().lower()} {_RECORD_MARK} "


def _superlative_range(m: re.Match[str]) -> str:
    """ "from youngest to oldest": the concept's field and the order, when the two ends are
    the two extremes of one concept; else the words as they are."""
    start, concept = _SUPERLATIVES[re.sub(r"\s+", " ", m[1])]
    end, other = _SUPERLATIVES[re.sub(r"\s+", " ", m[2])]
    if concept != other:
        return m[0]
    if start == end:
        return " %same-ends "  # "from youngest to youngest": no order, and no word of a class
    return f" {concept} @{'down' if start == 'highest' else 'up'} "


def _field_between(m: re.Match[str]) -> str:
    """ "from highest salary to lowest": the field and the order, when the two ends are
    opposite; else the words as they are."""
    start, end = (re.fullmatch(_UPWARD, w) is not None for w in (m[1], m[3]))
    if start == end:
        return " %same-ends "
    return f" {m[2]} @{'down' if start else 'up'} "


def _superlative_first(m: re.Match[str]) -> str:
    extreme, concept = _SUPERLATIVES[re.sub(r"\s+", " ", m[1])]
    return f" {concept} @{'down' if extreme == 'highest' else 'up'} "


def _comparative(m: re.Match[str]) -> str:
    comparison, concept = _COMPARATIVES[re.sub(r"\s+", " ", m[1])]
    return f" {concept} #{comparison} "


def _magnitude(m: re.Match[str]) -> str:
    value = Decimal(m[1]) * _MAGNITUDES[m[2]]
    return f" {value.normalize():f} "


def _or_beyond(m: re.Match[str]) -> str:
    """ "30 or more" → ``#>= 30``, "50 or less" → ``#<= 50``, "30 or older" → ``age #>= 30``;
    a word after "or" of no such class stays as it is written."""
    if m[4]:
        said = re.sub(r"\s+", " ", m[4])
        if said not in _COMPARATIVES:
            return m[0]
        comparison, concept = _COMPARATIVES[said]
        return f" {concept} #{comparison}= {m[1]} "
    return f" #{'<=' if m[3] else '>='} {m[1]} "


def _first_mark(word: str) -> str:
    return " @down" if word in _UP else " @up"


def _dashed(m: re.Match[str]) -> str:
    if Decimal(m[1]) >= Decimal(m[2]):
        return m[0]  # "650-550": no range from low to high
    return f" between {m[1]} and {m[2]} "


def _range_marks(m: re.Match[str]) -> str:
    """ "between 30 and 40", "from 30 to 40": both ends included (as SQL's BETWEEN), unless
    the range says "exclusive"."""
    low, high = (">", "<") if m[4] in ("exclusive", "excluded") else (">=", "<=")
    return f" #{low} {m[1] or m[2]} #{high} {m[3]} "


def _clauses(text: str) -> list[list[str]]:
    """Clauses end at punctuation, at a line break, at "then", at "and" before a projection
    or request word ("sort by age and just the name", "… and give me YAML"), and at "and"
    between two comparisons ("price under 600 and hours over 8": both filters)."""
    tokens = _TOKEN.findall(text)
    out: list[list[str]] = [[]]
    for i, tok in enumerate(tokens):
        splits = tok == "and" and i + 1 < len(tokens) and tokens[i + 1] in _AND_SPLITS
        splits = splits or (tok == "and" and "#" in out[-1] and "#" in tokens[i + 1 : i + 4])
        if splits or tok in {",", ".", ";", "!", ":", "?", "\n", "then", "(", ")"}:
            out.append([])
        elif tok in _STARTS and out[-1] and out[-1][-1] not in _BENIGN | _KEEP | _LINKS | {"one"}:
            # "… country and population return it in YAML" (not "only return …")
            out.append([tok])
        else:
            out[-1].append(tok)
    clauses = [_join_marks(c) for c in out if c]
    for i, clause in enumerate(clauses):  # "name and price, nothing else": a projection
        if clause in (["nothing", "else"], ["and", "nothing", "else"]) and i:
            clauses[i - 1] = ["keep", *clauses[i - 1]]
            clauses[i] = []
    return [c for c in clauses if c]


def _join_marks(clause: list[str]) -> list[str]:
    """``@`` ``desc`` → ``@desc``; ``#`` ``<`` → ``#<``."""
    out: list[str] = []
    for tok in clause:
        if out and out[-1] in {"@", "#"}:
            out[-1] += tok
        else:
            out.append(tok)
    return out


def key_words(key: str) -> list[str]:
    """The words of a key, lower case: split at ``_``, ``-``, spaces and a lower case letter
    followed by an upper case one (``unit_price``, ``annualSalary`` → annual, salary)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    return [w for w in re.split(r"[_\s-]+", spaced.lower()) if w]


def _field(word: str, keys: Mapping[str, str]) -> str | None:
    """The key ``word`` names: the key itself (case aside), or, for a word of no closed
    class, its word form or glossary translation to exactly one key, or else to the one key
    whose last word it is (``price`` for ``unit_price``, ``salary`` for ``annualSalary``)."""
    if word in keys:
        return keys[word]
    if word in _CLOSED or not word.isalpha():
        return None
    inner = {keys[f] for f in word_forms(word) if f in keys and "." in keys[f]}
    if len(inner) == 1:  # "cities" for address.city, named by its last word
        return inner.pop()
    # "which city": the records' noun, not the key 城市 the glossary translates it to
    glossary = word not in RECORD_NOUNS
    try:
        return resolve(word, list(keys.values()), glossary=glossary, reverse=glossary)
    except Unsupported:
        return (
            _head_field(word, keys, glossary=glossary)
            or _agent_field(word, keys)
            or _action_field(word, keys)
            or _verb_field(word, keys)
        )


# Endings of a noun of the action a verb names (departure, arrival, creation, payment)
_ACTION_ENDS = ("ure", "al", "ion", "ment")


def _verb_field(word: str, keys: Mapping[str, str]) -> str | None:
    """The one key that a verb in the present names by its noun ("serves": servings, "weighs":
    weight): the verb's stem with -ing or -t, as the key's last word says it; None for any other
    word."""
    if len(word) < 4 or word.endswith(("ed", "ing")):
        return None  # a verb in the present ("shipped" names no shipping cost)
    stems = {stem for stem in (word, re.sub(r"e?s$", "", word)) if len(stem) >= 4}
    stems |= {stem[:-1] for stem in stems if stem.endswith("e")}
    nouns = {stem + end for stem in stems for end in ("ing", "ings", "t")}
    found = {
        key
        for key in keys.values()
        if (words := key_words(key.replace(".", "_"))) and _said_words(words)[-1] in nouns
    }
    return found.pop() if len(found) == 1 else None


def _action_field(word: str, keys: Mapping[str, str]) -> str | None:
    """The one key whose last word is the noun of the action a participle names ("departing":
    departure, "arriving": arrival); None for any other word."""
    if not word.endswith(("ing", "ed")) or len(word) < 6:
        return None
    stems = {stem for stem in word_forms(word) if len(stem) >= 4 and stem != word}
    nouns = {stem + end for stem in stems for end in _ACTION_ENDS}
    nouns |= {stem[:-1] + end for stem in stems if stem.endswith("e") for end in _ACTION_ENDS}
    found = {
        key
        for key in keys.values()
        if (words := key_words(key)) and _said_words(words)[-1] in nouns
    }
    return found.pop() if len(found) == 1 else None


# "delivery date", "creation time": the noun of an action and a word of time, naming the one
# key of a participle and a time end (delivered_on, createdAt)
_ACTION_TIME = re.compile(r"(?<![a-z0-9_])([a-z]{4,})\s+(?:date|time|day)(?![a-z0-9_])")
_NOUN_ENDS = ("", "y", "ure", "al", "ion", "ment")


def _action_time(m: re.Match[str], keys: Mapping[str, str]) -> str:
    """The key ``m`` names (see ``_ACTION_TIME``), or ``m`` as written when none or several."""
    found = set()
    for key in keys.values():
        words = key_words(key)
        if len(words) != 2 or words[1] not in _TIME_ENDS or not words[0].endswith("ed"):
            continue
        stems = {stem for stem in word_forms(words[0]) if len(stem) >= 4 and stem != words[0]}
        nouns = {stem + end for stem in stems for end in _NOUN_ENDS}
        nouns |= {stem[:-1] + end for stem in stems if stem.endswith("e") for end in _NOUN_ENDS}
        if m[1] in nouns:
            found.add(key)
    return f" {found.pop().lower()} " if len(found) == 1 else m[0]


# Last words of a key that say it holds a point in time ("created_at", "releaseDate"): its
# head is the word before ("created", "release").
_TIME_ENDS = frozenset({"at", "on", "date", "time", "day", "year", "from", "since", "until"})


def _head_words(words: list[str]) -> set[str]:
    return {words[-1], words[-2]} if len(words) > 1 and words[-1] in _TIME_ENDS else {words[-1]}


def _agent_field(word: str, keys: Mapping[str, str]) -> str | None:
    """The one key an agent noun names by its verb ("earners", "top earner": those who earn,
    the salary): the word less "er"/"ers", read as a field word; None for any other word."""
    stem = re.sub(r"ers?$", "", word)
    if stem == word or len(stem) < 3 or stem in _CLOSED:
        return None
    try:
        return resolve(stem, list(keys.values()))
    except Unsupported:
        return _head_field(stem, keys)


def _head_field(word: str, keys: Mapping[str, str], *, glossary: bool = True) -> str | None:
    """The one key whose last word ``word`` names, as it is, in a word form or through the
    glossary (a key of one word is its own last word; a key of a point in time also the word
    before: "created" for created_at); None for none or several."""
    words_of = {key: _said_words(words) for key in keys.values() if (words := key_words(key))}
    named = set()
    for part in {w for words in words_of.values() for w in words}:
        try:
            named.add(resolve(word, [part], glossary=glossary))
        except Unsupported:
            continue
    found = [key for key, words in words_of.items() if _head_words(words) & named]
    # "stock" with inStock and stockCount: the last word of one key, a word of another
    elsewhere = [key for key, words in words_of.items() if set(words) & named]
    return found[0] if len(found) == 1 and len(elsewhere) == 1 else None


# The last word of a key that counts what the words before it name ("pageCount",
# "page_count": "pages"), and a first word that does ("num_pages").
_COUNT_ENDS = frozenset({"count", "counts"})
_COUNT_STARTS = frozenset({"num", "number", "no"})


def _said_words(words: list[str]) -> list[str]:
    """A key's words as a field word names them: without a unit after them (price_usd:
    price; temperature_c: temperature, see core/lexicon_zh.UNIT_WORDS) and without a word
    that says the key counts them (pageCount, num_pages: page, pages)."""
    if len(words) > 1 and words[-1] in UNIT_WORDS:
        words = words[:-1]
    if len(words) == 2 and words[-1] in _COUNT_ENDS:
        words = words[:-1]
    elif len(words) == 2 and words[0] in _COUNT_STARTS:
        words = words[1:]
    return words


def _clause(
    words: Sequence[str],
    keys: dict[str, str],
    values: Sequence[str],
    texts: Mapping[str, frozenset[str]],
    source: str,
    flags: tuple[str, ...] = (),
    numeric: tuple[str, ...] = (),
) -> list[_Op]:
    """The operations of one clause (``_one_clause``), or, for a clause it does not read, of an
    aggregate said of a noun phrase of the records (``_aggregate_of``)."""
    try:
        return _one_clause(words, keys, values, texts, source, flags, numeric)
    except Unsupported:
        ops = _aggregate_of(words, keys, values, texts, source, flags, numeric)
        ops = ops or _two_values(words, keys, values, texts, source, flags, numeric)
        ops = ops or _field_of_extreme(words, keys, values, texts, source, flags, numeric)
        if ops is None:
            raise
        return ops


# Words around a field asked of the record at an extreme ("in which neighborhood is the
# biggest flat", "which city has the oldest user", "the team of the top earner")
_OF_EXTREME_WORDS = frozenset({"which", "what", "in", "is", "has", "of", "the", "what's"})


def _field_of_extreme(
    words: Sequence[str],
    keys: dict[str, str],
    values: Sequence[str],
    texts: Mapping[str, frozenset[str]],
    source: str,
    flags: tuple[str, ...],
    numeric: tuple[str, ...],
) -> list[_Op] | None:
    """ "in which neighborhood is the biggest apartment by sqm": one field that is no number,
    said before a record's extreme that the rest of the clause reads alone: that field of the
    record. None for any other clause."""
    named = [(i, f) for i, w in enumerate(words) if (f := _field(w, keys)) is not None]
    if len(named) < 2 or named[0][1] in numeric or named[0][1] not in texts:
        return None
    at, field = named[0]
    if any(w not in _OF_EXTREME_WORDS for w in words[:at]):
        return None
    rest = [w for w in words[at + 1 :] if w not in ("is", "has")]
    try:
        ops = _clause(rest, keys, values, texts, source, flags, numeric)
    except Unsupported:
        return None
    if len(ops) != 1 or not _extreme(ops[0]) or not ops[0].record or field in ops[0].fields:
        return None
    return [replace(ops[0], whole=False), _Op("keep", (field,))]


# Words that open the second condition of a clause after a value ("the high priority tickets
# that aren't closed", "orders from Oslo with status open")
_SECOND_CONDITION = frozenset({"that", "which", "who", "whose", "with", "and", "but"})


def _two_values(
    words: Sequence[str],
    keys: dict[str, str],
    values: Sequence[str],
    texts: Mapping[str, frozenset[str]],
    source: str,
    flags: tuple[str, ...],
    numeric: tuple[str, ...],
) -> list[_Op] | None:
    """ "the high priority tickets that aren't closed": two values of two fields in one clause,
    parted at the word that opens the second condition after the first value; each part read
    as a clause of its own must be filters only (a value of each field, with "not" before the
    second where said). None for any other clause."""
    counted = "count" in words or {"how", "many"} <= set(words)  # "how many urgent jobs …"
    if counted:
        words = [w for w in words if w not in ("count", "how", "many")]
    marks = [i for i, w in enumerate(words) if _VALUE_TOKEN.match(w)]
    if len(marks) != 2:
        return None
    cut = next((i for i in range(marks[0] + 1, marks[1]) if words[i] in _SECOND_CONDITION), None)
    if cut is None:
        return None
    try:
        first = _clause(words[:cut], keys, values, texts, source, flags, numeric)
        second = _clause(words[cut:], keys, values, texts, source, flags, numeric)
    except Unsupported:
        return None
    ops = [*first, *second]
    fields = [op.fields[0] for op in ops if op.kind == "is"]
    if (
        not first
        or not second
        or any(op.kind not in _PHRASE_FILTERS or op.inverted for op in ops)
        or len(fields) != 2
        or len(set(fields)) != 2
    ):
        return None
    return [*ops, _Op("count")] if counted else ops


# Prepositions between an aggregate's field and the records it is of ("the average rent of
# the 2-bedroom flats", "total seats on the trains with wifi")
_OF_PHRASE = frozenset({"of", "on", "for", "across", "among", "in"})
# What the records said after such a preposition are read by (kinds of a filter)
_PHRASE_FILTERS = frozenset({"filter", "is", "one_of", "text", "null", "notnull"})


def _aggregate_of(
    words: Sequence[str],
    keys: dict[str, str],
    values: Sequence[str],
    texts: Mapping[str, frozenset[str]],
    source: str,
    flags: tuple[str, ...],
    numeric: tuple[str, ...],
) -> list[_Op] | None:
    """ "the average rent of the 2-bedroom flats", "total seats on the trains with wifi": an
    aggregate of one field (a total or an average), or fields to keep ("show name and stars
    for the repos with …"), a preposition, then a noun phrase that names the records (their
    noun) and says which (a filter of its own): the filter, then the aggregate or the
    projection. None for a clause of any other shape."""
    at = next((i for i, w in enumerate(words) if w in _AGGREGATES and w not in keys), None)
    if at is not None and any(w in _AGGREGATES for w in words[at + 1 :]):
        return None
    start = 0 if at is None else at + 1  # "show name and stars for the repos with …"
    cut = next((i for i in range(start, len(words)) if words[i] in _OF_PHRASE), None)
    if cut is None:
        return None
    phrase = list(words[cut + 1 :])
    if not any(w in RECORD_NOUNS and w not in keys for w in phrase):
        return None  # "the total of the math scores": no noun phrase of the records
    try:
        head = _one_clause(words[:cut], keys, values, texts, source, flags, numeric)
        which = _clause(phrase, keys, values, texts, source, flags, numeric)
    except Unsupported:
        return None
    if len(head) == 1 and head[0].kind == "fields" and at is None:
        head = [replace(head[0], kind="keep")]  # the fields, each record's
    projection = len(head) == 1 and head[0].kind == "keep" and at is None
    if (
        len(head) != 1
        or not (projection or head[0].kind == "agg")
        or head[0].record
        or (not projection and head[0].comparison not in _AGGREGATES.values())
        or not which
        or any(op.kind not in _PHRASE_FILTERS or op.inverted for op in which)
    ):
        return None
    return [*which, head[0]]


def _one_clause(
    words: Sequence[str],
    keys: dict[str, str],
    values: Sequence[str],
    texts: Mapping[str, frozenset[str]],
    source: str,
    flags: tuple[str, ...] = (),
    numeric: tuple[str, ...] = (),
) -> list[_Op]:
    """The operations of one clause (none for a clause of benign words alone; a filter and a
    count for "count the products with stock above 20"); ``Unsupported`` when a word has no
    class or the slots make no one operation. ``numeric``: the keys that are a number in
    every record (a comparison or an extreme of the records that names no field is of the
    one such key)."""
    if words == ["%nn"]:  # 空值不算: nulls left out of an aggregate (core/query_zh.py)
        return []
    if "%forall" in words:  # "… for everyone": of a count, each group; else a projection
        counting = "count" in words or {"how", "many"} <= set(words)
        words = [w for w in words if w != "%forall" or not counting]
        words = ["keep" if w == "%forall" else w for w in words]
    rounded = [w for w in words if re.fullmatch(r"%r\d", w)]
    if rounded:  # "rounded to 2 decimals": a clause of its own
        if len(rounded) > 1 or any(
            w not in rounded and w not in _BENIGN and w not in ("and", "then", "please")
            for w in words
        ):
            raise _refuse("a rounding with more in its clause")
        return [_Op("round", number=rounded[0][2:])]
    numbered = [w for w in words if _RECORD_NUMBER_TOKEN.match(w)]
    if numbered:  # "what's the title of issue 421?", "who is 444 assigned to?"
        return _numbered_clause(words, numbered, keys)
    if "%or" in words:  # "pending or shipped orders": one field, one of the values
        return _one_of_clause(words, keys, values, texts, source, flags, numeric)
    if "%all" in words:  # "are all of them over 30": no record is 30 or under
        ops = _clause(
            [w for w in words if w != "%all"], keys, values, texts, source, flags, numeric
        )
        if len(ops) != 1 or ops[0].kind != "filter" or ops[0].number.startswith('"'):
            raise _refuse("a question whether all records are so, of no one comparison")
        return [_inverted(ops[0]), _Op("none")]
    asked = "%any" in words  # "does anyone earn over 100k": whether any record is so
    asked_q = asked or "%yn" in words  # 吗 ends a question that "有没有" or "yes or no" asks
    words = [w for w in words if w not in ("%any", "%yn") and (w != "%q" or not asked_q)]
    if asked:
        ops = _clause(words, keys, values, texts, source, flags, numeric)
        if not set(words) & {"not", "non", "no", "without"}:
            # "is any of the lost parcels insured?": a flag said alone, asked whether so
            ops = [
                _Op("is", op.fields, value="true")
                if op.kind in ("keep", "fields") and len(op.fields) == 1 and op.fields[0] in flags
                else op
                for op in ops
            ]
        if not ops or any(op.kind not in ("filter", "is") for op in ops):
            raise _refuse("a yes/no question of something other than records that match")
        return [*ops, _Op("exists")]
    targets = {f for w in words if (f := _FORMATS.get(w)) is not None and f != source}
    if targets:
        if len(targets) > 1 or any(
            w not in _FORMATS and w not in _CONVERT and w not in _BENIGN for w in words
        ):
            raise _refuse("a conversion clause with words it does not know")
        return [_Op("convert", fields=tuple(targets))]
    # the payload's own format names the data ("here's a YAML list")
    words = [w for w in words if _FORMATS.get(w) != source or w in keys]
    for w in words:
        if (w in _BENIGN or w in _LINKS) and w in keys:
            if w in RECORD_NOUNS and any(
                n in RECORD_NOUNS and n not in keys and n != w for n in words
            ):
                continue  # "the order with the most items": the orders are the records
            raise _refuse(f"'{w}' is a key of the records and a word of the request")
    if all(w in _BENIGN or w in _LINKS or (w in RECORD_NOUNS and w not in keys) for w in words):
        return []  # "give me those people": the records, said again
    said_words = set(words)
    if said_words & (_DISTINCT | {"%alpha", "%alphadesc"}) or (
        said_words & _APPEAR and said_words & {"what", "which"}
    ):
        return _distinct_clause(words, keys)
    picked = (
        _fields_of_records(words, keys)
        or _fields_after_records(words, keys)
        or _fields_listed(words, keys)
    )
    if picked is not None:  # "ids of orders with status pending": the filter, then the ids
        fields_said, after = picked
        return [
            *_clause(after, keys, values, texts, source, flags, numeric),
            _Op("keep", fields_said),
        ]
    said = [w for w in words if _FLAG_TOKEN.match(w)]
    if said:
        counted = "count" in words or {"how", "many"} <= set(words)  # "how many are in stock"
        rest = (
            [w for w in words if w not in ("count", "how", "many", "there")] if counted else words
        )
        try:
            if len(said) > 1 and len({w[2:] for w in said}) == len(said):
                # "with a sea view and a balcony": each flag so, the clause holds nothing else
                ops = [_flag_filter([f], [w for w in rest if w not in said], flags) for f in said]
            else:
                ops = [_flag_filter(said, rest, flags)]
        except Unsupported:
            if len(said) > 1:
                raise
            # "in-stock products that cost more than 40", "the cheapest remote employee": the
            # flag says which records, and the rest of the clause is read of them
            rest = [w for w in rest if w not in said]
            if set(rest) & (_REMOVE | {"except", "not", "without", "but"}):
                raise _refuse("a flag with a word that inverts it") from None
            more = _clause(rest, keys, values, texts, source, flags, numeric)
            kinds = _AFTER_FLAG & {"filter", "is", "one_of", "text"} if counted else _AFTER_FLAG
            if not more or any(op.kind not in kinds for op in more):
                raise _refuse("a flag with an operation it does not go with") from None
            ops = [_flag_filter(said, [], flags), *more]
        return [*ops, _Op("count")] if counted else ops
    said_year = "%year" in words  # a number said as a year ("in 2019", "after 2019")
    timed = "%time" in words  # "the earliest order", "hired first": an extreme in time
    words = [w for w in words if w not in ("%year", "%time")]
    words = _value_superlatives(words, keys)
    words = _value_named(words, keys, values, texts)
    one = "one" in words and "one" not in keys  # "give me the one with …", 那个
    words = [w for w in words if w != "one" or w in keys]
    # "which item has the highest rating", "give me the one with …", "return the youngest
    # user": the record itself is the answer
    whole = bool({"which", "who", "who's"} & set(words)) or any(w in _ASKS for w in words)
    whole = whole or _noun_with(words, keys)  # "the employee with the highest salary"
    money = "%money" in words  # "under $60": a number of the field of cost
    words = [w for w in words if w != "%money"]
    modifier = _field_of_records(words, keys)
    fields: list[str] = []
    rest: list[str] = []
    for i, w in enumerate(words):
        if w in ("level", "levels") and i and _field(words[i - 1], keys):
            continue  # "stock level": the field's own word
        if w in _MARKS and i and _field(w, keys) is None and _field(words[i - 1], keys) in numeric:
            continue  # "the math score" of a key math: the mark the field holds
        key = _field(w, keys)
        if key is not None:
            fields.append(key)
        elif group := _plural_head(w, keys):  # "names" for firstName and lastName
            fields.extend(group)
        elif (
            w not in _BENIGN
            and (w not in RECORD_NOUNS or w in _CLOSED)  # "order" sorts
            and not _noun_before_field(words, i, keys)  # "the average order total"
            and not _noun_after_extreme(words, i, keys)  # "the biggest order"
        ):
            rest.append(w)
    twice = len(set(fields)) < len(fields)
    fields = list(dict.fromkeys(fields))  # "arrange by age from youngest to oldest"
    if money and not fields:
        cost = _field("cost", keys)
        if cost is None:
            raise _refuse("a sum of money and no one field of cost")
        fields.append(cost)
    dirs = [w[1:] for w in rest if w.startswith("@")]
    cmps = [w[1:] for w in rest if w.startswith("#")]
    numbers = [w for w in rest if _NUMBER.match(w)]
    numbers += [json.dumps(f"{w[2:6]}-{w[6:8]}-{w[8:]}") for w in rest if _DATE_TOKEN.match(w)]
    numbers += [_date_time(w) for w in rest if _DATE_TIME_TOKEN.match(w)]
    numbers += [f'"%h{w[2:]}"' for w in rest if _CLOCK_TOKEN.match(w)]
    rest = [
        w
        for w in rest
        if not _DATE_TOKEN.match(w) and not _DATE_TIME_TOKEN.match(w) and not _CLOCK_TOKEN.match(w)
    ]
    marked = [values[int(w[2:])] for w in rest if _VALUE_TOKEN.match(w)]
    head = {
        w
        for w in rest
        if not w.startswith(("@", "#")) and not _NUMBER.match(w) and not _VALUE_TOKEN.match(w)
    }
    if len(dirs) > 1 or len(marked) > 1:
        raise _refuse("a clause says more than one query")
    extremes = head & (_UP | _DOWN)
    unnamed = {c for c in head & _CONCEPTS if _field(c, keys) is None}
    if unnamed and extremes and "by" in head and len(fields) == 1:
        # "the 3 longest books by page count": the superlative names no key of the records,
        # and "by" names the field it ranks by; the superlative says which end
        head -= unnamed
        rest = [w for w in rest if w not in unnamed]
    clocks = [n for n in numbers if n.startswith('"%h')]
    if not fields and clocks:  # "flights before 9am": the one field of date-times of one day
        found = [k for k, vs in texts.items() if _on_the_day("0000", vs)]
        if len(found) != 1:
            raise _refuse(f"a time of day, and {len(found)} fields of times on one day")
        fields.append(found[0])
    timed_at = [n for n in numbers if n.startswith('"') and "T" in n]
    if not fields and timed_at:  # "readings after 2024-06-03T08:03:00Z"
        found = [k for k, vs in texts.items() if _same_shape(json.loads(timed_at[0]), vs)]
        if len(found) != 1:
            raise _refuse(f"a point in time, and {len(found)} fields of its shape: name one")
        fields.append(found[0])
    if not fields and any(n.startswith('"') for n in numbers):  # "orders since 2024-03-08"
        fields.append(_lone_date(texts))
    if not fields and said_year:  # "orders after 2019": of the one field of dates or years
        fields.append(_lone_time(texts, numeric))
    if timed:
        _time_extreme(words, fields, head, keys, texts, numeric)
        if numbers or cmps or dirs:
            raise _refuse("an extreme in time with a number, a comparison or an order")
    if _said_count(words, fields, numbers, cmps, dirs, head, keys):
        cmps = ["=="]  # "which flight has 0 seats left", "books with 300 pages": that many
        head -= {"exactly"}
    compared = len(cmps) == 1 and len(numbers) == 1 and not dirs
    extreme = bool(extremes) and not numbers and not cmps and not dirs
    named = one or _names_records(words, keys)
    if not fields and not marked and not money and named and (compared or extreme):
        fields.append(_lone_number(numeric))  # "orders over 100", "the biggest order"
    if "by" in head and extremes and len(fields) == 1 and not numbers and not cmps and not dirs:
        head.discard("by")  # "the biggest by area": the record with the highest area
        head.add(_RECORD_MARK)
    direction = _ORDER.get(dirs[0], dirs[0]) if dirs else ""
    magnitude = bool(dirs) and dirs[0] in _ORDER
    record = _RECORD_MARK in head
    head.discard(_RECORD_MARK)
    itself = record and twice and "of" in head and len(fields) == 1
    if itself:
        record = False  # "the price of the cheapest product": the lowest price itself
        head.discard("of")
    counted = "count" in head or {"how", "many"} <= head
    if record and len(marked) == 1 and not (counted or cmps or numbers or dirs):
        # "the priciest flight to JFK", "the youngest engineer": of the records that hold the
        # value (its one field, none of the clause's), the extreme
        at = next(i for i, w in enumerate(words) if _VALUE_TOKEN.match(w))
        cut = at - 1 if at and words[at - 1] in _VALUE_PREPOSITIONS else at
        holders = [k for k, vs in texts.items() if marked[0] in vs]
        if len(holders) == 1 and holders[0] not in fields:
            rest_words = [*words[:cut], *words[at + 1 :]]
            try:
                picked_ops = _clause(rest_words, keys, values, texts, source, flags, numeric)
            except Unsupported:
                picked_ops = []  # the refusal below says why
            if picked_ops and _extreme(picked_ops[0]) and picked_ops[0].record:
                return [_value_filter(marked[0], [], set(), [], [], texts), *picked_ops]
    if record and (marked or counted or cmps or head & _NUMBER_WORDS):
        raise _refuse("a superlative with a clause it does not go with")
    if counted:
        head -= {"count", "how", "many", "are", "there"}
    removing = bool(head & _REMOVE)  # "remove the ones in Sales": the filter inverted
    head -= _REMOVE
    if "%much" in head and not fields:  # "how much is the webcam": its price
        fields.append(_field("cost", keys) or "")
        if not fields[0]:
            raise _refuse("'how much' and no one field of cost")
    plural = _said_plural(words, fields, keys)
    slots = not cmps and not numbers and not dirs and not counted
    if marked and len(fields) > 1 and plural and slots and not head - _LOOKUP_WORDS:
        # "the names of the engineers" (firstName, lastName): the records, then the fields
        held = {k for k, vs in texts.items() if marked[0] in vs}
        if held & set(fields):
            raise _refuse("a value filter that says more than one thing")
        ops = [_value_filter(marked[0], [], {"in"}, [], [], texts), _Op("keep", tuple(fields))]
    elif marked and len(fields) == 1 and slots:
        # "the average salary in Sales", "Bob's age", "how old is Bob"; "the names of the
        # engineers": the records that hold the value, then the field
        holders = [k for k, vs in texts.items() if marked[0] in vs]
        if plural and not head and len(holders) == 1 and fields[0] not in holders:
            ops = [_Op("lookup")]  # "issue numbers assigned to ajones": the records, then F
        else:
            ops = _of_value(marked[0], fields[0], head, texts, numeric)
        if plural and [op.kind for op in ops] == ["lookup"]:
            ops = [_value_filter(marked[0], [], {"in"}, [], [], texts), _Op("keep", fields[:1])]
        elif [op.kind for op in ops] == ["lookup"] and any(
            w in RECORD_NOUNS and w not in keys and w.endswith("s") for w in words
        ):
            # "issues created by ajones": records, not a field of the one record
            raise _refuse("a field of one record, and the records said in the plural")
    elif (
        marked
        and len(fields) == 1
        and len(cmps) == 1
        and len(numbers) == 1
        and cmps[0] not in _EQUALITY
        and not dirs
        and [k for k, vs in texts.items() if marked[0] in vs] not in ([], [fields[0]])
    ):
        # "open issues with more than 10 comments": the value's records, then the comparison
        said_in = head & _VALUE_PREPOSITIONS  # "users older than 30 in Engineering"
        ops = [
            _value_filter(marked[0], [], said_in, [], [], texts),
            _operation(fields, head - said_in, rest, dirs, cmps, numbers, direction, magnitude),
        ]
    elif marked:
        ops = [_value_filter(marked[0], fields, head, cmps, numbers + dirs, texts)]
    elif head & _NUMBER_WORDS - {"bare", "plain"}:
        if fields or numbers or cmps or dirs or counted:
            raise _refuse("a number asked for with a query in one clause")
        if head - _NUMBER_WORDS - _LINKS - {"as", "a"}:
            raise _refuse("a number asked for with words the frame does not know")
        return [_Op("number")]
    elif counted and not fields and not numbers and not cmps and not dirs:
        if head - _LINKS - {"of"}:
            raise _refuse("a count with words it does not know")
        ops = []
    elif counted and len(fields) == 1 and set(words) & _PER and not (numbers or cmps or dirs):
        # "count products per category", "how many in each team": a count per value
        if head - _PER - _LINKS - {"of", "give", "me", "a"} or fields[0] not in texts:
            raise _refuse("a count per value with words it does not know")
        if not texts[fields[0]]:
            raise _refuse("a count per value of a field with no text values")
        return [_Op("group", (fields[0],))]
    elif len(cmps) == 2 and len(numbers) == 2 and len(fields) == 1 and not direction:
        if {c[0] for c in cmps} != {">", "<"}:  # a lower and an upper bound, not two lower
            raise _refuse("two comparisons that make no range")
        if head - _FILTER_WORDS:  # a range: "between 30 and 40 inclusive"
            raise _refuse("a range with words it does not know")
        ops = [
            _Op("filter", (fields[0],), number=n, comparison=c)
            for c, n in zip(cmps, numbers, strict=True)
        ]
    elif (
        len(fields) == 1
        and head & {"per", "each"}
        and head <= {"per", "each", "for"}
        and not (numbers or cmps or dirs or marked or record)
    ):
        # "cities per continent" (then "give me a count for each"): the field a count in a
        # clause after it is per
        return [_Op("per", (fields[0],))]
    else:
        nouns = any(w in RECORD_NOUNS and w not in keys for w in words)
        ops = _of_extreme(fields, head, nouns, words, keys) if record and len(fields) == 2 else []
        ops = ops or [_operation(fields, head, rest, dirs, cmps, numbers, direction, magnitude)]
        if record and len(ops) == 1:
            if ops[0].kind not in ("agg", "top") or ops[0].comparison in _AGGREGATES.values():
                raise _refuse("a superlative that asks for no record")
            ops = [replace(ops[0], record=True)]
    if [op.kind for op in ops] == ["fields"] and (
        set(words) & (_ASKS | {"list"}) or _said_plural(words, ops[0].fields, keys)
    ):
        ops = [replace(ops[0], kind="keep")]  # "give me all the skus", "list name and price"
    if modifier and any(op.kind in ("keep", "fields") for op in ops):  # "the remote ones"
        raise _refuse("a field said of the records, not a projection")
    if not itself and (
        modifier
        or one
        or any(
            w in RECORD_NOUNS
            and w not in keys
            and not _noun_before_field(words, i, keys)
            and not _domain_noun(words, i)
            for i, w in enumerate(words)
        )
    ):
        # "the lowest paid employee", "面积最小的城市": an extreme of the records is a record
        ops = [replace(op, record=True) if _extreme(op) else op for op in ops]
    if whole:  # "which item has the highest rating", "give me the one with …": the record
        ops = [replace(op, whole=True) if op.record and _extreme(op) else op for op in ops]
        if {"which", "who", "who's"} & set(words):
            # "rating highest is which", 人口最少的是哪些, "who earns the most": "which" and
            # "who" ask for a record, never for the extreme value of its field
            ops = [replace(op, record=True, whole=True) if _extreme(op) else op for op in ops]
    if removing:
        if counted or len(ops) != 1 or ops[0].kind not in ("filter", "is"):
            raise _refuse("a removal of something other than the records of one filter")
        ops = [_inverted(ops[0])]
    if counted:
        if any(op.kind not in ("filter", "is") for op in ops):
            raise _refuse("a count of something other than records")
        ops.append(_Op("count"))
    return ops


# Prepositions before a value that says which records an extreme is of ("the priciest flight
# to JFK", "the oldest employee in Sales")
_VALUE_PREPOSITIONS = frozenset({"to", "in", "from", "at", "for", "on", "with"})

# Words a clause of distinct values may hold besides its field ("list every distinct label",
# "which distinct cities do the users live in", "what statuses appear in these orders? just
# the distinct values, alphabetically")
_DISTINCT_WORDS = (
    _DISTINCT | _APPEAR | _ASKS | _SORT | _MEMBERSHIP | {"list", "values", "value", "all"}
    | {"every", "each", "of", "in", "across", "these", "those", "them", "do", "does", "are"}
    | {"there", "what", "which", "only", "just", "the", "me", "us", "%alpha", "%alphadesc"}
    | {"and", "show", "tell", "please", "pls", "can", "could", "you", "would", "i", "need"}
)  # fmt: skip


# Words that say a field holds null ("series is null", "no battery_pct value", "without a
# manager_id", "missing a series"), and words such a clause may hold besides
_NULL_CUES = frozenset({"null", "no", "without", "missing"})
_NULL_WORDS = (
    _FILTER_WORDS
    | _LINKS
    | _ASKS
    | frozenset(
        {"the", "a", "an", "any", "value", "values", "set", "not", "isn't", "non", "list", "me"}
        | {"all", "them", "ones", "one", "%q", "please", "pls", "and"}
        # "no spice level given", "no delivery date yet": said of the value, not a field
        | {"given", "provided", "specified", "recorded", "listed", "yet", "currently"}
    )
)


def _null_clause(words: Sequence[str], keys: Mapping[str, str], nulls: frozenset[str]) -> list[_Op]:
    """ "series is null", "the sensors that have no battery_pct value", "books without a
    series", "manager_id is not null": a test of a field that is null in some records; none
    for a clause with no word of null, ``Unsupported`` for one that is not only such a test."""
    said = set(words)
    if not said & _NULL_CUES and not any(w.startswith("un") for w in words):
        return []
    if said & _NULL_CUES & set(keys):
        raise _refuse("a word of null that is also a key of the records")
    # "unassigned issues": no value of the field the participle names (assignee)
    undone = {
        w: named[0]
        for w in words
        if w.startswith("un")
        and w not in keys
        and len(named := [k for k in nulls if _verb_names(w[2:], k)]) == 1
    }
    if undone:
        words = [x for w in words for x in (("no", undone[w].lower()) if w in undone else (w,))]
        said = set(words)
    picked = _fields_of_records(words, keys)
    if picked is not None:  # "titles of books with no series": the test, then the titles
        tested = _null_clause(picked[1], keys, nulls)
        return [*tested, _Op("keep", picked[0])] if tested else []
    if "count" in said or {"how", "many"} <= said:  # "how many sensors have no battery_pct"
        rest = [w for w in words if w not in ("count", "how", "many", "there")]
        tested = _null_clause(rest, keys, nulls)
        return [*tested, _Op("count")] if tested else []
    fields = {f for w in words if w not in _NULL_CUES and (f := _field(w, keys)) is not None}
    if len(fields) != 1 or not fields <= nulls:
        return []  # "no more than 3" and the like: the clause is another's
    (field,) = fields
    rest = [
        w
        for w in words
        if _field(w, keys) != field and w not in _NULL_CUES and w not in _NULL_WORDS
        and not (w in RECORD_NOUNS and w not in keys)
    ]  # fmt: skip
    if rest or any(w in keys for w in said & _NULL_WORDS):
        raise _refuse(f"a test of null with words the frame does not know: {rest}")
    at = next(i for i, w in enumerate(words) if _field(w, keys) == field)
    cue = next(w for w in words if w in _NULL_CUES)
    negated = bool(said & {"not", "isn't", "non"})
    if cue == "null":  # "series is null", "is not null": said after the field
        if "null" in words[:at] or (negated and said & {"no", "without", "missing"}):
            raise _refuse("a test of null said in a way the frame does not read")
        return [_Op("notnull" if negated else "null", (field,))]
    if negated or words.index(cue) > at:  # "no series", "without a series", "missing a series"
        raise _refuse("a test of null said in a way the frame does not read")
    return [_Op("null", (field,))]


# Words a question of one record named by its number may hold besides the field asked
_NUMBERED_WORDS = _BENIGN | _LINKS | _ASKS | {"to", "by", "for", "the", "me", "what", "of"}
_NUMBERED_WORDS |= {"what's", "is", "how", "does", "do", "which", "in", "tell", "%poss"}


def _numbered_clause(
    words: Sequence[str], numbered: Sequence[str], keys: Mapping[str, str]
) -> list[_Op]:
    """The record a number names ("issue 421"): its one field asked ("the title of issue
    421", "who is 444 assigned to?": a participle names its agent or patient field), or the
    record itself; ``Unsupported`` for anything more."""
    m = _RECORD_NUMBER_TOKEN.match(numbered[0])
    assert m is not None
    number, by = m[1], keys.get(m[2])
    if len(numbered) > 1 or by is None:
        raise _refuse("more than one record named by its number")
    fields: list[str] = []
    for w in words:
        if w == numbered[0] or (w in _NUMBERED_WORDS and w not in keys):
            continue
        if w in RECORD_NOUNS and w not in keys:
            continue
        key = _field(w, keys)
        if key is None and w.endswith(_PARTICIPLE_ENDS):
            named = [k for k in keys.values() if _verb_names(w, k)]
            key = named[0] if len(set(named)) == 1 else None
        if key is None:
            raise _refuse(f"a record named by its number, and a word the frame does not know: {w}")
        fields.append(key)
    fields = list(dict.fromkeys(fields))
    if len(fields) > 1 or by in fields:
        raise _refuse("a record named by its number, and more than one field asked")
    if fields:
        return [_Op("lookup", (fields[0], by), value=number)]
    return [_Op("filter", (by,), number=number, comparison="==")]


def _distinct_clause(words: Sequence[str], keys: Mapping[str, str]) -> list[_Op]:
    """ "the distinct statuses", "what cities appear", "just the distinct values", "sort them
    A-Z": the different values of the one field said (none: of the field of the clause
    before), in an order of text when one is said; an order alone is its own operation."""
    alpha = "desc" if "%alphadesc" in words else "asc" if "%alpha" in words else ""
    said = set(words)
    distinct = bool(said & _DISTINCT) or (bool(said & _APPEAR) and bool(said & {"what", "which"}))
    fields = []
    for w in words:
        if w in _DISTINCT_WORDS:
            if w in keys:
                raise _refuse(f"'{w}' is a key of the records and a word of the request")
            continue
        key = _field(w, keys)  # "distinct cities" of address.city; else the records' noun
        if key is None and w in RECORD_NOUNS:
            continue
        if key is None:
            raise _refuse(f"distinct values with a word the frame does not know: '{w}'")
        fields.append(key)
    fields = list(dict.fromkeys(fields))
    if len(fields) > 1 or not (distinct or alpha) or (not distinct and fields):
        raise _refuse("distinct values of no one field")
    return [_Op("distinct" if distinct else "alpha", tuple(fields), direction=alpha)]


def _time_extreme(
    words: Sequence[str],
    fields: list[str],
    head: set[str],
    keys: Mapping[str, str],
    texts: Mapping[str, frozenset[str]],
    numeric: tuple[str, ...],
) -> None:
    """ "the earliest order", "the most recent hire", "the latest created_at": the extreme is
    of the one field of dates or years the clause names (or of the one such field of the
    records); a word other than the key itself names the record at that extreme ("hire",
    "hired" for hireDate), the key itself its value. ``fields`` and ``head`` are completed in
    place; ``Unsupported`` when no one field of time is the extreme's."""
    times = [f for f in fields if _time_key(f, numeric, texts)]
    if len(times) > 1:
        raise _refuse("an extreme in time of more than one field of dates")
    if not times:  # "the newest product": a record; its field where the extreme is said
        at = next(i for i, w in enumerate(words) if w in _UP | _DOWN)
        before = {f for w in words[:at] if (f := _field(w, keys)) is not None}
        fields.insert(len(before), _lone_time(texts, numeric))
        head.add(_RECORD_MARK)
        return
    said = [w for w in words if _field(w, keys) == times[0]]
    if any(w != times[0].lower() for w in said):
        head.add(_RECORD_MARK)


def _value_named(
    words: list[str],
    keys: Mapping[str, str],
    values: Sequence[str],
    texts: Mapping[str, frozenset[str]],
) -> list[str]:
    """``words`` with a value's own field said right after it dropped ("the Engineering
    department", "the Sales team": the value, of that field), and "by" right before a value
    read as "in" ("books by Mei Lin": the records that hold it)."""
    out: list[str] = []
    skip = -1
    for i, w in enumerate(words):
        if i == skip:
            continue
        before = out[-1] if out else ""
        key = _field(w, keys) if _VALUE_TOKEN.match(before) else None
        if key is not None and values[int(before[2:])] in texts.get(key, frozenset()):
            continue
        if w == "by" and i + 1 < len(words) and _VALUE_TOKEN.match(words[i + 1]):
            w = "in"
        if (
            i + 2 < len(words)
            and words[i + 1] in ("by", "to")
            and _VALUE_TOKEN.match(words[i + 2])
            and _agent_verb(w, values[int(words[i + 2][2:])], texts)
        ):
            skip = i + 1  # "published by Penguin", "assigned to ajones": the value's own field
            continue
        if (
            i + 1 < len(words)
            and _VALUE_TOKEN.match(words[i + 1])
            and _agent_verb(w, values[int(words[i + 1][2:])], texts)
        ):
            continue  # "labelled performance", "titled Salt": the value's own field
        if (
            i + 1 < len(words)
            and _VALUE_TOKEN.match(words[i + 1])
            and w not in _CLOSED
            and _field(w, keys) is None
            and _names_holder(w, values[int(words[i + 1][2:])], texts)
        ):
            continue  # "in milestone v2.1" of a key some records lack: the value's own field
        out.append(w)
    return out


# Endings of a noun of the one who does or undergoes what a verb says (publisher, creator,
# assignee), and of the verb's participle (published, assigned)
_AGENT_ENDS = ("ee", "er", "or", "r")
_PARTICIPLE_ENDS = ("ed", "d")


def _names_holder(word: str, value: str, texts: Mapping[str, frozenset[str]]) -> bool:
    """Whether ``word`` names the one field that holds ``value`` (as the key, a word form of
    it, or its last word: "milestone" for milestone, "firmware" for meta.firmware)."""
    holders = [k for k, vs in texts.items() if value in vs]
    if len(holders) != 1 or not word.isalpha():
        return False
    last = holders[0].rsplit(".", 1)[-1]
    try:
        resolve(word, [last], glossary=False)
    except Unsupported:
        return False
    return True


def _agent_verb(word: str, value: str, texts: Mapping[str, frozenset[str]]) -> bool:
    """Whether ``word`` is a participle whose agent or patient noun is the one field that holds
    ``value`` ("published by Penguin": publisher.name; "assigned to ajones": assignee;
    "created by" creator, "owned by" owner): the verb's stem is the noun's less its ending."""
    holders = [k for k, vs in texts.items() if value in vs]
    return len(holders) == 1 and _verb_names(word, holders[0])


def _verb_names(word: str, key: str) -> bool:
    """Whether the participle ``word`` names ``key`` by its agent or patient noun (published:
    publisher, assigned: assignee) or by a stem they share (labelled: labels)."""
    if not word.endswith(_PARTICIPLE_ENDS) or len(word) < 5:
        return False
    noun = key_words(key.split(".")[0])[-1]
    verbs = {word[: -len(end)] for end in _PARTICIPLE_ENDS if word.endswith(end)}
    verbs |= word_forms(word) | ({word[:-3]} if word.endswith("lled") else set())  # labelled
    nouns = {noun[: -len(end)] for end in _AGENT_ENDS if noun.endswith(end)}
    nouns |= word_forms(noun)  # "labelled performance" of labels, "titled Salt" of title
    shared = {stem for stem in verbs & nouns if len(stem) >= 3}
    return bool(shared)


# Words a clause that says how many of a field a record has may hold ("which flight has 0
# seats left", "the books with exactly 300 pages").
_COUNT_WORDS = frozenset({"has", "have", "with", "which", "that", "who", "exactly", "only"})


def _counts_things(key: str) -> bool:
    """Whether a key holds how many of something there are: a plural among its words
    (bedrooms, seatsLeft) or a last word of counting (pageCount, stock_qty); "floor" holds a
    position, and "2 floors" is no floor 2."""
    words = key_words(key)
    return any(w.endswith("s") and not w.endswith("ss") for w in words) or words[-1] in (
        "count", "number", "num", "qty", "quantity", "total", "n",
    )  # fmt: skip


def _said_count(
    words: Sequence[str],
    fields: Sequence[str],
    numbers: Sequence[str],
    cmps: Sequence[str],
    dirs: Sequence[str],
    head: set[str],
    keys: Mapping[str, str],
) -> bool:
    """Whether a clause says a record has a number of its one field, the number right before
    the field's word and no word of an extreme or a comparison ("has 0 seats left"), the field
    one that counts (``_counts_things``)."""
    if len(fields) != 1 or len(numbers) != 1 or cmps or dirs or head - _COUNT_WORDS:
        return False
    if not head & {"has", "have", "with"}:
        return False
    return _counts_things(fields[0]) and any(
        w == numbers[0] and _field(words[i + 1], keys) == fields[0]
        for i, w in enumerate(words[:-1])
    )


def _value_superlatives(words: list[str], keys: Mapping[str, str]) -> list[str]:
    """``words`` without the record mark of a superlative followed by its own field ("the
    oldest age", "the cheapest price": the extreme of the field, a number, not a record)."""
    out = list(words)
    for i in range(len(out) - 2, 0, -1):
        if out[i] == _RECORD_MARK and i + 1 < len(out):
            concept, said = _field(out[i - 1], keys), _field(out[i + 1], keys)
            if concept is not None and concept == said:
                del out[i : i + 2]
    return out


# The keys of several words the instruction being read says in the plural ("invoice numbers"
# for invoiceNo, written as the key before the clauses are read)
_PLURAL_KEYS: ContextVar[AbstractSet[str]] = ContextVar("_PLURAL_KEYS", default=frozenset())


def _said_plural(words: Sequence[str], fields: Sequence[str], keys: Mapping[str, str]) -> bool:
    """Whether a word naming one of ``fields`` is said in the plural ("names", "prices",
    "invoice numbers"): the values of several records."""
    plural = _PLURAL_KEYS.get()
    if any(w in plural and keys.get(w) in fields for w in words):
        return True
    return any(
        w.endswith("s")
        and not w.endswith("ss")
        and ((_field(w, keys) in fields and not str(_field(w, keys)).lower().endswith("s"))
             or bool(_plural_head(w, keys)))
        for w in words
    )  # fmt: skip


def _plural_head(word: str, keys: Mapping[str, str]) -> tuple[str, ...]:
    """The keys whose last word is the singular of ``word``, a plural, when there are two or
    more and none is that word itself ("names" for firstName and lastName): a projection may
    keep them all; () for any other word."""
    if not word.endswith("s") or word in _CLOSED or word[:-1] in keys:
        return ()
    group = tuple(key for key in keys.values() if key_words(key)[-1:] == [word[:-1]])
    return group if len(group) > 1 else ()


def _names_records(words: Sequence[str], keys: Mapping[str, str]) -> bool:
    """Whether a clause names the records themselves ("orders", "the ones", "items")."""
    nouns = RECORD_NOUNS | {"ones", "those"}
    return any(w in nouns and w not in keys for w in words)


def _lone_number(numeric: tuple[str, ...]) -> str:
    """The one key that is a number in every record; ``Unsupported`` for none or several."""
    if len(numeric) != 1:
        raise _refuse(f"no field named, and {len(numeric)} fields hold numbers: name one")
    return numeric[0]


def _noun_after_extreme(words: Sequence[str], i: int, keys: Mapping[str, str]) -> bool:
    """Whether ``words[i]`` is the records' noun right after an extreme or "which" ("the
    biggest order", "which order is the smallest"): "order" then names the records, not a
    sort."""
    return (
        words[i] in RECORD_NOUNS
        and words[i] not in keys
        and i > 0
        and (
            words[i - 1] in _UP | _DOWN | {"which"}
            or (i > 1 and words[i - 1] == "the" and words[i - 2] in _ASKS)  # "return the order"
        )
        and "by" not in words
    )


# what a clause may ask of the records a flag picks ("the average price of in-stock products")
_AFTER_FLAG = frozenset({"filter", "is", "one_of", "text", "sort", "top", "first", "agg", "keep"})


def _flag_filter(said: list[str], words: Sequence[str], flags: tuple[str, ...]) -> _Op:
    """ "only the remote ones": the records whose flag is true (false for "non-remote"); the
    clause holds nothing else."""
    rest = [w for w in words if w not in said and w not in RECORD_NOUNS]
    if len(said) > 1 or any(
        w not in _BENIGN and w not in _FILTER_WORDS and w != "among" for w in rest
    ):
        raise _refuse("a flag with words it does not know")
    value = "true" if said[0][1] == "t" else "false"
    return _Op("is", (flags[int(said[0][2:])],), value=value)


def _noun_before_field(words: Sequence[str], i: int, keys: Mapping[str, str]) -> bool:
    """Whether ``words[i]``, a records' noun that is also a sort verb ("order"), is said as the
    noun right before a field of the records in a clause of an aggregate ("the average order
    total"), not of a sort ("order total descending")."""
    return (
        words[i] in RECORD_NOUNS
        and (i == 0 or words[i - 1] != "which")  # "which product costs the most": a record
        and "by" not in words
        and any((w in _AGGREGATES or w in _UP or w in _DOWN) and w not in keys for w in words)
        and i + 1 < len(words)
        and _field(words[i + 1], keys) is not None
        and not _verb_form(words[i + 1], keys)  # "the person earning the most": a record
    )


def _noun_with(words: Sequence[str], keys: Mapping[str, str]) -> bool:
    """Whether a clause is the records' noun, "with" and an extreme ("the employee with the
    highest salary", "the city with the most people"): it names one record."""
    return any(
        w in RECORD_NOUNS
        and w not in keys
        and at + 1 < len(words)
        and words[at + 1] == "with"
        and any(w in _UP | _DOWN for w in words[at + 2 :])
        for at, w in enumerate(words)
    )  # "the full record of the city with the lowest population" too


def _verb_form(word: str, keys: Mapping[str, str]) -> bool:
    """Whether ``word`` names its field as a verb ("earning", "paid", "costs"), not as the
    key or a plural of one of its words ("amounts" for total_amount)."""
    key = _field(word, keys)
    if key is None:
        return False
    if word.endswith(("ing", "ed")):
        return True
    said = [*key_words(key), key.lower()]
    return word.endswith("s") and word not in said and word[:-1] not in said


def _domain_noun(words: Sequence[str], i: int) -> bool:
    """Whether the records' noun ``words[i]`` says where an aggregate is taken ("the minimum
    population among these cities", "the highest salary of all employees"), not what is asked."""
    before = [w for w in words[:i] if w not in ("the", "these", "those", "all", "every")]
    return bool(before) and before[-1] in ("among", "across", "of", "in", "within")


def _extreme(op: _Op) -> bool:
    return op.kind == "agg" and op.comparison in ("highest", "lowest")


def _fields_of_records(
    words: Sequence[str], keys: Mapping[str, str]
) -> tuple[tuple[str, ...], list[str]] | None:
    """ "ids of orders with status pending", "the names of the products over $50": the fields
    before "of" and the records' noun, and the words after that noun (a clause of its own);
    None for any other clause."""
    # "for" only after a word of projection ("show only name and price for items under $50")
    kept = bool(_KEEP & set(words))
    links = ("of", "for", "where", "whose") if kept else ("of",)
    at = next((i for i, w in enumerate(words) if w in links), None)
    if at is None or at == 0:
        return None
    after = list(words[at + 1 :])
    if words[at] in ("where", "whose"):  # "only sku where stock > 10": the condition as said
        after = ["records", *words[at:]]
    while after and after[0] in ("the", "all", "those", "these", "every", "each"):
        after = after[1:]
    flagged = after[:1] if after and _FLAG_TOKEN.match(after[0]) else []  # "all active users"
    after = after[len(flagged) :]
    nouns = RECORD_NOUNS | {"everyone", "everybody"}
    if not after or after[0] not in nouns or after[0] in keys:
        return None
    after = [after[0], *flagged, *after[1:]]
    said = [w for w in words[:at] if w not in {"the", "and"} | _KEEP | _BENIGN | _FIELDWORDS]
    fields = [_field(w, keys) for w in said]
    if not said or any(f is None for f in fields):
        return None
    return tuple(dict.fromkeys(f for f in fields if f)), after[1:]


def _fields_listed(
    words: Sequence[str], keys: Mapping[str, str]
) -> tuple[tuple[str, ...], list[str]] | None:
    """ "list locations with humidity over 70", "show the names where age is over 30": a
    request verb, fields said in the plural, and a condition after "with", "where", "whose"
    or "that": the fields of the records that pass; None for any other clause."""
    if not words or words[0] not in _ASKS | {"list"}:
        return None
    at = next((i for i, w in enumerate(words) if w in ("with", "where", "whose", "that")), None)
    if at is None:
        return None
    said = [w for w in words[1:at] if w not in {"the", "and", "all", "me", "us"}]
    fields = [_field(w, keys) for w in said]
    if not said or any(f is None for f in fields):
        return None
    if not all(
        w.endswith("s") and not w.endswith("ss") and not str(f).lower().endswith("s")
        for w, f in zip(said, fields, strict=True)
    ):
        return None  # "show the name with the highest age": a record's field, not a list
    return tuple(dict.fromkeys(f for f in fields if f)), ["records", *words[at:]]


def _fields_after_records(
    words: Sequence[str], keys: Mapping[str, str]
) -> tuple[tuple[str, ...], list[str]] | None:
    """ "工资超过9万的员工的名字" (the salary-over-90000 employees' names): a clause that ends in
    the records' noun and field words after it, with words before the noun; the fields, and
    the words before (a clause of their own); None for any other clause."""
    at = max((i for i, w in enumerate(words) if w in RECORD_NOUNS and w not in keys), default=-1)
    said = [w for w in words[at + 1 :] if w != "and"]
    if at < 1 or not said or _noun_before_field(words, at, keys):  # "the average order total"
        return None
    if not words[at].endswith(("s", "people", "staff")) or "by" in words[:at]:
        return None  # "order by flight time": a noun of one record, or a sort, not a projection
    fields = [_field(w, keys) for w in said]
    if any(f is None for f in fields):
        return None
    return tuple(dict.fromkeys(f for f in fields if f)), list(words[:at])


def _field_of_records(words: Sequence[str], keys: Mapping[str, str]) -> bool:
    """Whether a field word is said of the records, right before their noun ("the lowest
    paid employee", "the remote ones")."""
    nouns = RECORD_NOUNS | {"one", "ones"}
    return any(
        w in nouns and w not in keys and _field(words[i - 1], keys) is not None
        for i, w in enumerate(words)
        if i
    )


def _inverted(op: _Op) -> _Op:
    """The filter that keeps the records ``op`` keeps out (the field is a number in every
    record for a comparison, so each record is on exactly one side)."""
    if op.kind == "is":
        return replace(op, negated=not op.negated, inverted=True)
    return replace(op, comparison=_INVERSE[op.comparison], inverted=True)


def _operation(
    fields: list[str],
    head: set[str],
    rest: list[str],
    dirs: list[str],
    cmps: list[str],
    numbers: list[str],
    direction: str,
    magnitude: bool,
) -> _Op:
    """The one operation of a clause whose slots are fields, marks and numbers."""
    if len(cmps) > 1 or len(numbers) > 1:
        raise _refuse("a clause says more than one query")
    sorting = not fields and head <= _SORT | {"order", "it", "them", "in"}  # "sort low to high"
    if len(fields) <= 1 and (head <= {"by"} or sorting) and not numbers and not cmps and direction:
        if "by" in head and not fields:
            raise _refuse("'by' and no field")
        return _Op("dir", tuple(fields), direction=direction, magnitude=magnitude)
    if len(fields) == 1 and head == {"by"} and not numbers and not cmps:
        return _Op("by", (fields[0],))  # "by age, ascending": a sort when an order follows
    if (fields and not rest) or (fields and not head - _FIELDWORDS and not dirs + cmps + numbers):
        return _Op("fields", tuple(fields))  # the rest of a list of fields: "dept and salary"
    if head & _SORT and len(fields) == 1 and not numbers and not cmps:
        if head - _SORT - _FIELDWORDS - {"by", "of", "in", "order", "so", "on", "using", "to"}:
            raise _refuse(f"unknown words in a sort: {sorted(head - _SORT)}")
        return _Op("sort", (fields[0],), direction, magnitude=magnitude)
    if len(fields) == 1 and len(numbers) == 1 and not cmps:
        extremes = head & (_UP | _DOWN | {"top", "bottom"})
        if len(extremes) == 2 and "top" in extremes:  # "the top 3 cheapest"
            extremes -= {"top"}
        if len(extremes) != 1 or head - {"top"} - extremes - _TOP_WORDS - _KEEP - _FIELDWORDS:
            raise _refuse("a top-N clause with words it does not know")
        (extreme,) = extremes
        implied = "desc" if extreme in _UP or extreme == "top" else "asc"
        if direction and direction != implied:
            raise _refuse("the directions contradict")
        return _Op("top", (fields[0],), implied, numbers[0])
    if len(fields) == 1 and len(numbers) == 1 and len(cmps) == 1 and not direction:
        if head - _FILTER_WORDS:
            raise _refuse("a filter with words it does not know")
        return _Op("filter", (fields[0],), number=numbers[0], comparison=cmps[0])
    if len(fields) == 1 and not numbers and not cmps and not direction:
        aggregate = _aggregate(head)
        if aggregate:
            return _Op("agg", (fields[0],), comparison=aggregate)
    if fields and not numbers and not cmps and not direction and head & _KEEP:
        if head - _KEEP - _FIELDWORDS:
            raise _refuse("a projection with words it does not know")
        return _Op("keep", tuple(dict.fromkeys(fields)))
    limits = ({"limit", "to"}, {"limit"}, {"first"}, {"just", "first"}, {"only", "first"})
    limits += ({"take"}, {"take", "first"}, {"cap", "at"})
    if not fields and len(numbers) == 1 and not cmps and not direction and head in limits:
        return _Op("first", number=numbers[0])
    counted = not fields and len(numbers) == 1 and not cmps and not direction
    if counted and "last" in head and head <= {"last", "just", "only", "in", "of"}:
        return _Op("last", number=numbers[0])  # "the last 2", "just the last two in the list"
    if not fields and len(numbers) == 1 and not cmps and not direction and head == {"top"}:
        return _Op("ranks", number=numbers[0])
    if not fields and len(numbers) == 1 and not cmps and not direction and head <= _KEEP:
        return _Op("some", number=numbers[0])  # "…, highest first, only 2": of the sort
    raise _refuse("the clause is no query the frame reads")


# Words that say a count is per value of a field ("per category", "for each team", "by team").
_PER = frozenset({"per", "each", "by", "every"})
# Words around a value and a field that ask for the field of the value's record ("what is
# Bob's age", "how old is Bob", "which dept is Carmen in", "how much does Alice earn").
_LOOKUP_WORDS = frozenset(
    {"what", "what's", "is", "of", "how", "does", "do", "which", "in", "tell", "%poss"}
    | {"%ask", "%much"}
)


def _of_value(
    value: str,
    field: str,
    head: set[str],
    texts: Mapping[str, frozenset[str]],
    numeric: tuple[str, ...],
) -> list[_Op]:
    """A clause of one field and one text value: an aggregate of the field over the records
    that hold the value ("the average salary in Sales"), the field of the one record that
    holds it ("Bob's age"), or a value filter by that field ("dept is Sales")."""
    holders = [k for k, vs in texts.items() if value in vs]
    if field in holders:
        return [_value_filter(value, [field], head, [], [], texts)]
    aggregate = _aggregate(head - {"in", "for", "among", "within"})
    if aggregate and field in numeric:
        return [
            _value_filter(value, [], {"in"}, [], [], texts),
            _Op("agg", (field,), comparison=aggregate),
        ]
    if len(holders) != 1 or not head or head - _LOOKUP_WORDS:
        raise _refuse("a value and a field the frame does not read together")
    quoted = json.dumps(value, ensure_ascii=False)
    return [_Op("lookup", (field, holders[0]), value=quoted)]


def _of_extreme(
    fields: list[str],
    head: set[str],
    noun: bool,
    words: Sequence[str] = (),
    keys: Mapping[str, str] | None = None,
) -> list[_Op]:
    """ "the sku of the cheapest product", "the cheapest item's name": a field of the record a
    superlative picks (the superlative's field is the second, or the first before "'s");
    none for any other clause."""
    link = "of" if "of" in head else "%poss" if "%poss" in head else ""
    extreme = _aggregate(head - {link}) if link or noun else ""
    if extreme not in ("highest", "lowest") or fields[0] == fields[1]:
        return []
    # "the sku of the cheapest": the field first; "the cheapest item's name", "the most
    # expensive product name" (最贵的商品叫什么名字): the superlative's field first
    said, by = (fields[0], fields[1]) if link == "of" else (fields[1], fields[0])
    # "who wrote the most expensive book": the superlative's field is the one said right after
    # the extreme, whichever comes first in the clause
    named = keys or {}
    after = [_field(words[i + 1], named) for i, w in enumerate(words[:-1]) if w in _UP | _DOWN]
    if len(after) == 1 and after[0] in fields:
        by = after[0]
        said = fields[1] if by == fields[0] else fields[0]
    # "the cheapest flight with a delay": a field after "with" says which records, it is no
    # field asked for
    for i, w in enumerate(words):
        if _field(w, named) == said:
            before = [x for x in words[:i] if x not in ("a", "an", "the", "any", "some")]
            if before and before[-1] in ("with", "having", "has", "have", "without"):
                raise _refuse("a field said after 'with' beside a record's extreme")
    return [_Op("agg", (by,), comparison=extreme, record=True), _Op("keep", (said,))]


def _aggregate(head: set[str]) -> str:
    """The aggregate a clause of one number field asks for ("the highest", "the average",
    "who earns the most"): "highest", "lowest", "total" or "average"; "" for none."""
    up, down = _UP | {"top"}, _DOWN | {"bottom"}
    asked = {"highest" for w in head if w in up} | {"lowest" for w in head if w in down}
    asked |= {_AGGREGATES[w] for w in head if w in _AGGREGATES}
    if len(asked) != 1 or head - up - down - frozenset(_AGGREGATES) - _LINKS - {"value"}:
        return ""
    return asked.pop()


# "does priya have", "do the Oslo ones hold": an auxiliary and a verb of having around a value
_HOLDS = re.compile(
    r"(?<![a-z0-9_])(?:does|do|did)\s+(%v\d+)\s+(?:have|has|hold|own)(?![a-z0-9_])", re.I
)
# "sensors that run firmware 2.1.0", "the ones using Postgres": a verb of running or using
# right before a value or a field word and a value, as "with"
_RUNS = re.compile(
    r"(?<![a-z0-9_])(?:run|runs|running|use|uses|using)\s+(?=(?:[a-z_.]+\s+)?%v\d)", re.I
)
# A verb of motion and the way it goes before a value ("sent from Rotterdam", "headed to
# Prague", "bound for Oslo"): the value's field, when its key does not name the other way
_MOTION = re.compile(
    r"(?<![a-z0-9_])(?:sent|shipped|shipping|headed|heading|going|bound|travell?ing|flying"
    r"|departing|leaving|coming|arriving|moving|moved)\s+(to|from|for)\s+(?=%v(\d+))",
    re.I,
)
_WAY_TO = frozenset({"to", "destination", "dest", "arrival", "arrives", "arriving", "target"})
_WAY_FROM = frozenset({"from", "origin", "source", "departure", "departs", "departing", "src"})


def _motion(m: re.Match[str], values: Sequence[str], texts: Mapping[str, frozenset[str]]) -> str:
    """The way ``m`` says (to, from) with the verb of motion dropped; the verb kept (no class:
    the request falls back) when a key holding the value names the other way."""
    way = m[1].lower()
    value = values[int(m[2])]
    other = _WAY_FROM if way in ("to", "for") else _WAY_TO
    holders = [k for k, vs in texts.items() if value in vs]
    if not holders or any(set(key_words(k.replace(".", "_"))) & other for k in holders):
        return m[0]
    return f" {'to' if way == 'for' else way} "


def _value_filter(
    value: str,
    fields: list[str],
    head: set[str],
    cmps: list[str],
    others: list[str],
    texts: Mapping[str, frozenset[str]],
) -> _Op:
    """ "the ones in Sales", "where dept is Sales", "everyone except Sales": the records whose
    field holds (or does not hold) the value; the field named, or the one field that holds
    the value."""
    if len(fields) > 1 or others or [c for c in cmps if c not in _EQUALITY] or len(cmps) > 1:
        raise _refuse("a value filter that says more than one thing")
    if head - _FILTER_WORDS - _LINKS - _MEMBERSHIP - {"equals", "equal", "of", "in", "at"}:
        raise _refuse("a value filter with words it does not know")
    holders = [k for k, vs in texts.items() if value in vs]
    if fields:
        if fields[0] not in holders:
            raise _refuse(f"no record has {value!r} as its {fields[0]!r}")
        field = fields[0]
    elif len(holders) == 1:
        field = holders[0]
    else:
        raise _refuse(f"{value!r} is a value of {len(holders)} fields: name the field")
    negated = any(_EQUALITY[c] for c in cmps)
    return _Op("is", (field,), value=json.dumps(value, ensure_ascii=False), negated=negated)


# Chinese text tests, written as the English ones: 以L开头 (starts with), 以son结尾 (ends
# with), 包含/含有 Hub (contains); the literal is Latin letters and digits, or quoted
_ZH_LITERAL = (
    r"""(?:"[^"\n]{1,40}"|“[^”\n]{1,40}”|'[^'\n]{1,40}'|[A-Za-z0-9][A-Za-z0-9_.-]{0,39})"""
)
_ZH_TEXT_TEST = re.compile(
    rf"\s*(?:以\s*({_ZH_LITERAL})\s*(开头|打头|开始|结尾|结束)|(?:包含|含有)\s*({_ZH_LITERAL}))\s*"
)


def _zh_text_test(m: re.Match[str]) -> str:
    if m[3]:
        return f" contains {m[3]} "
    return f" {'starts' if m[2] in ('开头', '打头', '开始') else 'ends'} with {m[1]} "


def _mark_literals(
    instruction: str, keys: Mapping[str, str], start: int = 0
) -> tuple[str, list[str]]:
    """``instruction`` with each text test said right after a field ("name starts with 'M'",
    "customer name starts with M") and its literal replaced by the test's mark and a mark
    ``%lN`` (N from ``start``); the literals in mark order, as written."""
    literals: list[str] = []

    def mark(m: re.Match[str]) -> str:
        before = re.findall(r"[A-Za-z0-9_.]+|[\u3400-\u9fff]+", instruction[: m.start()])[-3:]
        before = [w.rstrip(".") for w in before]
        if before and before[-1].lower() in ("that", "which", "who"):
            before = before[:-1]  # "the locations that start with g"
        if (
            len(before) >= 2
            and _own_word(before[-2].lower(), before[-1].lower())
            and _field(before[-1].lower(), keys) is None
            and _field(before[-2].lower(), keys)
        ):
            before = before[:-1]  # "customer name", "zip code": the field's own word
        if not before or _field(before[-1].lower(), keys) is None:
            return m[0]
        test = "starts" if m[1] else "ends" if m[2] else "contains"
        literals.append(next(g for g in m.groups()[3:] if g is not None))
        return f" #{test} %l{start + len(literals) - 1} "

    return _TEXT_TEST.sub(mark, instruction), literals


def _literal_clause(
    words: Sequence[str], keys: Mapping[str, str], literals: Sequence[str]
) -> list[_Op]:
    """The text test of a clause that holds one ("customers whose name starts with M",
    "products with Hub in the name" is not one): one field, one test, one literal, and
    otherwise only words of a filter; none for a clause with no literal."""
    said = [w for w in words if _LITERAL_TOKEN.match(w)]
    if not said:
        return []
    picked = _fields_of_records(words, keys)
    if picked is not None:  # "ids of the members whose nick starts with N": then the ids
        return [*_literal_clause(picked[1], keys, literals), _Op("keep", picked[0])]
    if "count" in words or {"how", "many"} <= set(words):  # "how many names start with L"
        rest = [w for w in words if w not in ("count", "how", "many", "there")]
        return [*_literal_clause(rest, keys, literals), _Op("count")]
    tests = [w[1:] for w in words if w[1:] in _TEXT_TESTS and w.startswith("#")]
    fields: list[str] = []
    rest: list[str] = []
    for i, w in enumerate(words):
        if w in said or (w.startswith("#") and w[1:] in _TEXT_TESTS):
            continue
        key = _field(w, keys)
        if key is not None:
            fields.append(key)
        elif i and _own_word(words[i - 1], w) and _field(words[i - 1], keys) is not None:
            continue  # "customer name", "zip code": the field's own word, when no key is so
        elif w not in _BENIGN and w not in RECORD_NOUNS:
            rest.append(w)
    if len(said) != 1 or len(tests) != 1 or len(set(fields)) != 1:
        raise _refuse("a text test with other than one field and one literal")
    test_at = next(i for i, w in enumerate(words) if w.startswith("#") and w[1:] in _TEXT_TESTS)
    if not any(_field(w, keys) for w in words[:test_at]) or words[test_at + 1] != said[0]:
        raise _refuse("a text test names its field after it ('include name and price')")
    named = [w for w in words[:test_at] if _field(w, keys) is not None][-1]
    plural = (
        named.endswith("s") and not named.endswith("ss") and not fields[0].lower().endswith("s")
    )
    listed = plural and bool(set(words[: words.index(named)]) & (_ASKS | {"list"}))
    if plural and not listed:
        raise _refuse("'names starting with E': the names, or the records?")
    literal = literals[int(said[0][2:])]
    if _field(literal.lower(), keys) is not None:
        raise _refuse(f"the literal {literal!r} is also a field")
    if set(rest) - _FILTER_WORDS - _LINKS - {"in", "field"}:
        raise _refuse("a text test with words it does not know")
    if tests[0] == "contains" and "in" in rest:
        raise _refuse("'contains … in': which holds which?")
    test = _Op("text", (fields[0],), comparison=tests[0], value=json.dumps(literal))
    # "list the locations that start with g": the field's values that pass, as a projection
    return [test, _Op("keep", (fields[0],))] if listed else [test]


def _one_of_clause(
    words: Sequence[str],
    keys: dict[str, str],
    values: Sequence[str],
    texts: Mapping[str, frozenset[str]],
    source: str,
    flags: tuple[str, ...],
    numeric: tuple[str, ...],
) -> list[_Op]:
    """A clause with values joined by "or" ("pending or shipped orders", "in Asia or
    Africa"): read with the first value alone, its value filter becomes one of all of them;
    every value must be a value of that one field, and of no other when no field is named."""
    start = words.index("%or") - 1
    end = start
    while end + 2 < len(words) and words[end + 1] == "%or" and _VALUE_TOKEN.match(words[end + 2]):
        end += 2
    run = words[start : end + 1]
    if "%or" in words[end + 1 :] or not all(_VALUE_TOKEN.match(w) for w in run[::2]):
        raise _refuse("'or' between words that are not values of the records")
    said = [values[int(w[2:])] for w in run[::2]]
    if len(set(said)) != len(said):
        raise _refuse("a value said twice")
    ops = _clause(
        [*words[:start], run[0], *words[end + 1 :]], keys, values, texts, source, flags, numeric
    )
    found = [op for op in ops if op.kind == "is"]
    if len(found) != 1 or found[0].value != json.dumps(said[0], ensure_ascii=False):
        raise _refuse("values joined by 'or' that are no one value filter")
    field = found[0].fields[0]
    named = any(_field(w, keys) == field for w in words)
    for value in said:
        holders = [k for k, vs in texts.items() if value in vs]
        if field not in holders or (not named and len(holders) != 1):
            raise _refuse(f"{value!r} is not a value of {field!r} alone")
    if found[0].negated:  # "not in Sales or HR", "except Asia or Europe": none of them
        at = ops.index(found[0])
        nots = [replace(found[0], value=json.dumps(v, ensure_ascii=False)) for v in said]
        return [*ops[:at], *nots, *ops[at + 1 :]]
    quoted = " ".join(json.dumps(v, ensure_ascii=False) for v in said)
    return [replace(op, kind="one_of", value=quoted) if op is found[0] else op for op in ops]


def _refuse(message: str) -> Unsupported:
    return Unsupported("parse.no_match", message)
