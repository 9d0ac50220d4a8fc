"""Ways users put a payload into a message, and the metamorphic check over them.

Each form takes an instruction ("Convert this JSON to YAML"), the fence tag of its format and
a payload, and gives the request a user would send. The check: the answer to each form is the
answer to the payload given apart from the message (``engine.run(instruction, payload)``), or
a fallback; never another answer, never an error the separate payload does not get, never an
answer where the separate payload gets an error.

    python -m tests.message_forms.forms [--full]   # counts per suite and form
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route

CORPORA = Path(os.environ.get("ZEROLAYER_CORPORA", "/work/shared/corpora"))


@dataclass(frozen=True)
class Suite:
    name: str
    instruction: str
    tag: str
    target: str  # the output format's name, for closing sentences


JSON = Suite("JSONTestSuite", "Convert this JSON to YAML", "json", "YAML")
YAML = Suite("yaml-test-suite", "Convert this YAML to JSON", "yaml", "JSON")
MARKDOWN = Suite("commonmark-spec", "Convert this Markdown to HTML", "markdown", "HTML")


def payloads(suite: Suite) -> list[tuple[str, str]]:
    """(name, payload) of a suite; empty when the corpora are not installed."""
    if suite is JSON:
        folder = CORPORA / "JSONTestSuite" / "test_parsing"
        if not folder.is_dir():
            return []
        out = []
        for path in sorted(folder.iterdir()):
            if path.name.startswith(("y_", "n_")):
                try:
                    out.append((path.name, path.read_bytes().decode("utf-8")))
                except UnicodeDecodeError:
                    continue
        return out
    if suite is YAML:
        path = CORPORA / "yaml-test-suite" / "yaml-test-suite.jsonl"
        if not path.exists():
            return []
        lines = path.read_text(encoding="utf-8").splitlines()
        return [(c["id"], c["yaml"]) for c in map(json.loads, lines)]
    path = CORPORA / "commonmark-spec" / "spec.json"
    if not path.exists():
        return []
    return [(f"ex{e['example']}", e["markdown"]) for e in json.loads(path.read_text("utf-8"))]


def _fence(char: str, payload: str) -> str:
    runs = re.findall(rf"{re.escape(char)}+", payload)
    return char * max([3, *(len(r) + 1 for r in runs)])


def _lines(payload: str) -> str:
    """The payload as lines, each with its line break (what a fence or a paragraph carries)."""
    return payload if payload.endswith("\n") or not payload else payload + "\n"


def _fenced(s: Suite, p: str, *, char: str = "`", info: str | None = None, eol: str = "\n") -> str:
    fence = _fence(char, p)
    tag = s.tag if info is None else info
    body = _lines(p)
    return f"{s.instruction}:{eol}{eol}{fence}{tag}{eol}{body}{fence}{eol}"


def _eol(text: str, eol: str) -> str:
    return text.replace("\n", eol)


# form name -> (request builder, the separate payload its answer must equal)
Form = tuple[Callable[[Suite, str], EngineRequest | None], Callable[[str], str]]


def _user(text: str | None) -> EngineRequest | None:
    if text is None:
        return None
    return EngineRequest(messages=(Message("user", text),), temperature=0)


def _before(s: Suite, p: str) -> str | None:
    if not p.strip() or re.search(
        r"\n[ \t]*\n\Z", _lines(p)
    ):  # its blank last lines read as the break
        return None
    return f"{_lines(p)}\n{s.instruction.replace('this', 'the')} above."


def _earlier(s: Suite, p: str) -> EngineRequest:
    fence = _fence("`", p)
    first = f"Here is some {s.tag}:\n\n{fence}{s.tag}\n{_lines(p)}{fence}\n"
    return EngineRequest(
        messages=(
            Message("user", first),
            Message("assistant", "Got it."),
            Message("user", f"{s.instruction.replace('this', 'the')} I sent earlier."),
        ),
        temperature=0,
    )


def _template(s: Suite, p: str) -> str:
    fence = _fence("`", p)
    return (
        f"### Task\n{s.instruction}\n\n{fence}{s.tag}\n{_lines(p)}{fence}\n\n"
        f"### Output\nOnly output valid {s.target}, no prose."
    )


def _system(s: Suite, text: str) -> EngineRequest:
    return EngineRequest(messages=(Message("user", text),), system=s.instruction, temperature=0)


def _fenced_only(p: str) -> str:
    fence = _fence("`", p)
    return f"{fence}\n{_lines(p)}{fence}\n"


def _slots(s: Suite, p: str) -> str | None:
    """A template with slot labels: the source format's name before the data, the target's
    after it, where the answer goes."""
    if not p.strip():
        return None
    return f"{s.instruction}.\n\n{s.tag.upper()}:\n{_lines(p)}\n{s.target}:"


def _lead_in(s: Suite, p: str) -> str | None:
    """The data presented by a sentence before it, the instruction after it."""
    if _before(s, p) is None:
        return None
    return f"I have this {s.tag}:\n\n{_lines(p)}\nConvert it to {s.target}."


_ZH_INSTRUCTION = {
    "json": "把下面的JSON转换成YAML",
    "yaml": "把下面的YAML转换成JSON",
    "markdown": "把下面的Markdown转换成HTML",
}


def _alpaca(s: Suite, p: str) -> str:
    """An instruction-tuning template: headed sections for the instruction, the input and
    the response."""
    return f"### Instruction:\n{s.instruction}.\n\n### Input:\n{_lines(p)}\n### Response:"


def _io_labels(s: Suite, p: str) -> str | None:
    """Input and Output labels right above and below the data, no blank line between."""
    return f"{s.instruction}.\nInput:\n{_lines(p)}Output:" if p.strip() else None


def _dashes(s: Suite, p: str) -> str | None:
    """The data between two lines of dashes (for YAML those are document markers: no form)."""
    return f"{s.instruction}:\n---\n{_lines(p)}---" if s.tag != "yaml" and p.strip() else None


def _block(s: Suite, p: str) -> str:
    """The data in a fence tagged with its format, alone."""
    fence = _fence("`", p)
    return f"{fence}{s.tag}\n{_lines(p)}{fence}\n"


def _requirements(s: Suite, p: str) -> str:
    return (
        f"{s.instruction}.\n\n{_fenced_only(p)}\nRequirements:\n"
        f"1. Output only the {s.target}.\n2. No explanations."
    )


FORMS: dict[str, Form] = {
    "fenced-tagged": (lambda s, p: _user(_fenced(s, p)), _lines),
    "fenced-untagged": (lambda s, p: _user(_fenced(s, p, info="")), _lines),
    "fenced-tilde": (lambda s, p: _user(_fenced(s, p, char="~")), _lines),
    "fenced-attributes": (lambda s, p: _user(_fenced(s, p, info=f'{s.tag} title="x"')), _lines),
    "after-blank-line": (lambda s, p: _user(f"{s.instruction}:\n\n{p}"), lambda p: p),
    "instruction-line": (
        lambda s, p: _user(f"{s.instruction}: {p}" if p[:1].strip() else None),
        lambda p: p,
    ),
    "before-instruction": (lambda s, p: _user(_before(s, p)), _lines),
    "closing-sentence": (
        lambda s, p: _user(f"{_fenced(s, p)}\nReturn only the {s.target}."),
        _lines,
    ),
    "closing-sentence-unfenced": (
        lambda s, p: _user(f"{s.instruction}:\n\n{_lines(p)}\nReturn only the {s.target}."),
        _lines,
    ),
    "earlier-turn": (_earlier, _lines),
    "prompt-template": (lambda s, p: _user(_template(s, p)), _lines),
    "system-prompt-fenced": (lambda s, p: _system(s, _fenced_only(p)), _lines),
    "system-prompt-unfenced": (lambda s, p: _system(s, p) if p.strip() else None, lambda p: p),
    "sentence-line": (
        lambda s, p: _user(f"{s.instruction}. {p}") if p[:1] in "[{" else None,
        lambda p: p,
    ),
    "crlf-fenced": (lambda s, p: _user(_fenced(s, _eol(p, "\r\n"), eol="\r\n")), _lines),
    "crlf-unfenced": (lambda s, p: _user(_eol(f"{s.instruction}:\n\n{p}", "\r\n")), lambda p: p),
    "cr-unfenced": (lambda s, p: _user(_eol(f"{s.instruction}:\n\n{p}", "\r")), lambda p: p),
    "slot-labels": (lambda s, p: _user(_slots(s, p)), _lines),
    "tag-wrapped": (
        lambda s, p: _user(f"{s.instruction}:\n<{s.tag}>\n{_lines(p)}</{s.tag}>"),
        _lines,
    ),
    "triple-quoted": (lambda s, p: _user(f'{s.instruction}:\n"""\n{_lines(p)}"""'), _lines),
    "lead-in": (lambda s, p: _user(_lead_in(s, p)), _lines),
    "alpaca": (lambda s, p: _user(_alpaca(s, p)), _lines),
    "input-output-labels": (lambda s, p: _user(_io_labels(s, p)), _lines),
    "dashes": (lambda s, p: _user(_dashes(s, p)), _lines),
    "xml-attribute": (
        lambda s, p: _user(f'{s.instruction}.\n<input format="{s.tag}">\n{_lines(p)}</input>'),
        _lines,
    ),
    "four-backticks": (
        lambda s, p: (
            _user(f"{s.instruction}:\n\n````{s.tag}\n{_lines(p)}````\n")
            if "````" not in p
            else None
        ),
        _lines,
    ),
    "question-after": (
        lambda s, p: _user(
            f"Here's my {s.tag}:\n\n{_fenced_only(p)}\nCan you convert it to {s.target}?"
        ),
        _lines,
    ),
    "zh-closing-fenced": (
        lambda s, p: _user(f"{_ZH_INSTRUCTION[s.tag]}：\n\n{_block(s, p)}\n只返回{s.target}"),
        _lines,
    ),
    "zh-closing-unfenced": (
        lambda s, p: _user(
            f"{_ZH_INSTRUCTION[s.tag]}：\n\n{_lines(p)}\n只返回{s.target}，不要解释。"
        ),
        _lines,
    ),
    "crlf-closing": (
        lambda s, p: _user(_eol(f"{_fenced(s, p)}\nReturn only the {s.target}.\n", "\r\n")),
        _lines,
    ),
    "system-and-closing": (
        lambda s, p: EngineRequest(
            messages=(Message("user", f"{_fenced_only(p)}Output only the {s.target}."),),
            system=f"You convert {s.tag} to {s.target}.",
            temperature=0,
        ),
        _lines,
    ),
    "requirements-list": (lambda s, p: _user(_requirements(s, p)), _lines),
    "trailing-spaces": (
        lambda s, p: _user(_fenced(s, p).replace(":\n", ":   \n", 1).replace("\n", "  \n", 2)),
        _lines,
    ),
}
# forms that rewrite the payload's own line endings apply only to payloads without CR
_REWRITES_EOL = {"crlf-fenced", "crlf-unfenced", "cr-unfenced", "crlf-closing"}


# Unfenced forms of an empty payload have no payload; those of a payload that is one fenced
# block are the fenced message of its body (no reader can tell them apart).
_UNFENCED = {
    "after-blank-line",
    "alpaca",
    "input-output-labels",
    "dashes",
    "zh-closing-unfenced",
    "slot-labels",
    "lead-in",
    "system-prompt-unfenced",
    "sentence-line",
    "instruction-line",
    "before-instruction",
    "closing-sentence-unfenced",
    "crlf-unfenced",
    "cr-unfenced",
}


def _one_fence(payload: str) -> bool:
    """Whether the payload opens with a fence line (its unfenced message reads as fenced)."""
    return _FENCE_START.match(payload.lstrip("\n")) is not None


_FENCE_START = re.compile(r"[ ]{0,3}(?:`{3,}|~{3,})")


def _outcome(engine: Engine, request: EngineRequest) -> tuple[str, str | None]:
    result = engine.run(request)
    if result.route is Route.ERROR:
        return "error", result.reason
    if result.route is Route.FALLBACK:
        return "fallback", result.reason
    return "answer", result.output


def verdict(reference: tuple[str, str | None], got: tuple[str, str | None]) -> str:
    """ok | wrong answer | false error | invalid answered."""
    if got[0] == "fallback" or got == reference:
        return "ok"
    if got[0] == "error":
        return "ok" if reference[0] == "error" else "false error"
    if reference[0] == "error":
        return "invalid answered"
    return "wrong answer"


def sample(items: list[tuple[str, str]], size: int | None) -> list[tuple[str, str]]:
    """A deterministic sample (by the hash of each name); all items when ``size`` is None."""
    if size is None or len(items) <= size:
        return items
    key = lambda item: hashlib.sha256(item[0].encode()).digest()  # noqa: E731
    return sorted(sorted(items, key=key)[:size])


def check(
    engine: Engine, suite: Suite, size: int | None
) -> Iterator[tuple[str, str, str, tuple[str, str | None], tuple[str, str | None]]]:
    """(payload name, form, verdict, reference, got) for each payload and form."""
    for name, payload in sample(payloads(suite), size):
        references: dict[str, tuple[str, str | None]] = {}
        for form, (build, separate) in FORMS.items():
            if form in _REWRITES_EOL and "\r" in payload:
                continue
            if form in _UNFENCED and (not payload.strip() or _one_fence(payload)):
                continue
            request = build(suite, payload)
            if request is None:
                continue
            given = separate(payload)
            if given not in references:
                references[given] = _outcome(engine, EngineRequest.from_instruction(
                    suite.instruction, given
                ))  # fmt: skip
            reference = references[given]
            got = _outcome(engine, request)
            yield name, form, verdict(reference, got), reference, got


def main() -> None:
    size = None if "--full" in sys.argv else 40
    engine = Engine()
    total: Counter[str] = Counter()
    for suite in (JSON, YAML, MARKDOWN):
        counts: Counter[tuple[str, str]] = Counter()
        for _name, form, result, _ref, _got in check(engine, suite, size):
            counts[(form, result)] += 1
            total[result] += 1
        bad = {k: v for k, v in counts.items() if k[1] != "ok"}
        print(suite.name, sum(counts.values()), "checks;", bad or "all ok")
    print("total", dict(total))


if __name__ == "__main__":
    main()
