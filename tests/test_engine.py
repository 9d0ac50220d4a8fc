"""The Python API: routes, reasons, errors with positions, timings, thread safety."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml

from zerolayer import Engine as PublicEngine
from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.errors import PayloadError, PlanError
from zerolayer.core.grammar import NoMatch
from zerolayer.core.messages import EngineRequest, Message, Route

TICKETS = """[
  {"id": 7, "name": "Login fails", "created_at": "2024-03-02"},
  {"id": 3, "name": "Typo", "created_at": "2024-02-11"},
  {"id": 12, "name": "Export times out", "created_at": "2024-03-09"}
]"""


def test_public_names_are_exported() -> None:
    assert PublicEngine is Engine


def test_an_answer_carries_output_plan_and_timings(engine: Engine) -> None:
    result = engine.run(
        "Sort these tickets by created_at descending, keep only id and name, then output YAML",
        TICKETS,
    )
    assert result.route is Route.DETERMINISTIC
    assert yaml.safe_load(result.output or "") == [
        {"id": 12, "name": "Export times out"},
        {"id": 7, "name": "Login fails"},
        {"id": 3, "name": "Typo"},
    ]
    assert result.plan == (
        'json.parse | sort(key="created_at", order="desc") | project(fields=["id","name"])'
        " | yaml.emit"
    )
    assert {"gate", "parse", "execute"} <= set(result.timings)


def test_a_message_list_with_system_prompt_and_sampling(engine: Engine) -> None:
    request = EngineRequest(
        messages=(Message("user", 'Convert this JSON to YAML:\n\n{"a": [1, 2]}'),),
        system="You are a converter.",
        temperature=0,
        top_p=1,
    )
    result = engine.run(request)
    assert result.route is Route.DETERMINISTIC
    assert yaml.safe_load(result.output or "") == {"a": [1, 2]}


def test_open_asks_fall_back_with_a_reason(engine: Engine) -> None:
    result = engine.run("Convert this JSON to YAML and tell me what you think of it", '{"a": 1}')
    assert result.route is Route.FALLBACK
    assert result.reason == "gate.open_ended"
    assert result.output is None


def test_unparsed_words_fall_back(engine: Engine) -> None:
    result = engine.run("Convert this JSON to YAML and frobnicate the widgets", '{"a": 1}')
    assert result.route is Route.FALLBACK
    assert result.reason == "parse.no_match"


def test_temperature_must_be_zero(engine: Engine) -> None:
    request = EngineRequest(
        messages=(Message("user", 'Convert this JSON to YAML: {"a": 1}'),), temperature=0.7
    )
    assert engine.run(request).reason == "gate.temperature"
    absent = EngineRequest(messages=request.messages)
    assert engine.run(absent).route is Route.DETERMINISTIC
    strict = Engine(EngineConfig.from_env({"ZEROLAYER_STRICT_SAMPLING": "1"}))
    assert strict.run(absent).reason == "gate.temperature_absent"
    legacy_strict = Engine(EngineConfig.from_env({"ZEROLAYER_ASSUME_TEMPERATURE_ZERO": "0"}))
    assert legacy_strict.run(absent).reason == "gate.temperature_absent"
    assert EngineConfig.from_env(
        {"ZEROLAYER_ASSUME_TEMPERATURE_ZERO": "1"}
    ).absent_temperature_is_zero


def test_malformed_payload_is_an_error_with_line_and_column(engine: Engine) -> None:
    result = engine.run("Convert this JSON to YAML", '{\n  "a": 1,\n  "b": nope\n}')
    assert result.route is Route.ERROR
    assert isinstance(result.error, PayloadError)
    assert (result.error.line, result.error.column) == (3, 8)
    assert "line 3" in str(result.error)


def test_unknown_field_falls_back(engine: Engine) -> None:
    result = engine.run("Sort by colour descending and output YAML", TICKETS)
    assert result.route is Route.FALLBACK
    assert result.reason == "field.unknown"


def test_payload_size_limit(engine: Engine) -> None:
    small = Engine(EngineConfig(max_payload_bytes=10))
    result = small.run("Convert this JSON to YAML", '{"a": "0123456789"}')
    assert result.route is Route.ERROR
    assert "limit is 10" in str(result.error)


def test_explain_prints_the_plan_without_running(engine: Engine) -> None:
    result = engine.explain("Convert this YAML to JSON with keys sorted", "b: 1\na: 2")
    assert result.plan == "yaml.parse | json.emit(sort_keys=true)"
    assert result.output is None
    assert engine.explain("Write a poem").route is Route.FALLBACK


def test_run_plan_executes_pipeline_text(engine: Engine) -> None:
    out = engine.run_plan('json.parse | sort(key="id") | pluck(field="id")', TICKETS)
    assert out == "[\n  3,\n  7,\n  12\n]"
    with pytest.raises(PlanError):
        engine.run_plan("json.parse | nope", TICKETS)


def test_fingerprint_is_exact_and_skips_non_deterministic_requests(engine: Engine) -> None:
    one = EngineRequest.from_instruction("Convert this JSON to YAML", '{"a": 1}')
    two = EngineRequest.from_instruction("Convert this JSON to YAML", '{"a": 2}')
    assert engine.fingerprint(one) == engine.fingerprint(one)
    assert engine.fingerprint(one) != engine.fingerprint(two)
    hot = EngineRequest(messages=one.messages, temperature=1.0)
    assert engine.fingerprint(hot) is None


SAMPLING_CASES = [
    ("Convert this JSON to YAML", '{"a": 1}'),
    ("Sort by id and output YAML", TICKETS),
    ("Convert this JSON to YAML", '{"a": }'),  # an error answer
    ("Write a poem about the sea", None),  # open-ended: never cached
]


@pytest.mark.parametrize(("instruction", "payload"), SAMPLING_CASES)
def test_fingerprint_of_absent_and_zero_temperature(engine: Engine, instruction, payload) -> None:
    """Absent temperature and 0 share a cache key only where their answers are the same: the
    lenient default answers both alike; under the strict rule an absent temperature has no key
    at all, so an engine of either setting can share one cache (Redis) with the other."""
    zero = EngineRequest.from_instruction(instruction, *([payload] if payload else []))
    absent = EngineRequest(messages=zero.messages, payloads=zero.payloads)
    assert zero.temperature == 0 and absent.temperature is None
    strict = Engine(EngineConfig.from_env({"ZEROLAYER_STRICT_SAMPLING": "1"}))
    for one in (engine, strict):
        for request in (zero, absent):
            key = one.fingerprint(request)
            result = one.run(request)
            if key is None:
                continue
            for other in (engine, strict):  # whoever computes the same key answers alike
                for again in (zero, absent):
                    if other.fingerprint(again) == key:
                        twin = other.run(again)
                        assert (twin.route, twin.output) == (result.route, result.output)
    assert strict.fingerprint(absent) is None
    assert strict.run(absent).reason == "gate.temperature_absent"
    assert engine.fingerprint(absent) == engine.fingerprint(zero)


def test_one_engine_serves_many_threads(engine: Engine) -> None:
    payloads = [f'{{"n": {i}, "tags": ["a", "b"]}}' for i in range(200)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda p: engine.run("Convert this JSON to YAML", p), payloads))
    assert [yaml.safe_load(r.output or "")["n"] for r in results] == list(range(200))


def test_registered_examples_give_their_expected_answers(engine: Engine) -> None:
    assert engine.registry.examples
    for example in engine.registry.examples:
        result = engine.run(example.instruction, example.payload)
        assert result.output == example.expected, example


def test_payload_before_the_instruction_is_not_gated_as_an_ask(engine: Engine) -> None:
    message = "summary: why we moved\nowner: ana\n\n把上面的YAML转成JSON"
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert result.route is Route.DETERMINISTIC
    assert result.output is not None and '"summary": "why we moved"' in result.output


def test_an_open_ask_before_a_payload_still_falls_back(engine: Engine) -> None:
    message = 'What do you think of this JSON?\n\n{"a": 1}\n\nConvert it to YAML.'
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert result.route is Route.FALLBACK
    assert result.reason == "gate.open_ended"


def test_a_reading_that_asks_for_an_operation_wins_over_one_of_options_alone(
    engine: Engine,
) -> None:
    # "Block style here." reads as an option and nothing else; the last paragraph is the
    # instruction, and the paragraphs before it are its text
    message = "Block style here.\n\nBlock two.\n\nQuote paragraph 2 of the text above exactly."
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    assert result.output == "Block two."
    alone = engine.run(EngineRequest(messages=(Message("user", "Block style."),), temperature=0))
    assert alone.route is Route.FALLBACK and alone.reason == "plan.option_unused"


def test_a_payload_of_unstated_format_that_does_not_read_falls_back(engine: Engine) -> None:
    stated = engine.run("Convert this JSON to YAML", '{"a": nope}')
    assert stated.route is Route.ERROR
    guessed = engine.run("Convert to YAML", '{"a": nope}')
    assert guessed.route is Route.FALLBACK
    assert guessed.reason == "payload.format_unstated"


def test_a_fence_tag_no_reader_knows_falls_back(engine: Engine) -> None:
    message = "Output the names\n\n```python\nnames = [1, 2]\n```"
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert result.route is Route.FALLBACK
    assert result.reason == "plan.payload_format"


def test_forget_instructions_reads_the_next_instruction_afresh(engine: Engine) -> None:
    first = engine.run("Convert this JSON to YAML", '{"a": 1}')
    assert engine._parse_cached.cache_info().currsize > 0
    engine.forget_instructions()
    assert engine._parse_cached.cache_info().currsize == 0
    again = engine.run("Convert this JSON to YAML", '{"a": 1}')
    assert (again.output, again.plan) == (first.output, first.plan)


def test_an_instruction_the_grammar_refuses_is_refused_alike_from_the_cache() -> None:
    engine = Engine()
    first = second = None
    for _ in range(2):
        try:
            engine._parse_cached("frobnicate the quux")
        except NoMatch as exc:
            first, second = second, exc
    assert first is not None and second is not None
    assert (second.reason, second.message) == (first.reason, first.message)
    assert engine._parse_cached.cache_info().hits == 1
    assert second.__traceback__ is not None and second.__context__ is None
