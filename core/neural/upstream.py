"""An OpenAI-compatible upstream (vLLM, TGI, Ollama, llama.cpp server, another zerolayer).

``ZEROLAYER_FALLBACK=upstream:http://host:port/v1`` posts to ``{base}/chat/completions``;
``ZEROLAYER_UPSTREAM_MODEL`` names the model (default ``default``) and
``ZEROLAYER_UPSTREAM_API_KEY`` is sent as a bearer token when set. Timeouts, retries and the
breaker come from ``ZEROLAYER_UPSTREAM_*`` (see ``transport.TransportSettings``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from zerolayer.core.fallback import Completion, StopReason
from zerolayer.core.messages import EngineRequest
from zerolayer.core.neural.prompt import chat_messages
from zerolayer.core.neural.transport import (
    HttpBackend,
    TransportSettings,
    UpstreamError,
    checked_base_url,
    settings_from_env,
)

FINISH: dict[str | None, StopReason] = {"length": "max_tokens", "stop": "end_turn"}


def chat_body(
    request: EngineRequest, model: str, max_tokens: int, stop: Sequence[str], stream: bool
) -> dict[str, Any]:
    """The Chat Completions body of a request."""
    body: dict[str, Any] = {
        "model": model,
        "messages": chat_messages(request),
        "max_tokens": max_tokens,
        "stream": stream,
    }
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if request.top_p is not None:
        body["top_p"] = request.top_p
    if stop:
        body["stop"] = list(stop)
    if stream:
        body["stream_options"] = {"include_usage": True}
    return body


def stop_info(text: str, finish: str | None, stop: Sequence[str]) -> tuple[StopReason, str | None]:
    """Anthropic-style stop reason of an OpenAI finish (``stop`` does not say which
    sequence matched, so it reads as ``end_turn``)."""
    return FINISH.get(finish, "end_turn"), None


class UpstreamBackend(HttpBackend):
    """A ``FallbackBackend`` that forwards to an OpenAI-compatible server."""

    name = "upstream"

    def __init__(
        self,
        base_url: str,
        *,
        model: str = "default",
        api_key: str | None = None,
        settings: TransportSettings | None = None,
    ) -> None:
        super().__init__(base_url, model=model, api_key=api_key, settings=settings)

    @classmethod
    def from_spec(cls, argument: str, env: Mapping[str, str] | None = None) -> UpstreamBackend:
        """The backend of ``ZEROLAYER_FALLBACK=upstream:URL``."""
        env = os.environ if env is None else env
        url = checked_base_url(
            argument, "upstream", hint="ZEROLAYER_FALLBACK=upstream:http://127.0.0.1:8001/v1"
        )
        return cls(
            url,
            model=env.get("ZEROLAYER_UPSTREAM_MODEL") or "default",
            api_key=env.get("ZEROLAYER_UPSTREAM_API_KEY") or None,
            settings=settings_from_env(env, "ZEROLAYER_UPSTREAM", "upstream"),
        )

    def _headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """The whole answer of the upstream."""
        body = chat_body(request, self.model, max_tokens, stop, stream=False)
        answer = self.transport.post_json("/chat/completions", body, self._headers())
        try:
            choice = answer["choices"][0]
            text = choice["message"].get("content") or ""
            usage = answer.get("usage") or {}
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise UpstreamError("the upstream answer has no choices[0].message") from exc
        reason, seq = stop_info(text, choice.get("finish_reason"), stop)
        return Completion(
            text,
            stop_reason=reason,
            stop_sequence=seq,
            input_tokens=int(usage.get("prompt_tokens") or 0),
            output_tokens=int(usage.get("completion_tokens") or 0),
        )

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        """Text deltas of the upstream's event stream, then the ``Completion``."""
        body = chat_body(request, self.model, max_tokens, stop, stream=True)
        parts: list[str] = []
        finish: str | None = None
        usage: dict[str, Any] = {}
        for _, data in self.transport.post_events("/chat/completions", body, self._headers()):
            if not isinstance(data, dict):
                continue
            usage = data.get("usage") or usage
            for choice in data.get("choices") or []:
                delta = (choice.get("delta") or {}).get("content")
                if delta:
                    parts.append(delta)
                    yield delta
                finish = choice.get("finish_reason") or finish
        text = "".join(parts)
        reason, seq = stop_info(text, finish, stop)
        yield Completion(
            text,
            stop_reason=reason,
            stop_sequence=seq,
            input_tokens=int(usage.get("prompt_tokens") or 0),
            output_tokens=int(usage.get("completion_tokens") or 0),
        )
