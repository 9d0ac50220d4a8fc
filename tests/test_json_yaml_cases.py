"""Data-driven instruction cases of the JSON/YAML family (tests/cases/json_yaml/*.yaml).

Each case file holds ``cases:`` (and optionally ``fixtures:``, payloads shared through YAML
anchors). A case gives an instruction and a payload (or the whole ``message``), optional
``messages`` (earlier turns), ``system``, ``temperature`` and ``top_p``, and what a careful
human expects:

- ``route: deterministic`` with ``format`` (``yaml``/``json``) and ``value`` (the output,
  parsed, must equal it exactly, booleans never equal to numbers; YAML is read by PyYAML and
  by ruamel.yaml; with ``ordered: true`` keys must also come in the same order) or
  ``same: true`` (it must equal the JSON payload's data), or ``text`` (the exact output),
  and ``options`` checked on the output text;
- ``route: fallback`` with the exact ``reason``;
- ``route: error`` with ``mentions`` (substrings of the error message, e.g. ``line 3``).

``layout`` places the payload: ``after`` (default, a blank line after the instruction),
``before``, ``fence``, ``fence_json``, ``fence_yaml``, ``fence4`` (four backticks), ``colon``
(on the instruction's line after ``:``), ``none`` (no payload).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from case_files import read_cases
from ruamel.yaml import YAML

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.messages import EngineRequest, EngineResult, Message, Route
from zerolayer.core.normalise import normalise

CASES = Path(__file__).parent / "cases" / "json_yaml"


ALL_CASES = [
    pytest.param(case, id=case["id"])
    for _, case in read_cases(sorted(CASES.glob("*.yaml")), key="cases")
]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(EngineConfig())


def message_text(case: dict[str, Any]) -> str:
    """The user's message: ``message`` as given, or the instruction with its payload."""
    if "message" in case:
        return str(case["message"])
    instruction = case["instruction"]
    payload = str(case.get("payload", "")).rstrip("\n")
    layout = case.get("layout", "after")
    if layout == "none":
        return instruction
    if layout == "after":
        return f"{instruction}\n\n{payload}"
    if layout == "before":
        return f"{payload}\n\n{instruction}"
    if layout == "colon":
        return f"{instruction}: {payload}"
    fences = {
        "fence": "```",
        "fence_json": "```json",
        "fence_yaml": "```yaml",
        "fence4": "````",
    }
    opening = fences[layout]
    closing = re.match(r"`+", opening).group(0)  # type: ignore[union-attr]
    return f"{instruction}\n\n{opening}\n{payload}\n{closing}"


def request_for(case: dict[str, Any]) -> EngineRequest:
    earlier = tuple(Message(m["role"], m["content"]) for m in case.get("messages", ()))
    return EngineRequest(
        messages=(*earlier, Message("user", message_text(case))),
        system=case.get("system"),
        temperature=case.get("temperature", 0.0),
        top_p=case.get("top_p"),
    )


