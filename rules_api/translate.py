"""Request bodies of both APIs → ``Prepared``: the ``EngineRequest`` plus what shapes the answer.

Text content blocks (or parts) are joined with a blank line. Requests that a deterministic
text answer cannot serve faithfully are marked for the fallback with a reason, without asking
the engine: non-text content (images, documents, tool results), a last turn that is the
assistant's (prefill), a forced tool call, logprobs, a structured ``response_format``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zerolayer.core.messages import EngineRequest, Message, Role
from zerolayer.rules_api.api_errors import ApiError
from zerolayer.rules_api.schemas import (
    AnthropicMessage,
    ChatCompletionRequest,
    ContentBlock,
    ContentPart,
    MessagesRequest,
    SystemBlock,
)

BLOCK_SEPARATOR = "\n\n"
# Sampling parameters passed to the fallback as they were sent (EngineRequest.sampling):
# the typed ones of each API, and the extensions OpenAI-compatible servers (vLLM) read.
OPENAI_SAMPLING = ("n", "seed", "presence_penalty", "frequency_penalty", "logit_bias")
OPENAI_EXTENSIONS = ("top_k", "min_p", "repetition_penalty")
ANTHROPIC_SAMPLING = ("top_k",)


@dataclass(frozen=True, slots=True)
class Prepared:
    """An engine request and the parameters the answer must honour."""

    request: EngineRequest
    model: str
    max_tokens: int | None = None
    stop: tuple[str, ...] = ()
    stream: bool = False
    forced_reason: str | None = None  # set: go to the fallback without asking the engine


def sent(
    body: MessagesRequest | ChatCompletionRequest,
    names: Sequence[str],
    extensions: Sequence[str] = (),
) -> tuple[tuple[str, object], ...]:
    """(name, value) of each sampling parameter in ``names`` the body sets (not null), then
    of each extension field it carries."""
    out = [(n, getattr(body, n)) for n in names if getattr(body, n, None) is not None]
    extra = body.model_extra or {}
    out += [(n, extra[n]) for n in extensions if extra.get(n) is not None]
    return tuple(out)


def join_blocks(
    blocks: Sequence[ContentBlock | ContentPart | SystemBlock], where: str
) -> tuple[str, bool]:
    """Join the text of ``text`` blocks; also say whether any block was not text.

    ApiError 400 when a text block has no ``text``.
    """
    texts: list[str] = []
    other = False
    for i, block in enumerate(blocks):
        if block.type != "text":
            other = True
            continue
        if block.text is None:
            raise ApiError(400, f"{where}.{i}.text: Field required")
        texts.append(block.text)
    return BLOCK_SEPARATOR.join(texts), other


def _anthropic_turn(msg: AnthropicMessage, i: int) -> tuple[Message, bool]:
    if isinstance(msg.content, str):
        return Message(msg.role, msg.content), False
    text, other = join_blocks(msg.content, f"messages.{i}.content")
    return Message(msg.role, text), other


def from_anthropic(
    body: MessagesRequest, *, disabled: bool = False, syntax: str | None = None
) -> Prepared:
    """An Anthropic Messages request as a ``Prepared`` request."""
    forced: str | None = None
    system: str | None
    if isinstance(body.system, list):
        system, _ = join_blocks(body.system, "system")
    else:
        system = body.system
    turns: list[Message] = []
    for i, msg in enumerate(body.messages):
        turn, other = _anthropic_turn(msg, i)
        turns.append(turn)
        if other:
            forced = forced or "request.non_text_content"
    if turns[-1].role != "user":
        forced = forced or "request.assistant_prefill"
    if body.tool_choice is not None and body.tool_choice.type in ("any", "tool"):
        forced = forced or "request.tool_choice"
    request = EngineRequest(
        messages=tuple(turns),
        system=system or None,
        temperature=body.temperature,
        top_p=body.top_p,
        disabled=disabled,
        syntax=syntax,
        sampling=sent(body, ANTHROPIC_SAMPLING),
    )
    return Prepared(
        request=request,
        model=body.model,
        max_tokens=body.max_tokens,
        stop=tuple(s for s in body.stop_sequences or () if s),
        stream=body.stream,
        forced_reason=forced,
    )


def from_openai(
    body: ChatCompletionRequest, *, disabled: bool = False, syntax: str | None = None
) -> Prepared:
    """An OpenAI Chat Completions request as a ``Prepared`` request."""
    forced: str | None = None
    system_parts: list[str] = []
    turns: list[Message] = []
    for i, msg in enumerate(body.messages):
        if isinstance(msg.content, list):
            text, other = join_blocks(msg.content, f"messages.{i}.content")
            if other:
                forced = forced or "request.non_text_content"
        else:
            text = msg.content or ""
        if msg.role in ("system", "developer"):
            system_parts.append(text)
        elif msg.role in ("tool", "function"):
            forced = forced or "request.tool_message"
        else:
            if msg.role == "assistant" and (msg.model_extra or {}).get("tool_calls"):
                forced = forced or "request.tool_message"
            role: Role = "assistant" if msg.role == "assistant" else "user"
            turns.append(Message(role, text))
    if not turns:
        forced = forced or "request.no_user_message"
        turns.append(Message("user", ""))
    elif turns[-1].role != "user":
        forced = forced or "request.assistant_prefill"
    if body.logprobs:
        forced = forced or "request.logprobs"
    fmt = (body.response_format or {}).get("type", "text")
    if fmt != "text":
        forced = forced or "request.response_format"
    choice = body.tool_choice
    if isinstance(choice, dict) or choice == "required":
        forced = forced or "request.tool_choice"
    stop = (body.stop,) if isinstance(body.stop, str) else tuple(body.stop or ())
    request = EngineRequest(
        messages=tuple(turns),
        system=BLOCK_SEPARATOR.join(system_parts) or None,
        temperature=body.temperature,
        top_p=body.top_p,
        disabled=disabled,
        syntax=syntax,
        sampling=sent(body, OPENAI_SAMPLING, OPENAI_EXTENSIONS),
    )
    return Prepared(
        request=request,
        model=body.model,
        max_tokens=body.max_completion_tokens or body.max_tokens,
        stop=tuple(s for s in stop if s),
        stream=bool(body.stream),
        forced_reason=forced,
    )
