"""Anthropic pass-through: forward fallback requests to the Messages API with the caller's key.

The key is the one the caller sent to zerolayer (``x-api-key``), made known to this backend
through ``caller_api_key`` (a context variable the HTTP layer sets per request); without one,
``ZEROLAYER_ANTHROPIC_API_KEY`` is used. ``ZEROLAYER_FALLBACK=anthropic`` posts to
https://api.anthropic.com; ``anthropic:URL`` to another base URL. ``ZEROLAYER_ANTHROPIC_MODEL``
names the model.

``temperature``, ``top_p`` and ``top_k`` are forwarded; the OpenAI-only sampling parameters
(``n`` > 1, ``seed``, penalties, ``logit_bias``) have no Messages API field and are refused
with a 400 naming them. A stream must end with ``message_stop``; an ``error`` event, a cut,
or an answer that is not an event stream raise ``UpstreamError``.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from zerolayer.core.fallback import Completion, FallbackUnavailable, StopReason, check_sampling
from zerolayer.core.messages import EngineRequest
from zerolayer.core.neural.transport import (
    HttpBackend,
    TransportSettings,
    UpstreamError,
    checked_base_url,
    settings_from_env,
)

DEFAULT_URL = "https://api.anthropic.com"
DEFAULT_MODEL = "claude-3-5-haiku-latest"
API_VERSION = "2023-06-01"
STOP_REASONS: frozenset[str] = frozenset({"end_turn", "max_tokens", "stop_sequence"})

caller_api_key: ContextVar[str | None] = ContextVar("zerolayer_caller_api_key", default=None)


def messages_body(
    request: EngineRequest, model: str, max_tokens: int, stop: Sequence[str], stream: bool
) -> dict[str, Any]:
    """The Messages API body of a request."""
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": max_tokens,
        "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        "stream": stream,
    }
    if request.system:
        body["system"] = request.system
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if request.top_p is not None:
        body["top_p"] = request.top_p
    top_k = request.option("top_k")
    if top_k is not None:
        body["top_k"] = top_k
    if stop:
        body["stop_sequences"] = list(stop)
    return body


def _reason(value: Any) -> StopReason:
    return value if value in STOP_REASONS else "end_turn"


def message_completion(answer: Any) -> Completion:
    """The ``Completion`` of a whole Messages answer."""
    try:
        text = "".join(b.get("text", "") for b in answer["content"] if b.get("type") == "text")
        usage = answer.get("usage") or {}
    except (KeyError, TypeError, AttributeError) as exc:
        raise UpstreamError("the Anthropic answer has no content") from exc
    return Completion(
        text,
        stop_reason=_reason(answer.get("stop_reason")),
        stop_sequence=answer.get("stop_sequence"),
        input_tokens=int(usage.get("input_tokens") or 0),
        output_tokens=int(usage.get("output_tokens") or 0),
    )


class EventReader:
    """The text deltas of a Messages event stream, and its ``Completion`` at the end."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.reason: Any = None
        self.sequence: str | None = None
        self.tokens_in = self.tokens_out = 0
        self.stopped = False

    def feed(self, event: str | None, data: Any) -> str | None:
        """The text delta of one event, if it has one."""
        kind = (data.get("type") if isinstance(data, dict) else None) or event
        if not isinstance(data, dict):
            return None
        if kind == "message_start":
            usage = (data.get("message") or {}).get("usage") or {}
            self.tokens_in = int(usage.get("input_tokens") or 0)
        elif kind == "content_block_delta":
            text = (data.get("delta") or {}).get("text")
            if text:
                self.parts.append(text)
                return str(text)
        elif kind == "message_delta":
            delta = data.get("delta") or {}
            self.reason = delta.get("stop_reason") or self.reason
            self.sequence = delta.get("stop_sequence") or self.sequence
            usage = data.get("usage") or {}
            self.tokens_out = int(usage.get("output_tokens") or self.tokens_out)
            self.tokens_in = int(usage.get("input_tokens") or self.tokens_in)
        elif kind == "message_stop":
            self.stopped = True
        elif kind == "error":
            error = data.get("error") or {}
            message = error.get("message") if isinstance(error, dict) else error
            kind_of = error.get("type") if isinstance(error, dict) else None
            raise UpstreamError(
                f"the Anthropic stream failed: {message}", kind=str(kind_of or "api_error")
            )
        return None

    def completion(self) -> Completion:
        """The ``Completion``; UpstreamError when the stream ended before ``message_stop``."""
        if not self.stopped:
            raise UpstreamError("the Anthropic stream ended before message_stop")
        return Completion(
            "".join(self.parts),
            stop_reason=_reason(self.reason),
            stop_sequence=self.sequence,
            input_tokens=self.tokens_in,
            output_tokens=self.tokens_out,
        )


class AnthropicBackend(HttpBackend):
    """A ``FallbackBackend`` that forwards to the Anthropic Messages API."""

    name = "anthropic"

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        model: str = DEFAULT_MODEL,
        api_key: str | None = None,
        settings: TransportSettings | None = None,
    ) -> None:
        super().__init__(base_url, model=model, api_key=api_key, settings=settings)

    @classmethod
    def from_spec(cls, argument: str, env: Mapping[str, str] | None = None) -> AnthropicBackend:
        """The backend of ``ZEROLAYER_FALLBACK=anthropic[:URL]``."""
        env = os.environ if env is None else env
        return cls(
            checked_base_url(argument or DEFAULT_URL, "anthropic"),
            model=env.get("ZEROLAYER_ANTHROPIC_MODEL") or DEFAULT_MODEL,
            api_key=env.get("ZEROLAYER_ANTHROPIC_API_KEY") or None,
            settings=settings_from_env(env, "ZEROLAYER_ANTHROPIC", "anthropic"),
        )

    def check_options(self, request: EngineRequest) -> None:
        """Only ``top_k`` of the sampling parameters has a Messages API field."""
        check_sampling(request, "anthropic", honoured=("top_k",), greedy=False)

    def _headers(self) -> dict[str, str]:
        key = caller_api_key.get() or self.api_key
        if not key:
            raise FallbackUnavailable(
                "the Anthropic pass-through needs the caller's x-api-key (or "
                "ZEROLAYER_ANTHROPIC_API_KEY)"
            )
        return {"x-api-key": key, "anthropic-version": API_VERSION}

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """The whole answer of the Messages API."""
        body = messages_body(request, self.model, max_tokens, stop, stream=False)
        return message_completion(self.transport.post_json("/v1/messages", body, self._headers()))

    async def agenerate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """``generate`` on the event loop."""
        body = messages_body(request, self.model, max_tokens, stop, stream=False)
        answer = await self.transport.apost_json("/v1/messages", body, self._headers())
        return message_completion(answer)

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        """Text deltas of the Messages event stream, then the ``Completion``."""
        body = messages_body(request, self.model, max_tokens, stop, stream=True)
        reader = EventReader()
        for event, data in self.transport.post_events("/v1/messages", body, self._headers()):
            text = reader.feed(event, data)
            if text:
                yield text
        yield reader.completion()

    async def astream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> AsyncIterator[str | Completion]:
        """``stream`` on the event loop."""
        body = messages_body(request, self.model, max_tokens, stop, stream=True)
        reader = EventReader()
        events = self.transport.apost_events("/v1/messages", body, self._headers())
        async for event, data in events:
            text = reader.feed(event, data)
            if text:
                yield text
        yield reader.completion()
