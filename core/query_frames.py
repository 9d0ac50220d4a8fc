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
words such as "hey", "the", "them", "pls", "records"). A word of no class — a synonym, a
negation, a vague quantity ("a few", "about"), a question word, a quoted phrase — makes the
request fall back, and so does a benign word that is also a key of the records (it could be
the field). The sentence written is parsed by the grammar, so the plan is the grammar's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from zerolayer.core.errors import Unsupported

_SORT = frozenset({"sort", "sorted", "order", "ordered", "rank", "ranked", "arrange", "put"})
_KEEP = frozenset({"keep", "just", "only", "select", "retain"})
_FIELDWORDS = frozenset({"field", "fields", "column", "columns", "key", "keys"})
_BENIGN = frozenset(
    [
        "a",
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
        "me",
        "give",
        "show",
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
    ]
)
_UP = frozenset({"highest", "biggest", "largest", "most", "greatest"})
_DOWN = frozenset({"lowest", "smallest", "least", "fewest"})
# Direction phrases, longest first: each becomes one mark, "asc" or "desc" for an order,
# "up" or "down" for a magnitude ("highest first"), which only a number field has.
_DIRECTIONS: tuple[tuple[str, str], ...] = (
    (r"in\s+ascending\s+order", "asc"),
    (r"in\s+descending\s+order", "desc"),
    (r"(?:from\s+)?(?:high|big|large)(?:est)?\s+to\s+(?:low|small)(?:est)?", "down"),
    (r"(?:from\s+)?(?:low|small)(?:est)?\s+to\s+(?:high|big|large)(?:est)?", "up"),
    (r"(?:highest|biggest|largest|greatest|most)\s+first", "down"),
    (r"(?:lowest|smallest|least|fewest)\s+first", "up"),
    (r"ascending|asc|increasing", "asc"),
    (r"descending|desc|decreasing", "desc"),
)
_ORDER = {"up": "asc", "down": "desc"}  # a magnitude's order
_COMPARISONS: tuple[tuple[str, str], ...] = (
    (r"(?:is\s+)?(?:greater|more|higher|larger|bigger)\s+than|above|over|exceeding|>", ">"),
    (r"(?:is\s+)?(?:less|fewer|lower|smaller)\s+than|below|under|<", "<"),
)
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_']*|\d+(?:\.\d+)?|[<>]|\S")
_NUMBER = re.compile(r"\d+(?:\.\d+)?$")
# "from the list below": where the records are, not a field named "from".
_PLACE = re.compile(
    r"(?<![a-z0-9_])from\s+(?:the|this|these)\s+(?:list|data|array|records|json|items)"
    r"(?:\s+(?:below|above))?(?![a-z0-9_])"
)
# A last clause that asks for the result in another format: "then output YAML".
_CONVERT = frozenset({"convert", "turn", "to", "into", "in", "as", "format"})
_TARGETS = {"yaml": "yaml", "yml": "yaml"}
# "and" before one of these starts a new clause ("sort by age and just the name").
_AND_SPLITS = _KEEP | {"give", "return", "output", "convert", "turn", "show"}


@dataclass(frozen=True, slots=True)
class _Op:
    kind: str  # sort | top | keep | first | filter | convert
    fields: tuple[str, ...] = ()
    direction: str = ""  # asc | desc | "" (not said)
    number: str = ""
    comparison: str = ""
    magnitude: bool = False  # the direction was said as a magnitude ("highest first")

    def sentence(self) -> str:
        if self.kind == "sort":
            return " ".join(w for w in ("sort by", self.fields[0], _word(self.direction)) if w)
        if self.kind == "top":
            return f"top {self.number} by {self.fields[0]} {_word(self.direction)}"
        if self.kind == "keep":
            return "keep only " + ", ".join(self.fields)
        if self.kind == "convert":
            return f"convert to {self.fields[0]}"
        if self.kind == "first":
            return f"first {self.number}"
        return f"filter where {self.fields[0]} {self.comparison} {self.number}"


