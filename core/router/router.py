"""The neural intent router: a paraphrase the grammar missed, proposed as an example's words.

It is asked only after every reading of a request failed to parse (``parse.no_match``) and
none was refused by the gate. It never runs an op itself: it proposes a canonical instruction
— the text of the nearest example, with the request's values carried over where that is
exact — and the proposal must then parse with the same grammar, yield exactly the request's
values, and agree with the payload (the format it states is the one the payload reads as).
Anything else, and the request goes to the model as before.

Nearness: English instructions by the cosine of all-MiniLM-L6-v2 sentence embeddings against
the English examples; instructions containing Chinese by character n-gram cosine
(``ngrams.py``) against the Chinese examples. Candidates at or above the threshold are
checked best first (``evidence.py``: same formats in the same order, same meaning words, few
unknown words; ``slots.py``: values); when two pass with different plans, nothing is routed.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.router import ngrams
from zerolayer.core.router.evidence import Evidence, Vocabulary, evidence, has_cjk
from zerolayer.core.router.slots import (
    Values,
    carry_over,
    directive_values,
    literal_strings,
    payload_keys,
    request_values,
    same_values,
)

log = logging.getLogger("zerolayer.router")

Parse = Callable[[str], Sequence[Any]]  # raises Unsupported when the text does not parse
# True when the parsed proposal fits the payload; gets the formats the request names.
Agree = Callable[[Sequence[Any], tuple[str, ...]], bool]
Encode = Callable[[Sequence[str]], Any]  # unit vectors, one row per text (a torch tensor)

DEFAULT_THRESHOLD = 0.80
DEFAULT_ZH_THRESHOLD = 0.15
DEFAULT_MAX_UNKNOWN = 1
MAX_CANDIDATES = 5


@dataclass(frozen=True)
class Entry:
    """One example as the router keeps it."""

    instruction: str  # normalised
    origin: str  # "json_yaml" (a plugin) or "rule:NAME@VERSION"
    zh: bool
    values: Values
    literals: tuple[str, ...]
    profile: Counter[str] | None = None
    formats: tuple[str, ...] = ()  # the formats it names, in order


@dataclass
class RouterIndex:
    """The examples of one rule set, embedded once."""

    entries: tuple[Entry, ...]
    vocab: Vocabulary
    en_rows: tuple[int, ...] = ()
    matrix: Any = None  # (len(en_rows), dimensions)

    @property
    def counts(self) -> dict[str, int]:
        zh = sum(1 for e in self.entries if e.zh)
        return {"en": len(self.entries) - zh, "zh": zh}


@dataclass(frozen=True)
class Proposal:
    """A canonical instruction the grammar parsed for a request it could not parse."""

    instruction: str
    example: str
    origin: str
    score: float
    signal: str  # "minilm" or "ngram"
    directives: tuple[Any, ...] = field(repr=False, default=())


@dataclass(frozen=True)
class Attempt:
    """The router's answer: a proposal, or the reason there is none."""

    proposal: Proposal | None
    reason: str  # router.routed, router.no_candidate, router.formats, …
    score: float = 0.0
    example: str | None = None


