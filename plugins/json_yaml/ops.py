"""The ops of the JSON/YAML family: readers, writers and queries."""

from __future__ import annotations

import json
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.ops import OpSpec
from zerolayer.core.types import JSON_TEXT, JSON_VALUE, TEXT, YAML_TEXT
from zerolayer.plugins.json_yaml import codec, query


def _obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


_FIELD = {"type": "string", "minLength": 1}
_FIELDS = {"type": "array", "items": _FIELD, "minItems": 1}
# a filter's comparisons: of numbers and text, one of several values, tests of a text
_COMPARISONS = ["eq", "ne", "gt", "ge", "lt", "le", "one_of", "starts", "ends", "contains"]
_COUNT = {"type": "integer", "minimum": 0}
_INDENT = {"type": "integer", "minimum": 1, "maximum": 10}


def _sniff_json(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


def _sniff_yaml(text: str) -> bool:
    return not _sniff_json(text)


def _emit_yaml(data: Any, **options: Any) -> str:
    if options.get("seq_style") == "flow":
        _check_flow(data)
    return codec.emit_yaml(data, **options)


def _check_flow(data: Any) -> None:
    """Flow style is asked of every list, but the writer keeps a list of mappings or lists in
    block style: such a request is not answered half-honoured."""
    stack = [data]
    while stack:
        value = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        if not isinstance(value, dict | list):
            continue
        if isinstance(value, list) and any(isinstance(v, dict | list) and v for v in value):
            raise Unsupported("yaml_flow_collections", "flow style for a list of mappings or lists")
        stack.extend(children)


def _verify_yaml(data: Any, out: str, **_: Any) -> None:
    codec.verify_yaml(out, data)


def _json_to_yaml(text: str, **options: Any) -> str:
    from zerolayer.plugins.json_yaml.stream import json_to_yaml

    if options.get("seq_style") == "flow":
        _check_flow(codec.parse_json(text))
    return json_to_yaml(text, **options)


def _emit_json(data: Any, **options: Any) -> str:
    return codec.emit_json(data, **options)


def _verify_json(data: Any, out: str, **_: Any) -> None:
    codec.verify_json(out, data)


def render(data: Any) -> str:
    """The answer for a value: strings as they are, other scalars and containers as JSON."""
    if isinstance(data, str):
        return data
    if isinstance(data, list | dict):
        return codec.emit_json(data, indent=2)
    return json.dumps(data)


OPS = (
    OpSpec(
        "json.parse",
        TEXT,
        JSON_VALUE,
        lambda text: codec.parse_json(text),
        description="Read JSON text (RFC 8259, strict).",
        implicit=True,
        formats=("json",),
        sniff=_sniff_json,
    ),
    OpSpec(
        "yaml.parse",
        TEXT,
        JSON_VALUE,
        lambda text: codec.parse_yaml(text),
        description="Read YAML 1.2 text into plain data (anchors resolved).",
        implicit=True,
        formats=("yaml", "yml"),
        sniff=_sniff_yaml,
    ),
    OpSpec(
        "yaml.emit",
        JSON_VALUE,
        YAML_TEXT,
        _emit_yaml,
        params=_obj(
            quote={"enum": ["plain", "double", "single"]},
            indent=_INDENT,
            seq_style={"enum": ["block", "flow"]},
            sort_keys={"type": "boolean"},
            explicit_start={"type": "boolean"},
        ),
        description="Write YAML that reads back to the same value under YAML 1.1 and 1.2.",
        verify=_verify_yaml,
        fused={"json.parse": _json_to_yaml},
    ),
    OpSpec(
        "json.emit",
        JSON_VALUE,
        JSON_TEXT,
        _emit_json,
        params=_obj(
            indent=_INDENT,
            sort_keys={"type": "boolean"},
            ensure_ascii={"type": "boolean"},
            single_line={"type": "boolean"},
        ),
        description="Write JSON.",
        verify=_verify_json,
    ),
    OpSpec(
        "render",
        JSON_VALUE,
        TEXT,
        render,
        implicit=True,
        description="The answer for a value: a string as it is, anything else as JSON.",
    ),
    OpSpec(
        "sort",
        JSON_VALUE,
        JSON_VALUE,
        query.sort_records,
        params={
            **_obj(
                key=_FIELD,
                order={"enum": ["asc", "desc"]},
                alphabetical={"type": "boolean"},
                in_time={"type": "boolean"},
            ),
            "required": ["key"],
        },
        description=(
            "Sort records by a field (stable); alphabetical: strings ignore case; in_time: the "
            "order was said in time words, so the field must hold dates or times."
        ),
    ),
    OpSpec(
        "project",
        JSON_VALUE,
        JSON_VALUE,
        query.project,
        params={**_obj(fields=_FIELDS), "required": ["fields"]},
        description="Keep only these fields of each record.",
    ),
    OpSpec(
        "drop",
        JSON_VALUE,
        JSON_VALUE,
        query.drop,
        params={**_obj(fields=_FIELDS), "required": ["fields"]},
        description="Remove these fields from each record.",
    ),
    OpSpec(
        "rename",
        JSON_VALUE,
        JSON_VALUE,
        query.rename,
        params={**_obj(field=_FIELD, to=_FIELD), "required": ["field", "to"]},
        description="Rename a field in each record.",
    ),
    OpSpec(
        "filter",
        JSON_VALUE,
        JSON_VALUE,
        query.filter_records,
        params={
            **_obj(
                field=_FIELD,
                op={"enum": _COMPARISONS},
                value={
                    "type": ["string", "number", "boolean", "null", "array"],
                    "items": {"type": ["string", "number", "boolean", "null"]},
                    "minItems": 2,
                },
                held={"type": "boolean"},
            ),
            "required": ["field", "op", "value"],
        },
        description="Keep the records whose field compares true with a value.",
    ),
    OpSpec(
        "first",
        JSON_VALUE,
        JSON_VALUE,
        query.first,
        params={**_obj(count=_COUNT), "required": ["count"]},
        description="The first N items.",
    ),
    OpSpec(
        "last",
        JSON_VALUE,
        JSON_VALUE,
        query.last,
        params={**_obj(count=_COUNT), "required": ["count"]},
        description="The last N items.",
    ),
    OpSpec(
        "pluck",
        JSON_VALUE,
        JSON_VALUE,
        query.pluck,
        params={**_obj(field=_FIELD), "required": ["field"]},
        description="The value of a field in each record.",
    ),
    OpSpec(
        "distinct",
        JSON_VALUE,
        JSON_VALUE,
        query.distinct,
        params={**_obj(field=_FIELD, order={"enum": ["asc", "desc"]}), "required": ["field"]},
        description=(
            "The different values of a field, in order of first appearance, or in "
            "alphabetical order (`order`) when every value is a string."
        ),
    ),
    OpSpec(
        "get",
        JSON_VALUE,
        JSON_VALUE,
        query.get,
        params={**_obj(path=_FIELD), "required": ["path"]},
        description="The value at a dotted path.",
    ),
    OpSpec("keys", JSON_VALUE, JSON_VALUE, query.keys, description="The keys of an object."),
    OpSpec(
        "count",
        JSON_VALUE,
        JSON_VALUE,
        query.count,
        params=_obj(records={"type": "boolean"}),
        description="How many items.",
    ),
    OpSpec(
        "exists",
        JSON_VALUE,
        JSON_VALUE,
        query.exists,
        params=_obj(none={"type": "boolean"}),
        description=(
            "Whether a list holds any item (true or false): a yes/no question; with `none`, "
            "whether it holds none."
        ),
    ),
    OpSpec(
        "sum",
        JSON_VALUE,
        JSON_VALUE,
        query.total,
        params=_obj(field=_FIELD),
        description="The sum of a numeric field (or of a list of numbers).",
    ),
    OpSpec(
        "avg",
        JSON_VALUE,
        JSON_VALUE,
        query.average,
        params=_obj(field=_FIELD),
        description="The mean of a numeric field (or of a list of numbers).",
    ),
    OpSpec(
        "median",
        JSON_VALUE,
        JSON_VALUE,
        query.median,
        params=_obj(field=_FIELD),
        description="The median of a numeric field (or of a list of numbers).",
    ),
    OpSpec(
        "number",
        JSON_VALUE,
        JSON_VALUE,
        query.number,
        description="The result when it is a number (the instruction asked for one); "
        "any other result falls back.",
    ),
    OpSpec(
        "min",
        JSON_VALUE,
        JSON_VALUE,
        query.minimum,
        params=_obj(field=_FIELD),
        description="The smallest value of a numeric field (the earliest of ISO dates).",
    ),
    OpSpec(
        "max",
        JSON_VALUE,
        JSON_VALUE,
        query.maximum,
        params=_obj(field=_FIELD),
        description="The largest value of a numeric field (the latest of ISO dates).",
    ),
    OpSpec(
        "max_by",
        JSON_VALUE,
        JSON_VALUE,
        query.max_by,
        params={**_obj(field=_FIELD), "required": ["field"]},
        description="The one record with the highest value of a field.",
    ),
    OpSpec(
        "min_by",
        JSON_VALUE,
        JSON_VALUE,
        query.min_by,
        params={**_obj(field=_FIELD), "required": ["field"]},
        description="The one record with the lowest value of a field.",
    ),
    OpSpec(
        "group_count",
        JSON_VALUE,
        JSON_VALUE,
        query.group_count,
        params={**_obj(field=_FIELD, same_as=_FIELD), "required": ["field"]},
        description="How many records have each value of a field.",
    ),
    OpSpec(
        "group_agg",
        JSON_VALUE,
        JSON_VALUE,
        query.group_aggregate,
        params={
            **_obj(
                by=_FIELD,
                agg={"enum": ["sum", "avg", "median", "min", "max"]},
                field=_FIELD,
            ),
            "required": ["by", "agg", "field"],
        },
        description="One aggregate of a numeric field for each value of another field.",
    ),
    OpSpec(
        "records",
        JSON_VALUE,
        JSON_VALUE,
        query.records,
        params={**_obj(noun=_FIELD), "required": ["noun"]},
        description='The data itself, named by a noun ("take the books"); refuses a noun '
        "that is a field name.",
    ),
    OpSpec("only", JSON_VALUE, JSON_VALUE, query.only, description="The item of a one-item list."),
    OpSpec(
        "round",
        JSON_VALUE,
        TEXT,
        query.round_number,
        params={
            **_obj(decimals={"type": "integer", "minimum": 0, "maximum": 20}),
            "required": ["decimals"],
        },
        description="A number written with exactly N decimals (half up).",
    ),
)