def _word(direction: str) -> str:
    return {"asc": "ascending", "desc": "descending"}.get(direction, "")


def record_keys(payload: str | None) -> dict[str, bool] | None:
    """The keys every record of a JSON array of objects has, each with whether its value is a
    number in every record; None for any other payload."""
    if payload is None or not payload.lstrip().startswith("["):
        return None
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, list) or not data or not all(isinstance(r, dict) for r in data):
        return None
    keys = set(data[0])
    for record in data[1:]:
        keys &= set(record)
    return {
        k: all(isinstance(r[k], int | float) and not isinstance(r[k], bool) for r in data)
        for k in keys
        if isinstance(k, str)
    }


def query_sentence(instruction: str, keys: Mapping[str, bool]) -> str:
    """The grammar's sentence for a query worded freely on records with ``keys`` (each with
    whether its values are numbers: a filter by a number and a top N need numbers);
    ``Unsupported`` when a word has no class or the clauses do not make one certain query."""
    if re.search(r"[\"`“”‘’]|(?<![A-Za-z])'|'(?![A-Za-z])", instruction):
        raise _refuse("the instruction quotes words")
    if any("\u3400" <= ch <= "\u9fff" for ch in instruction):
        raise _refuse("query frames read English only")
    if re.search(r"[@#]", instruction):
        raise _refuse("the instruction holds the reader's own marks")
    text = _PLACE.sub(" ", instruction.lower())
    for pattern, word in _DIRECTIONS:
        text = re.sub(rf"(?<![a-z0-9_@#])(?:{pattern})(?![a-z0-9_])", f" @{word} ", text)
    for pattern, word in _COMPARISONS:
        text = re.sub(rf"(?<![a-z0-9_@#])(?:{pattern})(?![a-z0-9_])", f" #{word} ", text)
    lowered = {k.lower(): k for k in keys}
    if len(lowered) != len(keys):
        raise _refuse("the records have keys that differ only in case")
    ops: list[_Op] = []
    for clause in _clauses(text):
        if ops and ops[-1].kind == "convert":
            raise _refuse("a query after the conversion")
        op = _clause(clause, lowered)
        if op is None:
            continue
        if op.kind in ("top", "filter") and not keys[op.fields[0]]:
            raise _refuse(f"'{op.fields[0]}' is not a number in every record")
        if op.kind == "fields":
            if not ops or ops[-1].kind != "keep":
                raise _refuse("field names that no operation uses")
            ops[-1] = _Op("keep", tuple(dict.fromkeys((*ops[-1].fields, *op.fields))))
            continue
        if op.kind == "dir":
            if not ops or ops[-1].kind not in ("sort", "top"):
                raise _refuse("a direction names no sort")
            last = ops[-1]
            if last.direction and last.direction != op.direction:
                raise _refuse("the directions contradict")
            magnitude = last.magnitude or op.magnitude
            ops[-1] = _Op(last.kind, last.fields, op.direction, last.number, magnitude=magnitude)
            op = ops[-1]
        else:
            ops.append(op)
        if op.kind == "sort" and op.magnitude and not keys[op.fields[0]]:
            raise _refuse(f"'{op.fields[0]}' is not a number: 'highest' and 'lowest' say no order")
    if not ops:
        raise _refuse("the instruction asks for no query")
    return ", then ".join(op.sentence() for op in ops)


def _clauses(text: str) -> list[list[str]]:
    """Clauses end at punctuation, at "then", and at "and" before a projection or request word
    ("sort by age and just the name", "… and give me YAML")."""
    tokens = _TOKEN.findall(text)
    out: list[list[str]] = [[]]
    for i, tok in enumerate(tokens):
        if tok in {",", ".", ";", "!", ":", "then"}:
            out.append([])
        elif tok == "?":
            raise _refuse("the instruction asks a question")
        elif tok == "and" and i + 1 < len(tokens) and tokens[i + 1] in _AND_SPLITS:
            out.append([])
        else:
            out[-1].append(tok)
    return [_join_marks(c) for c in out if c]


