"""What both APIs share: cache, engine, fallback, limits and metrics, independent of shape.

``AnswerService.decide`` turns a ``Prepared`` request into a ``Decision`` (cache hit, engine
answer, engine error or fallback reason); the API modules shape the decision into their own
JSON or event stream and call ``complete``/``open_stream`` for fallback answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from pydantic import ValidationError

from zerolayer.core.blocks.parts import MergedAnswer
from zerolayer.core.blocks.syntax import to_current
from zerolayer.core.errors import LimitExceeded, OpError, PayloadError, Unsupported, ZeroLayerError
from zerolayer.core.fallback import (
    ChoiceDelta,
    Completion,
    FallbackBackend,
    FallbackUnavailable,
    UnsupportedParameter,
    UpstreamAnswerError,
    check_options,
)
from zerolayer.core.messages import EngineRequest, EngineResult, Part, Route
from zerolayer.core.neural.transport import UpstreamError
from zerolayer.core.neural.upstream import EventRelay, StreamReader, first_items
from zerolayer.core.protocol.fill import answer_protocol, stream_protocol
from zerolayer.core.protocol.model import Protocol
from zerolayer.rules_api.api_errors import (
    OPENAI_OF_KIND,
    ApiError,
    UnencodableText,
    describe_validation,
    kind_of_status,
)
from zerolayer.rules_api.cache import CachedAnswer, ResponseCache
from zerolayer.rules_api.contracts import EngineLike
from zerolayer.rules_api.fast_path import FastPath, Tenancy
from zerolayer.rules_api.headers import answer_headers
from zerolayer.rules_api.loop_runs import LoopOverrun, LoopRuns
from zerolayer.rules_api.metrics import ServiceMetrics
from zerolayer.rules_api.schemas import MessagesRequest
from zerolayer.rules_api.settings import ServiceSettings
from zerolayer.rules_api.translate import Prepared, from_anthropic
from zerolayer.rules_api.usage import count_tokens, truncate_tokens

log = logging.getLogger("zerolayer.rules_api")

DEFAULT_FALLBACK_MAX_TOKENS = 4096  # OpenAI requests may omit max_tokens
DEFAULT_TIME_LIMIT = 5.0  # seconds, when neither the settings nor the engine name one
EXCEEDS_MAX_TOKENS = "answer.exceeds_max_tokens"  # the reason of an answer that does not fit

T = TypeVar("T")


class OverBudget(LimitExceeded):
    """An engine run from a route did not finish within the service's time budget."""

    def __init__(self, what: str, seconds: float) -> None:
        super().__init__(
            f"{what} did not finish within the time limit of {seconds:g} s",
            hint="send a smaller or simpler payload, or raise ZEROLAYER_TIME_LIMIT",
        )


class EngineBusy(ZeroLayerError):
    """Every engine slot of this worker stayed taken for the whole time budget: the request
    never started (the service is busy, not the request at fault)."""

    code = "engine_busy"

    def __init__(self, what: str, seconds: float, slots: int) -> None:
        super().__init__(
            f"{what} waited {seconds:g} s for one of the {slots} engine slots of this worker "
            "and did not start",
            hint="retry shortly; operators can add workers or raise ZEROLAYER_ENGINE_THREADS",
        )


class EngineSlots:
    """At most ``size`` engine runs at once in this worker: the engine's own thread pool,
    ``size`` threads (``ZEROLAYER_ENGINE_THREADS``), handed runs straight from the loop.

    Engine runs are pure Python: each thread running one holds the GIL, and the event loop
    competes with every one of them for it (with eight at once, ``/health`` waited up to
    0.7 s). A run therefore waits in the pool's queue for a free thread (a slot), without
    the GIL, and gives it back when it ends. A run abandoned at the deadline keeps its
    thread until it really ends, so runaways cannot pile up; a queued run whose caller gave
    up is cancelled in the queue and never runs. The pool is apart from anyio's default one
    (which the fallback and readiness routes use), and made on first use.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    @property
    def pool(self) -> ThreadPoolExecutor:
        """The worker threads (a thread is started only when none is idle)."""
        if self._pool is None:
            with self._lock:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(
                        self.size, thread_name_prefix="zerolayer-engine"
                    )
        return self._pool

    def submit(self, func: Callable[..., T], *args: Any) -> Future[T]:
        """``func(*args)`` queued for the next free slot, in a copy of the caller's context."""
        return self.pool.submit(contextvars.copy_context().run, func, *args)


