"""Find what an instruction refers to in the conversation: earlier questions, text, tables.

``messages`` is the whole conversation in order, the current request last. Each message may
be a ``zerolayer.core.messages.Message``, a ``(role, content)`` pair or a ``{"role": …,
"content": …}`` mapping. The last message is the current turn; ``current_text`` is the
instruction inside it (the segmenter's instruction text). Text in the current turn *before*
the instruction counts as context ("the text above" may sit in the same message).

The question rule (``question_kind``) is:

- a **question** is one line (no line break once trimmed) that
  - ends with ``?`` or ``？`` (closing quotes or brackets after it are allowed); or
  - ends with the Chinese question particle ``吗`` or ``嘛`` (optionally followed by ``。``); or
  - starts with an English interrogative word (what, why, how, which, who, whom, whose, when,
    where, can, could, would, should, is, are, was, were, does, did) or a Chinese one
    (什么, 为什么, 怎么, 怎样, 如何, 哪, 谁, 是否, 能否, 可否, 多少), and does not end
    with ``.``, ``。``, ``!`` or ``！`` ("When I run it, it fails." is a statement);
- a turn is **unclear** when the line above holds more than one sentence ("Hi! How are you?":
  is the question the whole line or its last sentence?), or when it is not a question by the
  rule above but could hold one: it has
  several lines and one of them is a question or unclear; or it is one line without final
  punctuation that starts with do/will/shall/am/may/have/has ("Do not …" is an order), or has
  a Chinese interrogative word inside ("我不知道为什么" may or may not ask); or it ends with
  ``呢`` and no question mark ("还没到呢" is a statement); or it has a question mark that
  does not end it ("I asked why? and got nothing.");
- everything else is a **statement**.

``nth_question`` walks the user turns before the current one; it raises ``Unsupported`` when
an unclear turn comes before the answer (it might be the question meant) and ``OpError`` when
there are not enough questions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, Protocol

from zerolayer.core.errors import OpError, Unsupported
from zerolayer.plugins.context.table import Table, TableMatch, find_tables
from zerolayer.plugins.context.text import blocks, has_paragraph_breaks, paragraph, unbroken


class _HasRoleContent(Protocol):
    role: str
    content: str


TurnLike = _HasRoleContent | tuple[str, str] | Mapping[str, str]
QuestionKind = Literal["question", "unclear", "statement"]

EN_INTERROGATIVES = frozenset(
    [
        "what",
        "why",
        "how",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "can",
        "could",
        "would",
        "should",
        "is",
        "are",
        "was",
        "were",
        "does",
        "did",
    ]
)
#: Words that start questions but also imperatives or statements ("Do not …", "Will …").
EN_WEAK_INTERROGATIVES = frozenset(["do", "will", "shall", "am", "may", "have", "has"])
ZH_INTERROGATIVES = (
    "为什么",
    "什么",
    "怎么",
    "怎样",
    "如何",
    "哪",
    "谁",
    "是否",
    "能否",
    "可否",
    "多少",
)
ZH_PARTICLES = ("吗", "嘛")
#: Final particles that end questions and statements alike ("还没到呢").
ZH_WEAK_PARTICLES = ("呢",)
_CLOSERS = "\"'”’）)」』】]》>*_`"
_EN_WORD_RE = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_NEGATED = {"ca": "can", "wo": "will", "sha": "shall"}


def _base_word(word: str) -> str:
    """The word without a contraction: "What's" -> "what", "isn't" -> "is", "can't" -> "can"."""
    w = word.casefold().replace("’", "'")
    if w.endswith("n't"):
        stem = w[:-3]
        return _NEGATED.get(stem, stem)
    return w.split("'")[0]


def turns(messages: Sequence[TurnLike]) -> list[tuple[str, str]]:
    """``messages`` as ``(role, content)`` pairs."""
    out: list[tuple[str, str]] = []
    for m in messages:
        if isinstance(m, tuple):
            role, content = m
        elif isinstance(m, Mapping):
            role, content = m.get("role", ""), m.get("content", "")
        else:
            role, content = m.role, m.content
        if not isinstance(content, str) or not isinstance(role, str):
            raise OpError("each message needs a text role and text content")
        out.append((role, content))
    return out


_INNER_BREAK_RE = re.compile(r"[.!?](?=\s+\S)|[。！？](?=.)")


def _line_kind(line: str) -> QuestionKind:
    kind = _single_sentence_kind(line)
    if kind == "question" and _INNER_BREAK_RE.search(line.strip().rstrip(_CLOSERS)):
        return "unclear"  # "Hi! How are you?": the whole line or only its question?
    return kind


def _single_sentence_kind(line: str) -> QuestionKind:
    s = line.strip()
    if not s:
        return "statement"
    bare = s.rstrip(_CLOSERS).rstrip()
    if bare.endswith(("?", "？")):
        return "question"
    if bare.rstrip("。").endswith(ZH_PARTICLES):
        return "question"
    if bare.rstrip("。").endswith(ZH_WEAK_PARTICLES):
        return "unclear"
    terminal = bare.endswith((".", "。", "!", "！"))
    first = _EN_WORD_RE.match(s.lstrip("\"'“‘(（「*_`"))
    word = _base_word(first.group(0)) if first else ""
    if word in EN_INTERROGATIVES and not terminal:
        return "question"
    if word in EN_WEAK_INTERROGATIVES and not terminal:
        return "unclear"
    start = s.lstrip("\"'“‘(（「*_`")
    if start.startswith(ZH_INTERROGATIVES) and not terminal:
        return "question"
    if any(w in s for w in ZH_INTERROGATIVES) and not terminal:
        return "unclear"
    if "?" in s or "？" in s:
        return "unclear"  # "I asked why? and got nothing."
    return "statement"


def question_kind(text: str) -> QuestionKind:
    """Whether a user turn is a question, unclear, or a statement (rule in the module doc)."""
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if not lines:
        return "statement"
    if len(lines) == 1:
        return _line_kind(lines[0])
    return "unclear" if any(_line_kind(ln) != "statement" for ln in lines) else "statement"


def is_question(text: str) -> bool:
    """True when ``text`` is a question by the rule in the module doc."""
    return question_kind(text) == "question"


def _earlier(messages: Sequence[TurnLike]) -> list[tuple[str, str]]:
    """The turns before the current one (the last message, when it is a user turn)."""
    all_turns = turns(messages)
    if all_turns and all_turns[-1][0] == "user":
        return all_turns[:-1]
    return all_turns


def nth_question(messages: Sequence[TurnLike], n: int) -> str:
    """The ``n``-th question the user asked before the current turn, verbatim (trimmed).

    ``n`` is 1-based, or negative to count from the latest (-1 = the last question).
    """
    if n == 0:
        raise OpError("question numbers start at 1 (or -1 for the last question)")
    user = [content for role, content in _earlier(messages) if role == "user"]
    if n < 0:
        user.reverse()
    want = abs(n)
    seen = 0
    for content in user:
        kind = question_kind(content)
        if kind == "unclear":
            raise Unsupported(
                "context_ambiguous_question",
                f"the user turn {content.strip()[:60]!r} may or may not be a question",
            )
        if kind == "question":
            seen += 1
            if seen == want:
                return content.strip()
    if seen == 0:
        # nothing in the conversation is what the instruction points at: it may mean
        # something else ("what I asked first" about a task given as a statement)
        raise Unsupported("context.no_question", "the user asked no question before this turn")
    which = "question" if want == 1 else f"{want} questions"
    raise OpError(
        f"the user asked {seen} question{'s' if seen != 1 else ''} before this turn; "
        f"there is no {'earlier ' + which if want == 1 else which}"
    )


def first_question(messages: Sequence[TurnLike]) -> str:
    """The first question the user asked in the conversation, verbatim."""
    return nth_question(messages, 1)


def last_question(messages: Sequence[TurnLike]) -> str:
    """The most recent question the user asked before the current turn, verbatim."""
    return nth_question(messages, -1)


_CURRENT = "the current message"


def _candidates(
    messages: Sequence[TurnLike], current_text: str | None, role: str | None
) -> list[tuple[str, str]]:
    """(where, text) of each place the instruction may refer to, most recent first."""
    all_turns = turns(messages)
    if not all_turns:
        raise OpError("the conversation is empty")
    out: list[tuple[str, str]] = []
    last_role, last = all_turns[-1]
    earlier = all_turns[:-1]
    if current_text:
        pos = last.rfind(current_text.strip())
        if pos < 0:
            raise Unsupported(
                "context_instruction_not_found",
                "the instruction text was not found in the current message",
            )
        before = last[:pos]
        if before.strip() and (role is None or role == last_role):
            out.append((_CURRENT, before))
    for back, (r, content) in enumerate(reversed(earlier), start=1):
        if role is None or r == role:
            out.append((f"{r} turn {len(earlier) - back + 1}", content))
    return out


def find_context_text(
    messages: Sequence[TurnLike],
    current_text: str | None = None,
    *,
    accept: Callable[[str], bool] = has_paragraph_breaks,
    role: str | None = None,
) -> str:
    """The text "above" that the instruction refers to.

    Looks first at the current message before the instruction, then at earlier turns from the
    most recent back, and returns the first text for which ``accept`` is true (by default: it
    has at least two paragraphs, so an acknowledgement like "Got it." is passed over). ``role``
    limits the search to ``"user"`` or ``"assistant"`` turns. With ``current_text`` ``None``
    the whole last message is the instruction. ``OpError`` when nothing qualifies.
    """
    for _, text in _candidates(messages, current_text, role):
        if accept(text):
            return text.strip("\r\n")
    who = f"{role} " if role else ""
    raise OpError(f"no earlier {who}text in the conversation has what the instruction asks for")


def context_paragraph(
    messages: Sequence[TurnLike],
    current_text: str | None,
    n: int,
    *,
    role: str | None = None,
) -> str:
    """Paragraph ``n`` of "the text above", verbatim, refusing to guess which text is meant.

    The text is the one ``find_context_text`` picks (the most recent with two or more
    paragraphs), except that one-paragraph text before the instruction in the current message
    is the text when no earlier turn has paragraphs ("Short note.\n\nReturn the first paragraph
    of the text above."). ``Unsupported`` (``context_ambiguous_text``) when the choice is in
    doubt: one-paragraph text before the instruction while an earlier turn has paragraphs; the
    picked text has too few paragraphs but an older one has enough; or (with no ``role``) the
    picked text is an assistant reply while an older user text also has paragraph ``n``.
    Otherwise as ``paragraph``: ``OpError`` when no text has paragraph ``n``.
    """
    candidates = _candidates(messages, current_text, role)
    texts = [(where, text) for where, text in candidates if has_paragraph_breaks(text)]
    if candidates and candidates[0][0] == _CURRENT and texts[:1] != candidates[:1]:
        if texts:
            raise Unsupported(
                "context_ambiguous_text",
                f"'the text above' may be the short text before the instruction or {texts[0][0]}",
            )
        return paragraph(candidates[0][1].strip("\r\n"), n)
    # A text more recent than the first with paragraph breaks is passed over only when it is
    # short ("Got it."): one with line breaks but no blank line, or a long unbroken run, may
    # well be the text meant, and its paragraphs cannot be told.
    chosen = candidates.index(texts[0]) if texts else len(candidates)
    for where, text in candidates[:chosen]:
        doubt = unbroken(text)
        if doubt is not None:
            raise Unsupported("context_no_paragraphs", f"{where}: {doubt}")
    if not texts:
        who = f"{role} " if role else ""
        raise OpError(f"no earlier {who}text in the conversation has paragraphs")
    where, text = texts[0]
    older_with_n = [w for w, t in texts[1:] if len(blocks(t)) >= abs(n)]
    if len(blocks(text)) < abs(n) and older_with_n:
        raise Unsupported(
            "context_ambiguous_text",
            f"{where} has fewer than {abs(n)} paragraphs but {older_with_n[0]} has enough: "
            "which text is meant is not certain",
        )
    if (
        role is None
        and where.startswith("assistant")
        and any(w.startswith("user") for w in older_with_n)
    ):
        raise Unsupported(
            "context_ambiguous_text",
            f"'the text above' may be the assistant reply ({where}) or the user's text",
        )
    return paragraph(text.strip("\r\n"), n)


def find_table_match(
    messages: Sequence[TurnLike], current_text: str | None = None, *, role: str | None = None
) -> TableMatch:
    """The most recent Markdown table before the instruction, with its line span.

    Searches like ``find_context_text``; the first place that holds tables must hold exactly
    one (``Unsupported`` when it holds several: which one is meant is not certain).
    """
    for where, text in _candidates(messages, current_text, role):
        found = find_tables(text)
        if len(found) > 1:
            raise Unsupported(
                "context_ambiguous_table", f"{where} holds {len(found)} tables; which is meant?"
            )
        if found:
            return found[0]
    raise OpError("there is no Markdown table earlier in the conversation")


def find_table(
    messages: Sequence[TurnLike], current_text: str | None = None, *, role: str | None = None
) -> Table:
    """The most recent Markdown table before the instruction (see ``find_table_match``)."""
    return find_table_match(messages, current_text, role=role).table
