"""A tenant's trigger grammars, composed into the instruction grammar under its namespace.

Every rule of a tenant that triggers on a grammar fragment (``grammar_fragment.py``) is
renamed into the tenant's namespace (``zt_<tenant>__<rule>__…``) and added to the base of the
instruction grammar (``grammars/base.lark``: its start rule, whitespace and punctuation
handling) as one more alternative of ``start``: a whole instruction is one rule's trigger.
Each tenant gets its own parser, so one tenant's fragments never see another's.

The built-in grammar skips many words it was written around ("first", "only", "all", "then",
"所有" …); a tenant grammar does not, since skipping a word the fragment did not mention could
change what the instruction asks. Only ``FILLER`` (articles, "please", "can you", "me", Chinese
particles) is skipped; every other word must be in the fragment.

Building the parser is where collisions show:

- two rules (or two readings of one rule) that read the same words are a reduce/reduce
  collision of the LALR(1) table, and a shift/reduce conflict means the grammar is
  ambiguous or needs more look-ahead than one word: both are refused, never resolved;
- the lexer only tries the terminals the parser expects at each point (Lark's contextual
  lexer); where a pattern of one rule and a word of another, or two patterns, can match the
  same text at the same point, the choice would be silent, so that is refused too.

Literal words have a higher lexer priority than patterns (a keyword wins over a pattern of
the same rule), and both win over the base grammar's filler words where they are expected.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lark import Lark, Tree
from lark.common import ParserConf
from lark.exceptions import GrammarError, LarkError
from lark.parsers.lalr_analysis import LALR_Analyzer

from zerolayer.core.grammar import compose
from zerolayer.core.normalise import normalise
from zerolayer.rules_api.rules.grammar_fragment import (
    ENTRY,
    Alt,
    Fragment,
    Lit,
    Node,
    Opt,
    Ref,
    Rep,
    Seq,
)
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits

LITERAL_PRIORITY = 6
PATTERN_PRIORITY = 5
BOUNDARY = "(?![A-Za-z0-9_])"  # a word or pattern never ends inside a word
NOT_A_SPACE = r"(?=\S)"  # a pattern never starts with the space before a word
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_BASE: str | None = None
_BASE_NOISE = ("%ignore NOISE\n", "%ignore NOISE_ZH\n")
FILLER_EN = ("a", "an", "the", "please", "kindly", "me", "for me", "can you", "could you",
             "would you")  # fmt: skip
FILLER_ZH = ("的", "了", "吧", "呢", "啊", "一下", "给我", "把")
FILLER = (
    "ZT_FILLER.1: /(?:"
    + "|".join(w.replace(" ", r"\s+") for w in FILLER_EN)
    + ")(?![A-Za-z0-9_])|"
    + "|".join(FILLER_ZH)
    + "/i\n%ignore ZT_FILLER\n"
)


class GrammarConflict(ValueError):
    """The composed grammar is ambiguous; ``rules`` names the rules involved."""

    def __init__(self, message: str, rules: frozenset[str]) -> None:
        super().__init__(message)
        self.message = message
        self.rules = rules


@dataclass(frozen=True, slots=True)
class GrammarMatch:
    """A grammar trigger that matched: the rule, its slots and the normalised instruction."""

    rule: str
    slots: dict[str, Any]
    instruction: str


def _base() -> str:
    """The base grammar without its list of skipped words, with the tenant fillers instead."""
    global _BASE
    if _BASE is None:
        text = compose([])
        for line in _BASE_NOISE:
            if line not in text:
                raise RuntimeError(f"grammars/base.lark no longer has {line.strip()!r}")
            text = text.replace(line, "")
        _BASE = text + "\n" + FILLER
    return _BASE


def _ns(text: str) -> str:
    safe = re.sub(r"[^a-z0-9]", "_", text.lower())[:24]
    return f"{safe}_{hashlib.sha256(text.encode()).hexdigest()[:6]}"


def _lark_regex(pattern: str) -> str:
    """``pattern`` with every unescaped ``/`` escaped, for a Lark ``/…/`` literal."""
    out, i = [], 0
    while i < len(pattern):
        if pattern[i] == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        out.append("\\/" if pattern[i] == "/" else pattern[i])
        i += 1
    return "".join(out)


def join_words(words: Sequence[str]) -> str:
    """Words as an instruction: spaces between them, except between two CJK characters."""
    out = ""
    for word in words:
        if out and not (_CJK.match(out[-1]) and _CJK.match(word[0])):
            out += " "
        out += word
    return out


class TenantGrammar:
    """The parser of a tenant's trigger grammars; ``GrammarConflict`` when they collide."""

    def __init__(
        self,
        tenant: str,
        members: Sequence[tuple[str, Fragment]],
        limits: RuleLimits = DEFAULT_LIMITS,
    ) -> None:
        self.tenant = tenant
        self.limits = limits
        self.tns = "zt_" + _ns(tenant)
        self.rules = tuple(name for name, _ in members)
        self._user: dict[str, tuple[str, str]] = {}  # emitted rule → (rule, user name)
        self._owner: dict[str, str] = {}  # every emitted rule → its rule
        self._entry: dict[str, str] = {}  # emitted trigger rule → rule
        self._literal: dict[str, str] = {}  # emitted terminal → word
        self._pattern: dict[str, tuple[str, str, tuple[str, ...]]] = {}  # → rule, name, samples
        self._regex: dict[str, str] = {}  # emitted pattern terminal → its pattern
        self._term_users: dict[str, set[str]] = {}
        self._names: dict[str, str] = {}  # emitted name → how a user reads it
        lines: list[str] = []
        for rule, fragment in members:
            lines.extend(self._emit(rule, fragment))
        terminals = [
            f"{name}.{LITERAL_PRIORITY}: /{_lark_regex(self._word_regex(word))}/i"
            for name, word in self._literal.items()
        ]
        for name, source in self._regex.items():
            regex = _lark_regex(NOT_A_SPACE + f"(?:{source})" + BOUNDARY)
            terminals.append(f"{name}.{PATTERN_PRIORITY}: /{regex}/i")
        self.text = "\n".join(
            [
                _base(),
                f"// ---- trigger grammars of tenant namespace {self.tns}",
                "%extend start: " + " | ".join(self._entry),
                *lines,
                *terminals,
            ]
        )
        self._lark = self._build()

    # ---- emitting -------------------------------------------------------------------------

    @staticmethod
    def _word_regex(word: str) -> str:
        tail = BOUNDARY if re.match(r"[A-Za-z0-9_]", word[-1]) else ""
        return re.escape(word) + tail

    def _emit(self, rule: str, fragment: Fragment) -> list[str]:
        rns = f"{self.tns}__{_ns(rule)}"
        lines = []

        def name_of(ref: str) -> str:
            if ref in fragment.rules:
                return f"{rns}__r_{ref}"
            if ref in fragment.words:
                return f"{rns}__w_{ref.lower()}"
            emitted = f"{rns.upper()}__P_{ref.upper()}"
            if emitted not in self._pattern:
                self._pattern[emitted] = (rule, ref, fragment.patterns[ref].samples)
                self._regex[emitted] = fragment.patterns[ref].emitted
                label = "a pattern" if ref.startswith("_P") else f"pattern {ref}"
                self._names[emitted] = f"{label} of rule {rule!r}"
            self._term_users.setdefault(emitted, set()).add(rule)
            return emitted

        def expansion(node: Node) -> str:
            if isinstance(node, Lit):
                word = node.text.lower()  # matched case-insensitively (/i)
                digest = hashlib.sha256(word.encode()).hexdigest()[:12].upper()
                term = f"{self.tns.upper()}__L_{digest}"
                self._literal[term] = word
                self._names[term] = repr(word)
                self._term_users.setdefault(term, set()).add(rule)
                return term
            if isinstance(node, Ref):
                return name_of(node.name)
            if isinstance(node, Seq):
                return " ".join(expansion(i) for i in node.items)
            if isinstance(node, Alt):
                return "(" + " | ".join(expansion(o) for o in node.options) + ")"
            if isinstance(node, Opt):
                return f"({expansion(node.item)})?"
            if isinstance(node, Rep):
                return f"({expansion(node.item)}){'+' if node.at_least_one else '*'}"
            raise TypeError(node)

        for name, body in fragment.rules.items():
            emitted = name_of(name)
            self._user[emitted] = (rule, name)
            self._owner[emitted] = rule
            self._names[emitted] = f"{name} (rule {rule!r})"
            if name == ENTRY:
                self._entry[emitted] = rule
            lines.append(f"{emitted}: {expansion(body)}")
        for name, body in fragment.words.items():
            emitted = name_of(name)
            self._owner[emitted] = rule
            self._names[emitted] = f"{name} (rule {rule!r})"
            lines.append(f"{emitted}: {expansion(body)}")
        return lines

    # ---- building and checking ------------------------------------------------------------

    def _readable(self, text: str) -> str:
        return re.sub(
            r"\b(?:zt|ZT)_\w+",
            lambda m: self._names.get(m.group(), m.group().rsplit("__", 1)[-1]),
            text,
        )

    def _involved(self, text: str) -> frozenset[str]:
        rules = set()
        for name in re.findall(r"\b(?:zt|ZT)_\w+", text):
            if name in self._owner:
                rules.add(self._owner[name])
            rules.update(self._term_users.get(name, ()))
            if name in self._pattern:
                rules.add(self._pattern[name][0])
        return frozenset(rules)

    def _build(self) -> Lark:
        try:
            lark = Lark(self.text, parser="lalr", lexer="contextual", propagate_positions=True)
        except GrammarError as exc:
            message = str(exc)
            heads = re.findall(r"<(\S+) :", message)
            involved = frozenset(self._owner[h] for h in heads if h in self._owner)
            if "Reduce/Reduce" in message:
                names = sorted({self._readable(h) for h in heads})
                raise GrammarConflict(
                    f"two readings of the same words: {' and '.join(names)}", involved
                ) from None
            raise GrammarConflict(
                f"the grammar does not compile: {self._readable(message)}",
                involved or frozenset(self.rules),
            ) from None
        except (LarkError, RecursionError) as exc:
            raise GrammarConflict(
                f"the grammar does not compile: {self._readable(str(exc))}", frozenset(self.rules)
            ) from None
        analyzer = LALR_Analyzer(ParserConf(lark.rules, {}, ["start"]), strict=True)
        try:
            analyzer.compute_lalr()  # type: ignore[no-untyped-call]
        except GrammarError as exc:
            message = str(exc)
            term = re.search(r"terminal (\S+)\.", message)
            at = self._readable(term.group(1)) if term else "a word"
            heads = re.findall(r"<(\S+) :", message)
            involved = self._involved(" ".join(heads) + " " + (term.group(1) if term else ""))
            where = ", ".join(sorted({self._readable(h) for h in heads}))
            raise GrammarConflict(
                f"ambiguous at {at}: it could end {where} or continue it (the grammar needs "
                "one word of look-ahead to decide; make the parts distinct)",
                involved,
            ) from None
        self._check_lexer(analyzer.parse_table.states)
        return lark

    def _check_lexer(self, states: dict[Any, dict[str, Any]]) -> None:
        compiled = {name: re.compile(source, re.IGNORECASE) for name, source in self._regex.items()}
        seen: set[tuple[str, str]] = set()
        for actions in states.values():
            expected = [t for t in actions if t in self._literal or t in self._pattern]
            patterns = [t for t in expected if t in self._pattern]
            literals = [t for t in expected if t in self._literal]
            for p in patterns:
                owner = self._pattern[p][0]
                for lit in literals:
                    if (p, lit) in seen or owner in self._term_users[lit]:
                        continue
                    seen.add((p, lit))
                    word = self._literal[lit]
                    if compiled[p].fullmatch(word):
                        users = " and ".join(repr(r) for r in sorted(self._term_users[lit]))
                        raise GrammarConflict(
                            f"the word {word!r} of rule {users} is also matched by "
                            f"{self._names[p]} at the same point",
                            frozenset({owner, *self._term_users[lit]}),
                        )
                for q in patterns:
                    if q <= p or (p, q) in seen:
                        continue
                    seen.add((p, q))
                    for a, b in ((p, q), (q, p)):
                        samples = self._pattern[a][2]
                        hit = next((s for s in samples if compiled[b].fullmatch(s)), None)
                        if hit is not None:
                            raise GrammarConflict(
                                f"{self._names[a]} and {self._names[b]} both match {hit!r} "
                                "at the same point",
                                frozenset({self._pattern[a][0], self._pattern[b][0]}),
                            )

    # ---- matching -------------------------------------------------------------------------

    def match(self, instruction: str) -> GrammarMatch | None:
        """The rule whose grammar reads the whole (normalised) instruction, or None.

        Slots are the text each rule other than ``trigger`` matched, case-folded like phrase
        slots; a rule matched more than once gives a list.
        """
        text = normalise(instruction)
        if not text or len(text) > self.limits.max_grammar_instruction_chars:
            return None
        try:
            tree = self._lark.parse(text)
        except LarkError:
            return None
        top = tree.children[0] if tree.children else None
        if not isinstance(top, Tree) or top.data not in self._entry:
            return None
        rule = self._entry[top.data]
        slots: dict[str, Any] = {}
        for sub in top.iter_subtrees_topdown():  # type: ignore[no-untyped-call]
            owner = self._user.get(sub.data)
            if owner is None or owner[1] == ENTRY or sub.meta.empty:
                continue
            value = text[sub.meta.start_pos : sub.meta.end_pos].casefold()
            name = owner[1]
            if name not in slots:
                slots[name] = value
            elif isinstance(slots[name], list):
                slots[name].append(value)
            else:
                slots[name] = [slots[name], value]
        return GrammarMatch(rule, slots, text)


