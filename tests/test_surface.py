"""Surface forms: benign words, answer-only markers, format typos and conversion frames are
understood in any combination, while negation, direction, open asks and unknown words still
change the plan or fall back (core/surface.py, docs/instructions.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerolayer.core.answer_only import drop_answer_only
from zerolayer.core.engine import Engine
from zerolayer.core.messages import Route
from zerolayer.core.surface import PayloadKeys, Surface, _one_edit

PROBES = yaml.safe_load(
    (Path(__file__).parent / "cases" / "core" / "paraphrases.yaml").read_text("utf-8")
)
JSON_DOC = PROBES["payloads"]["J"]
YAML_DOC = PROBES["payloads"]["Y"]


def _outcome(engine: Engine, instruction: str, payload: str) -> str | None:
    result = engine.run(instruction, payload)
    return result.plan if result.route is Route.DETERMINISTIC else None


@pytest.mark.parametrize("case", PROBES["cases"], ids=lambda c: c["id"])
def test_a_probe_answers_its_plan_or_falls_back(engine: Engine, case: dict[str, Any]) -> None:
    got = _outcome(engine, case["instruction"], PROBES["payloads"][case["payload"]])
    if case["plan"] is None:
        assert got is None, f"{case['instruction']!r} must fall back, answered {got}"
    else:
        assert got in (None, case["plan"]), f"{case['instruction']!r} answered {got}"


def test_most_probes_are_recognised(engine: Engine) -> None:
    active = [c for c in PROBES["cases"] if c["plan"] is not None]
    hits = sum(
        _outcome(engine, c["instruction"], PROBES["payloads"][c["payload"]]) == c["plan"]
        for c in active
    )
    assert hits / len(active) >= 0.7, f"{hits}/{len(active)} probes recognised"


PREFIXES = ["", "hey, ", "pls ", "can you ", "could you ", "hi! ", "I need you to "]
SUFFIXES = [
    "",
    ", no commentary",
    ". Nothing else.",
    ", without any explanation",
    " - just the YAML",
    ", only the YAML please",
    "，不要解释",
    "，无需说明",
    "，只返回YAML",
    " 就行",
]
CORES = [
    "convert this JSON to YAML",
    "JSON to YAML",
    "JSON -> YAML",
    "JSON ➜ YAML",
    "JSON in, YAML out",
    "make this YAML instead of JSON",
    "give me the YAML version of this",
    "turn this config into YAML",
    "把这段JSON转成YAML",
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PREFIXES), st.sampled_from(CORES), st.sampled_from(SUFFIXES))
def test_benign_variants_keep_the_plan(engine: Engine, pre: str, core: str, post: str) -> None:
    assert _outcome(engine, pre + core + post, JSON_DOC) == "json.parse | yaml.emit"


OPEN = [", and explain it", ", then tell me what you think", "，并解释一下", " and summarise it"]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(PREFIXES), st.sampled_from(CORES), st.sampled_from(OPEN))
def test_an_open_ask_still_falls_back(engine: Engine, pre: str, core: str, ask: str) -> None:
    assert _outcome(engine, pre + core + ask, JSON_DOC) is None


@pytest.mark.parametrize(
    ("instruction", "payload", "plan"),
    [
        # direction words swap source and target; the payload must fit the source
        ("JSON in, YAML out", JSON_DOC, "json.parse | yaml.emit"),
        ("YAML in, JSON out", YAML_DOC, "yaml.parse | json.emit"),
        ("YAML in, JSON out", JSON_DOC, None),
        ("make this JSON instead of YAML", YAML_DOC, "yaml.parse | json.emit"),
        ("make this JSON instead of YAML", JSON_DOC, None),
        ("make this YAML instead of JSON", JSON_DOC, "json.parse | yaml.emit"),
        # negation is meaning-bearing
        ("Don't convert this to YAML", JSON_DOC, None),
        ("do not give me YAML", JSON_DOC, None),
        # an unknown word is never skipped
        ("Convert this JSON to frobnicated YAML", JSON_DOC, None),
        ("Convert this JSON to YAML and XML", JSON_DOC, None),
    ],
)
def test_direction_and_negation_change_the_plan(
    engine: Engine, instruction: str, payload: str, plan: str | None
) -> None:
    assert _outcome(engine, instruction, payload) == plan


@pytest.mark.parametrize(
    ("a", "b", "near"),
    [
        ("ymal", "yaml", True),
        ("jsno", "json", True),
        ("pyhton", "python", True),
        ("pands", "pandas", True),
        ("typscript", "typescript", True),
        ("yamll", "yaml", True),
        ("yaml", "yaml", False),
        ("xaml", "yaml", True),
        ("yamls", "json", False),
        ("mlya", "yaml", False),
    ],
)
def test_one_edit(a: str, b: str, near: bool) -> None:
    assert _one_edit(a, b) is near


def test_typos_are_corrected_only_for_format_names() -> None:
    surface = Surface({"json", "yaml", "markdown", "python"}, keywords={"sort"})
    assert surface.canonical("Convert this JSNO to YMAL") == "Convert this json to yaml"
    assert surface.canonical("Convert this to Markdwon") == "Convert this to markdown"
    # values, quoted words, payload words, other formats and keywords stay as written
    assert surface.canonical("where name is Jason") == "where name is Jason"
    assert surface.canonical('rename "jsno" to id') == 'rename "jsno" to id'
    assert surface.canonical("keep jsno", ('{"jsno": 1}',)) == "keep jsno"
    assert surface.canonical("convert to jsonl") == "convert to jsonl"
    assert surface.canonical("sort it") == "sort it"


def test_only_the_target_is_dropped_when_named_and_kept_otherwise() -> None:
    surface = Surface({"json", "yaml"})
    assert surface.canonical("Convert to YAML, only the YAML") == "Convert to YAML"
    assert surface.canonical("Return only the JSON") == "output JSON"
    assert surface.canonical("转成YAML,只返回YAML") == "转成YAML"


# What a key of JSON or YAML data is, written as one regular expression: ``PayloadKeys`` must
# answer as if it had read every key this way.
_KEY_SPEC = re.compile(
    r"(?m)(?:^[ \t-]*|[{,][ \t\n]*)[\"']?"
    r"([A-Za-z_\u3400-\u9fff][\w\-\u3400-\u9fff]*)[\"']?[ \t]*:"
)


@settings(max_examples=3000, deadline=None)
@given(
    st.text(st.sampled_from(list("abB_-:{},\"' \t\n代码1")), max_size=40),
    st.sampled_from(["a", "b", "ab", "ba", "a_b", "a-b", "代码", "_a"]),
)
def test_payload_keys_are_the_keys_of_the_data(text: str, word: str) -> None:
    keys = {k.lower() for k in _KEY_SPEC.findall(text)}
    assert (word in PayloadKeys((text,))) == (word in keys)


def test_payload_keys_read_json_and_yaml() -> None:
    keys = PayloadKeys(('[{"Code": 1, "name": "x"}]', "- id: 1\n  only: true\n"))
    assert "code" in keys and "name" in keys and "only" in keys and "id" in keys
    assert "x" not in keys and "true" not in keys and "nam" not in keys


_TERSE_WORDS = st.sampled_from(
    ["convert", "to", "YAML", "JSON", "only", "output", "the", "code", "name", "no",
     "explanation", "just", "result", "please", ",", ".", "Code", "nothing", "else", "只输出"]
)  # fmt: skip
_TERSE_DATA = ['[{"code": "LH401", "price": 612}]', "- name: Ann\n  only: true\n", "plain text"]


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(_TERSE_WORDS, min_size=1, max_size=10).map(" ".join), st.sampled_from(_TERSE_DATA))
def test_terse_with_data_looks_up_every_word(engine: Engine, text: str, data: str) -> None:
    """``terse`` with payloads reads a text none of whose words is a key of the data as it
    reads it without data: the same text as the reading that looks every word up."""
    surface = engine.surface
    keys = PayloadKeys((data,))
    want = drop_answer_only(text, surface.format_names, surface._names, keys)
    assert surface.terse(text, (data,)) == want


PY_DOC = PROBES["payloads"]["P"]


@pytest.mark.parametrize(
    ("instruction", "payload", "plan"),
    [
        # "the same data/code as|in FORMAT", "same thing but FORMAT": the payload again, in
        # the named format, when the format ends its clause
        ("answer with the same data in YAML", JSON_DOC, "json.parse | yaml.emit"),
        ("same code but in TypeScript, please", PY_DOC, "python.parse | python.to_typescript"),
        ("hi, same thing but typescript", PY_DOC, "python.parse | python.to_typescript"),
        ("same thing but sorted", JSON_DOC, None),
        ("is this the same data as YAML?", JSON_DOC, None),
        ("same data as YAML, then explain it", JSON_DOC, None),
        ("the same data as YAML and XML", JSON_DOC, None),
    ],
)
def test_the_same_payload_in_another_format(
    engine: Engine, instruction: str, payload: str, plan: str | None
) -> None:
    assert _outcome(engine, instruction, payload) == plan


@pytest.mark.parametrize(
    ("instruction", "payload", "plan"),
    [
        # "teh"/"hte": the article with two letters transposed is "the"
        ("turn teh json into yaml", JSON_DOC, "json.parse | yaml.emit"),
        (
            "sort hte records by age",
            '[{"age": 3}, {"age": 1}]',
            'json.parse | sort(key="age", order="asc") | render',
        ),
        # a word of the data is never corrected
        ("keep only teh", '[{"teh": 1, "b": 2}]', 'json.parse | project(fields=["teh"]) | render'),
        # an unknown word next to it still falls back
        ("turn teh frobbed json into yaml", JSON_DOC, None),
    ],
)
def test_a_transposed_article_is_read_as_the(
    engine: Engine, instruction: str, payload: str, plan: str | None
) -> None:
    assert _outcome(engine, instruction, payload) == plan
