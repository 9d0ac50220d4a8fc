"""The markdown_html cases of zeroscore's dev.jsonl, compared with its html_equals check."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from zerolayer.plugins.markdown_html.render import render_markdown

ZEROSCORE = Path("/work/shared/zeroscore")
_FENCE_OPEN = re.compile(r"^(`{3,}|~{3,})[^\n]*$", re.M)


def extract_payload(message: str) -> str:
    """The Markdown of a request: the first fenced block (closed by the same fence or a longer
    one), else what follows the first line (the instruction ending in a colon)."""
    m = _FENCE_OPEN.search(message)
    if m:
        fence = m.group(1)
        close = re.compile(rf"^{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.M)
        end = close.search(message, m.end() + 1)
        body_end = end.start() if end else len(message)
        return message[m.end() + 1 : body_end]
    _, _, rest = message.partition("\n")
    return rest.lstrip("\n")


def _cases() -> list:
    path = ZEROSCORE / "dev.jsonl"
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if case["category"] == "markdown_html":
            out.append(pytest.param(case, id=case["id"]))
    return out


@pytest.mark.parametrize("case", _cases())
def test_dev_case(case: dict, zeroscore: ModuleType) -> None:
    message = case["request"]["messages"][-1]["content"]
    html = render_markdown(extract_payload(message))
    result = zeroscore.check_html_equals(html, case["expect"]["gold"], case["expect"]["options"])
    assert result.ok, result.reason


def test_extract_payload_prefers_the_fence() -> None:
    msg = "Render:\n\n````md\nRun:\n\n```sh\nx\n```\n````\n\nthanks"
    assert extract_payload(msg) == "Run:\n\n```sh\nx\n```\n"
    assert extract_payload("Convert:\n\n# T\n") == "# T\n"
