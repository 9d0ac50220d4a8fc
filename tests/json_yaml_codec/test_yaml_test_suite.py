"""yaml-test-suite: valid cases read to the suite's JSON, error cases are positioned errors.

Cases where the reader knowingly differs are listed, with reasons, in
``cases/yaml_suite_exceptions.yaml``; each listed case is checked to behave as listed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from zerolayer.core.errors import PayloadError, Unsupported
from zerolayer.plugins.json_yaml.codec import emit_yaml, parse_yaml_documents, verify_yaml
from zerolayer.plugins.json_yaml.yaml_read import parse_yaml_ruamel_safe

from ._support import CORPORA, json_documents, load_cases, strict_equal

SUITE = CORPORA / "yaml-test-suite" / "yaml-test-suite.jsonl"
ROWS: list[dict[str, Any]] = (
    [json.loads(line) for line in SUITE.read_text(encoding="utf-8").splitlines()]
    if SUITE.exists()
    else []
)
EXCEPTIONS = {
    case: (group, entry["outcome"])
    for group, entry in load_cases("yaml_suite_exceptions.yaml").items()
    for case in entry["cases"]
}
VALID = [r for r in ROWS if not r["error"] and r["id"] not in EXCEPTIONS]
ERRORS = [r for r in ROWS if r["error"] and r["id"] not in EXCEPTIONS]
LISTED = [r for r in ROWS if r["id"] in EXCEPTIONS]


def _id(row: dict[str, Any]) -> str:
    return str(row["id"])


def test_suite_shape_and_exception_list() -> None:
    if not ROWS:
        pytest.skip("yaml-test-suite corpus not available")
    assert len(ROWS) == 373
    assert set(EXCEPTIONS) <= {r["id"] for r in ROWS}, "unknown ids in the exception list"
    assert len(VALID) + len(ERRORS) + len(LISTED) == len(ROWS)


@pytest.mark.parametrize("row", VALID, ids=_id)
def test_valid_case_reads_to_the_suite_json(row: dict[str, Any]) -> None:
    got = parse_yaml_documents(row["yaml"])
    assert strict_equal(got, json_documents(row["json"]))


@pytest.mark.parametrize("row", VALID, ids=_id)
def test_valid_case_value_round_trips_through_emit_yaml(row: dict[str, Any]) -> None:
    for value in json_documents(row["json"]):
        for quote in ("plain", "double", "single"):
            out = emit_yaml(value, quote=quote, seq_style="flow" if quote == "single" else "block")
            verify_yaml(out, value, ordered=True)
            assert strict_equal(yaml.safe_load(out), value)
            assert strict_equal(parse_yaml_ruamel_safe(out), value)


@pytest.mark.parametrize("row", ERRORS, ids=_id)
def test_error_case_is_a_positioned_payload_error(row: dict[str, Any]) -> None:
    with pytest.raises(PayloadError) as info:
        parse_yaml_documents(row["yaml"])
    assert info.value.line is not None and info.value.line >= 1
    assert info.value.column is not None and info.value.column >= 1


@pytest.mark.parametrize("row", LISTED, ids=_id)
def test_listed_case_behaves_as_listed(row: dict[str, Any]) -> None:
    group, outcome = EXCEPTIONS[row["id"]]
    if outcome == "unsupported":
        with pytest.raises(Unsupported):
            parse_yaml_documents(row["yaml"])
    elif outcome == "payload_error":
        with pytest.raises(PayloadError) as info:
            parse_yaml_documents(row["yaml"])
        assert info.value.line is not None
    elif outcome == "accepted":
        assert row["error"], f"{group}: only error cases can be 'accepted'"
        parse_yaml_documents(row["yaml"])
    else:
        assert outcome == "differs", f"unknown outcome {outcome!r}"
        assert not strict_equal(parse_yaml_documents(row["yaml"]), json_documents(row["json"]))
