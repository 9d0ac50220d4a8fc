"""Token counting for the ``usage`` figures of both APIs (one counter for every route).

zerolayer has no model tokenizer, so it counts with a documented regular expression. The text
is cut into pieces that are worth exactly one token each; whitespace is free and rides with
the piece that follows it (trailing whitespace rides with the last piece):

- one CJK character (Han, kana, Hangul) is one token;
- a run of letters (and ``_``) is one token per started 6 characters;
- a run of digits is one token per started 3 digits;
- any other character (punctuation, symbols, emoji) is one token.

The pieces also give the text deltas of streamed answers and the cut for ``max_tokens``.
"""

from __future__ import annotations

import re

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\U00020000-\U0003134f"  # CJK extensions B-G
)
_PIECE = re.compile(rf"\s*(?:[{_CJK}]|[^\W\d{_CJK}]{{1,6}}|\d{{1,3}}|[^\w\s])")


def token_pieces(text: str) -> list[str]:
    """Cut ``text`` into one-token pieces whose concatenation is exactly ``text``.

    A text of whitespace only has no pieces (and counts 0 tokens).
    """
    pieces = [m.group() for m in _PIECE.finditer(text)]
    if pieces:
        end = sum(len(p) for p in pieces)
        if end < len(text):  # trailing whitespace
            pieces[-1] += text[end:]
    return pieces


def count_tokens(text: str) -> int:
    """Number of tokens in ``text`` by the rules of this module."""
    return sum(1 for _ in _PIECE.finditer(text))


def truncate_tokens(text: str, max_tokens: int) -> tuple[str, bool]:
    """The first ``max_tokens`` tokens of ``text``, and whether anything was cut."""
    pieces = token_pieces(text)
    if len(pieces) <= max_tokens:
        return text, False
    return "".join(pieces[: max(max_tokens, 0)]), True


def chunk_text(text: str, tokens_per_chunk: int) -> list[str]:
    """Consecutive chunks of ``text`` of at most ``tokens_per_chunk`` tokens each (streaming)."""
    pieces = token_pieces(text)
    if not pieces:
        return [text] if text else []
    step = max(tokens_per_chunk, 1)
    return ["".join(pieces[i : i + step]) for i in range(0, len(pieces), step)]
