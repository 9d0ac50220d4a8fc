"""yaml-test-suite through the differential YAML reader: never a wrong answer.

Every case: a valid case reads to the suite's JSON or falls back (Unsupported); an error
case is a positioned PayloadError or falls back; a valid case is never a PayloadError and
never another value, and an error case is never answered. The cases that fall back are
listed, with reasons, in ``cases/yaml_suite_exceptions.yaml``; every other case must give
the suite's exact answer, so the list is the whole of the gap.
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
FALLBACKS = {
    case: (group, entry["unsupported"])
    for group, entry in load_cases("yaml_suite_exceptions.yaml").items()
    for case in entry["cases"]
}
VALID = [r for r in ROWS if not r["error"]]


def _id(row: dict[str, Any]) -> str:
    return str(row["id"])


def test_suite_shape_and_fallback_list() -> None:
    if not ROWS:
        pytest.skip("yaml-test-suite corpus not available")
    assert len(ROWS) == 373
    assert set(FALLBACKS) <= {r["id"] for r in ROWS}, "unknown ids in the fallback list"


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_case_is_the_suite_answer_or_a_fallback(row: dict[str, Any]) -> None:
    try:
        got = parse_yaml_documents(row["yaml"])
    except Unsupported as exc:
        assert row["id"] in FALLBACKS, f"unlisted fallback: {exc.reason}: {exc}"
        group, reason = FALLBACKS[row["id"]]
        assert exc.reason == reason, f"{group}: falls back for another reason: {exc}"
        return
    except PayloadError as exc:
        assert row["error"], f"a valid case is reported as invalid: {exc}"
        assert exc.line is not None and exc.line >= 1
        assert exc.column is not None and exc.column >= 1
        assert row["id"] not in FALLBACKS, "a listed case no longer falls back"
        return
    assert not row["error"], f"an invalid case is answered: {got!r}"
    assert strict_equal(got, json_documents(row["json"])), "a wrong answer"
    assert row["id"] not in FALLBACKS, "a listed case no longer falls back"


@pytest.mark.parametrize("row", VALID, ids=_id)
def test_valid_case_value_round_trips_through_emit_yaml(row: dict[str, Any]) -> None:
    for value in json_documents(row["json"]):
        for quote in ("plain", "double", "single"):
            out = emit_yaml(value, quote=quote, seq_style="flow" if quote == "single" else "block")
            verify_yaml(out, value, ordered=True)
            assert strict_equal(yaml.safe_load(out), value)
            assert strict_equal(parse_yaml_ruamel_safe(out), value)
