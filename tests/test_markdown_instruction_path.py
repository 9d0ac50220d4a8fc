"""CommonMark and GFM conformance through the whole instruction path.

Each spec example is sent as a user would send it ("Convert this Markdown to HTML:" and the
example in a fence longer than any it contains); the engine's answer must be the spec's HTML.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route

CORPORA = Path(__file__).parents[2] / "shared" / "corpora"
SPEC = CORPORA / "commonmark-spec" / "spec.json"
GFM = (
    CORPORA / "gfm-spec" / "gfm-extensions-spec.json",
    CORPORA / "gfm-spec" / "gfm-extensions-tests.json",
)


def _message(instruction: str, markdown: str) -> EngineRequest:
    fence = "`" * (max([len(m) for m in re.findall(r"`+", markdown)] + [2]) + 1)
    body = markdown if markdown.endswith("\n") else markdown + "\n"
    text = f"{instruction}:\n\n{fence}markdown\n{body}{fence}"
    return EngineRequest(messages=(Message("user", text),), temperature=0)


def _load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        pytest.skip(f"{path} is not present")
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_commonmark_example(engine: Engine) -> None:
    failures = []
    for example in _load(SPEC):
        result = engine.run(_message("Convert this Markdown to HTML", example["markdown"]))
        if result.route is not Route.DETERMINISTIC or result.output != example["html"]:
            failures.append(example["example"])
    assert failures == []


def test_gfm_extension_examples(engine: Engine) -> None:
    failures = []
    for example in _load(GFM[0]) + _load(GFM[1]):
        if example["html"].strip() == "<IGNORE>":  # the spec's placeholder: no expected output
            continue
        result = engine.run(_message("Render as HTML (GitHub-flavoured)", example["markdown"]))
        if result.output != example["html"]:
            failures.append(example.get("example", example.get("number")))
    assert failures == []
