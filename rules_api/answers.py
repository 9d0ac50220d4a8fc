"""The answer of one request as a sequence of text deltas and a finish, for both APIs.

Both API modules shape the same sequence: ``answer_deltas`` yields text pieces of a
deterministic answer (cut into chunks by the token counter) or of the fallback's stream, then
one ``Finish``; it records the request's metrics when the sequence ends (or is abandoned).
``fallback_completion`` and ``open_fallback_stream`` call the neural fallback for either API
and record a failure before its ``ApiError`` reaches the client.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import httpx
from starlette.concurrency import iterate_in_threadpool

from zerolayer.core.fallback import ChoiceDelta, Completion
from zerolayer.core.messages import Route
from zerolayer.core.neural.transport import UpstreamError
from zerolayer.rules_api.api_errors import ApiError
from zerolayer.rules_api.metrics import AnswerRecorder
from zerolayer.rules_api.service import (
    AnswerService,
    Decision,
    Shaped,
    StreamItem,
    StreamStart,
    apply_limits,
    input_tokens,
)
from zerolayer.rules_api.translate import Prepared
from zerolayer.rules_api.usage import chunk_text, count_tokens

log = logging.getLogger("zerolayer.rules_api")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Finish:
    """The end of an answer: why it stopped and its usage, or the error that broke it.

    ``choices`` are the further choices (text, stop reason) the backend generated for
    ``n`` > 1. ``per_choice``: ``output_tokens`` counts one choice of ``n`` identical ones
    (a deterministic answer); false when it is the backend's own count of all it generated.
    ``error_kind`` is the Anthropic error type of ``error``."""

    stop_reason: str  # end_turn | stop_sequence | max_tokens (Anthropic names)
    stop_sequence: str | None
    input_tokens: int
    output_tokens: int
    error: str | None = None
    choices: tuple[tuple[str, str], ...] = ()
    per_choice: bool = True
    error_kind: str = "api_error"


OPENAI_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}


def record(
    service: AnswerService,
    api: str,
    decision: Decision,
    started: float,
    *,
    failed: bool,
    saved_tokens: int = 0,
    model_tokens: int = 0,
) -> AnswerRecorder:
    """Record the metrics of one request that reached the engine (or was routed around it);
    the recorder returned records more answers of the same kind.

    The output of a mixed answer counts as saved for its engine parts and as the model's for
    the rest."""
    if decision.mixed and model_tokens:
        zero = sum(count_tokens(p.text) for p in decision.parts if p.kind == "zero")
        saved_tokens, model_tokens = min(zero, model_tokens), max(model_tokens - zero, 0)
    recorder = service.metrics.recorder(
        api,
        decision.status,
        decision.reason if decision.route is not Route.DETERMINISTIC else None,
        decision.plan,
    )
    recorder.record(
        time.perf_counter() - started,
        failed=failed,
        saved_tokens=saved_tokens,
        model_tokens=model_tokens,
        protocol=decision.protocol is not None,
    )
    return recorder


def shape_deterministic(prepared: Prepared, decision: Decision) -> tuple[Shaped, Finish]:
    """The deterministic answer cut to the request's limits, and its finish."""
    shaped = apply_limits(decision.output or "", prepared.max_tokens, prepared.stop)
    finish = Finish(
        shaped.stop_reason,
        shaped.stop_sequence,
        input_tokens(prepared.request),
        count_tokens(shaped.text),
    )
    return shaped, finish


def completion_finish(prepared: Prepared, completion: Completion) -> Finish:
    """The finish of a fallback completion: the backend's (upstream's) token counts, else
    the local counter's count of what it answered."""
    return Finish(
        completion.stop_reason,
        completion.stop_sequence,
        completion.input_tokens or input_tokens(prepared.request),
        completion.output_tokens or own_tokens(completion),
        choices=tuple((c.text, c.stop_reason) for c in completion.choices),
        per_choice=False,
    )


def own_tokens(completion: Completion) -> int:
    """The local counter's count of a completion's text, its further choices included."""
    return count_tokens(completion.text) + sum(count_tokens(c.text) for c in completion.choices)


