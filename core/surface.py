"""Surface forms: freely worded instructions brought to the grammar's frame.

Runs on normalised instruction text, before the gate and the grammar. It knows the format
lexicon (the formats installed ops read and write, their aliases) and does four things, each
one a closed class rather than a list of sentences:

- **answer-only markers** are dropped: "no commentary", "nothing else", "without any
  explanation", "just the result", 不要解释, 无需说明, 只返回JSON, 就行 (never "only the
  code" / 只输出代码: the grammar reads that as an option of code-producing ops). A negated open ask
  asks for a terse answer; it is not an open ask. "only the YAML" / 只返回YAML names the target:
  it is dropped when the target is named elsewhere, else it reads as "output YAML".
- **format typos** are corrected: a word of four letters or more that is one edit (insertion,
  deletion, substitution, transposition) from a format name of four letters or more, and is
  neither a keyword of the grammar, another format, nor a word of the payload ("YMAL", "JSNO",
  "Pyhton"); so are typos of a few pointing and request words ("thsi", "conver", "folowing").
  Any other unknown word still falls back.
- **conversion frames** whose source and target stand in other orders are read as
  "SOURCE to TARGET": "JSON in, YAML out", "YAML instead of JSON" (target, then source),
  "what is the YAML form of this", "what HTML does this Markdown produce", "pandas code for",
  "I need this in YAML". Both slots must be format names; anything else is left alone (and so
  falls back if the grammar does not know it).
- **prompt-template labels** are dropped: a Markdown heading marker and a label word
  (task, input, output, instructions, 任务, 输入, 输出 …) alone on its line or before a colon
  ("### Task", "Input:", "任务：");
  words that only say the payload came before ("the JSON I sent earlier", 刚才那段) are
  dropped (the engine takes an earlier turn's fenced block when the message has none).
- nothing else: every other word is the grammar's to understand or to refuse.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from zerolayer.core.answer_only import CUES as ANSWER_ONLY_CUES
from zerolayer.core.answer_only import (
    answer_formats,
    answer_only_formats,
    drop_answer_only,
    is_answer_only,
    words,
)
from zerolayer.core.frames import INTERJECTIONS, OPEN_EN
from zerolayer.core.message import INSTRUCTION_LABEL, TEMPLATE_LABEL
from zerolayer.core.persona import role_end

# Spellings of formats a user writes besides the names of installed ops' formats.
ALIASES = {
    "yml": "yaml",
    "md": "markdown",
    "htm": "html",
    "py": "python",
    "ts": "typescript",
    "df": "pandas",
    "dataframe": "pandas",
}

_QUOTED = re.compile(r""""[^"\n]*"|`[^`\n]*`|'[^'\n]*'(?![A-Za-z])""")
_WORD = re.compile(r"(?<![A-Za-z0-9_\-.'])[A-Za-z]{4,}(?![A-Za-z0-9_'])")
# Words after which a word is a value ("name is Jason"), never corrected.
_VALUE_BEFORE = re.compile(
    r"(?i)(?:\b(?:is|are|equals?|named|called|was|not|than|like)|=|==|!=|是|为|叫)\s*$"
)


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one insertion, deletion, substitution or
    transposition of adjacent letters."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


