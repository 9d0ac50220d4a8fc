"""The official Anthropic SDK against a live server: answers, headers, streaming, errors."""

from __future__ import annotations

from urllib.parse import unquote

import anthropic
import pytest

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests

ECHO = "ECHO-UPPER: "


def create(client: anthropic.Anthropic, text: str, **kwargs: object):  # type: ignore[no-untyped-def]
    """messages.create with raw response access (headers + parsed message), called as the
    SDK documents it: no sampling parameters unless a test gives temperature/top_p, which go
    in the body (recent SDKs dropped them from the signature)."""
    sampling = {name: kwargs.pop(name) for name in ("temperature", "top_p") if name in kwargs}
    params: dict[str, object] = {"model": "claude-any", "max_tokens": 256, **kwargs}
    if sampling:
        params["extra_body"] = sampling
    return client.messages.with_raw_response.create(
        messages=[{"role": "user", "content": text}], **params
    )


def test_deterministic_answer_is_raw_output_with_active_headers(live) -> None:
    raw = create(live.anthropic(), ECHO + "make me loud {x: 1}")
    message = raw.parse()
    assert raw.status_code == 200
    assert raw.headers["x-zero-layer-status"] == "active"
    assert unquote(raw.headers["x-zero-layer-plan"]) == "text.read | text.upper()"
    assert message.content[0].type == "text"
    assert message.content[0].text == "MAKE ME LOUD {X: 1}"
    assert message.stop_reason == "end_turn"
    assert message.model == "claude-any"
    assert message.usage.output_tokens == 8  # MAKE, ME, LOUD, {, X, :, 1, }
    assert message.usage.input_tokens > 0


def test_second_identical_request_is_a_cache_hit(make_live) -> None:
    server = make_live()
    client = server.anthropic()
    first = create(client, ECHO + "cache me")
    second = create(client, ECHO + "cache me")
    assert first.headers["x-zero-layer-cache-hit"] == "false"
    assert second.headers["x-zero-layer-cache-hit"] == "true"
    assert second.parse().content[0].text == first.parse().content[0].text == "CACHE ME"
    assert server.engine.runs == 1  # the hit did not reach the engine


def test_streaming_follows_anthropic_event_sequence(live) -> None:
    client = live.anthropic()
    text = "a longer payload that is cut into several text deltas by the token counter"
    with client.messages.stream(
        model="any",
        max_tokens=256,
        messages=[{"role": "user", "content": ECHO + text}],
    ) as stream:
        events = list(stream)
        final = stream.get_final_message()
    kinds = [e.type for e in events]
    assert kinds[0] == "message_start"
    assert kinds[1] == "content_block_start"
    deltas = [e for e in events if e.type == "content_block_delta"]
    assert len(deltas) > 1
    assert "".join(d.delta.text for d in deltas) == text.upper()
    assert kinds[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    assert final.content[0].text == text.upper()
    assert final.stop_reason == "end_turn"
    assert final.usage.output_tokens == 17  # PAYLOA|D, SEVERA|L, COUNTE|R: 6-letter pieces


def test_stream_raw_events_include_ping_and_headers(live) -> None:
    client = live.anthropic()
    with client.messages.with_streaming_response.create(
        model="any",
        max_tokens=64,
        stream=True,
        messages=[{"role": "user", "content": ECHO + "ping"}],
    ) as response:
        assert response.headers["x-zero-layer-status"] == "active"
        assert response.headers["content-type"].startswith("text/event-stream")
        body = "".join(response.iter_text())
    names = [line[len("event: ") :] for line in body.splitlines() if line.startswith("event: ")]
    assert names == [
        "message_start",
        "content_block_start",
        "ping",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]


def test_fallback_answer_is_inactive_with_reason(live) -> None:
    raw = create(live.anthropic(), "write me a poem about the sea")
    assert raw.headers["x-zero-layer-status"] == "inactive"
    assert raw.headers["x-zero-layer-reason"] == "parse.no_match"
    assert raw.headers["x-zero-layer-cache-hit"] == "false"
    assert raw.parse().content[0].text == "[fallback] write me a poem about the sea"


def test_fallback_streams_through_the_sdk(live) -> None:
    client = live.anthropic()
    with client.messages.stream(
        model="any", max_tokens=64, messages=[{"role": "user", "content": "tell me a story"}]
    ) as stream:
        text = stream.get_final_text()
    assert text == "[fallback] tell me a story"


@pytest.mark.parametrize(
    ("kwargs", "headers", "reason"),
    [
        ({"temperature": 0.7}, {}, "gate.temperature"),
        ({"temperature": 0}, {"x-zero-layer": "disable"}, "gate.disabled"),
        ({"temperature": 0, "top_p": 0.5}, {}, "gate.top_p"),
    ],
)
def test_gate_sends_request_to_fallback(live, kwargs, headers, reason) -> None:
    raw = create(live.anthropic(default_headers=headers), ECHO + "x", **kwargs)
    assert raw.headers["x-zero-layer-status"] == "inactive"
    assert raw.headers["x-zero-layer-reason"] == reason


def test_bad_payload_is_400_naming_line_and_column(live) -> None:
    with pytest.raises(anthropic.BadRequestError) as info:
        create(live.anthropic(), 'BAD: {\n  "a": 1,\n  "b": }')
    err = info.value
    assert err.status_code == 400
    assert err.response.headers["x-zero-layer-status"] == "active"
    assert err.body["type"] == "error"
    assert err.body["error"]["type"] == "invalid_request_error"
    assert "line 3, column 8" in err.body["error"]["message"]


def test_no_fallback_configured_is_503_inactive(bare) -> None:
    with pytest.raises(anthropic.InternalServerError) as info:
        create(bare.anthropic(), "what do you think of Rust?")
    err = info.value
    assert err.status_code == 503
    assert err.response.headers["x-zero-layer-status"] == "inactive"
    assert err.response.headers["x-zero-layer-reason"] == "parse.no_match"
    assert err.body["type"] == "error"
    assert err.body["error"]["type"] == "api_error"


def test_system_blocks_and_multi_turn_reach_the_engine(live) -> None:
    raw = live.anthropic().messages.with_raw_response.create(
        model="any",
        max_tokens=64,
        system=[{"type": "text", "text": "You are terse."}, {"type": "text", "text": "Really."}],
        messages=[
            {"role": "user", "content": "first question"},
            {"role": "assistant", "content": "an answer"},
            {"role": "user", "content": [{"type": "text", "text": ECHO + "two"}]},
        ],
    )
    assert raw.headers["x-zero-layer-status"] == "active"
    assert raw.parse().content[0].text == "TWO"


def test_image_block_falls_back_without_the_engine(make_live) -> None:
    from zerolayer.rules_api.testing import FakeFallback

    server = make_live(fallback=FakeFallback())
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "AA=="},
    }
    raw = server.anthropic().messages.with_raw_response.create(
        model="any",
        max_tokens=64,
        messages=[{"role": "user", "content": [{"type": "text", "text": ECHO + "x"}, image]}],
    )
    assert raw.headers["x-zero-layer-status"] == "inactive"
    assert raw.headers["x-zero-layer-reason"] == "request.non_text_content"
    assert server.engine.runs == 0


