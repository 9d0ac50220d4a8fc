"""Heading text, GitHub-style heading slugs and ``id`` attributes on headings."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from markdown_it.token import Token


def inline_text(token: Token) -> str:
    """Plain text of an ``inline`` token as a browser's ``textContent`` would give it.

    Text, code spans and line breaks count; markup, raw HTML tags and image alt text do not.
    """
    parts: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "text_special", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def github_slug(text: str) -> str:
    """GitHub's heading anchor (github-slugger): lower case, spaces to ``-``, and every
    character that is not a letter, mark, number, connector punctuation, ``-`` or space
    removed."""
    out: list[str] = []
    for ch in text.lower():
        if ch == " ":
            out.append("-")
        elif ch == "-" or unicodedata.category(ch)[0] in "LMN" or unicodedata.category(ch) == "Pc":
            out.append(ch)
    return "".join(out)


def add_heading_ids(tokens: Sequence[Token]) -> None:
    """Set an ``id`` on every heading: its slug, made unique with ``-1``, ``-2``, … suffixes
    in document order (as github-slugger does)."""
    seen: dict[str, int] = {}
    for i, tok in enumerate(tokens):
        if tok.type != "heading_open" or i + 1 >= len(tokens):
            continue
        base = github_slug(inline_text(tokens[i + 1]))
        slug = base
        while slug in seen:
            seen[base] += 1
            slug = f"{base}-{seen[base]}"
        seen[slug] = 0
        tok.attrSet("id", slug)


def first_heading_text(tokens: Sequence[Token]) -> str | None:
    """Plain text of the first heading, or None when there is no heading."""
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and i + 1 < len(tokens):
            return inline_text(tokens[i + 1])
    return None
