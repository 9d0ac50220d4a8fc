"""How one JSON scalar is written as a YAML scalar that every reader reads back the same.

The emitter writes only a small, safe subset of YAML scalars:

* ``null``, ``true``, ``false``;
* integers as ``str(int)`` (``-?(0|[1-9][0-9]*)``) and floats as ``repr(float)`` with
  ``.0`` put before a bare exponent (``1e+16`` -> ``1.0e+16``: YAML 1.1 needs the dot);
* strings plain only when (a) the text is syntactically a one-line plain scalar with no
  indicator at its start, no ``': '``, ``' #'``, trailing ``':'``, no flow indicators in
  flow context, no space, tab, line break or non-printable character at its ends or
  inside where it matters, and (b) NO implicit resolver of PyYAML (YAML 1.1), ruamel.yaml
  (its YAML 1.1 and 1.2 tables) matches it -- so every reader resolves it as a string;
* otherwise single-quoted (one line, printable, no line breaks) or double-quoted with the
  JSON escapes plus ``\\uXXXX`` for C1 controls, U+2028/9, U+FEFF, U+FFFE/F and surrogates.
  JSON's escapes (``\\" \\\\ \\n \\r \\t \\b \\f \\uXXXX``) mean the same in YAML 1.1 and 1.2.

Because plain scalars that any table would type are always quoted, and quoted scalars use
only escapes both versions define identically, a YAML 1.1 reader and a YAML 1.2 reader
give the same value for everything this module writes (tests/json_yaml_codec prove it with
PyYAML and ruamel.yaml on corpora and random values).
"""

from __future__ import annotations

import json
import re

import ruamel.yaml.resolver as _ruamel_resolver
import yaml as _pyyaml

from zerolayer.core.errors import Unsupported

__all__ = [
    "double_quoted",
    "float_text",
    "is_plain_safe",
    "resolves_as_non_string",
    "single_quoted",
]


def _typed_patterns() -> list[re.Pattern[str]]:
    """Every implicit-resolver regex of PyYAML and ruamel.yaml (all YAML versions)."""
    seen: dict[str, re.Pattern[str]] = {}
    for entries in _pyyaml.resolver.Resolver.yaml_implicit_resolvers.values():
        for _tag, rx in entries:
            seen.setdefault(rx.pattern, rx)
    for entry in _ruamel_resolver.implicit_resolvers:
        rx = entry[2]
        seen.setdefault(rx.pattern, re.compile(rx.pattern, rx.flags))
    # YAML 1.2 core schema (spec 10.3.2), in case a reader follows the spec to the letter.
    core = re.compile(
        r"^(?:null|Null|NULL|~|true|True|TRUE|false|False|FALSE"
        r"|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
        r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    )
    seen.setdefault(core.pattern, core)
    return list(seen.values())


TYPED_PATTERNS = _typed_patterns()
# One alternation of all of them (each keeps its own flags), tried only on strings whose
# first character starts some resolver's match: a string starting elsewhere is never typed.
_TYPED = re.compile(
    "|".join(f"(?{'x' if rx.flags & re.VERBOSE else ''}:{rx.pattern})" for rx in TYPED_PATTERNS)
)
_TYPED_FIRST = frozenset(
    [c for c in _pyyaml.resolver.Resolver.yaml_implicit_resolvers if c]
    + [c for entry in _ruamel_resolver.implicit_resolvers for c in entry[3] if c]
    + list("0123456789+-.~nNtTfF_")  # core schema first characters; _ for "_1"-like ints
)


# Characters a plain or single-quoted scalar may hold: printable, no tab, no line breaks
# of YAML 1.1 (NEL, LS, PS), no BOM, no non-characters.
_UNSAFE_CHAR = re.compile(
    "[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_BLOCK_BAD = re.compile(r": | #|:$|^[-?:,\[\]{}#&*!|>'\"%@`]|^---|^\.\.\.")
# In flow context PyYAML ends a plain scalar at any of ,?[]{} and some readers at ':'.
_FLOW_BAD = re.compile(r"[,?:\[\]{}]| #|^[-#&*!|>'\"%@`]|^---|^\.\.\.")
_DOUBLE_FIX = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def resolves_as_non_string(text: str) -> bool:
    """True when some YAML 1.1 or 1.2 reader would read plain ``text`` as a non-string."""
    if text and text[0] not in _TYPED_FIRST:
        return False
    return _TYPED.match(text) is not None


def is_plain_safe(text: str, flow: bool = False) -> bool:
    """True when ``text`` can be written as a plain scalar and read back as this string."""
    if not text or text[0].isspace() or text[-1].isspace():
        return False
    if _UNSAFE_CHAR.search(text):
        return False
    if (_FLOW_BAD if flow else _BLOCK_BAD).search(text):
        return False
    return not resolves_as_non_string(text)


def single_quoted(text: str) -> str | None:
    """``text`` as a one-line single-quoted scalar, or None when that cannot express it."""
    if _UNSAFE_CHAR.search(text):
        return None
    return "'" + text.replace("'", "''") + "'"


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04X}"


def double_quoted(text: str) -> str:
    """``text`` as a one-line double-quoted scalar (escapes valid in YAML 1.1 and 1.2)."""
    out = json.dumps(text, ensure_ascii=False)
    if _DOUBLE_FIX.search(out):
        out = _DOUBLE_FIX.sub(_escape, out)
    return out


def float_text(value: float) -> str:
    """A float as YAML text that YAML 1.1 and 1.2 read back as exactly this float."""
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        text = f"{mantissa}e{exponent}"
    elif text in ("inf", "-inf", "nan"):
        raise Unsupported(
            "yaml_non_finite_float", f"the float {text} has no exact JSON-compatible form"
        )
    return text