def test_assistant_prefill_falls_back(live) -> None:
    raw = live.anthropic().messages.with_raw_response.create(
        model="any",
        max_tokens=64,
        messages=[
            {"role": "user", "content": ECHO + "abc"},
            {"role": "assistant", "content": "Sure:"},
        ],
    )
    assert raw.headers["x-zero-layer-reason"] == "request.assistant_prefill"


def test_stop_sequence_cuts_like_a_model_and_max_tokens_never_cuts(live) -> None:
    client = live.anthropic()
    stopped = create(client, ECHO + "one two STOP three", stop_sequences=["STOP", "TWO"]).parse()
    assert stopped.content[0].text == "ONE "
    assert stopped.stop_reason == "stop_sequence"
    assert stopped.stop_sequence == "TWO"
    raw = create(client, ECHO + "alpha beta gamma delta", max_tokens=2)
    assert raw.headers["x-zero-layer-status"] == "inactive"
    assert raw.headers["x-zero-layer-reason"] == "answer.exceeds_max_tokens"
    assert raw.parse().content[0].text.startswith("[fallback] ")


def test_count_tokens_uses_the_same_counter(live) -> None:
    client = live.anthropic()
    counted = client.messages.count_tokens(
        model="any", system="be brief", messages=[{"role": "user", "content": "数据 data, 42"}]
    )
    assert counted.input_tokens == 2 + 5  # be, brief | 数, 据, data, ",", 42


def test_models_list_in_anthropic_shape(live) -> None:
    page = live.anthropic().models.list()
    assert [m.id for m in page.data] == ["zerolayer"]


def test_sdk_does_not_retry_when_no_fallback_is_configured(bare) -> None:
    before = bare.engine.runs
    client = bare.anthropic(max_retries=2)
    with pytest.raises(anthropic.InternalServerError):
        create(client, "an open question")
    assert bare.engine.runs == before + 1  # x-should-retry: false was obeyed


@pytest.mark.parametrize("size", [5_000, 2_000_000])  # just over the limit; far over it
def test_oversized_request_is_413_in_anthropic_shape(bare, size) -> None:
    with pytest.raises(anthropic.APIStatusError) as info:
        create(bare.anthropic(max_retries=2), ECHO + "x" * size)
    err = info.value
    assert err.status_code == 413
    typed = getattr(anthropic, "ContentTooLargeError", anthropic.APIStatusError)  # SDK >= 0.50
    assert isinstance(err, typed)
    assert err.response.headers["x-zero-layer-reason"] == "request.too_large"
    assert err.body == {
        "type": "error",
        "error": {
            "type": "request_too_large",
            "message": "request body is larger than the limit of 4096 bytes",
        },
    }
