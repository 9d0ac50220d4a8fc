"""json_to_yaml: the batch-at-a-time JSON → YAML path gives exactly the whole-value path's
output, errors included, and keeps memory bounded.

Batches are made tiny (``BATCH_CHARS`` patched) so that every payload here crosses many
batch boundaries, including inside the value of a top-level key.
"""

from __future__ import annotations

import gc
import json
import random
import tracemalloc
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.engine import Engine
from zerolayer.core.errors import LimitExceeded, PayloadError, Unsupported, ZeroLayerError
from zerolayer.core.messages import Route
from zerolayer.plugins.json_yaml import stream
from zerolayer.plugins.json_yaml.codec import emit_yaml, parse_json, verify_yaml
from zerolayer.plugins.json_yaml.yaml_read import parse_yaml_ruamel_safe

from ._support import strict_equal

OPTIONS = [
    {},
    {"indent": 4},
    {"quote": "double"},
    {"quote": "single", "explicit_start": True},
    {"explicit_start": True, "indent": 1},
]


@pytest.fixture(autouse=True)
def _small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream, "BATCH_CHARS", 48)


def whole(text: str, **options: Any) -> str:
    value = parse_json(text)
    out = emit_yaml(value, **options)
    verify_yaml(out, value)
    return out


def streamed(text: str, **options: Any) -> str:
    """The streaming path alone (it raises where json_to_yaml would take the whole path)."""
    full = {"quote": "plain", "indent": 2, "seq_style": "block", "sort_keys": False}
    full.update({k: v for k, v in options.items() if k != "explicit_start"})
    return stream._Stream(text, full, options.get("explicit_start", False)).run()


def records(n: int, seed: int = 3) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    words = ["yes", "no", "null", "0755", "a: b", "x #y", "- z", "1e3", "", "é ü", "'q'"]
    return [
        {
            "id": i,
            "name": rng.choice(words),
            "score": rng.choice([0.5, -0.0, 1e-7, 3, True, None]),
            "tags": [rng.choice(words) for _ in range(rng.randrange(4))],
            "nested": {"deep": [{"k": rng.choice(words)}], "empty": {}},
        }
        for i in range(n)
    ]


PAYLOADS = {
    "list of records": records(40),
    "list of scalars": ["yes", 1, 2.5, None, False, "", "x: y"] * 12,
    "list of lists": [[1, [2, []]], [], ["a"]] * 15,
    "wrapper object": {"meta": {"count": 40}, "data": records(40), "more": [], "n": 1},
    "object of objects": {f"k{i}": {"v": i, "w": [i]} for i in range(50)},
    "object of scalars": {f"key {i}": ("on" if i % 2 else i) for i in range(60)},
    "object with a mapping value": {"a": 1, "users": {f"u{i}": records(1)[0] for i in range(30)}},
    "long key": {"k" * 1200: records(5), "b": [1, 2, 3] * 10},
}


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@pytest.mark.parametrize("name", list(PAYLOADS))
@pytest.mark.parametrize("indent", [None, 2])
def test_streaming_equals_whole_value_path(name: str, options: dict[str, Any], indent: int | None):
    text = json.dumps(PAYLOADS[name], indent=indent, ensure_ascii=False)
    expected = whole(text, **options)
    assert streamed(text, **options) == expected
    assert stream.json_to_yaml(text, **options) == expected
    value = PAYLOADS[name]
    assert strict_equal(yaml.safe_load(expected), value)
    assert strict_equal(parse_yaml_ruamel_safe(expected), value)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=25,
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(JSON_VALUES, min_size=1, max_size=12)
    | st.dictionaries(st.text(max_size=8), JSON_VALUES, min_size=1, max_size=12),
    st.sampled_from(OPTIONS),
    st.sampled_from([None, 1, "\t"]),
)
def test_random_values_stream_exactly(value: Any, options: dict[str, Any], indent: Any) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    try:
        expected = whole(text, **options)
    except ZeroLayerError as exc:
        with pytest.raises(type(exc)):
            stream.json_to_yaml(text, **options)
        return
    assert stream.json_to_yaml(text, **options) == expected
    assert streamed(text, **options) == expected


