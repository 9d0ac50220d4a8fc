"""Pure parts of the service: token counter, header encoding, limits, plan parsing, settings."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.errors import StartupError
from zerolayer.core.messages import EngineRequest
from zerolayer.rules_api.headers import header_safe
from zerolayer.rules_api.metrics import label, plan_family, plan_ops
from zerolayer.rules_api.service import AnswerTooLong, apply_limits, input_tokens
from zerolayer.rules_api.settings import ServiceSettings
from zerolayer.rules_api.usage import chunk_text, count_tokens, token_pieces, truncate_tokens


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", 0),
        ("   \n", 0),
        ("hello", 1),
        ("Hello, world!", 4),
        ("internationalization", 4),  # 6 + 6 + 6 + 2 letters
        ("1234567", 3),  # 123 | 456 | 7
        ("把这个转换成YAML", 7),  # six CJK characters and one word
        ('{"a": [1, 2]}', 11),
        ("snake_case_name", 3),  # letters and _ form words: snake_ | case_n | ame
        ("émoji 🎉", 2),
    ],
)
def test_token_counts(text: str, tokens: int) -> None:
    assert count_tokens(text) == tokens
    assert len(token_pieces(text)) == tokens


@given(st.text())
def test_pieces_concatenate_to_the_text(text: str) -> None:
    pieces = token_pieces(text)
    if pieces:
        assert "".join(pieces) == text
    assert len(pieces) == count_tokens(text)


@given(st.text(), st.integers(min_value=1, max_value=20))
def test_chunks_and_truncation_are_prefixes(text: str, n: int) -> None:
    chunks = chunk_text(text, n)
    assert "".join(chunks) == text
    assert all(count_tokens(c) <= n for c in chunks)
    head, cut = truncate_tokens(text, n)
    assert text.startswith(head)
    assert count_tokens(head) == min(n, count_tokens(text))
    assert cut == (count_tokens(text) > n)


def no_surrogates(value: str) -> bool:
    """True when ``value`` encodes to UTF-8 (lone surrogates are escaped, not round-tripped)."""
    return not any(0xD800 <= ord(c) <= 0xDFFF for c in value)


@given(st.text())
def test_header_safe_round_trips(value: str) -> None:
    encoded = header_safe(value, limit=10**6)
    assert all(0x20 <= ord(c) < 0x7F for c in encoded)
    if no_surrogates(value):
        assert unquote(encoded, errors="strict") == value


@given(st.text(min_size=1), st.integers(min_value=12, max_value=80))
def test_header_safe_cut_keeps_whole_characters(value: str, limit: int) -> None:
    encoded = header_safe(value, limit=limit)
    assert len(encoded) <= limit
    full = header_safe(value, limit=10**6)
    if len(full) > limit:
        assert encoded.endswith("%E2%80%A6")
        if no_surrogates(value):
            assert value.startswith(unquote(encoded[: -len("%E2%80%A6")], errors="strict"))
    else:
        assert encoded == full


def test_header_safe_escapes_newlines_and_percent() -> None:
    assert header_safe("a | b\n100%") == "a | b%0A100%25"
    assert header_safe("排序") == "%E6%8E%92%E5%BA%8F"


@pytest.mark.parametrize(
    ("plan", "ops", "family"),
    [
        ("json.parse | sort(created_at, desc) | yaml.emit()", ["json.parse", "sort", "yaml.emit"],
         "json"),
        ('json.parse | filter(name == "a|b") | json.emit(indent=2)',
         ["json.parse", "filter", "json.emit"], "json"),
        ("sort(x) | markdown.render", ["sort", "markdown.render"], "markdown"),
        ("limit(3)", ["limit"], "limit"),
        ("", [], ""),
    ],
)  # fmt: skip
def test_plan_ops_and_family(plan: str, ops: list[str], family: str) -> None:
    assert plan_ops(plan) == ops
    assert plan_family(plan) == family


def test_labels_stay_bounded() -> None:
    assert label("gate.temperature") == "gate.temperature"
    assert label("x" * 65) == "other"
    assert label("has space") == "other"
    assert label(None) == ""


@pytest.mark.parametrize(
    ("output", "max_tokens", "stop", "text", "reason", "seq"),
    [
        ("a b c", None, (), "a b c", "end_turn", None),
        ("a b c", 3, (), "a b c", "end_turn", None),
        ("a b c", 5, ("b",), "a ", "stop_sequence", "b"),
        ("a b c", 5, ("c", "b"), "a ", "stop_sequence", "b"),  # the earliest stop wins
        ("a b c d e", 1, ("b",), "a ", "stop_sequence", "b"),  # fits once cut at the stop
        ("a b c", 3, ("zzz",), "a b c", "end_turn", None),
    ],
)
def test_apply_limits(output, max_tokens, stop, text, reason, seq) -> None:  # type: ignore[no-untyped-def]
    shaped = apply_limits(output, max_tokens, stop)
    assert (shaped.text, shaped.stop_reason, shaped.stop_sequence) == (text, reason, seq)


@pytest.mark.parametrize(
    ("output", "max_tokens", "stop", "tokens"),
    [("a b c", 2, (), 3), ("a b c d e", 1, ("d",), 3), ("数据 data, 42", 4, (), 5)],
)
def test_apply_limits_never_cuts_at_max_tokens(output, max_tokens, stop, tokens) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(AnswerTooLong) as caught:
        apply_limits(output, max_tokens, stop)
    assert (caught.value.tokens, caught.value.max_tokens) == (tokens, max_tokens)
    assert f"at least {tokens}" in str(caught.value)


def test_input_tokens_count_system_and_every_turn() -> None:
    request = EngineRequest.from_instruction("Convert to YAML", '{"a": 1}')
    request = EngineRequest(messages=request.messages, system="be brief")
    assert input_tokens(request) == 2 + count_tokens(request.messages[0].content)


def test_settings_from_env() -> None:
    env = {
        "ZEROLAYER_MAX_BODY_BYTES": "1024",
        "ZEROLAYER_REDIS_URL": "redis://localhost:6379/1",
        "ZEROLAYER_METRICS_WINDOW_S": "60",
        "ZEROLAYER_MODEL_ID": "zl",
        "ZEROLAYER_CACHE_TTL_S": "",
    }
    settings = ServiceSettings.from_env(env)
    assert settings.max_body_bytes == 1024
    assert settings.redis_url == "redis://localhost:6379/1"
    assert settings.metrics_window_s == 60.0
    assert settings.model_id == "zl"
    assert settings.cache_ttl_s is None


@pytest.mark.parametrize(
    "env",
    [
        {"ZEROLAYER_MAX_BODY_BYTES": "lots"},
        {"ZEROLAYER_MAX_BODY_BYTES": "0"},
        {"ZEROLAYER_CACHE_MAX_BYTES": "-1"},
        {"ZEROLAYER_METRICS_WINDOW_S": "0"},
    ],
)
def test_bad_settings_fail_at_start_up(env: dict[str, str]) -> None:
    with pytest.raises(StartupError, match="ZEROLAYER_"):
        ServiceSettings.from_env(env)