class Surface:
    """The surface rewrites for one set of installed formats."""

    def __init__(self, formats: Iterable[str], keywords: Iterable[str] = ()) -> None:
        names = {f.lower() for f in formats}
        self.formats = names | {a for a, f in ALIASES.items() if f in names}
        self.keywords = {k.lower() for k in keywords}
        self.format_names = frozenset(self.formats)  # the format names and aliases it knows
        self._targets = sorted(n for n in names if len(n) >= 4)
        fmt = "|".join(sorted((re.escape(f) for f in self.formats), key=lambda w: -len(w)))
        f = rf"(?<![A-Za-z0-9_])(?:{fmt})(?![A-Za-z0-9_])"
        self._fmt = re.compile(f, re.IGNORECASE)
        article = r"(?:(?:the|this|that|a|an)\s+)?"
        self._in_out = re.compile(rf"(?i)({f})\s+in\s*[,;/]?\s*(?:and\s+)?({f})\s+out(?![A-Za-z])")
        self._instead = re.compile(rf"(?i)({f})\s+instead\s+of\s+(?:the\s+)?({f})")
        self._what_form = re.compile(
            rf"(?i)\bwhat(?:'s|\s+is|\s+would\s+be|\s+does)\s+(?=(?:the\s+)?(?:{f})\s+"
            r"(?:form|version|equivalent|representation|counterpart)\b)"
        )
        self._produce = re.compile(
            rf"(?i)\bwhat\s+({f})\s+(?:does|would|will)\s+{article}({f})\s+"
            r"(?:produce|give|render\s+to|render|become|generate|make)(?![A-Za-z])"
        )
        self._code_for = re.compile(rf"(?i)^\s*({f})\s+code\s+(?:for|of)\b")
        # the answer's slot: (desired/expected/target) output/target (format/language) + label
        # end, then a format's name that ends its line
        self._target_slot = re.compile(
            rf"(?im)(?:^|(?<=\s))(?:(?P<heading>#{{1,6}})[ \t]*)?(?:(?:desired|expected)[ \t]+)?"
            rf"(?:output|target|输出|目标)(?:[ \t]*(?:format|language|lang|格式|语言))?"
            rf"(?:[ \t]*[:：][ \t]*|[ \t]*\n[ \t]*|(?(heading)[ \t]+|(?!)))({f})[ \t]*(?=\n|$)"
        )
        # the input's slot with its format in brackets: "Input (Markdown):", "### Source (Python)"
        self._source_slot = re.compile(
            rf"(?im)(?:^|(?<=\s))(?:#{{1,6}}[ \t]*)?(?:input|source|输入|源)[ \t]*[(（][ \t]*"
            rf"({f})[ \t]*[)）][ \t]*[:：]?"
        )
        self._need_in = re.compile(
            rf"(?i)\b(?:need|want|like|have)\s+(?:(?:it|this|that|them)\s+)?in\s+({f})\b"
        )
        # the answer as the payload again in another format: "reply with the same data as
        # YAML" (it as YAML); at a clause's start, "same thing but TypeScript" (convert it to
        # TypeScript). The format must end its clause: "the same data as the YAML above"
        # compares, it is no request.
        same = rf"(?:the\s+)?same\s+(?:{_SAME_NOUNS})"
        end = r"(?=\s*(?:[,;.!?]|$|\s(?:please|pls|plz|thanks|thx)\b))"
        self._same_as = re.compile(rf"(?i)\b{same}\s+(as|in)\s+({f}){end}")
        self._same_but = re.compile(
            rf"(?i)(?:^|(?<=[,;.!?:]\s)|(?<=[,;.!?:]))\s*{same}\s+but\s+(?:(?:as|in)\s+)?({f}){end}"
        )

    def canonical(self, text: str, payloads: tuple[str, ...] = ()) -> str:
        """The instruction with the surface rewrites applied (remembered: instructions
        recur; one rewrite for the instruction with and without its payloads where no
        rewrite of it looks at them)."""
        if len(text) > 512:
            return self.rewrite(text, payloads)
        if payloads and not self._reads_payloads(text):
            payloads = ()
        return self._cached(text, payloads)

    @lru_cache(maxsize=4096)  # noqa: B019 -- one Surface per engine, instructions recur
    def _reads_payloads(self, text: str) -> bool:
        """Whether a rewrite of ``text`` looks at the payloads: to keep a word that is a key
        of their data (an answer-only cue's "只输出code") or a word of theirs that looks like
        a misspelt format name."""
        if ANSWER_ONLY_CUES.search(text) or _THE_TYPO.search(text):
            return True
        return bool(self._targets) and any(
            self._typo_of(w.lower()) is not None for w in _WORD.findall(text)
        )

    @lru_cache(maxsize=4096)  # noqa: B019 -- one Surface per engine, instructions recur
    def _cached(self, text: str, payloads: tuple[str, ...]) -> str:
        return self.rewrite(text, payloads)

    def _slots(self, text: str) -> str:
        """A prompt template's slots read as the conversion they describe: the label of the
        answer's slot before a format's name ("Output format: YAML", "### Target language\n
        TypeScript", 输出格式：JSON) asks for that format ("convert to YAML"); a format's name in
        brackets after the input's label ("Input (Markdown):") names the source; labels in
        brackets (【输入】, [要求]) are labels. Only where the slot holds a format's name."""
        text = _BRACKET_LABEL.sub(" ", text)
        if not self._fmt.search(text):
            return text
        text = self._source_slot.sub(r" \1 ", text)
        return self._target_slot.sub(r" convert to \2", text)

    def named(self, text: str) -> tuple[str, ...]:
        """The formats ``text`` names, in order, aliases resolved."""
        if len(text) <= 512:
            return self._named_cached(text)
        return self._named(text)

    @lru_cache(maxsize=4096)  # noqa: B019 -- one Surface per engine, instructions recur
    def _named_cached(self, text: str) -> tuple[str, ...]:
        return self._named(text)

    def _named(self, text: str) -> tuple[str, ...]:
        return tuple(ALIASES.get(w.lower(), w.lower()) for w in self._fmt.findall(text))

    def forget(self) -> None:
        """Drop the remembered rewrites (for benchmarks of first-time instructions)."""
        self._cached.cache_clear()
        self._reads_payloads.cache_clear()
        self._named_cached.cache_clear()
        self._typo_of.cache_clear()
        self._terse_cached.cache_clear()

    def rewrite(self, text: str, payloads: tuple[str, ...] = ()) -> str:
        """The rewrites, computed afresh (each one only where its cue word occurs)."""
        if "#" in text or ":" in text or "\n" in text or "[" in text:
            text = self._slots(text)
            text = _TEMPLATE_LABEL.sub(" ", text)
            text = _NUMBERED_ITEM.sub("- ", text)
        if "advance" in text:
            text = _THANKS_IN_ADVANCE.sub(" ", text)
        if "instruction that describes" in text:
            text = _ALPACA_PREAMBLE.sub(" ", text)
        if (end := role_end(text, self.formats)) and text[end:].strip():
            text = text[end:]
        if (ack := _ACKNOWLEDGEMENT.match(text)) is not None and all(
            w.lower() in INTERJECTIONS for w in ack["words"].split()
        ):
            text = text[ack.end() :]
        text = self._correct(text, payloads)
        text = self.terse(text, payloads)
        low = text.lower()
        if " out" in low:
            text = self._in_out.sub(r"\1 to \2", text)
        if "instead" in low:
            text = self._instead.sub(r"\2 to \1", text)
        if "what" in low:
            text = self._what_form.sub("", text)
            text = self._produce.sub(r"\2 to \1", text)
        if "code" in low:
            text = self._code_for.sub(r"convert to \1", text)
        if " in " in low:
            text = self._need_in.sub(r"convert to \1", text)
        if "same " in low:
            text = self._same_as.sub(r"it as \2", text)
            text = self._same_but.sub(r" convert it to \1", text)
        if _PAYLOAD_HEAD.search(text):
            text = _PAYLOAD_NOUN.sub(self._payload_noun, text)
        if _REFERENCE_CUES.search(text) and self._fmt.search(text):
            text = _REFERENCE.sub(" ", text)
        if ("<" in text or "标签" in text) and self._fmt.search(text):
            text = _WRAPPER_REFERENCE.sub(" ", text)
        return re.sub(r"[ \t]{2,}", " ", text).strip()

    def _payload_noun(self, m: re.Match[str]) -> str:
        """A noun phrase that names the payload by what it is ("this package manifest", "the
        docker compose file"): the pointing word and the head noun, the words that only
        describe the payload dropped. A word that means something to the grammar (a format,
        a keyword), an open ask, a judgement of the data or a word that picks one of several
        payloads ("the second file", "the broken config") stays, and so do all of them."""
        described = m["words"].split()
        if any(
            w.lower() in self.formats
            or w.lower() in self.keywords
            or w.lower() in _NOT_DESCRIPTIVE
            or self._typo_of(w.lower()) is not None
            for w in described
        ):
            return m[0]
        return f"{m['point']} {m['head']}"

    def terse(self, text: str, payloads: tuple[str, ...] = ()) -> str:
        """``text`` without its answer-only clauses (what an open-ask screen reads: "no
        explanation needed" asks for no explanation); a word that is a key of the payloads
        ("只输出code") is a field, not an answer word."""
        if not ANSWER_ONLY_CUES.search(text):
            return text
        if payloads:
            keys = PayloadKeys(payloads)
            # a text whose every token is a whole word and none a key reads as without data
            if not (text.isascii() and len(text) <= 512) or any(
                w.lower() in keys for w in words(text)
            ):
                return drop_answer_only(text, self.format_names, self._names, keys)
        return self._terse_cached(text) if len(text) <= 512 else self._terse(text)

    @lru_cache(maxsize=4096)  # noqa: B019 -- one Surface per engine, instructions recur
    def _terse_cached(self, text: str) -> str:
        return self._terse(text)

    def _terse(self, text: str) -> str:
        return drop_answer_only(text, self.format_names, self._names)

    def answer_only(self, text: str) -> bool:
        """Whether ``text`` is answer-only clauses alone ("No explanation needed, just
        code.", "Only output valid JSON, no prose.", 只要YAML，别的不用说)."""
        return is_answer_only(text, self.format_names)

    def answer_only_formats(self, text: str) -> tuple[str, ...] | None:
        """The formats ``text`` names, aliases resolved, when it is answer-only clauses alone
        (``()`` for none: "No explanation needed."); else None."""
        found = answer_only_formats(text, self.format_names)
        if found is None:
            return None
        return tuple(dict.fromkeys(ALIASES.get(f.lower(), f.lower()) for f in found))

    def answer_formats(self, text: str) -> tuple[str, ...]:
        """The formats ``text``'s answer-only clauses name, aliases resolved."""
        if not ANSWER_ONLY_CUES.search(text):
            return ()
        found = answer_formats(text, self.format_names)
        return tuple(dict.fromkeys(ALIASES.get(f.lower(), f.lower()) for f in found))

    def _names(self, text: str, name: str) -> bool:
        """Whether ``text`` names format ``name`` (aliases resolved)."""
        low = name.lower()
        return ALIASES.get(low, low) in self.named(text)

    def _correct(self, text: str, payloads: tuple[str, ...]) -> str:
        if not self._targets:
            return text

        def fix(m: re.Match[str]) -> str:
            word = m.group(0)
            target = self._typo_of(word.lower())
            if target is None:
                return word
            if any(a <= m.start() < b for a, b in (q.span() for q in _QUOTED.finditer(text))):
                return word
            if _VALUE_BEFORE.search(text[max(0, m.start() - 12) : m.start()]):
                return word
            word_re = rf"(?i)(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])"
            if any(re.search(word_re, p) for p in payloads):
                return word
            return target

        text = _WORD.sub(fix, text)
        if _THE_TYPO.search(text):
            # "teh", "hte": the article's letters transposed, unless the data holds the word
            word_of = {m.group(0).lower() for p in payloads for m in _THE_TYPO.finditer(p)}
            text = _THE_TYPO.sub(
                lambda m: m.group(0) if m.group(0).lower() in word_of else "the", text
            )
        return text

    @lru_cache(maxsize=8192)  # noqa: B019 -- one Surface per engine, words recur
    def _typo_of(self, low: str) -> str | None:
        """The one format name ``low`` is a typo of, or None."""
        if low in self.formats or low in self.keywords or low in _KNOWN_FORMATS | _NOT_TYPOS:
            return None
        if low.endswith("s") and low[:-1] in self.formats:
            return None  # a plural ("tables"), not a typo
        hits = [t for t in self._targets if abs(len(t) - len(low)) <= 1 and _one_edit(low, t)]
        if not hits and low[:1] in _BENIGN_INITIALS:
            hits = [w for w in _BENIGN if abs(len(w) - len(low)) <= 1 and _one_edit(low, w)]
        return hits[0] if len(hits) == 1 else None


