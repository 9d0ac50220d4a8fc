"""Record queries worded freely: the query frame reader's sentences (cases in
tests/cases/query_frames/) and the engine answering them as it answers the grammar's
sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core.engine import Engine
from zerolayer.core.errors import Unsupported
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.core.query_frames import (
    query_sentence,
    record_keys,
    said_as_records,
    wrapped_records,
)

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "cases" / "query_frames" / "cases.yaml").read_text("utf-8")
)
KEYS = {"name": False, "age": True, "city": False, "salary": True}
RECORDS = [
    {"name": "Ann", "age": 31, "city": "Oslo", "salary": 5200},
    {"name": "Bob", "age": 25, "city": "Lima", "salary": 4100},
    {"name": "Cy", "age": 44, "city": "Rome", "salary": 6100},
    {"name": "Di", "age": 29, "city": "Kyiv", "salary": 5000},
]
PAYLOAD = json.dumps(RECORDS, indent=2)
TEXTS = {k: frozenset(r[k] for r in RECORDS if isinstance(r[k], str)) for k in KEYS}


def _capital(words: str) -> str:
    """The first letter upper case, the rest as written (values keep their case)."""
    return words[:1].upper() + words[1:]


def _run(engine: Engine, text: str) -> Any:
    return engine.run(EngineRequest(messages=(Message("user", text),), temperature=0))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["words"])
def test_sentence(case: dict[str, Any]) -> None:
    if "sentence" in case:
        assert query_sentence(case["words"], KEYS, TEXTS) == case["sentence"]
    else:
        with pytest.raises(Unsupported) as caught:
            query_sentence(case["words"], KEYS, TEXTS)
        assert case["refuse"] in str(caught.value)


@pytest.mark.parametrize("case", [c for c in CASES if "sentence" in c], ids=lambda c: c["words"])
def test_the_engine_answers_as_for_the_grammar_sentence(
    engine: Engine, case: dict[str, Any]
) -> None:
    free = _run(engine, f"{_capital(case['words'])}:\n\n```json\n{PAYLOAD}\n```")
    grammar = _run(engine, f"{_capital(case['sentence'])}:\n\n```json\n{PAYLOAD}\n```")
    assert grammar.route is Route.DETERMINISTIC, grammar.detail
    assert free.route is Route.DETERMINISTIC, (free.reason, free.detail)
    assert free.output == grammar.output


@pytest.mark.parametrize(
    "case", [c for c in CASES if "refuse" in c and "grammar" not in c], ids=lambda c: c["words"]
)
def test_the_engine_falls_back(engine: Engine, case: dict[str, Any]) -> None:
    assert _run(engine, f"{case['words']}\n\n{PAYLOAD}").route is Route.FALLBACK


def test_an_answer_checked_by_hand(engine: Engine) -> None:
    result = _run(engine, f"only those with age under 30, and just the name\n{PAYLOAD}")
    assert result.route is Route.DETERMINISTIC
    assert json.loads(result.output) == [{"name": "Bob"}, {"name": "Di"}]


def test_a_benign_word_that_is_a_key_falls_back() -> None:
    with pytest.raises(Unsupported, match="key of the records"):
        query_sentence("sort by age and just the name", {"age": True, "name": False, "the": False})


def test_records_keys_are_those_every_record_has() -> None:
    keys = record_keys('[{"a": 1, "b": "x"}, {"a": 2.5, "c": 1}]')
    assert keys == {"a": True}
    assert record_keys('[{"a": true}]') == {"a": False}
    for payload in (None, "", "{}", "[]", "[1, 2]", "not json"):
        assert record_keys(payload) is None


def test_a_query_on_a_payload_that_is_not_records_falls_back(engine: Engine) -> None:
    assert _run(engine, 'only those with age under 30\n{"age": 3}').route is Route.FALLBACK


ANSWERS: dict[str, Any] = yaml.safe_load(
    (Path(__file__).parent / "cases" / "query_frames" / "answers.yaml").read_text("utf-8")
)


def _payload(records: list[dict[str, Any]], fmt: str) -> str:
    if fmt == "yaml":
        return f"```yaml\n{yaml.safe_dump(records, sort_keys=False)}```"
    return f"```json\n{json.dumps(records, indent=2)}\n```"


@pytest.mark.parametrize("case", ANSWERS["cases"], ids=lambda c: c["words"])
def test_the_answer_is_the_one_written_by_hand(engine: Engine, case: dict[str, Any]) -> None:
    payload = _payload(ANSWERS["records"][case["records"]], case["payload"])
    result = _run(engine, f"{case['words']}\n\n{payload}")
    if case.get("fallback"):
        assert result.route is Route.FALLBACK, result.output
        return
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    output = result.output or ""
    if case.get("output") == "text":
        assert output == case["answer"]
    else:
        read = yaml.safe_load if case.get("output") == "yaml" else json.loads
        assert read(output) == case["answer"]


# Fields and values read by the records' own structure: camelCase words, the last word of a
# key, Chinese keys and values, flags said as adjectives, money, points in time.
SHAPED_KEYS = {"firstName": False, "annualSalary": True, "startYear": True, "isRemote": False}
SHAPED_KEYS |= {"unit_price": True, "list_price": False, "省份": False, "人口": True}
SHAPED_TEXTS = {"firstName": frozenset({"Maria"}), "省份": frozenset({"浙江"})}


@pytest.mark.parametrize(
    ("words", "sentence"),
    [
        ("sort by start year, newest first", "sort by startYear newest first"),
        ("who earns the most? just the first name",
         "the firstName of the record with the highest annualSalary"),
        ("items under $60", "filter where unit_price < 60"),
        ("who joined after 2018", "filter where startYear > 2018"),  # the glossary's "joined"
        ("people who started after 2018", "filter where startYear > 2018"),
        ("only the remote ones", "filter where isRemote is true"),
        ("non-remote employees", "filter where isRemote is false"),
        ("省份是浙江，按人口排序", 'filter where 省份 is "浙江", then sort by 人口'),
        ("the lowest paid employee", None),
        ("sort by price", None),  # unit_price and list_price end in the same word
        ("the average employee salary", "the average annualSalary"),
        ("the highest paid employee", None),
        ("省份是浙江的记录数量", 'filter where 省份 is "浙江", then count'),
        # a flag and more of the same clause: the flag first
        ("remote employees who joined after 2018",
         "filter where isRemote is true, then filter where startYear > 2018"),
        ("how many remote employees earn over 50000?",
         "filter where isRemote is true, then filter where annualSalary > 50000, then count"),
        ("the average salary of remote employees",
         "filter where isRemote is true, then the average annualSalary"),
        ("remote employees except Maria",
         'filter where isRemote is true, then filter where firstName is not "Maria"'),
        ("remote employees but not Maria", None),
        ("remove remote employees who joined after 2018", None),
        # a flag said after "is"/"are"
        ("which employees are remote? first names only",
         "filter where isRemote is true, then keep only firstName"),
        ("which employees are not remote? first names only",
         "filter where isRemote is false, then keep only firstName"),
    ],
)  # fmt: skip
def test_fields_by_structure(words: str, sentence: str | None) -> None:
    flags = frozenset({"isRemote"})
    if sentence is None:
        with pytest.raises(Unsupported):
            query_sentence(words, SHAPED_KEYS, SHAPED_TEXTS, flags=flags)
    else:
        assert query_sentence(words, SHAPED_KEYS, SHAPED_TEXTS, flags=flags) == sentence


# Extremes of ISO points in time: exact only when every value has one shape (text order is
# time order); mixed shapes or zones are no extreme.
@pytest.mark.parametrize(
    ("values", "latest"),
    [
        (["2024-01-02", "2023-12-31", "2024-01-10"], "2024-01-10"),
        (["2024-06-03T08:00:00Z", "2024-06-03T08:05:00Z"], "2024-06-03T08:05:00Z"),
        (["2024-06-03T09:00:00+02:00", "2024-06-03T08:05:00Z"], None),
        (["2024-06-03", "2024-06-03T08:05"], None),
    ],
)
def test_extremes_of_points_in_time(values: list[str], latest: str | None) -> None:
    from zerolayer.core.errors import OpError
    from zerolayer.plugins.json_yaml import query

    records = [{"id": i, "at": v} for i, v in enumerate(values)]
    if latest is None:
        with pytest.raises(OpError):
            query.maximum(records, field="at")
        return
    assert query.maximum(records, field="at") == latest
    assert query.max_by(records, field="at")["at"] == latest
    assert query.min_by(records, field="at")["at"] == min(values)


def test_records_inside_an_object_are_found_beside_scalars_only() -> None:
    assert wrapped_records({"at": "2024", "rows": [{"a": 1}]}) == ("rows", [{"a": 1}])
    assert wrapped_records({"rows": [{"a": 1}], "more": [{"b": 2}]}) is None
    assert wrapped_records({"rows": [1, 2]}) is None
    assert wrapped_records([{"a": 1}]) is None


def test_the_records_own_nouns_are_read_as_records_but_not_in_a_key() -> None:
    nouns = {"room": ("record", ("number",)), "rooms": ("records", ("number",))}
    assert said_as_records("the cheapest room? room number only", nouns) == (
        "the cheapest record? room number only"
    )
    assert said_as_records("rooms by rate", nouns) == "records by rate"
    assert said_as_records("order by rate", {"order": ("record", ())}) == "order by rate"