def strict_equal(a: Any, b: Any, *, ordered: bool = False) -> bool:
    """Equality where types must match too (True ≠ 1, 1 ≠ 1.0, "1" ≠ 1); with ``ordered``
    the keys of every mapping must also come in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        same_keys = list(a) == list(b) if ordered else set(a) == set(b)
        return same_keys and all(strict_equal(a[k], b[k], ordered=ordered) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(
            strict_equal(x, y, ordered=ordered) for x, y in zip(a, b, strict=True)
        )
    return bool(a == b)


def _plain(value: Any) -> Any:
    """ruamel's containers and scalars as plain Python values."""
    if isinstance(value, dict):
        return {str(k) if isinstance(k, str) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind(value)
    return value


def read_output(text: str, fmt: str) -> list[Any]:
    """The output parsed by every reader of its format."""
    if fmt == "json":
        return [json.loads(text)]
    ruamel = YAML(typ="safe", pure=True)
    return [yaml.safe_load(text), _plain(ruamel.load(io.StringIO(text)))]


def _mappings(value: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(value, dict):
        out.append(value)
        for v in value.values():
            out += _mappings(v)
    elif isinstance(value, list):
        for v in value:
            out += _mappings(v)
    return out


def _has_nested(value: Any) -> bool:
    """Whether some mapping holds a non-empty collection: only then is YAML indentation seen."""
    if isinstance(value, dict):
        children = list(value.values())
        if any(isinstance(v, dict | list) and v for v in children):
            return True
    elif isinstance(value, list):
        children = value
    else:
        return False
    return any(_has_nested(v) for v in children)


def _yaml_value_nodes(node: yaml.Node) -> list[yaml.Node]:
    """Scalar nodes that are values (mapping values, sequence items, a top-level scalar)."""
    if isinstance(node, yaml.ScalarNode):
        return [node]
    out: list[yaml.Node] = []
    if isinstance(node, yaml.MappingNode):
        for _key, value in node.value:
            out += _yaml_value_nodes(value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            out += _yaml_value_nodes(item)
    return out


def _sequences(node: yaml.Node) -> list[yaml.SequenceNode]:
    out: list[yaml.SequenceNode] = []
    if isinstance(node, yaml.SequenceNode):
        out.append(node)
        children = node.value
    elif isinstance(node, yaml.MappingNode):
        children = [v for _k, v in node.value]
    else:
        children = []
    for child in children:
        out += _sequences(child)
    return out


def check_options(text: str, fmt: str, options: dict[str, Any]) -> None:
    """Check the output text for the options the instruction asked for."""
    value = read_output(text, fmt)[0]
    if options.get("sort_keys"):
        for mapping in _mappings(value):
            assert list(mapping) == sorted(mapping), f"keys not sorted: {list(mapping)}"
    if "indent" in options:
        n = options["indent"]
        widths = {len(ln) - len(ln.lstrip(" ")) for ln in text.splitlines() if ln.strip()}
        if fmt == "json" or _has_nested(value):
            assert n in widths, f"no line is indented by {n}: {sorted(widths)}"
        if fmt == "json":
            assert all(w % n == 0 for w in widths), f"indents {sorted(widths)} not by {n}"
    if options.get("quote") == "double":
        node = yaml.compose(text)
        for scalar in _yaml_value_nodes(node):
            if scalar.tag == "tag:yaml.org,2002:str":
                assert scalar.style == '"', f"string {scalar.value!r} is not double-quoted"
    if options.get("quote") == "single":
        node = yaml.compose(text)
        for scalar in _yaml_value_nodes(node):
            if scalar.tag == "tag:yaml.org,2002:str" and "\n" not in scalar.value:
                assert scalar.style == "'", f"string {scalar.value!r} is not single-quoted"
    if "seq_style" in options:
        flow = options["seq_style"] == "flow"
        for seq in _sequences(yaml.compose(text)):
            if seq.value and all(isinstance(v, yaml.ScalarNode) for v in seq.value):
                assert bool(seq.flow_style) == flow, "sequence style is not as asked"
            if not flow and seq.value:
                assert not seq.flow_style, "a non-empty sequence is in flow style"
    if "ensure_ascii" in options:
        if options["ensure_ascii"]:
            assert text.isascii(), "output has non-ASCII characters"
        else:
            assert "\\u" not in text and not text.isascii(), "non-ASCII text was escaped"
    if options.get("single_line"):
        assert "\n" not in text.strip(), "output spans lines"
    if options.get("explicit_start"):
        assert text.startswith("---"), "no document start marker"


def check_result(case: dict[str, Any], result: EngineResult) -> None:
    expect = case["expect"]
    route = expect["route"]
    detail = f"route={result.route.value} reason={result.reason} {result.detail or ''}"
    detail += f" error={result.error} plan={result.plan} output={result.output!r:.300}"
    assert result.route == Route(route), detail
    if route == "deterministic":
        output = result.output or ""
        if "text" in expect:
            assert output == expect["text"], detail
        want = json.loads(case["payload"]) if expect.get("same") else expect.get("value")
        if "value" in expect or expect.get("same"):
            for parsed in read_output(output, expect["format"]):
                ordered = expect.get("ordered", False)
                assert strict_equal(parsed, want, ordered=ordered), f"{parsed!r} != {want!r}"
        if "options" in expect:
            check_options(output, expect["format"], expect["options"])
    elif route == "fallback":
        assert result.reason == expect["reason"], detail
    else:
        message = str(result.error)
        for needle in expect.get("mentions", ()):
            assert needle in message, f"{needle!r} not in {message!r}"


@pytest.mark.parametrize("case", ALL_CASES)
def test_case(engine: Engine, case: dict[str, Any]) -> None:
    check_result(case, engine.run(request_for(case)))


def test_enough_cases() -> None:
    """The case files cover the family broadly: both languages, every route."""
    cases = [p.values[0] for p in ALL_CASES]
    routes = [c["expect"]["route"] for c in cases]
    assert len(cases) >= 170
    assert routes.count("fallback") >= 30
    assert routes.count("error") >= 10
    assert sum(bool(re.search(r"[\u4e00-\u9fff]", message_text(c))) for c in cases) >= 40


DOC = Path(__file__).parent.parent / "docs" / "instructions.md"
DOC_SECTIONS = ("JSON and YAML conversions", "JSON queries")


def doc_examples() -> list[str]:
    """The example lines (list items in backticks) of the JSON/YAML sections of the doc."""
    examples: list[str] = []
    section = None
    for line in DOC.read_text("utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif section in DOC_SECTIONS and (m := re.fullmatch(r"- `(.*)`", line)):
            examples.append(m.group(1))
    return examples


def test_doc_examples_are_tested_cases(engine: Engine) -> None:
    """Every documented phrasing parses and is a deterministic case with a checked output."""
    examples = doc_examples()
    assert len(examples) >= 60
    answered = {
        p.values[0]["instruction"]
        for p in ALL_CASES
        if p.values[0]["expect"]["route"] == "deterministic" and "instruction" in p.values[0]
    }
    for example in examples:
        assert example in answered, f"doc example is not a deterministic case: {example!r}"
        assert engine.parser.parse(normalise(example)), example