# A noun phrase naming the payload: a pointing word, one to three words that describe the
# payload, and a head noun the frame reader skips ("this package manifest", "the docker compose
# file", "my k8s deployment config"). See Surface._payload_noun.
_PAYLOAD_HEAD = re.compile(
    r"(?i)(?<![\w-])(?:manifest|file|config|configuration|document|snippet|payload|listing)(?![\w-])"
)
_PAYLOAD_NOUN = re.compile(
    r"(?i)(?<![\w-])(?P<point>this|that|the|my|our|your)[ \t]+"
    r"(?P<words>(?:[a-z][a-z0-9]*[ \t]+){1,3}?)"
    r"(?P<head>manifest|file|config|configuration|document|snippet|payload|listing)(?![\w-])"
)


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that say more than what the payload is: which one of several (an order, a place, an
# age of the text), a judgement of it (to be fixed?), how much of it, or a negation.
_NOT_DESCRIPTIVE = OPEN_EN | _word_set(
    """
    first second third fourth last final previous next other another earlier later latter
    former above below same different new newer old older original updated modified edited
    current both each every all any whole entire part partial half some only one two three
    broken invalid malformed buggy messy ugly bad wrong incorrect corrupt corrupted faulty
    erroneous incomplete truncated weird strange fixed cleaned minified prettified sorted
    filtered not no without with and or of to from in on for as into than then
    """
)
# Formats that are one edit from an installed one but are other formats: never "corrected".
# Words of the instruction's frame a typo of which is corrected too ("thsi" -> "this"): only
# pointing and request words, whose correction cannot change what is asked for.
_BENIGN = ("this", "these", "those", "following", "convert", "translate", "rewrite", "please")
_BENIGN_INITIALS = frozenset(w[0] for w in _BENIGN)
# "the" with two letters transposed ("teh json", "hte table"): read as "the".
_THE_TYPO = re.compile(r"(?i)(?<![A-Za-z0-9_'])(?:teh|hte)(?![A-Za-z0-9_'])")
_KNOWN_FORMATS = frozenset({"jsonl", "json5", "yamls", "toml", "xhtml", "dhtml", "shtml"})
# Common words one edit from a format's name ("able" and "table"): words, never typos.
_NOT_TYPOS = frozenset({"able", "cable", "fable", "gable", "sable", "stable", "tablet", "panda"})

# A label in brackets (【输入】, normalised to [输入]; [Task]) is a template's label wherever it is.
_BRACKET_LABEL = re.compile(rf"(?i)\[[ \t]*(?:{TEMPLATE_LABEL}|内容|content|source)[ \t]*\]")

# The labels of prompt templates ("### Task", "Input:", "任务：", "### 输出"): a Markdown heading
# marker, and a label word that stands alone on its line or before a colon, say where the
# parts of a prompt are, not what to do.
# Thanks given before the answer ("Thanks in advance!", "thank you in advance"): no word of
# it says what to do ("in advance" is no condition on the data).
_THANKS_IN_ADVANCE = re.compile(
    r"(?i)\b(?:many\s+)?thanks?(?:\s+you)?(?:\s+(?:so|very)\s+much)?\s+in\s+advance\b[.!]*"
)
# The fixed preamble of the instruction-tuning (Alpaca) prompt template: it says how the
# prompt is laid out, not what to do.
_ALPACA_PREAMBLE = re.compile(
    r"(?i)below\s+is\s+an\s+instruction\s+that\s+describes\s+a\s+task(?:,?\s+paired\s+with\s+"
    r"an\s+input\s+that\s+provides\s+further\s+context)?\.\s*write\s+a\s+response\s+that\s+"
    r"appropriately\s+completes\s+the\s+request\.?"
)
# a numbered list's item marker at a line's start ("1. Sort the keys"): a clause, as "- " is
_NUMBERED_ITEM = re.compile(r"(?m)^[ \t]*\d{1,2}[.)、][ \t]*(?=[A-Za-z\u3400-\u9fff])")
_TEMPLATE_LABEL = re.compile(
    r"(?im)(?:^|(?<=\s))#{1,6}[ \t]*(?=\S)"
    rf"|(?:^|(?<=[\s#])){INSTRUCTION_LABEL}[ \t]*(?:[:：]|$)"
)


class PayloadKeys:
    """The keys of the payloads' JSON or YAML data ("code": …, code: …; the first 64 KB of
    each), as a container of lower-case words: a word is looked up where it occurs, so that
    asking about the few words of an instruction costs no read of the whole data."""

    __slots__ = ("_known", "_texts")

    def __init__(self, payloads: tuple[str, ...]) -> None:
        self._texts = tuple(p[:65536].lower() for p in payloads)
        self._known: dict[str, bool] = {}

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        known = self._known.get(word)
        if known is None:
            known = self._known[word] = any(_holds_key(text, word) for text in self._texts)
        return known


def _holds_key(text: str, word: str) -> bool:
    """Whether ``word`` is a whole key of the data in ``text``: after the start of a line
    (spaces, tabs or a "- " item marker between), a "{" or a ","; in quotes or not; then a
    colon."""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if _key_end(text, end) and _key_start(text, at):
            return True
        at = text.find(word, at + 1)
    return False


def _key_end(text: str, end: int) -> bool:
    if end < len(text) and text[end] in "\"'":
        end += 1
    while end < len(text) and text[end] in " \t":
        end += 1
    return end < len(text) and text[end] == ":"


def _key_start(text: str, at: int) -> bool:
    if at > 0 and text[at - 1] in "\"'":
        at -= 1
    line = at
    while line > 0 and text[line - 1] in " \t-":
        line -= 1
    if line == 0 or text[line - 1] == "\n":
        return True
    while at > 0 and text[at - 1] in " \t\n":
        at -= 1
    return at > 0 and text[at - 1] in "{,"


# An opening clause of acknowledgements alone ("nice.", "great, ", "ok cool!") before more
# words: it answers the reply before, it asks nothing (its words must all be interjections).
_ACKNOWLEDGEMENT = re.compile(r"^\s*(?P<words>[A-Za-z]+(?:\s+[A-Za-z]+){0,2})\s*[.,!]+\s+(?=\S)")

# Nouns of the payload as a whole after "the same" ("the same data as YAML").
_SAME_NOUNS = (
    "data|content|contents|thing|document|doc|code|logic|program|script|query|config|stuff"
)

# Words that only say the payload was given before ("the JSON I sent earlier", "that YAML from
# before", 刚才那段JSON): the engine finds an earlier turn's payload by itself.
_REFERENCE = re.compile(
    r"(?i)(?:\b(?:that|which)\s+)?\bi\s+(?:just\s+)?(?:sent|pasted|shared|posted|gave|"
    r"provided|uploaded|showed)(?:\s+(?:you|to\s+you))?(?:\s+(?:earlier|before|previously|"
    r"above|in\s+my\s+(?:last|previous)\s+message))?\b"
    r"|\b(?:from\s+)?(?:earlier|previously|before)(?=\s*(?:[,;.!?]|$))"
    r"|(?:刚才|刚刚|之前|前面)(?:(?:发|给|贴)的)?(?=那|这)|(?:刚才|刚刚|之前|前面)(?:发|给|贴)的"
    # who gives the payload, as a system prompt says it ("the JSON the user sends", "every
    # YAML document the user provides", 用户发来的JSON, 用户的Markdown)
    r"|(?:\b(?:that|which)\s+)?\bthe\s+user\s+(?:sends|provides|gives|pastes|submits|shares|"
    r"posts|enters|supplies)(?:\s+(?:you|to\s+you))?\b"
    # "the user's Markdown", "the Markdown in the user message", "whatever JSON the user
    # sends": the user's words, said as a system prompt says them
    r"|\bthe\s+user(?:'s|’s)(?=\s+[A-Za-z])"
    r"|\b(?:in|from)\s+(?:the|each|every)\s+user(?:'s|’s)?\s+(?:message|input|turn)s?\b"
    r"|\bwhatever(?=\s+[A-Za-z]+\s+(?:the\s+user|i)\s)"
    r"|用户(?:发来|发给你|发送|提供|给出|输入|贴出|给你)?的(?=\s*[A-Za-z])"
)
_REFERENCE_CUES = re.compile(
    r"(?i)\b(?:sent|pasted|shared|posted|gave|provided|uploaded|showed|earlier|previously|before|"
    r"user)\b|刚才|刚刚|之前|前面|用户"
)

# Words that say the payload is in a template's pair of tags ("the JSON in <input>", "what's
# inside the <yaml> tags", 标签里的JSON, 上面标签中的YAML): the segmenter takes the tags' body as
# the payload by itself.
_WRAPPER_REFERENCE = re.compile(
    r"(?i)(?:\bwhat(?:'s|\s+is)\s+)?\b(?:in|inside|within|between)\s+(?:the\s+)?"
    r"<[A-Za-z][\w-]*>(?:\s+(?:tags?|block|element|section))?(?![\w<])"
    r"|(?:上面|下面|以上|以下)?(?:的)?(?:<[A-Za-z][\w-]*>)?标签(?:里面|里|中|内)的"
)
