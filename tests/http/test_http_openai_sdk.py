"""The official OpenAI SDK against a live server: answers, headers, streaming, errors."""

from __future__ import annotations

from urllib.parse import unquote

import openai
import pytest

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests

ECHO = "ECHO-UPPER: "


def create(client: openai.OpenAI, text: str, **kwargs: object):  # type: ignore[no-untyped-def]
    """chat.completions.create with raw response access, called as the SDK documents it: no
    sampling parameters unless a test gives them."""
    params: dict[str, object] = {"model": "gpt-any", **kwargs}
    return client.chat.completions.with_raw_response.create(
        messages=[{"role": "user", "content": text}], **params
    )


def test_deterministic_answer_and_headers(live) -> None:
    raw = create(live.openai(), ECHO + "hello 世界")
    completion = raw.parse()
    assert raw.headers["x-zero-layer-status"] == "active"
    assert unquote(raw.headers["x-zero-layer-plan"]) == "text.read | text.upper()"
    assert completion.object == "chat.completion"
    assert completion.model == "gpt-any"
    choice = completion.choices[0]
    assert choice.message.role == "assistant"
    assert choice.message.content == "HELLO 世界"
    assert choice.finish_reason == "stop"
    assert completion.usage is not None
    assert completion.usage.completion_tokens == 3  # HELLO, 世, 界
    assert completion.usage.total_tokens == completion.usage.prompt_tokens + 3


def test_same_usage_counter_as_anthropic_route(live) -> None:
    text = ECHO + "count these tokens, 12345 and 中文"
    oa = create(live.openai(), text).parse()
    an = live.anthropic().messages.create(
        model="any",
        max_tokens=256,
        messages=[{"role": "user", "content": text}],
    )
    assert oa.usage is not None
    assert oa.usage.prompt_tokens == an.usage.input_tokens
    assert oa.usage.completion_tokens == an.usage.output_tokens


def test_cache_hit_header_on_second_request(make_live) -> None:
    server = make_live()
    first = create(server.openai(), ECHO + "again")
    second = create(server.openai(), ECHO + "again")
    assert first.headers["x-zero-layer-cache-hit"] == "false"
    assert second.headers["x-zero-layer-cache-hit"] == "true"
    assert server.engine.runs == 1


def test_cache_is_shared_between_the_two_apis(make_live) -> None:
    server = make_live()
    server.anthropic().messages.create(
        model="any",
        max_tokens=64,
        messages=[{"role": "user", "content": ECHO + "shared"}],
    )
    raw = create(server.openai(), ECHO + "shared")
    assert raw.headers["x-zero-layer-cache-hit"] == "true"
    assert raw.parse().choices[0].message.content == "SHARED"


def test_streaming_chunks_then_done(live) -> None:
    text = "several words so that the answer arrives in more than one chunk"
    stream = live.openai().chat.completions.create(
        model="any",
        stream=True,
        stream_options={"include_usage": True},
        messages=[{"role": "user", "content": ECHO + text}],
    )
    chunks = list(stream)
    assert all(c.object == "chat.completion.chunk" for c in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert content == text.upper()
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices]
    assert finishes[-1] == "stop"
    assert finishes[:-1] == [None] * (len(finishes) - 1)
    assert chunks[-1].choices == []
    assert chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens > 0


def test_stream_ends_with_done_marker(live) -> None:
    with live.openai().chat.completions.with_streaming_response.create(
        model="any",
        stream=True,
        messages=[{"role": "user", "content": ECHO + "done"}],
    ) as response:
        assert response.headers["x-zero-layer-status"] == "active"
        lines = [line for line in response.iter_lines() if line]
    assert lines[-1] == "data: [DONE]"


def test_fallback_and_system_messages(live) -> None:
    raw = live.openai().chat.completions.with_raw_response.create(
        model="any",
        messages=[
            {"role": "system", "content": "be nice"},
            {"role": "user", "content": [{"type": "text", "text": "what is love?"}]},
        ],
    )
    assert raw.headers["x-zero-layer-status"] == "inactive"
    assert raw.headers["x-zero-layer-reason"] == "parse.no_match"
    assert raw.parse().choices[0].message.content == "[fallback] what is love?"


