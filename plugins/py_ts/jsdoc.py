"""Add JSDoc blocks to TypeScript functions, methods and classes.

A separate atomic op composed after the Python -> TS conversion. The converter keeps each
Python docstring as ``//`` line comments right above the declaration it documents;
``add_jsdoc`` turns those comments, together with the TS parameter and return types, into
``/** ... @param ... @returns ... */`` blocks. Google-style (``Args:``/``Returns:``) and
Sphinx-style (``:param x:``/``:returns:``) sections of a docstring become the tag texts.
Functions without a docstring still get ``@param``/``@returns`` tags with their types.
The generated runtime-helper prelude is left as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from zerolayer.plugins.py_ts.emit_stmt import PRELUDE_END, PRELUDE_START

__all__ = ["add_jsdoc"]

_FUNC = re.compile(
    r"^(?P<indent>\s*)(?:export\s+)?(?:async\s+)?function\s+(?P<name>[A-Za-z_$][\w$]*)"
    r"\s*(?:<[^(]*>)?\((?P<params>.*)\)\s*(?::\s*(?P<ret>.+?))?\s*\{\s*$"
)
_METHOD = re.compile(
    r"^(?P<indent>\s+)(?:(?:public|private|protected|static|async)\s+)*"
    r"(?P<name>[A-Za-z_$][\w$]*)\s*\((?P<params>.*)\)\s*(?::\s*(?P<ret>.+?))?\s*\{\s*$"
)
_CLASS = re.compile(r"^(?P<indent>\s*)(?:export\s+)?(?:abstract\s+)?class\s+(?P<name>[\w$]+)")
_KEYWORDS = {"if", "for", "while", "switch", "catch", "function", "return", "else", "do"}
_SECTION = re.compile(r"^(Args|Arguments|Parameters|Params|Returns|Return|Raises|Yields)\s*:\s*$")
_SPHINX_PARAM = re.compile(r"^:param\s+(?:\S+\s+)?(\w+)\s*:\s*(.*)$")
_SPHINX_RETURN = re.compile(r"^:returns?\s*:\s*(.*)$")
_ARG_LINE = re.compile(r"^(\*{0,2}\w+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$")


@dataclass
class Doc:
    """A parsed docstring: description and per-parameter / return texts."""

    description: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)
    returns: str = ""
    raises: list[str] = field(default_factory=list)


def parse_docstring(lines: list[str]) -> Doc:
    """Split a docstring into its description and Google/Sphinx-style sections."""
    doc = Doc()
    section = ""
    current: str | None = None
    for raw in lines:
        line = raw.strip()
        m = _SECTION.match(line)
        if m:
            section = m.group(1).lower()
            current = None
            continue
        sp = _SPHINX_PARAM.match(line)
        if sp:
            doc.params[sp.group(1)] = sp.group(2).strip()
            current, section = sp.group(1), "sphinx"
            continue
        sr = _SPHINX_RETURN.match(line)
        if sr:
            doc.returns = sr.group(1).strip()
            current, section = "@return", "sphinx"
            continue
        if line.startswith(":"):
            continue
        if section in ("args", "arguments", "parameters", "params"):
            am = _ARG_LINE.match(line)
            if am and raw.startswith(raw.lstrip()[:0]) and not line.startswith("-"):
                current = am.group(1).lstrip("*")
                doc.params[current] = am.group(3).strip()
            elif current and line:
                doc.params[current] = (doc.params[current] + " " + line).strip()
            continue
        if section in ("returns", "return", "yields"):
            if line:
                text = re.sub(r"^[\w\[\], .|]+:\s+", "", line) if ":" in line else line
                doc.returns = (doc.returns + " " + text).strip()
            continue
        if section == "raises":
            if line:
                doc.raises.append(line)
            continue
        if section == "sphinx" and current and line:
            if current == "@return":
                doc.returns = (doc.returns + " " + line).strip()
            else:
                doc.params[current] = (doc.params[current] + " " + line).strip()
            continue
        doc.description.append(line)
    while doc.description and not doc.description[-1]:
        doc.description.pop()
    while doc.description and not doc.description[0]:
        doc.description.pop(0)
    return doc


def split_params(params: str) -> list[tuple[str, str, str | None]]:
    """``a: number, b: Map<K, V> = x`` -> [(name, type, default)] (bracket-aware)."""
    parts: list[str] = []
    depth = 0
    cur = ""
    in_str: str | None = None
    for ch in params:
        if in_str:
            cur += ch
            if ch == in_str:
                in_str = None
            continue
        if ch in "\"'`":
            in_str = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and cur.endswith("=")):
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    out = []
    for p in parts:
        p = p.strip()
        default = None
        eq = _top_level_eq(p)
        if eq >= 0:
            p, default = p[:eq].strip(), p[eq + 1 :].strip()
        name, _, typ = p.partition(":")
        name = re.sub(r"^(public|private|protected|readonly)\s+", "", name.strip())
        out.append((name.rstrip("?"), typ.strip(), default))
    return out


def _top_level_eq(p: str) -> int:
    """Index of a top-level ``=`` (a default value), or -1."""
    depth = 0
    for i, ch in enumerate(p):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and p[i - 1 : i] == "="):
            depth -= 1
        elif ch == "=" and depth == 0 and p[i + 1 : i + 2] not in ("=", ">"):
            return i
    return -1


def _escape(text: str) -> str:
    """Text safe inside a ``/** */`` block."""
    return text.replace("*/", "*\\/")


def build_block(
    indent: str, doc: Doc, params: str | None, ret: str | None, ctor: bool
) -> list[str]:
    """The lines of one JSDoc block."""
    body: list[str] = [_escape(line) for line in doc.description]
    tags: list[str] = []
    if params is not None:
        for name, typ, default in split_params(params):
            typ_txt = f"{{{typ}}} " if typ else ""
            label = f"[{name}={default}]" if default is not None else name
            desc = doc.params.get(name, "")
            tags.append(f"@param {typ_txt}{label}" + (f" - {_escape(desc)}" if desc else ""))
    if params is not None and not ctor:
        r = (ret or "").strip()
        if r and r != "void":
            tags.append(f"@returns {{{r}}}" + (f" {_escape(doc.returns)}" if doc.returns else ""))
        elif doc.returns:
            tags.append(f"@returns {_escape(doc.returns)}")
    for r in doc.raises:
        tags.append(f"@throws {_escape(r)}")
    if body and tags:
        body.append("")
    body.extend(tags)
    if not body:
        return []
    return [f"{indent}/**", *[f"{indent} *{(' ' + b) if b else ''}" for b in body], f"{indent} */"]


def add_jsdoc(ts_source: str) -> str:
    """Put a JSDoc block above each function, method and documented class of ``ts_source``."""
    lines = ts_source.split("\n")
    out: list[str] = []
    in_prelude = False
    depth_class: list[int] = []  # indentation of enclosing class bodies
    for line in lines:
        stripped = line.strip()
        if stripped == PRELUDE_START:
            in_prelude = True
        if in_prelude:
            out.append(line)
            if stripped == PRELUDE_END:
                in_prelude = False
            continue
        indent = line[: len(line) - len(line.lstrip())]
        cm = _CLASS.match(line)
        fm = _FUNC.match(line)
        mm = _METHOD.match(line) if not fm and not cm else None
        if mm and mm.group("name") in _KEYWORDS:
            mm = None
        if mm and not depth_class:
            mm = None
        if cm or fm or mm:
            doc_lines = _take_comment(out, indent)
            if _has_jsdoc(out):
                out.extend(_comment_back(doc_lines, indent))
                out.append(line)
                continue
            doc = parse_docstring(doc_lines)
            if cm:
                out.extend(build_block(indent, doc, None, None, False))
                depth_class.append(len(indent))
            else:
                m = fm or mm
                assert m is not None
                ctor = m.group("name") == "constructor"
                out.extend(build_block(indent, doc, m.group("params"), m.group("ret"), ctor))
            out.append(line)
            continue
        if depth_class and stripped == "}" and len(indent) == depth_class[-1]:
            depth_class.pop()
        out.append(line)
    return "\n".join(out)


def _take_comment(out: list[str], indent: str) -> list[str]:
    """Pop the ``//`` comment lines directly above a declaration; return their texts."""
    taken: list[str] = []
    while out and out[-1].startswith(indent + "//") and not out[-1].startswith(indent + "///"):
        text = out.pop()[len(indent) + 2 :]
        taken.append(text[1:] if text.startswith(" ") else text)
    taken.reverse()
    return taken


def _comment_back(texts: list[str], indent: str) -> list[str]:
    """Line comments for texts taken by :func:`_take_comment`."""
    return [f"{indent}//{(' ' + t) if t else ''}" for t in texts]


def _has_jsdoc(out: list[str]) -> bool:
    """Whether the previous line closes a ``/** */`` block already."""
    return bool(out) and out[-1].strip() == "*/"
