"""Conformance: CommonMark 0.31.2 spec examples and the GFM extension examples, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zerolayer.plugins.markdown_html.render import render_markdown

CORPORA = Path("/work/shared/corpora")
CASES = Path(__file__).parent / "cases"
KNOWN = json.loads((CASES / "known_failures.json").read_text(encoding="utf-8"))


def _load(rel: str) -> list[dict]:
    path = CORPORA / rel
    if not path.exists():
        return []
    return json.loads(path.read_text(encoding="utf-8"))


def _params(rel: str) -> list:
    name = rel.split("/")[-1]
    return [pytest.param(name, ex, id=f"{name}#{ex['example']}") for ex in _load(rel)]


@pytest.mark.skipif(not (CORPORA / "commonmark-spec/spec.json").exists(), reason="no corpus")
@pytest.mark.parametrize(("name", "ex"), _params("commonmark-spec/spec.json"))
def test_commonmark_spec(name: str, ex: dict) -> None:
    assert f"{name}#{ex['example']}" not in KNOWN
    assert render_markdown(ex["markdown"]) == ex["html"]


@pytest.mark.parametrize(
    ("name", "ex"),
    _params("gfm-spec/gfm-extensions-spec.json") + _params("gfm-spec/gfm-extensions-tests.json"),
)
def test_gfm_extension_examples(name: str, ex: dict) -> None:
    out = render_markdown(ex["markdown"], gfm=True)
    if f"{name}#{ex['example']}" in KNOWN:
        assert (
            ex["html"].strip() == "<IGNORE>"
        )  # only examples without an expected output are listed
        return
    assert out == ex["html"]


def test_commonmark_corpus_is_complete() -> None:
    examples = _load("commonmark-spec/spec.json")
    if not examples:
        pytest.skip("no corpus")
    assert len(examples) == 652


def test_known_failures_name_real_examples() -> None:
    files = {
        "spec.json": _load("commonmark-spec/spec.json"),
        "gfm-extensions-spec.json": _load("gfm-spec/gfm-extensions-spec.json"),
        "gfm-extensions-tests.json": _load("gfm-spec/gfm-extensions-tests.json"),
    }
    for key in KNOWN:
        if key.startswith("_"):
            continue
        name, _, number = key.partition("#")
        assert any(ex["example"] == int(number) for ex in files[name]), key