@pytest.mark.parametrize(
    "text",
    [
        '[{"a": 1}, {"a": 2}, ',  # cut short
        '[{"a": 1}, {"a": 2},]',  # trailing comma
        '[{"a": 1} {"a": 2}]',  # missing comma
        '{"data": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], "x": tru}',
        "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, NaN]",
        "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17] []",  # two values
        '[{"a": "x"}, {"a": "y"}, {"a": "z"}, {"a": "w"}, {"a": "\\ud800"}]',
        '{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], 3: 1}',
    ],
)
def test_malformed_payloads_get_the_whole_value_paths_error(text: str) -> None:
    with pytest.raises(PayloadError) as want:
        parse_json(text)
    with pytest.raises(PayloadError) as got:
        stream.json_to_yaml(text)
    assert (got.value.line, got.value.column, str(got.value)) == (
        want.value.line,
        want.value.column,
        str(want.value),
    )


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ('{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], "a": 2}', {}),
        ('{"d": {"x": 1, "y": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], "x": 3}}', {}),
        ('{"b": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], "a": 2}', {"sort_keys": True}),
        ("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]", {"seq_style": "flow"}),
        ('\ufeff[{"a": 1}, {"a": 2}, {"a": 3}, {"a": 4}, {"a": 5}, {"a": 6}]', {}),
        ('["x", "y", "z", "w", "v", "u", "t", "s", "r", "q", "p", 1e400]', {}),
        (
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
            {},
        ),
        ("[]", {}),
        ("{}", {}),
        ('"just a string, long enough to pass the batch size of these tests"', {}),
    ],
)
def test_what_does_not_stream_takes_the_whole_value_path(text: str, options: dict[str, Any]):
    try:
        expected: Any = whole(text, **options)
    except ZeroLayerError as exc:
        expected = type(exc)
    try:
        got: Any = stream.json_to_yaml(text, **options)
    except ZeroLayerError as exc:
        got = type(exc)
    assert got == expected


def test_duplicate_keys_keep_the_first_position_and_the_last_value() -> None:
    text = '{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], "b": 0, "a": 2}'
    assert stream.json_to_yaml(text) == "a: 2\nb: 0\n"


def test_deep_nesting_gives_the_same_limit() -> None:
    deep = "[" * 150 + "]" * 150
    text = "[" + ", ".join([deep] * 3) + "]"
    with pytest.raises(LimitExceeded):
        whole(text)
    with pytest.raises(LimitExceeded):
        stream.json_to_yaml(text)


def test_unsupported_numbers_fall_back_as_before() -> None:
    text = "[" + ", ".join(["1"] * 20 + ["1e400"]) + "]"
    with pytest.raises(Unsupported):
        stream.json_to_yaml(text)


def _engine_peak(engine: Engine, text: str) -> tuple[int, Any]:
    engine.run("Convert this JSON to YAML", text)  # warm: imports, caches
    gc.collect()
    tracemalloc.start()
    try:
        result = engine.run("Convert this JSON to YAML", text)
        return tracemalloc.get_traced_memory()[1], result
    finally:
        tracemalloc.stop()


def test_engine_memory_stays_under_five_times_the_payload(monkeypatch: pytest.MonkeyPatch):
    """The measure of performance.md: tracemalloc's peak during ``Engine.run`` over the
    payload's UTF-8 size. The whole-value path needs about 6x here."""
    monkeypatch.setattr(stream, "BATCH_CHARS", 8192)
    text = json.dumps(records(800), indent=2, ensure_ascii=False)
    size = len(text.encode())
    assert size > 150_000
    engine = Engine()
    peak, result = _engine_peak(engine, text)
    assert result.route is Route.DETERMINISTIC
    assert result.plan == "json.parse | yaml.emit"
    assert result.output == whole(text)
    assert peak < 5 * size, f"peak {peak / size:.2f}x the payload"


def test_engine_runs_the_fused_path_only_for_parse_then_emit(monkeypatch: pytest.MonkeyPatch):
    calls: list[str] = []
    real = stream.json_to_yaml

    def spy(text: str, **options: Any) -> str:
        calls.append(text)
        return real(text, **options)

    monkeypatch.setattr(stream, "json_to_yaml", spy)
    engine = Engine()
    payload = json.dumps(records(5))
    result = engine.run("Convert this JSON to YAML with 4-space indentation", payload)
    assert result.route is Route.DETERMINISTIC, result.reason
    assert result.output == whole(payload, indent=4)
    assert calls == [payload]
    calls.clear()
    sorted_result = engine.run("Sort by id descending, then output YAML", payload)
    assert sorted_result.route is Route.DETERMINISTIC, sorted_result.reason
    assert calls == []  # a query between the reader and the writer: no fused path
