"""Path frames: a value asked for by a path written in the instruction.

"list every sku: $.data.items[*].sku", "Pull out data.items[*].sku as a JSON array",
"get meta.page", "取出 $.data.items[*].sku，返回JSON数组": one path (core/paths.py) whose
every step exists in the payload, and around it only words of closed classes — extraction
verbs (get, list, pull out, extract, 取出 …), benign words, the answer's shape ("as a JSON
array", which needs the path to give an array: a ``[*]`` step), and the path's last key as a
noun ("every sku", "the skus"). The sentence written for the grammar is
``extract "<path>"``. Anything else — a second path, a number, a step the data lacks, a word
of no class ("and explain why", "count", "YAML") — falls back.
"""

from __future__ import annotations

import json
import re
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.paths import PATH, PathMissing, has_wildcard, parse_path, walk

_VERBS = frozenset(
    {"get", "list", "extract", "pull", "out", "give", "return", "show", "output", "print"}
    | {"fetch", "select", "take", "read", "grab", "find", "what", "what's", "is"}
)
_BENIGN = frozenset(
    {"every", "all", "each", "the", "a", "an", "me", "please", "pls", "value", "values"}
    | {"of", "at", "from", "in", "under", "path", "here", "this", "data", "json", "hey", "i"}
    | {"want", "need", "can", "you", "could", "just", "only", "as", "to", "and", "result"}
    | {"thanks", "using", "with", "by", "jsonpath", "payload", "object", "document"}
)
_SHAPE = frozenset({"array", "list"})
# Chinese words of the same classes, longest first.
_ZH = (
    "取出", "提取", "返回", "输出", "列出", "给出", "获取", "给我", "所有", "全部", "路径",
    "数组", "一下", "请", "的", "值", "为", "成",
)  # fmt: skip
_ZH_SHAPE = ("数组",)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z']*|\d+|[\u3400-\u9fff]+|\S")
_PUNCTUATION = frozenset(",.:;!?，。：；！？、()（）")
# The answer asked for as a number ("number only"): read only where the value is one.
_NUMBER_WORDS = frozenset({"number", "integer", "bare", "digits"})


def path_sentence(instruction: str, value: Any) -> str:
    """The grammar's sentence for a value asked for by the one path written in
    ``instruction``, found in ``value``; ``Unsupported`` otherwise."""
    paths = [m for m in PATH.finditer(instruction) if _standalone(instruction, m)]
    steps = parse_path(paths[0][0]) if len(paths) == 1 else None
    if steps is None or not steps:
        raise _refuse("the instruction writes no one path")
    try:
        found = walk(value, steps)
    except PathMissing as exc:
        raise _refuse(f"the path is not in the data: {exc}") from None
    m = paths[0]
    rest = f"{instruction[: m.start()]} {instruction[m.end() :]}"
    last = next((s for s in reversed(steps) if isinstance(s, str) and s != "*"), "")
    shaped = False
    for word in _TOKEN.findall(rest):
        low = word.lower()
        if low in _VERBS or low in _BENIGN or word in _PUNCTUATION:
            continue
        if low in _SHAPE:
            shaped |= low == "array"
            continue
        if low in _NUMBER_WORDS:
            if not (isinstance(found, int | float) and not isinstance(found, bool)):
                raise _refuse("a number asked for of a path that gives no number")
            continue
        if last and low in _noun_forms(last):
            continue
        if "\u3400" <= word[0] <= "\u9fff":
            shaped |= _chinese(word)
            continue
        raise _refuse(f"the path frame does not know {word!r}")
    if shaped and not (has_wildcard(steps) and isinstance(found, list)):
        raise _refuse("an array asked for of a path that gives no array")
    return f"extract {json.dumps(m[0])}"


def _standalone(text: str, m: re.Match[str]) -> bool:
    """A path that is a word of its own: not part of a longer word, a number or a file name
    ("v1.2", "config.yaml" are read as paths only when the data has them)."""
    before = text[m.start() - 1] if m.start() else " "
    after = text[m.end()] if m.end() < len(text) else " "
    word = (before.isascii() and before.isalnum()) or before in "_$.["
    return not word and not ((after.isascii() and after.isalnum()) or after in "_[")


def _noun_forms(key: str) -> set[str]:
    """The path's last key as a noun: "sku", "skus"; "tags", "tag"."""
    low = key.lower()
    forms = {low, f"{low}s", f"{low}es"}
    return forms | {low[:-1]} if low.endswith("s") and len(low) > 2 else forms


def _chinese(run: str) -> bool:
    """Whether a run of Chinese asks for an array; ``Unsupported`` for a word of no class."""
    shaped = False
    i = 0
    while i < len(run):
        word = next((w for w in _ZH if run.startswith(w, i)), None)
        if word is None:
            raise _refuse(f"the path frame does not know {run[i : i + 4]!r}")
        shaped |= any(s in word for s in _ZH_SHAPE)
        i += len(word)
    return shaped


def _refuse(message: str) -> Unsupported:
    return Unsupported("parse.no_match", message)
