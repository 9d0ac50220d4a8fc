"""Load the Python programs the py_ts tests translate: fixture files and zeroscore dev cases."""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"
UNSUPPORTED = HERE / "unsupported"
DEV_CASES = Path("/work/shared/zeroscore/dev.jsonl")

_FENCE = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.S)
_CONVERT = re.compile(r"<convert[^>]*>\n?(.*?)</convert>", re.S)
_BLOCK = re.compile(r"\[CODE_CONVERSION\]\n?(.*?)\[/CODE_CONVERSION\]", re.S)


def extract_python(message: str) -> str | None:
    """The Python source inside a fence, a <convert> tag or a [CODE_CONVERSION] block."""
    for pattern in (_FENCE, _CONVERT, _BLOCK):
        m = pattern.search(message)
        if m:
            return m.group(1)
    return None


def program_files() -> list[Path]:
    """The fixture programs, sorted by name."""
    return sorted(PROGRAMS.glob("*.py"))


def dev_cases(categories: tuple[str, ...] = ("py_ts", "mixed_blocks")) -> list[dict[str, str]]:
    """The zeroscore dev cases of the given categories as {id, source, gold}."""
    if not DEV_CASES.exists():
        return []
    out = []
    for line in DEV_CASES.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        if case.get("category") not in categories:
            continue
        if case["expect"].get("check") != "ts_stdout":
            continue
        content = case["request"]["messages"][-1]["content"]
        source = extract_python(content)
        if source is not None:
            out.append({"id": case["id"], "source": source, "gold": case["expect"]["gold"]})
    return out
