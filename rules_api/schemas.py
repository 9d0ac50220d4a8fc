"""Request bodies of both APIs as pydantic models (they also make the OpenAPI document).

Only what zerolayer reads is typed; every other field of the upstream APIs is accepted and
ignored (``extra="allow"``), so that unchanged clients keep working. Every number a client
may send has a range (the constants below, listed in docs/http.md); a value outside it is a
400 naming the field, in the API's error shape. The models are strict: a value of another
JSON type is refused, not coerced ("stream": 0 is not false), as the upstream APIs refuse it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_TOKENS = 1_000_000  # max_tokens, max_completion_tokens
MAX_TOP_K = 1_000_000  # top_k (a vocabulary is smaller)
MAX_STOP_SEQUENCES = 64  # stop_sequences / stop: items
MAX_STOP_CHARS = 4096  # one stop sequence
MAX_CHOICES = 16  # OpenAI n
MAX_TOP_LOGPROBS = 20
INT64 = 2**63  # seed: a signed 64-bit integer

StopSequence = Annotated[str, Field(max_length=MAX_STOP_CHARS)]
StopList = Annotated[list[StopSequence], Field(max_length=MAX_STOP_SEQUENCES)]
Penalty = Annotated[float, Field(ge=-2, le=2)]
Bias = Annotated[float, Field(ge=-100, le=100)]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class ContentBlock(_Open):
    """An Anthropic content block; only ``text`` blocks carry text zerolayer reads."""

    type: str
    text: str | None = None


class AnthropicMessage(_Open):
    """One turn of an Anthropic conversation."""

    role: Literal["user", "assistant"]
    content: str | list[ContentBlock]


class SystemBlock(_Open):
    """A block of an Anthropic system prompt given as a list."""

    type: Literal["text"]
    text: str


class ToolChoice(_Open):
    """Anthropic ``tool_choice``: auto, any, tool or none."""

    type: str


class MessagesRequest(_Open):
    """POST /v1/messages (Anthropic Messages API)."""

    model: str
    max_tokens: int = Field(ge=1, le=MAX_TOKENS)
    messages: list[AnthropicMessage] = Field(min_length=1)
    system: str | list[SystemBlock] | None = None
    temperature: float | None = Field(default=None, ge=0, le=1)
    top_p: float | None = Field(default=None, ge=0, le=1)
    top_k: int | None = Field(default=None, ge=0, le=MAX_TOP_K)
    stop_sequences: StopList | None = None
    stream: bool = False
    tool_choice: ToolChoice | None = None
    n: int | None = Field(
        default=None, ge=1, le=1, description="not a Messages API field: one message is answered"
    )


class CountTokensRequest(_Open):
    """POST /v1/messages/count_tokens (Anthropic)."""

    model: str
    messages: list[AnthropicMessage] = Field(min_length=1)
    system: str | list[SystemBlock] | None = None


class ContentPart(_Open):
    """An OpenAI message content part; only ``text`` parts carry text zerolayer reads."""

    type: str
    text: str | None = None


class ChatMessage(_Open):
    """One OpenAI chat message."""

    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[ContentPart] | None = None


class StreamOptions(_Open):
    """OpenAI ``stream_options``."""

    include_usage: bool = False


class ChatCompletionRequest(_Open):
    """POST /v1/chat/completions (OpenAI Chat Completions API)."""

    model: str
    messages: list[ChatMessage] = Field(min_length=1)
    max_tokens: int | None = Field(default=None, ge=1, le=MAX_TOKENS)
    max_completion_tokens: int | None = Field(default=None, ge=1, le=MAX_TOKENS)
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    n: int | None = Field(default=None, ge=1, le=MAX_CHOICES)
    stop: StopSequence | StopList | None = None
    presence_penalty: Penalty | None = None
    frequency_penalty: Penalty | None = None
    seed: int | None = Field(default=None, ge=-INT64, lt=INT64)
    top_logprobs: int | None = Field(default=None, ge=0, le=MAX_TOP_LOGPROBS)
    logit_bias: dict[str, Bias] | None = None
    stream: bool | None = None
    stream_options: StreamOptions | None = None
    logprobs: bool | None = None
    response_format: dict[str, Any] | None = None
    tool_choice: str | dict[str, Any] | None = None


class WarmupRequest(BaseModel):
    """POST /v1/cache/warmup: Anthropic-style request bodies to answer and cache."""

    model_config = ConfigDict(strict=True)

    requests: list[dict[str, Any]]