def _join_marks(clause: list[str]) -> list[str]:
    """``@`` ``desc`` → ``@desc``; ``#`` ``<`` → ``#<``."""
    out: list[str] = []
    for tok in clause:
        if out and out[-1] in {"@", "#"}:
            out[-1] += tok
        else:
            out.append(tok)
    return out


def _clause(words: Sequence[str], keys: dict[str, str]) -> _Op | None:
    targets = {_TARGETS[w] for w in words if w in _TARGETS}
    if targets:
        if len(targets) > 1 or any(
            w not in _TARGETS and w not in _CONVERT and w not in _BENIGN for w in words
        ):
            raise _refuse("a conversion clause with words it does not know")
        return _Op("convert", fields=tuple(targets))
    fields = [keys[w] for w in words if w in keys]
    for w in words:
        if w in _BENIGN and w in keys:
            raise _refuse(f"'{w}' is a key of the records and a word of the request")
    rest = [w for w in words if w not in keys and w not in _BENIGN]
    dirs = [w[1:] for w in rest if w.startswith("@")]
    cmps = [w[1:] for w in rest if w.startswith("#")]
    numbers = [w for w in rest if _NUMBER.match(w)]
    plain = [w for w in rest if not w.startswith(("@", "#")) and not _NUMBER.match(w)]
    if len(dirs) > 1 or len(cmps) > 1 or len(numbers) > 1:
        raise _refuse("a clause says more than one query")
    direction = _ORDER.get(dirs[0], dirs[0]) if dirs else ""
    magnitude = bool(dirs) and dirs[0] in _ORDER
    if not words or all(w in _BENIGN for w in words):
        return None
    if not fields and not plain and not numbers and not cmps and direction:
        return _Op("dir", direction=direction, magnitude=magnitude)
    head = set(plain)
    if (fields and not rest) or (fields and not head - _FIELDWORDS and not dirs + cmps + numbers):
        return _Op("fields", tuple(fields))  # the rest of a list of fields: "dept and salary"
    if head & _SORT and len(fields) == 1 and not numbers and not cmps:
        if head - _SORT - {"by", "of", "in", "order"}:
            raise _refuse(f"unknown words in a sort: {sorted(head - _SORT)}")
        return _Op("sort", (fields[0],), direction, magnitude=magnitude)
    if len(fields) == 1 and len(numbers) == 1 and not cmps:
        extremes = head & (_UP | _DOWN | {"top", "bottom"})
        if len(extremes) != 1 or head - extremes - {"with", "by", "first"}:
            raise _refuse("a top-N clause with words it does not know")
        (extreme,) = extremes
        implied = "desc" if extreme in _UP or extreme == "top" else "asc"
        if direction and direction != implied:
            raise _refuse("the directions contradict")
        return _Op("top", (fields[0],), implied, numbers[0])
    if len(fields) == 1 and len(numbers) == 1 and len(cmps) == 1 and not direction:
        if head - {"only", "just", "with", "where", "filter", "to", "for", "those", "that"}:
            raise _refuse("a filter with words it does not know")
        return _Op("filter", (fields[0],), number=numbers[0], comparison=cmps[0])
    if fields and not numbers and not cmps and not direction and head & _KEEP:
        if head - _KEEP - _FIELDWORDS:
            raise _refuse("a projection with words it does not know")
        return _Op("keep", tuple(dict.fromkeys(fields)))
    limits = ({"limit", "to"}, {"first"}, {"just", "first"}, {"only", "first"})
    if not fields and len(numbers) == 1 and not cmps and not direction and head in limits:
        return _Op("first", number=numbers[0])
    raise _refuse("the clause is no query the frame reads")


def _refuse(message: str) -> Unsupported:
    return Unsupported("parse.no_match", message)