class _Expired(Exception):
    """An engine run's time budget ran out before its answer came."""


def _answer_on(
    loop: asyncio.AbstractEventLoop, answer: asyncio.Future[T], func: Callable[..., T], *args: Any
) -> None:
    """``func(*args)``, run in a worker thread, its result or exception set on ``answer``
    from ``loop`` (unless the budget ran out or the caller went away first)."""
    try:
        result, error = func(*args), None
    except BaseException as exc:  # handed to the caller, whatever it is
        result, error = None, exc
    with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits
        loop.call_soon_threadsafe(_settle, answer, result, error)


def _settle(answer: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if answer.done():
        return
    if error is None:
        answer.set_result(result)
    else:
        answer.set_exception(error)


def _expire(answer: asyncio.Future[Any]) -> None:
    if not answer.done():
        answer.set_exception(_Expired())


class AnswerTooLong(LimitExceeded):
    """A deterministic answer longer than the request's ``max_tokens``: it is never cut (a cut
    program or document is a wrong answer), so it goes to the fallback or is this error."""

    code = "answer_exceeds_max_tokens"

    def __init__(self, tokens: int, max_tokens: int) -> None:
        super().__init__(
            f"the deterministic answer is {tokens} tokens, more than max_tokens ({max_tokens}), "
            "and an answer is never cut short",
            hint=f"raise max_tokens to at least {tokens}, or configure a neural fallback "
            "(ZEROLAYER_FALLBACK) to answer such requests",
        )
        self.tokens = tokens
        self.max_tokens = max_tokens


@dataclass(slots=True)
class Decision:
    """How one request is answered, before it is shaped for an API."""

    route: Route
    output: str | None = None
    plan: str | None = None
    reason: str | None = None
    error: ZeroLayerError | None = None
    cache_hit: bool = False
    parts: tuple[Part, ...] = ()  # a message written in blocks: its parts, in order
    part_kinds: tuple[str, ...] = ()  # zero/model of each part (also for cached answers)
    warnings: tuple[str, ...] = ()  # block syntax warnings
    protocol: Protocol | None = None  # FALLBACK: the model fills this skeleton (protocols.md)

    @property
    def mixed(self) -> bool:
        """True when the answer merges the engine's parts with the model's."""
        return self.route is Route.FALLBACK and bool(self.parts)

    @property
    def status(self) -> str:
        """Metrics route label: active, inactive or error."""
        return {Route.DETERMINISTIC: "active", Route.FALLBACK: "inactive"}.get(self.route, "error")


@dataclass(frozen=True, slots=True)
class Shaped:
    """A deterministic output cut to the request's ``stop`` and ``max_tokens``."""

    text: str
    stop_reason: str  # end_turn | stop_sequence | max_tokens
    stop_sequence: str | None = None


StreamItem = str | ChoiceDelta | Completion


@dataclass(slots=True)
class StreamStart:
    """A fallback stream whose first item has already been read (so errors come before 200).

    ``rest`` is a blocking iterator (read in a worker thread) or an asynchronous one (read
    on the event loop). ``replicate``: the backend answers one choice, which stands for all
    ``n`` (it generated no others)."""

    first: list[StreamItem]
    rest: Iterator[StreamItem] | AsyncIterator[StreamItem]
    texts: list[str] = field(default_factory=list)
    replicate: bool = True


def apply_limits(output: str, max_tokens: int | None, stop: tuple[str, ...]) -> Shaped:
    """Cut ``output`` at the earliest stop sequence, as a model would; ``AnswerTooLong`` when
    what is left is longer than ``max_tokens`` (a deterministic answer is never cut there)."""
    text, reason, seq = output, "end_turn", None
    hits = [(output.find(s), s) for s in stop if s and s in output]
    if hits:
        pos, seq = min(hits)
        text, reason = output[:pos], "stop_sequence"
    if max_tokens is not None:
        tokens = count_tokens(text)
        if tokens > max_tokens:
            raise AnswerTooLong(tokens, max_tokens)
    return Shaped(text, reason, seq)


def result_to_decision(result: EngineResult) -> Decision:
    """Check the engine's result and make it a decision (a malformed result falls back)."""
    kinds = tuple(p.kind for p in result.parts)
    if result.route is Route.DETERMINISTIC:
        if result.output is None:
            return Decision(Route.FALLBACK, reason="engine.no_output")
        return Decision(
            Route.DETERMINISTIC, output=result.output, plan=result.plan, part_kinds=kinds
        )
    if result.route is Route.ERROR:
        if result.error is None:
            return Decision(Route.FALLBACK, reason="engine.error_without_exception")
        return Decision(Route.ERROR, plan=result.plan, reason=result.error.code, error=result.error)
    if result.parts and any(p.kind == "zero" for p in result.parts):
        return Decision(
            Route.FALLBACK,
            plan=result.plan,
            reason=result.reason or "blocks.mixed",
            parts=result.parts,
            part_kinds=kinds,
        )
    protocol = getattr(result, "protocol", None)
    return Decision(
        Route.FALLBACK,
        reason=result.reason or "engine.no_reason",
        protocol=protocol if isinstance(protocol, Protocol) else None,
    )


class AnswerService:
    """Cache, engine and fallback behind both APIs."""

    def __init__(
        self,
        engine: EngineLike,
        *,
        fallback: FallbackBackend | None,
        cache: ResponseCache,
        metrics: ServiceMetrics,
        settings: ServiceSettings,
    ) -> None:
        self.engine = engine
        self.fallback = fallback
        self.cache = cache
        self.metrics = metrics
        self.settings = settings
        self.tenancy: Tenancy | None = None  # set when tenant rules are installed
        self.fast: FastPath | None = None  # set by create_app unless the fast path is off
        self.slots = EngineSlots(settings.engine_threads)
        self.loop_runs = LoopRuns(settings.loop_run_chars, settings.loop_run_ms / 1000)

    def fingerprint(self, prepared: Prepared) -> str | None:
        """The cache key of a request, or None (disabled, forced fallback, engine says no)."""
        if prepared.forced_reason or prepared.request.disabled:
            return None
        try:
            return self.engine.fingerprint(prepared.request) or None
        except Exception:  # an engine bug must not fail the request: it just is not cached
            log.exception("engine.fingerprint failed")
            return None

    def run_engine(self, prepared: Prepared) -> Decision:
        """Ask the engine; any exception it lets out becomes a decision, never a 500."""
        try:
            decision = result_to_decision(self.engine.run(prepared.request))
        except Unsupported as exc:
            decision = Decision(Route.FALLBACK, reason=exc.reason)
        except (PayloadError, OpError, LimitExceeded) as exc:
            decision = Decision(Route.ERROR, reason=exc.code, error=exc)
        except ZeroLayerError as exc:
            decision = Decision(Route.FALLBACK, reason=f"engine.{exc.code}")
        except Exception:
            log.exception("engine.run failed")
            decision = Decision(Route.FALLBACK, reason="engine.exception")
        if prepared.request.disabled and (
            decision.route is not Route.FALLBACK or decision.protocol is not None
        ):
            decision = Decision(Route.FALLBACK, reason="gate.disabled")
        return decision

    def decide(self, prepared: Prepared) -> Decision:
        """Cache, then engine: how this request is answered (with block syntax warnings)."""
        key, hit = self.lookup(prepared)
        decision = hit if hit is not None else self.compute(prepared, key)
        decision.warnings = syntax_warnings(prepared.request)
        return decision

    def lookup(self, prepared: Prepared) -> tuple[str | None, Decision | None]:
        """The request's cache key and its cached decision (None on a miss or no key); a
        forced fallback is decided here too."""
        if prepared.forced_reason:
            return None, Decision(Route.FALLBACK, reason=prepared.forced_reason)
        key = self.fingerprint(prepared)
        if key is None:
            return None, None
        hit = self.cache_get(key)
        (self.metrics.cache_hit if hit else self.metrics.cache_miss).inc()
        if hit is None:
            return key, None
        return key, Decision(
            Route.DETERMINISTIC,
            output=hit.output,
            plan=hit.plan,
            cache_hit=True,
            part_kinds=hit.parts,
        )

    def compute(self, prepared: Prepared, key: str | None) -> Decision:
        """Run the engine on a request the cache did not answer, and cache its answer."""
        decision = self.run_engine(prepared)
        if (
            key is not None
            and decision.route is Route.DETERMINISTIC
            and decision.output is not None
        ):
            self.cache_put(key, CachedAnswer(decision.output, decision.plan, decision.part_kinds))
        return decision

    def cache_get(self, key: str) -> CachedAnswer | None:
        """A cache lookup that cannot fail a request: a broken cache is a miss (logged)."""
        try:
            return self.cache.get(key)
        except Exception:
            log.exception("cache get failed")
            return None

    def cache_put(self, key: str, answer: CachedAnswer) -> None:
        """Store an answer; a broken cache is logged, never raised."""
        try:
            self.cache.put(key, answer)
        except Exception:
            log.exception("cache put failed")

    @property
    def time_limit(self) -> float:
        """Seconds one engine run from a route may take: ``ZEROLAYER_DECIDE_TIMEOUT_S``, else
        the engine's own plan time limit (``ZEROLAYER_TIME_LIMIT``)."""
        if self.settings.decide_timeout_s is not None:
            return self.settings.decide_timeout_s
        limit = getattr(getattr(self.engine, "config", None), "time_limit", None)
        return float(limit) if isinstance(limit, int | float) and limit > 0 else DEFAULT_TIME_LIMIT

    async def in_budget(
        self, what: str, func: Callable[..., T], *args: Any, limit: float | None = None
    ) -> T:
        """``func(*args)`` in a worker thread of the engine's own pool once an engine slot
        is free (``EngineSlots``; in a copy of the caller's context), awaited for at most
        ``time_limit`` seconds in all, so the event loop keeps serving meanwhile. OverBudget
        when the run started and took longer (the thread is abandoned and its result
        dropped); EngineBusy when no slot came free in that time (the run is cancelled in
        the queue and never starts), as it is when the caller goes away first. Work is
        handed to the pool straight from the loop, and the thread hands its answer back
        with one call to the loop (anyio's ``to_thread`` cost two to three times as much
        CPU per hand-off; ``asyncio.wrap_future`` under ``wait_for`` a loop turn more).
        ``limit``: seconds left of the budget, when part of it was spent already."""
        if limit is None:
            limit = self.time_limit
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T] = loop.create_future()
        job = self.slots.submit(_answer_on, loop, answer, func, *args)
        timer = loop.call_later(limit, _expire, answer)
        try:
            return await answer
        except _Expired:
            if job.cancel():  # still queued (a running or finished run cannot be cancelled)
                self.metrics.engine_busy.inc()
                log.warning("%s found no free engine slot within %g s", what, limit)
                raise EngineBusy(what, limit, self.slots.size) from None
            self.metrics.over_budget.inc()
            log.warning("%s ran past the time limit of %g s", what, limit)
            raise OverBudget(what, limit) from None
        except asyncio.CancelledError:
            job.cancel()  # the caller went away: a queued run never starts
            raise
        finally:
            timer.cancel()

    def busy(self, exc: EngineBusy) -> ApiError:
        """The 503 answer of a request that found no free engine slot."""
        return ApiError(503, str(exc), kind="overloaded_error", code=exc.code,
                        headers={"retry-after": "1"})  # fmt: skip

    async def decide_async(self, prepared: Prepared) -> Decision:
        """``decide`` with the engine off the event loop: a hit of the in-process cache is
        answered on the loop (a lookup is a hash and a dictionary read); the engine, and a
        Redis lookup (network), run in a worker thread under the time budget. A run past
        the budget is an ERROR decision (a 400 naming the limit)."""
        if self.cache.kind == "redis":
            try:
                return await self.in_budget("the request", self.decide, prepared)
            except OverBudget as exc:
                return Decision(Route.ERROR, reason=exc.code, error=exc)
            except EngineBusy as exc:
                raise self.busy(exc) from None
        key, hit = self.lookup(prepared)
        if hit is None:
            try:
                hit = await self.compute_async(prepared, key)
            except OverBudget as exc:
                hit = Decision(Route.ERROR, reason=exc.code, error=exc)
            except EngineBusy as exc:
                raise self.busy(exc) from None
        hit.warnings = syntax_warnings(prepared.request)
        return hit

    async def compute_async(self, prepared: Prepared, key: str | None) -> Decision:
        """``compute`` under the time budget: on the loop's own thread for a short request
        whose run reads nothing but memory (``LoopRuns``; a run that passes the loop's share
        of the time is stopped and run again in a worker thread with what is left of the
        budget), else in a worker thread (``in_budget``)."""
        if self.loop_runs.takes(prepared.request) and self._runs_locally(prepared.request):
            started = time.monotonic()
            try:
                return self.loop_runs.run(self.compute, prepared, key)
            except LoopOverrun:
                self.metrics.loop_overruns.inc()
                log.info("a run on the event loop passed %g s: run again in a worker thread",
                         self.loop_runs.seconds)  # fmt: skip
                left = self.time_limit - (time.monotonic() - started)
                return await self.in_budget("the request", self.compute, prepared, key, limit=left)
        return await self.in_budget("the request", self.compute, prepared, key)

    def _runs_locally(self, request: EngineRequest) -> bool:
        """True when the engine says answering ``request`` reads nothing but memory (no
        rules store, no model); an engine that does not say is run in a worker thread."""
        try:
            return bool(self.engine.runs_locally(request))
        except Exception:  # an engine without the method, or failing in it: the thread
            return False

    def fit(self, prepared: Prepared, decision: Decision) -> Decision:
        """A deterministic decision whose answer is longer than the request's ``max_tokens``
        becomes a fallback (reason ``answer.exceeds_max_tokens``) when a fallback is
        configured, else an ERROR decision (a 400 naming the tokens needed); any other
        decision is returned as it is. An active answer is never cut at ``max_tokens``."""
        if decision.route is not Route.DETERMINISTIC:
            return decision
        try:
            apply_limits(decision.output or "", prepared.max_tokens, prepared.stop)
        except AnswerTooLong as exc:
            if self.fallback is None:
                return Decision(
                    Route.ERROR, reason=EXCEEDS_MAX_TOKENS, error=exc, warnings=decision.warnings
                )
            return Decision(Route.FALLBACK, reason=EXCEEDS_MAX_TOKENS, warnings=decision.warnings)
        return decision

    def headers(self, decision: Decision) -> dict[str, str]:
        """The x-zero-layer headers of a decision."""
        return answer_headers(
            active=decision.route is not Route.FALLBACK,
            cache_hit=decision.cache_hit,
            plan=decision.plan,
            reason=None
            if decision.plan and decision.route is not Route.FALLBACK
            else decision.reason,
            parts=decision.part_kinds,
            warnings=decision.warnings,
            protocol=decision.protocol.describe() if decision.protocol else None,
            limit=self.settings.plan_header_max,
        )

    def engine_error(self, decision: Decision) -> ApiError:
        """The 400 answer of an engine ERROR decision (its message names line and column)."""
        message = str(decision.error) if decision.error is not None else "invalid request"
        code = decision.error.code if isinstance(decision.error, AnswerTooLong) else None
        return ApiError(
            400, message, kind="invalid_request_error", code=code, headers=self.headers(decision)
        )

    def _backend(self, decision: Decision) -> FallbackBackend:
        """The backend that answers a fallback decision: the configured one, or for a mixed
        answer the merge of the engine's parts with that backend's answers to the others."""
        backend = self._configured(decision)
        if decision.mixed:
            return MergedAnswer(
                decision.parts, backend, count_tokens=count_tokens, truncate_tokens=truncate_tokens
            )
        return backend

    def _configured(self, decision: Decision) -> FallbackBackend:
        if self.fallback is None:
            raise ApiError(
                503,
                f"this request needs the neural fallback ({decision.reason}), and no fallback "
                "backend is configured",
                kind="api_error",
                code="fallback_not_configured",
                headers={**self.headers(decision), "x-should-retry": "false"},
            )
        return self.fallback

    def _unavailable(self, decision: Decision, exc: BaseException) -> ApiError:
        """The answer of a fallback that failed: an upstream's HTTP error as it came (its
        status, message, error type and Retry-After), 400 for a parameter the backend cannot
        honour, 503 (with Retry-After when known) when it is unavailable, else 502 (for a
        request body that UTF-8 cannot encode, ``UnencodableText``: the route makes it the
        400 that names the field)."""
        headers = self.headers(decision)
        if isinstance(exc, UpstreamAnswerError):
            kind = exc.kind or kind_of_status(exc.status)
            if exc.openai_type is not None or exc.code is not None or exc.param is not None:
                openai = (exc.openai_type, exc.code, exc.param)
            else:
                openai = (*OPENAI_OF_KIND.get(kind, ("server_error", None)), None)
            return ApiError(exc.status, exc.message, kind=kind, openai=openai,
                            headers={**headers, **exc.headers})  # fmt: skip
        if isinstance(exc, UnsupportedParameter):
            return ApiError(400, str(exc), param=exc.param, headers=headers)
        if isinstance(exc, FallbackUnavailable):
            if exc.retry_after is not None:
                headers["retry-after"] = exc.retry_after
            return ApiError(
                503,
                f"the neural fallback is unavailable: {exc}",
                kind="overloaded_error",
                headers=headers,
            )
        if isinstance(exc, UpstreamError):
            return ApiError(502, f"the neural fallback's answer could not be read: {exc}",
                            kind="api_error", headers=headers)  # fmt: skip
        if isinstance(exc, UnicodeEncodeError):
            return UnencodableText(502, "the neural fallback failed to answer", kind="api_error",
                                   headers=headers)  # fmt: skip
        log.error("fallback backend failed: %r", exc)
        return ApiError(502, "the neural fallback failed to answer", kind="api_error",
                        headers=headers)  # fmt: skip

    def checked(self, prepared: Prepared, decision: Decision) -> tuple[Prepared, bool]:
        """The request as the backend gets it, and whether its one choice stands for all
        ``n``; ApiError 400 naming a sampling parameter the backend cannot honour.

        A merged or protocol answer is built from several generations: ``n`` > 1 is
        honoured only at temperature 0 (identical choices), and not sent to the backend."""
        backend = self._configured(decision)
        request = prepared.request
        n = request.option("n", 1)
        try:
            if decision.mixed or decision.protocol is not None:
                if n != 1 and request.temperature != 0:
                    raise UnsupportedParameter(
                        "n",
                        f"n={n} cannot be honoured for an answer built from several model "
                        "calls (blocks or a structure); send n=1 or temperature 0",
                    )
                request = request.without_options("n")
            check_options(backend, request)
        except UnsupportedParameter as exc:
            raise self._unavailable(decision, exc) from exc
        forwards_n = getattr(backend, "generates_choices", False) and request.option("n")
        return dataclasses.replace(prepared, request=request), not forwards_n

    def complete(self, prepared: Prepared, decision: Decision) -> Completion:
        """The fallback's whole answer (a protocol's slots filled by it when the request asked
        for a structure); ApiError 503/502 when there is none."""
        prepared, _ = self.checked(prepared, decision)
        backend = self._backend(decision)
        try:
            if decision.protocol is not None:
                return answer_protocol(
                    decision.protocol,
                    prepared.request,
                    backend,
                    max_tokens=prepared.max_tokens or DEFAULT_FALLBACK_MAX_TOKENS,
                    stop=prepared.stop,
                )
            return backend.generate(
                prepared.request,
                max_tokens=prepared.max_tokens or DEFAULT_FALLBACK_MAX_TOKENS,
                stop=prepared.stop,
            )
        except Exception as exc:
            raise self._unavailable(decision, exc) from exc

    def _native(self, decision: Decision) -> Any:
        """The configured backend when it answers on the event loop for this decision."""
        if decision.mixed or decision.protocol is not None:
            return None
        backend = self._configured(decision)
        return backend if hasattr(backend, "astream") and hasattr(backend, "agenerate") else None

    async def acomplete(self, prepared: Prepared, decision: Decision) -> Completion:
        """``complete`` awaited: on the event loop for a backend with ``agenerate`` (the HTTP
        backends), in a worker thread otherwise."""
        backend = self._native(decision)
        if backend is None:
            return await anyio.to_thread.run_sync(self.complete, prepared, decision)
        prepared, _ = self.checked(prepared, decision)
        try:
            completion: Completion = await backend.agenerate(
                prepared.request,
                max_tokens=prepared.max_tokens or DEFAULT_FALLBACK_MAX_TOKENS,
                stop=prepared.stop,
            )
        except Exception as exc:
            raise self._unavailable(decision, exc) from exc
        return completion

    def open_stream(self, prepared: Prepared, decision: Decision) -> StreamStart:
        """Start the fallback's stream and read its first item; ApiError 503/502 if it fails."""
        prepared, replicate = self.checked(prepared, decision)
        backend = self._backend(decision)
        max_tokens = prepared.max_tokens or DEFAULT_FALLBACK_MAX_TOKENS
        try:
            if decision.protocol is not None:
                items = stream_protocol(
                    decision.protocol,
                    prepared.request,
                    backend,
                    max_tokens=max_tokens,
                    stop=prepared.stop,
                )
            else:
                items = iter(
                    backend.stream(prepared.request, max_tokens=max_tokens, stop=prepared.stop)
                )
            first = [next(items)]
        except StopIteration:
            first, items = [], iter(())
        except Exception as exc:
            raise self._unavailable(decision, exc) from exc
        return StreamStart(first=first, rest=items, replicate=replicate)

    async def aopen_stream(self, prepared: Prepared, decision: Decision) -> StreamStart:
        """``open_stream`` awaited: the stream is read on the event loop for a backend with
        ``astream``, in a worker thread otherwise."""
        backend = self._native(decision)
        if backend is None:
            return await anyio.to_thread.run_sync(self.open_stream, prepared, decision)
        prepared, replicate = self.checked(prepared, decision)
        max_tokens = prepared.max_tokens or DEFAULT_FALLBACK_MAX_TOKENS
        items = backend.astream(prepared.request, max_tokens=max_tokens, stop=prepared.stop)
        try:
            first = [await items.__anext__()]
        except StopAsyncIteration:
            first = []
        except Exception as exc:
            await items.aclose()
            raise self._unavailable(decision, exc) from exc
        return StreamStart(first=first, rest=items, replicate=replicate)

    async def aopen_relay(
        self, prepared: Prepared, decision: Decision, relay: EventRelay
    ) -> tuple[bytes, AsyncIterator[bytes]] | None:
        """For a backend that relays its stream as bytes (an OpenAI-compatible upstream, to
        an OpenAI client): its stream opened and its first bytes read through ``relay`` (so
        that errors come before 200), and the rest; None for any other backend or decision.
        ApiError 503/502 when it fails, as ``aopen_stream``."""
        backend = self._native(decision)
        if backend is None or not hasattr(backend, "arelay"):
            return None
        prepared, _ = self.checked(prepared, decision)
        max_tokens = prepared.max_tokens or DEFAULT_FALLBACK_MAX_TOKENS
        chunks = backend.arelay(prepared.request, max_tokens=max_tokens, stop=prepared.stop)
        try:
            try:
                first = relay.feed(await chunks.__anext__())
            except StopAsyncIteration:
                first = relay.feed(b"")
                relay.check_end()
        except Exception as exc:
            await chunks.aclose()
            raise self._unavailable(decision, exc) from exc
        return first, chunks

    async def aopen_reader(
        self, prepared: Prepared, decision: Decision
    ) -> tuple[StreamReader, list[str | ChoiceDelta], AsyncIterator[bytes]] | None:
        """For a backend whose event stream can be read a read at a time (an
        OpenAI-compatible upstream): its stream opened and read up to its first item
        (``first_items``: so that errors come before 200, as ``aopen_stream``'s), as its
        reader, those items and the rest of its body; None for any other backend or
        decision. ApiError 503/502 when it fails, as ``aopen_stream``."""
        backend = self._native(decision)
        if backend is None or not hasattr(backend, "stream_reader"):
            return None
        prepared, _ = self.checked(prepared, decision)
        max_tokens = prepared.max_tokens or DEFAULT_FALLBACK_MAX_TOKENS
        reader: StreamReader = backend.stream_reader(prepared.stop)
        chunks = backend.arelay(prepared.request, max_tokens=max_tokens, stop=prepared.stop)
        try:
            first = await first_items(reader, chunks)
        except Exception as exc:
            await chunks.aclose()
            raise self._unavailable(decision, exc) from exc
        return reader, first, chunks

    async def warmup(self, bodies: list[dict[str, Any]]) -> dict[str, Any]:
        """Answer Anthropic-style bodies with the engine and cache the deterministic answers;
        each body is warmed in a worker thread under the time budget (one past it is
        skipped with the reason ``time_limit``)."""
        if len(bodies) > self.settings.warmup_max_items:
            raise ApiError(
                400, f"at most {self.settings.warmup_max_items} requests per warm-up call"
            )
        warmed = cached = 0
        skipped: dict[str, int] = {}
        items: list[dict[str, Any]] = []
        for i, body in enumerate(bodies):
            try:
                status, reason, detail = await self.in_budget(
                    f"warming request {i}", self._warm_one, body
                )
            except OverBudget as exc:
                status, reason, detail = "skipped", "time_limit", str(exc)
            except EngineBusy as exc:
                status, reason, detail = "skipped", "engine_busy", str(exc)
            items.append({"index": i, "status": status, "reason": reason, "detail": detail})
            if status == "warmed":
                warmed += 1
            elif status == "cached":
                cached += 1
            else:
                skipped[reason or "unknown"] = skipped.get(reason or "unknown", 0) + 1
        return {
            "warmed": warmed,
            "already_cached": cached,
            "skipped": sum(skipped.values()),
            "skipped_reasons": skipped,
            "items": items,
        }

    def _warm_one(self, body: dict[str, Any]) -> tuple[str, str | None, str | None]:
        """(status, reason, detail) of warming one body: warmed, cached or skipped."""
        try:
            prepared = from_anthropic(MessagesRequest.model_validate(body))
        except ValidationError as exc:
            return "skipped", "invalid_request", describe_validation(exc.errors())
        except ApiError as exc:
            return "skipped", "invalid_request", exc.message
        if prepared.forced_reason:
            return "skipped", prepared.forced_reason, None
        key = self.fingerprint(prepared)
        if key is None:
            return "skipped", "not_cacheable", None
        if self.cache_get(key) is not None:
            return "cached", None, None
        decision = self.run_engine(prepared)
        if decision.route is Route.DETERMINISTIC and decision.output is not None:
            self.cache_put(key, CachedAnswer(decision.output, decision.plan, decision.part_kinds))
            return "warmed", None, None
        if decision.route is Route.ERROR:
            detail = str(decision.error) if decision.error is not None else None
            return "skipped", f"error.{decision.reason}", detail
        return "skipped", f"fallback.{decision.reason}", None


def syntax_warnings(request: EngineRequest) -> tuple[str, ...]:
    """Block syntax warnings of a request (deprecated syntax, markers read as text)."""
    if request.payloads or not request.messages:
        return ()
    return to_current(request.messages[-1].content, request.syntax).warnings


def input_tokens(request: EngineRequest) -> int:
    """Input tokens of a request: its system prompt and every turn (the counter of usage.py)."""
    return count_tokens(request.system or "") + sum(
        count_tokens(m.content) for m in request.messages
    )
