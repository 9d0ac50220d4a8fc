"""Shared helpers of the JSON/YAML codec tests: corpus paths, case files, YAML checks."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml

CASES = Path(__file__).parent / "cases"
CORPORA = Path(os.environ.get("ZEROLAYER_CORPORA", "/work/shared/corpora"))
STR_TAG = "tag:yaml.org,2002:str"

QUOTES = ("plain", "double", "single")
SEQ_STYLES = ("block", "flow")


def corpus(*parts: str) -> Path:
    """A path inside the shared corpora; the test is skipped when they are not installed."""
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    return path


def corpus_listing(*parts: str) -> list[Path]:
    """Files of a corpus folder (empty when the corpora are not installed)."""
    folder = CORPORA.joinpath(*parts)
    return sorted(folder.iterdir()) if folder.is_dir() else []


def load_cases(name: str) -> Any:
    """A YAML case file of ``cases/`` (read with PyYAML, which these files are written for)."""
    with open(CASES / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def strict_equal(a: Any, b: Any) -> bool:
    """JSON-typed equality: bool is not int, int is not float, -0.0 is not 0.0.

    Values with non-string keys (which no JSON value has) are never equal to anything.
    """
    if not (_string_keys(a) and _string_keys(b)):
        return False
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _string_keys(value: Any) -> bool:
    """Whether every mapping key inside ``value`` is a string."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not all(type(key) is str for key in item):
                return False
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def json_documents(text: str) -> list[Any]:
    """The JSON texts one after another in ``text`` (the yaml-test-suite's in.json)."""
    decoder = json.JSONDecoder()
    out: list[Any] = []
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        value, i = decoder.raw_decode(text, i)
        out.append(value)


def _walk(node: Any, parent: Any = None, role: str = "root") -> Any:
    yield node, parent, role
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _walk(key, node, "key")
            yield from _walk(value, node, "value")
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _walk(item, node, "item")


def option_problems(text: str, options: dict[str, Any]) -> list[str]:
    """Where YAML ``text`` does not follow the layout ``options`` asked for."""
    problems: list[str] = []
    if "\t" in text:
        problems.append("tab character in output")
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    if node is None:
        return problems
    quote = options.get("quote", "plain")
    indent = options.get("indent", 2)
    flow = options.get("seq_style", "block") == "flow"
    for n, parent, role in _walk(node):
        line = n.start_mark.line + 1
        is_str = isinstance(n, yaml.ScalarNode) and n.tag == STR_TAG
        if is_str and role != "key" and quote == "double" and n.style != '"':
            problems.append(f"line {line}: {n.value!r} is not double-quoted")
        if is_str and role != "key" and quote == "single":
            printable = all(c.isprintable() and c not in "\x85\u2028\u2029\ufeff" for c in n.value)
            if n.style != "'" and not (n.style == '"' and not printable):
                problems.append(f"line {line}: {n.value!r} is not single-quoted")
        if isinstance(n, yaml.SequenceNode) and n.value:
            scalars = all(isinstance(i, yaml.ScalarNode) or not i.value for i in n.value)
            if n.flow_style != (flow and scalars):
                problems.append(f"line {line}: sequence style is not {'flow' if flow else 'block'}")
        if isinstance(n, yaml.MappingNode) and n.value:
            keys = [k.value for k, _ in n.value]
            if options.get("sort_keys") and keys != sorted(keys):
                problems.append(f"line {line}: keys not sorted {keys[:5]}")
            if n.flow_style:
                problems.append(f"line {line}: flow mapping")
        is_block = isinstance(n, yaml.MappingNode | yaml.SequenceNode) and not n.flow_style
        if role == "value" and is_block and n.value and isinstance(parent, yaml.MappingNode):
            delta = n.start_mark.column - parent.start_mark.column
            if delta != indent:
                problems.append(f"line {line}: nested block indented by {delta}, not {indent}")
    return problems