def test_fallback_stream(live) -> None:
    stream = live.openai().chat.completions.create(
        model="any", stream=True, messages=[{"role": "user", "content": "a story"}]
    )
    text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    assert text == "[fallback] a story"


def test_disable_header_forces_fallback(live) -> None:
    client = live.openai(default_headers={"x-zero-layer": "disable"})
    raw = create(client, ECHO + "x")
    assert raw.headers["x-zero-layer-status"] == "inactive"
    assert raw.headers["x-zero-layer-reason"] == "gate.disabled"


def test_bad_payload_400_in_openai_shape(live) -> None:
    with pytest.raises(openai.BadRequestError) as info:
        create(live.openai(), "BAD: [1, 2,\n 3,, 4]")
    err = info.value
    assert err.status_code == 400
    assert err.response.headers["x-zero-layer-status"] == "active"
    body = err.response.json()
    assert body["error"]["type"] == "invalid_request_error"
    assert "line 2, column 4" in body["error"]["message"]


def test_no_fallback_is_503_in_openai_shape(bare) -> None:
    with pytest.raises(openai.InternalServerError) as info:
        create(bare.openai(), "tell me a joke")
    err = info.value
    assert err.status_code == 503
    assert err.response.headers["x-zero-layer-status"] == "inactive"
    body = err.response.json()
    assert set(body["error"]) == {"message", "type", "param", "code"}
    assert body["error"]["code"] == "fallback_not_configured"


def test_stop_cuts_and_max_tokens_never_cuts(live) -> None:
    raw = create(live.openai(), ECHO + "one two three four", max_tokens=2)
    assert raw.headers["x-zero-layer-status"] == "inactive"
    assert raw.headers["x-zero-layer-reason"] == "answer.exceeds_max_tokens"
    assert raw.parse().choices[0].message.content.startswith("[fallback] ")
    stopped = create(live.openai(), ECHO + "one two three", stop=" TH").parse()
    assert stopped.choices[0].message.content == "ONE TWO"
    assert stopped.choices[0].finish_reason == "stop"


def test_n_choices_are_identical(live) -> None:
    completion = create(live.openai(), ECHO + "twice", n=2).parse()
    assert [c.message.content for c in completion.choices] == ["TWICE", "TWICE"]
    assert [c.index for c in completion.choices] == [0, 1]
    # usage counts both choices it sent, each its own count (docs/http.md)
    one = create(live.openai(), ECHO + "twice").parse().usage.completion_tokens
    assert one > 0 and completion.usage.completion_tokens == 2 * one


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"response_format": {"type": "json_object"}}, "request.response_format"),
        ({"logprobs": True}, "request.logprobs"),
    ],
)
def test_requests_a_text_answer_cannot_serve_fall_back(live, kwargs, reason) -> None:
    raw = create(live.openai(), ECHO + "x", **kwargs)
    assert raw.headers["x-zero-layer-reason"] == reason


def test_models_list_accepts_any_model(live) -> None:
    client = live.openai()
    assert [m.id for m in client.models.list()] == ["zerolayer"]
    assert client.models.retrieve("whatever-model").id == "whatever-model"


def test_sdk_does_not_retry_when_no_fallback_is_configured(bare) -> None:
    before = bare.engine.runs
    client = bare.openai(max_retries=2)
    with pytest.raises(openai.InternalServerError):
        create(client, "an open question")
    assert bare.engine.runs == before + 1  # x-should-retry: false was obeyed


@pytest.mark.parametrize("size", [5_000, 2_000_000])  # just over the limit; far over it
def test_oversized_request_is_413_in_openai_shape(bare, size) -> None:
    with pytest.raises(openai.APIStatusError) as info:
        create(bare.openai(max_retries=2), ECHO + "x" * size)
    err = info.value
    assert err.status_code == 413
    assert err.response.headers["x-zero-layer-reason"] == "request.too_large"
    assert err.response.json() == {
        "error": {
            "message": "request body is larger than the limit of 4096 bytes",
            "type": "invalid_request_error",
            "param": None,
            "code": "request_too_large",
        }
    }
