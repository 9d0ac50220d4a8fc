"""The emphasis rule of the inline parser (``*`` and ``_`` delimiter runs), without its cost.

markdown-it's own rule (``rules_inline/emphasis.tokenize``) asks ``StateInline.scanDelims``
about every run: a named tuple per run and, for each neighbouring character, a Unicode
category lookup and three set lookups made through Python calls. A text that is mostly
delimiters (``*a*a*a…``) spends about a third of its parse there. This rule does the same
scan -- CommonMark's left- and right-flanking tests, the same character classes taken from
markdown-it's own ``isWhiteSpace``, ``isMdAsciiPunct`` and ``isPunctChar`` -- with the
classes of the ASCII characters computed once, and pushes the same tokens and delimiters,
which markdown-it's ``balance_pairs`` and emphasis post-processing then pair as before.
"""

from __future__ import annotations

from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Delimiter


def char_class(ch: str) -> tuple[bool, bool]:
    """(white space, punctuation) of a character, as CommonMark's flanking rules read them."""
    code = ord(ch)
    return isWhiteSpace(code), isMdAsciiPunct(code) or isPunctChar(ch)


_ASCII = tuple(char_class(chr(code)) for code in range(128))
_EDGE = (True, False)  # the start or end of the text counts as white space


def _class_at(src: str, pos: int, end: int) -> tuple[bool, bool]:
    if pos < 0 or pos >= end:
        return _EDGE
    ch = src[pos]
    return _ASCII[ord(ch)] if ch < "\x80" else char_class(ch)


def tokenize_emphasis(state: StateInline, silent: bool) -> bool:
    """Push each ``*`` or ``_`` of a run as a text token with its delimiter (markdown-it's
    emphasis rule: ``scanDelims`` then one token and delimiter per marker)."""
    start = state.pos
    src = state.src
    marker = src[start]
    if silent or (marker != "*" and marker != "_"):
        return False
    end = state.posMax
    pos = start + 1
    while pos < end and src[pos] == marker:
        pos += 1
    count = pos - start
    # markdown-it reads the character before the run in the whole source, after it up to posMax
    last_space, last_punct = _class_at(src, start - 1, len(src))
    next_space, next_punct = _class_at(src, pos, end)
    left = not (next_space or (next_punct and not (last_space or last_punct)))
    right = not (last_space or (last_punct and not (next_space or next_punct)))
    split_word = marker == "*"  # `_` may not open or close inside a word
    can_open = left and (split_word or not right or last_punct)
    can_close = right and (split_word or not left or next_punct)
    code = ord(marker)
    for _ in range(count):
        token = state.push("text", "", 0)
        token.content = marker
        state.delimiters.append(
            Delimiter(
                marker=code,
                length=count,
                token=len(state.tokens) - 1,
                end=-1,
                open=can_open,
                close=can_close,
            )
        )
    state.pos = pos
    return True
