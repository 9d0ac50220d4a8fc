"""Answer checks of the paraphrase corpus: the zeroscore checks, plus the options that the
zeroscore contract does not check but users of this corpus ask for.

Extra options (in ``expect.options``):

- ``quote: "single"`` (yaml_equals): every string value is single-quoted;
- ``seq_style: "flow"`` (yaml_equals): every non-empty sequence is written ``[a, b]``;
- ``ascii_only`` (json_equals): the answer is ASCII (non-ASCII characters escaped);
- ``jsdoc`` (ts_stdout): the answer has a ``/** … */`` comment;
- ``uses_query`` (pandas_equals): the answer filters with ``DataFrame.query``;
- ``new_column_named: false`` (table_equals): the user did not name the added column, so
  the last header cell may be any non-empty name.
"""

from __future__ import annotations

from typing import Any

import yaml

from zerolayer.cli.bench_checks import check_output, split_table_row, strip_fence


def _yaml_nodes(node: yaml.Node, role: str = "root") -> list[tuple[yaml.Node, str]]:
    found = [(node, role)]
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found += _yaml_nodes(item, "item")
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            found += _yaml_nodes(key, "key") + _yaml_nodes(value, "value")
    return found


def _extra(check: str, text: str, options: dict[str, Any]) -> str | None:
    """Why the answer fails an extra option, or None."""
    if check == "yaml_equals" and (
        options.get("quote") == "single" or options.get("seq_style") == "flow"
    ):
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        for node, role in _yaml_nodes(root) if root is not None else []:
            if (
                options.get("quote") == "single"
                and isinstance(node, yaml.ScalarNode)
                and role != "key"
                and node.tag == "tag:yaml.org,2002:str"
                and node.style != "'"
            ):
                return f"string value {node.value!r} is not single-quoted"
            if (
                options.get("seq_style") == "flow"
                and isinstance(node, yaml.SequenceNode)
                and node.value
                and not node.flow_style
            ):
                return "a non-empty sequence is in block style"
    if check == "json_equals" and options.get("ascii_only") and not text.isascii():
        return "the JSON has non-ASCII characters (they were asked to be escaped)"
    if check == "ts_stdout" and options.get("jsdoc") and "/**" not in text:
        return "no JSDoc comment"
    if check == "pandas_equals" and options.get("uses_query") and ".query(" not in text:
        return "the code does not use DataFrame.query"
    return None


def _with_answer_header(gold: list[list[str]], text: str) -> list[list[str]]:
    """``gold`` with its last header cell taken from the answer's (when it has one)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return gold
    header = split_table_row(lines[0])
    if len(header) != len(gold[0]) or not header[-1].strip():
        return gold
    return [[*gold[0][:-1], header[-1]], *gold[1:]]


def check_answer(expect: dict[str, Any], output: str) -> tuple[bool | None, str]:
    """(passed, reason) of an answer to an active case; passed None when the check skipped."""
    check = expect["check"]
    gold = expect.get("gold")
    options = dict(expect.get("options") or {})
    if check == "table_equals" and options.get("new_column_named") is False:
        gold = _with_answer_header(gold, strip_fence(output))
    result = check_output(check, output, gold, options)
    if result.ok is None:
        return None, result.reason
    if not result.ok:
        return False, result.reason
    try:
        problem = _extra(check, strip_fence(output), options)
    except yaml.YAMLError as exc:
        problem = f"not YAML: {exc}"
    return (problem is None), problem or ""