class IntentRouter:
    """Proposes example instructions for paraphrases (see the module docstring)."""

    def __init__(
        self,
        encode: Encode | None,
        *,
        name: str = "minilm",
        threshold: float = DEFAULT_THRESHOLD,
        zh_threshold: float = DEFAULT_ZH_THRESHOLD,
        max_unknown: int = DEFAULT_MAX_UNKNOWN,
        cache_size: int = 4096,
        info: dict[str, Any] | None = None,
    ) -> None:
        self.encode = encode
        self.name = name
        self.threshold = threshold
        self.zh_threshold = zh_threshold
        self.max_unknown = max_unknown
        self.info = dict(info or {})
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # ---- the index ----------------------------------------------------------------------

    def build_index(
        self,
        examples: Iterable[tuple[str, str]],
        parse: Parse,
        *,
        formats: Iterable[str],
        keywords: Iterable[str] = (),
        vocab_texts: Iterable[str] = (),
    ) -> RouterIndex:
        """Index ``(instruction, origin)`` pairs; instructions must be normalised already.

        An example that does not parse is left out (logged): it could never be proposed.
        """
        entries: list[Entry] = []
        seen: set[str] = set()
        for text, origin in examples:
            if text in seen:
                continue
            seen.add(text)
            try:
                values = directive_values(parse(text))
            except Unsupported as exc:
                log.warning("router: example %r (%s) does not parse: %s", text, origin, exc)
                continue
            zh = has_cjk(text)
            entries.append(
                Entry(
                    text,
                    origin,
                    zh,
                    values,
                    literal_strings(values, text),
                    ngrams.profile(text) if zh else None,
                )
            )
        vocab = Vocabulary.build(
            formats, [e.instruction for e in entries] + list(vocab_texts), keywords
        )
        entries = [
            replace(e, formats=evidence(e.instruction, vocab, e.values.fields).formats)
            for e in entries
        ]
        index = RouterIndex(tuple(entries), vocab)
        rows = tuple(i for i, e in enumerate(entries) if not e.zh)
        if rows and self.encode is not None:
            index.en_rows = rows
            index.matrix = self.encode(
                [masked(entries[i].instruction, entries[i].values.fields) for i in rows]
            )
        return index

    # ---- routing ------------------------------------------------------------------------

    def route(
        self,
        index: RouterIndex,
        instruction: str,
        payloads: Sequence[str],
        parse: Parse,
        agree: Agree,
    ) -> Attempt:
        """A proposal for ``instruction`` (normalised) and its payloads, or why there is none.

        Only examples that name the same formats in the same order are compared; those at or
        above the threshold are checked best first.
        """
        vocab = index.vocab
        request = request_values(instruction, payload_keys(payloads), vocab)
        said = evidence(instruction, vocab, request.fields)
        if len(said.unknown) > self.max_unknown:
            return Attempt(None, "router.unknown_words")
        scored = self.candidates(index, instruction, said.formats, request.fields)
        if not scored:
            return Attempt(None, "router.formats")
        top_score, top = scored[0]
        threshold = self._threshold(instruction)
        if top_score < threshold:
            return Attempt(None, "router.no_candidate", top_score, top.instruction)
        signal = "ngram" if has_cjk(instruction) else self.name
        passed: list[Proposal] = []
        reason = "router.no_candidate"
        for score, entry in scored[:MAX_CANDIDATES]:
            if score < threshold:
                break
            checked = self._check(entry, instruction, request, said, vocab, parse, agree)
            if isinstance(checked, str):
                if reason == "router.no_candidate":
                    reason = checked
                continue
            text, directives = checked
            passed.append(
                Proposal(text, entry.instruction, entry.origin, score, signal, tuple(directives))
            )
        if not passed:
            return Attempt(None, reason, top_score, top.instruction)
        if len({repr(p.directives) for p in passed}) > 1:
            return Attempt(None, "router.ambiguous", top_score, top.instruction)
        return Attempt(passed[0], "router.routed", passed[0].score, passed[0].example)

    def candidates(
        self,
        index: RouterIndex,
        instruction: str,
        formats: tuple[str, ...] | None = None,
        fields: Sequence[str] = (),
    ) -> list[tuple[float, Entry]]:
        """Examples of the instruction's language (naming ``formats``, when given) with their
        similarity to it, best first. Field names are masked on both sides before they are
        embedded ("sort by city" is as near to "sort by age" as to "sort by field")."""
        zh = has_cjk(instruction)
        pool = [
            i
            for i, e in enumerate(index.entries)
            if e.zh == zh and (formats is None or e.formats == formats)
        ]
        if not pool:
            return []
        if zh:
            mine = ngrams.profile(instruction)
            scores = [
                (ngrams.similarity(mine, index.entries[i].profile or Counter()), index.entries[i])
                for i in pool
            ]
        else:
            if index.matrix is None or self.encode is None:
                return []
            sims = (index.matrix @ self._embedding(masked(instruction, fields))).tolist()
            row = {entry: n for n, entry in enumerate(index.en_rows)}
            scores = [(float(sims[row[i]]), index.entries[i]) for i in pool]
        scores.sort(key=lambda pair: -pair[0])
        return scores

    def _threshold(self, instruction: str) -> float:
        return self.zh_threshold if has_cjk(instruction) else self.threshold

    def _embedding(self, instruction: str) -> Any:
        with self._lock:
            hit = self._cache.get(instruction)
            if hit is not None:
                self._cache.move_to_end(instruction)
                return hit
        assert self.encode is not None
        vector = self.encode([instruction])[0]
        with self._lock:
            self._cache[instruction] = vector
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return vector

    def _check(
        self,
        entry: Entry,
        instruction: str,
        request: Values,
        said: Evidence,
        vocab: Vocabulary,
        parse: Parse,
        agree: Agree,
    ) -> str | tuple[str, Sequence[Any]]:
        """The proposal of one example (text, directives), or the reason it fails."""
        text = carry_over(entry.instruction, entry.values, request)
        if text is None:
            return "router.values"
        proposed = evidence(text, vocab, request.fields)
        if proposed.formats != said.formats:
            return "router.formats"
        if proposed.meaning != said.meaning:
            return "router.meaning"
        try:
            directives = parse(text)
        except Unsupported:
            return "router.no_parse"
        values = directive_values(directives)
        if not same_values(values, request, literal_strings(values, text), instruction):
            return "router.values"
        if not agree(directives, said.formats):
            return "router.payload_disagrees"
        return text, directives

    def status(self, index: RouterIndex | None = None) -> dict[str, Any]:
        """What ``zerolayer plugins`` and ``/v1/plugins`` show about the router."""
        out: dict[str, Any] = {
            "router": self.name,
            "threshold": self.threshold,
            "zh_threshold": self.zh_threshold,
            "zh_signal": "character n-gram cosine",
            "max_unknown_words": self.max_unknown,
            **self.info,
        }
        if index is not None:
            out["examples"] = index.counts
        return out


def masked(text: str, fields: Iterable[str]) -> str:
    """``text`` with each field name (a whole word, any case) replaced by the word field."""
    for name in sorted(set(fields), key=len, reverse=True):
        text = re.sub(rf"(?i)(?<![\w.]){re.escape(name)}(?![\w])", "field", text)
    return text