async def fallback_completion(
    service: AnswerService, api: str, prepared: Prepared, decision: Decision, started: float
) -> tuple[str, Finish]:
    """The fallback's whole answer to a request that does not stream: its text and finish,
    with the request's metrics recorded (a failure too, before its ``ApiError`` goes on)."""
    completion = await call_fallback(service.acomplete, service, api, prepared, decision, started)
    finish = completion_finish(prepared, completion)
    record(service, api, decision, started, failed=False, model_tokens=finish.output_tokens)
    return completion.text, finish


async def open_fallback_stream(
    service: AnswerService, api: str, prepared: Prepared, decision: Decision, started: float
) -> StreamStart:
    """The fallback's stream for a streaming request (``answer_deltas`` reads it); a failure to
    open it is recorded before its ``ApiError`` goes on."""
    return await call_fallback(service.aopen_stream, service, api, prepared, decision, started)


async def call_fallback(
    call: Callable[[Prepared, Decision], Awaitable[T]],
    service: AnswerService,
    api: str,
    prepared: Prepared,
    decision: Decision,
    started: float,
) -> T:
    try:
        return await call(prepared, decision)
    except ApiError:
        record(service, api, decision, started, failed=True)
        raise


async def answer_deltas(
    service: AnswerService,
    api: str,
    prepared: Prepared,
    decision: Decision,
    start: StreamStart | None,
    started: float,
) -> AsyncIterator[str | ChoiceDelta | Finish]:
    """Text deltas (``ChoiceDelta`` for further choices) then one ``Finish``; metrics are
    recorded when the sequence ends."""
    failed, saved, spent = True, 0, 0
    try:
        if decision.route is Route.DETERMINISTIC:
            shaped, finish = shape_deterministic(prepared, decision)
            for chunk in chunk_text(shaped.text, service.settings.stream_chunk_tokens):
                yield chunk
            failed, saved = False, finish.output_tokens
            yield finish
            return
        assert start is not None
        texts: list[str] = []
        final: Completion | None = None
        try:
            async for item in _items(start):
                if isinstance(item, Completion):
                    final = item
                    break
                if isinstance(item, ChoiceDelta):
                    yield item
                elif item:
                    texts.append(item)
                    yield item
        except Exception as exc:  # the backend broke mid-stream: end with an error event
            log.error("fallback stream failed: %r", exc)
            text = "".join(texts)
            detail = broken(exc)
            yield Finish("end_turn", None, input_tokens(prepared.request), count_tokens(text),
                         error=f"the neural fallback failed while streaming: {detail}",
                         error_kind=getattr(exc, "kind", "api_error"))  # fmt: skip
            return
        text = "".join(texts)
        if final is None:
            finish = Finish("end_turn", None, input_tokens(prepared.request), count_tokens(text),
                            per_choice=False)  # fmt: skip
        else:
            finish = completion_finish(prepared, dataclasses.replace(final, text=text))
        failed, spent = False, finish.output_tokens
        yield finish
    finally:
        record(service, api, decision, started, failed=failed, saved_tokens=saved,
               model_tokens=spent)  # fmt: skip


def broken(exc: BaseException) -> str:
    """Why a fallback stream broke, in words for its error event."""
    if isinstance(exc, UpstreamError):
        return str(exc)
    if isinstance(exc, httpx.HTTPError):
        return f"the upstream connection broke ({type(exc).__name__}: {exc})"
    return "the backend broke off"


async def _items(start: StreamStart) -> AsyncIterator[StreamItem]:
    """The items of a started stream: its first, then the rest (an asynchronous iterator is
    read on the event loop, a blocking one in a worker thread)."""
    for item in start.first:
        yield item
    rest = start.rest
    if isinstance(rest, Iterator):
        async for item in iterate_in_threadpool(rest):
            yield item
        return
    try:
        async for item in rest:
            yield item
    finally:
        aclose = getattr(rest, "aclose", None)
        if aclose is not None:
            await aclose()