def sentences(fragment: Fragment, budget: int) -> list[str]:
    """Sample instructions of a fragment: every alternative, optional part and repetition
    taken at least once (within ``budget``), the shortest first."""

    def variants(node: Node) -> list[list[str]]:
        if isinstance(node, Lit):
            return [[node.text]]
        if isinstance(node, Ref):
            if node.name in fragment.rules:
                return variants(fragment.rules[node.name])
            if node.name in fragment.words:
                return variants(fragment.words[node.name])
            return [[s] for s in fragment.patterns[node.name].samples[:2]]
        if isinstance(node, Alt):
            out = [v for option in node.options for v in variants(option)]
            return out[:budget]
        if isinstance(node, Opt):
            return [[], *variants(node.item)][:budget]
        if isinstance(node, Rep):
            inner = variants(node.item)
            out = ([] if node.at_least_one else [[]]) + inner + [inner[0] + inner[0]]
            return out[:budget]
        if isinstance(node, Seq):
            parts = [variants(i) for i in node.items]
            count = min(max(len(p) for p in parts), budget)
            return [[w for p in parts for w in p[k if k < len(p) else 0]] for k in range(count)]
        raise TypeError(node)

    seen: dict[str, None] = {}
    for words in variants(fragment.rules[ENTRY]):
        seen.setdefault(join_words(words), None)
    return list(seen)[:budget]
