"""The emphasis rule of the inline parser (``*`` and ``_`` delimiter runs), without its cost.

markdown-it's own rule (``rules_inline/emphasis.tokenize``) asks ``StateInline.scanDelims``
about every run: a named tuple per run and, for each neighbouring character, a Unicode
category lookup and three set lookups made through Python calls. A text that is mostly
delimiters (``*a*a*a…``) spends about a third of its parse there. This rule does the same
scan -- CommonMark's left- and right-flanking tests, the same character classes taken from
markdown-it's own ``isWhiteSpace``, ``isMdAsciiPunct`` and ``isPunctChar`` -- with the
classes of the ASCII characters computed once and the flanking of a run looked up by the
kinds of its two neighbours, and pushes the same tokens and delimiters, which markdown-it's
``balance_pairs`` and emphasis post-processing then pair as before. The runs and words that
follow a run are read in the same call, where the inline tokenizer would read them the same
way (see ``tokenize_emphasis``): the tokenizer's pass of its rule chain per run was the larger
part of the cost of a paragraph of markers (``*_*_…``)."""

from __future__ import annotations

from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Delimiter
from markdown_it.rules_inline.text import text
from markdown_it.token import Token


def char_class(ch: str) -> tuple[bool, bool]:
    """(white space, punctuation) of a character, as CommonMark's flanking rules read them."""
    code = ord(ch)
    return isWhiteSpace(code), isMdAsciiPunct(code) or isPunctChar(ch)


SPACE, PUNCT, OTHER = 0, 1, 2


def char_kind(ch: str) -> int:
    """``SPACE``, ``PUNCT`` or ``OTHER``: the class of a character in the flanking rules."""
    space, punct = char_class(ch)
    return SPACE if space else PUNCT if punct else OTHER


def flanking(marker: str, before: int, after: int) -> tuple[bool, bool]:
    """(can open, can close) of a run of ``marker`` between characters of the kinds
    ``before`` and ``after`` (CommonMark's left- and right-flanking rules)."""
    left = after != SPACE and not (after == PUNCT and before == OTHER)
    right = before != SPACE and not (before == PUNCT and after == OTHER)
    if marker == "*":
        return left, right
    # `_` may not open or close inside a word
    return left and (not right or before == PUNCT), right and (not left or after == PUNCT)


_ASCII_KIND = tuple(char_kind(chr(code)) for code in range(128))
_MARKERS = ("*", "_")
# (can open, can close) by marker, then by 3 * kind before + kind after
_FLANKING = {m: tuple(flanking(m, b, a) for b in range(3) for a in range(3)) for m in _MARKERS}


def _kind_at(src: str, pos: int, end: int) -> int:
    if pos < 0 or pos >= end:
        return SPACE  # the start or end of the text counts as white space
    ch = src[pos]
    return _ASCII_KIND[ord(ch)] if ch < "\x80" else char_kind(ch)


def tokenize_emphasis(state: StateInline, silent: bool) -> bool:
    """markdown-it's emphasis rule: each ``*`` or ``_`` of a run pushed as a text token with
    its delimiter (``scanDelims``, then ``StateInline.push`` of a text token per marker), for
    ``balance_pairs`` and the emphasis post-processing to pair.

    What follows the run is read in the same call while the inline tokenizer would read it the
    same way: at a ``*`` or ``_`` no rule before this one matches (text stops there; newline,
    escape, backticks and strikethrough want other characters), so the tokenizer would call
    this rule next; elsewhere it calls its first rule, markdown-it's ``text``, which this rule
    then calls, going on only where the text stops at a marker. A paragraph of markers and
    words (``*a*_b_*_``) is read in one call instead of a pass of the rule chain per run.
    """
    src = state.src
    pos = state.pos
    if silent or src[pos] not in _MARKERS:
        return False
    end, size = state.posMax, len(src)
    text_first = state.md.inline.ruler.getRules("")[0] is text
    tokens, metas, delimiters = state.tokens, state.tokens_meta, state.delimiters
    level = state.level
    while True:
        if state.pending:
            state.pushPending()
        state.pendingLevel = level
        while pos < end and src[pos] in _MARKERS:  # a run, then any run right after it
            start, marker = pos, src[pos]
            pos += 1
            while pos < end and src[pos] == marker:
                pos += 1
            # markdown-it reads the character before a run in the whole source, after it up
            # to posMax
            before = _kind_at(src, start - 1, size)
            can_open, can_close = _FLANKING[marker][3 * before + _kind_at(src, pos, end)]
            count, code = pos - start, ord(marker)
            for _ in range(count):
                token = Token("text", "", 0)
                token.content = marker
                token.level = level
                delimiters.append(Delimiter(code, count, len(tokens), -1, can_open, can_close))
                tokens.append(token)
                metas.append(None)
        state.pos = pos
        if pos >= end or not (text_first and text(state, False)):
            return True
        pos = state.pos
        if pos >= end or src[pos] not in _MARKERS:
            return True
