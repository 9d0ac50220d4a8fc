"""Split a user message into instruction text and payloads.

Payloads come as fenced blocks (``` or ~~~, three or more, with or without a language tag,
longer fences around payloads that contain fences), as text after a colon that ends the
instruction line, as paragraphs after the instruction, or as paragraphs before it ("… Convert
the JSON above to YAML."). ``<convert lang=… to=…>`` blocks carry their own instruction.

The split is not always certain from the text alone, so ``segment`` returns candidates in
order of preference; the engine takes the first whose instruction parses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zerolayer.core.blocks import TagBlock, tag_blocks

_FENCE = re.compile(
    r"^(?P<indent>[ ]{0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[^\s`]*)[^\n]*\n"
    r"(?P<body>.*?)"
    r"^[ ]{0,3}(?P=fence)[`~]*[ \t]*$\n?",
    re.MULTILINE | re.DOTALL,
)
_ATTR = re.compile(r"""(\w+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))""")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n+")
_COLON_END = re.compile(r"[:：]\s*$")
_INLINE_PAYLOAD = re.compile(r"^(?P<instr>[^\n]*?)[:：][ \t]+(?P<payload>[\[{<`\"].*)$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Payload:
    text: str
    lang: str | None = None  # the fence's language tag, lower case

    @property
    def hint(self) -> str | None:
        return _LANG_ALIASES.get(self.lang or "", self.lang)


_LANG_ALIASES = {
    "yml": "yaml",
    "md": "markdown",
    "py": "python",
    "python3": "python",
    "ts": "typescript",
    "js": "javascript",
    "postgres": "sql",
    "postgresql": "sql",
    "mysql": "sql",
}


@dataclass(frozen=True, slots=True)
class Segmented:
    """One reading of a message: the instruction, its payloads, and text before it."""

    instruction: str
    payloads: tuple[Payload, ...] = ()
    before: str = ""  # text of the same message that precedes the instruction (context)
    how: str = "plain"  # which rule produced this reading (for traces)


def convert_attributes(attrs: str) -> dict[str, str]:
    return {m[0].lower(): m[1] or m[2] or m[3] for m in _ATTR.findall(attrs)}


def segment(message: str) -> list[Segmented]:
    """Candidate readings of ``message``, most likely first."""
    text = message.strip("\n")
    blocks = tag_blocks(text, ("convert",))
    if blocks:
        return [_convert_blocks(text, blocks)]
    fences = list(_FENCE.finditer(text))
    if fences:
        return [_fenced(text, fences)]
    return _unfenced(text)


def _convert_blocks(text: str, blocks: list[TagBlock]) -> Segmented:
    pieces, last = [], 0
    for block in blocks:
        pieces.append(text[last : block.start])
        last = block.end
    outside = " ".join([*pieces, text[last:]]).strip()
    attrs = convert_attributes(blocks[0].attrs)
    src, dst = attrs.get("lang", ""), attrs.get("to", "")
    instruction = f"convert {src} to {dst}".strip()
    if outside:
        instruction = f"{instruction} {outside}"
    payloads = tuple(Payload(b.body, src.lower() or None) for b in blocks)
    return Segmented(instruction, payloads, how="convert-block")


def _fenced(text: str, fences: list[re.Match[str]]) -> Segmented:
    payloads = tuple(Payload(m["body"], m["lang"].lower() or None) for m in fences)
    pieces, last = [], 0
    for m in fences:
        pieces.append(text[last : m.start()])
        last = m.end()
    pieces.append(text[last:])
    pieces[0].strip() if not pieces[0].strip() or len(fences) else ""
    instruction = " ".join(p.strip() for p in pieces if p.strip())
    return Segmented(_strip_colon(instruction), payloads, before="", how="fenced")


def _unfenced(text: str) -> list[Segmented]:
    out: list[Segmented] = []
    first_line, _, rest = text.partition("\n")
    if rest.strip() and _COLON_END.search(first_line):
        out.append(
            Segmented(_strip_colon(first_line), (Payload(_dedent_payload(rest)),), how="colon")
        )
    inline = _INLINE_PAYLOAD.match(text)
    if inline and inline["instr"].strip():
        out.append(Segmented(inline["instr"].strip(), (Payload(inline["payload"]),), how="inline"))
    paragraphs = [p for p in _PARAGRAPH_BREAK.split(text) if p.strip()]
    if len(paragraphs) > 1:
        head, tail = paragraphs[0], "\n\n".join(paragraphs[1:])
        out.append(Segmented(_strip_colon(head), (Payload(_dedent_payload(tail)),), how="after"))
        body, last = "\n\n".join(paragraphs[:-1]), paragraphs[-1]
        out.append(Segmented(last.strip(), (Payload(body),), before=body, how="before"))
    elif rest.strip() and not out:
        out.append(Segmented(first_line.strip(), (Payload(rest),), how="first-line"))
    out.append(Segmented(text.strip(), (), how="plain"))
    return _unique(out)


def _strip_colon(instruction: str) -> str:
    return _COLON_END.sub("", instruction.strip()).strip()


def _dedent_payload(text: str) -> str:
    return text.strip("\n")


def _unique(items: list[Segmented]) -> list[Segmented]:
    seen: set[tuple[str, tuple[Payload, ...]]] = set()
    out = []
    for item in items:
        key = (item.instruction, item.payloads)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
