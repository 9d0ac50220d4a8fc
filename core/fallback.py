"""The neural fallback contract: what the engine hands requests to when it does not answer.

A backend generates the assistant's text for an ``EngineRequest``. Backends are chosen by
configuration; the HTTP service calls ``generate`` or ``stream`` when the engine's result is
``Route.FALLBACK``, and answers 503 when no backend is configured. A backend may also offer
``agenerate``/``astream`` (the same contract, awaited on the event loop: the HTTP backends do)
and ``check_options`` (raise ``UnsupportedParameter`` for a sampling parameter of
``EngineRequest.sampling`` it cannot honour).

Exceptions a backend raises, and what the HTTP service answers::

    FallbackUnavailable     503 (Retry-After when the backend knows when to try again)
    UpstreamAnswerError     the model server's own HTTP error, passed on: its status, its
                            message, its error type, its Retry-After
    UnsupportedParameter    400 invalid_request_error naming the parameter
    anything else           502 api_error
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from zerolayer.core.messages import EngineRequest

StopReason = Literal["end_turn", "max_tokens", "stop_sequence"]


@dataclass(frozen=True, slots=True)
class Choice:
    """A further choice (index 1, 2, …) a backend generated for a request with ``n`` > 1."""

    text: str
    stop_reason: StopReason = "end_turn"


@dataclass(frozen=True, slots=True)
class ChoiceDelta:
    """A stream item for choice ``index`` >= 1 (plain ``str`` items are choice 0's)."""

    index: int
    text: str


@dataclass(frozen=True, slots=True)
class Completion:
    """A finished generation. Token counts are the backend's (the upstream's usage); 0 means
    the backend gave none. ``choices`` holds the further choices of an ``n`` > 1 request,
    when the backend generated them (their tokens are in ``output_tokens``)."""

    text: str
    stop_reason: StopReason = "end_turn"
    stop_sequence: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    choices: tuple[Choice, ...] = ()


def final_completion(items: Iterable[str | Completion]) -> Completion:
    """Run a backend's stream (text pieces, then one ``Completion``) to its end; its
    ``Completion``. A stream that ends without one is a defect of the backend."""
    final: Completion | None = None
    for item in items:
        if isinstance(item, Completion):
            final = item
    if final is None:
        raise RuntimeError("the stream ended without its completion")
    return final


@runtime_checkable
class FallbackBackend(Protocol):
    """A model that answers what the engine does not."""

    name: str

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """Generate the whole answer."""
        ...

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        """Yield text deltas, then one final ``Completion`` with the totals."""
        ...


class FallbackUnavailable(Exception):
    """No backend is configured, or the configured one cannot answer now; ``retry_after_s``
    says when to try again, where the backend knows (an open circuit breaker does)."""

    def __init__(self, message: str, *, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s

    @property
    def retry_after(self) -> str | None:
        """The ``Retry-After`` value (whole seconds, rounded up), or None."""
        if self.retry_after_s is None:
            return None
        return str(max(1, math.ceil(self.retry_after_s)))


class UpstreamAnswerError(Exception):
    """The model server answered with an HTTP error; the client gets it as it is.

    ``status`` and ``message`` are the upstream's; ``kind`` its Anthropic error type and
    ``openai_type``/``code``/``param`` its OpenAI error fields, where the upstream named them
    (None: derived from the status). ``headers`` are the upstream's answer headers a client
    acts on (``retry-after``, ``retry-after-ms``, ``x-should-retry``, rate limits).
    """

    def __init__(
        self,
        status: int,
        message: str,
        *,
        kind: str | None = None,
        openai_type: str | None = None,
        code: str | None = None,
        param: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"the upstream answered {status}: {message}")
        self.status = status
        self.message = message
        self.kind = kind
        self.openai_type = openai_type
        self.code = code
        self.param = param
        self.headers = dict(headers or {})


class UnsupportedParameter(ValueError):
    """A request asks for a sampling parameter the configured backend cannot honour."""

    def __init__(self, param: str, message: str) -> None:
        super().__init__(message)
        self.param = param


NEUTRAL: dict[str, Any] = {
    "n": 1,
    "presence_penalty": 0,
    "frequency_penalty": 0,
    "repetition_penalty": 1,
    "logit_bias": {},
    "min_p": 0,
}
GREEDY_ONLY = frozenset({"n", "top_k", "seed", "min_p"})  # they only shape sampling


def check_sampling(
    request: EngineRequest, backend: str, *, honoured: Iterable[str], greedy: bool
) -> None:
    """Raise ``UnsupportedParameter`` for the first parameter of ``request.sampling`` that
    ``backend`` cannot honour: one not in ``honoured``, unless it has its neutral value, or
    the answer is greedy and the parameter only shapes sampling (``n`` copies of a greedy
    answer are the answers ``n`` greedy runs give)."""
    allowed = frozenset(honoured)
    for name, value in request.sampling:
        if name in allowed or NEUTRAL.get(name, object()) == value:
            continue
        if greedy and name in GREEDY_ONLY:
            continue
        hint = " or temperature 0" if name in GREEDY_ONLY else ""
        raise UnsupportedParameter(
            name,
            f"{name}={value!r} cannot be honoured by the {backend} fallback backend; "
            f"leave it out{hint}",
        )


def check_options(backend: object, request: EngineRequest) -> None:
    """The backend's own ``check_options``; for a backend without one, only ``n`` > 1 at
    temperature 0 (identical choices) is accepted of the sampling parameters."""
    own = getattr(backend, "check_options", None)
    if callable(own):
        own(request)
        return
    check_sampling(
        request,
        getattr(backend, "name", "configured"),
        honoured=(),
        greedy=request.temperature == 0,
    )


BackendFactory = Callable[[str, Mapping[str, str]], FallbackBackend]


@dataclass(frozen=True)
class BackendSpec:
    """A fallback backend a plugin offers through ``register_backends``.

    ``name`` is what ``ZEROLAYER_FALLBACK`` names (``local``, ``upstream:URL``); ``factory``
    receives the text after ``name:`` (empty when there is none) and the environment, and
    returns the backend or raises ``StartupError``. Factories import heavy libraries (torch)
    only when called, so registering a backend costs nothing.
    """

    name: str
    factory: BackendFactory
    description: str = ""
    plugin: str = ""
