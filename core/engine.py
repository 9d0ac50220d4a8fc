"""The engine: request → gate → normalise → segment → parse → plan → execute → verify → answer.

``Engine`` is built once (plugins loaded, grammar compiled) and then shared: it holds no
per-request state, so one instance serves many threads.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from zerolayer.core.errors import (
    LimitExceeded,
    OpError,
    PayloadError,
    PlanError,
    Unsupported,
    ZeroLayerError,
)
from zerolayer.core.execute import execute
from zerolayer.core.gate import GateFailure, check_sampling, check_text
from zerolayer.core.grammar import InstructionParser, NoMatch
from zerolayer.core.messages import (
    Conversation,
    EngineRequest,
    EngineResult,
    Message,
    Route,
)
from zerolayer.core.normalise import normalise
from zerolayer.core.pipeline import format_plan, parse_plan
from zerolayer.core.plan import Directive, Plan
from zerolayer.core.planner import PayloadHint, check_chain, make_plan
from zerolayer.core.plugin_host import load_plugins, selected_plugins
from zerolayer.core.protocol.model import PROTOCOL_REASON
from zerolayer.core.protocol.recogniser import recognise_request
from zerolayer.core.segment import Payload, Segmented, segment
from zerolayer.core.types import CONVERSATION, TEXT


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return float(raw) if raw else default


@dataclass(frozen=True)
class EngineConfig:
    """Engine settings; ``from_env`` reads the ``ZEROLAYER_*`` environment variables."""

    absent_temperature_is_zero: bool = False
    max_payload_bytes: int = 16 * 1024 * 1024
    time_limit: float = 5.0  # seconds per plan
    plan_cache_size: int = 4096
    plugins: frozenset[str] | None = None  # None: every installed plugin

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> EngineConfig:
        env = os.environ if env is None else env
        return cls(
            absent_temperature_is_zero=env.get("ZEROLAYER_ASSUME_TEMPERATURE_ZERO", "")
            in ("1", "true"),
            max_payload_bytes=int(env.get("ZEROLAYER_MAX_PAYLOAD_BYTES", 16 * 1024 * 1024)),
            time_limit=float(env.get("ZEROLAYER_TIME_LIMIT", 5.0)),
            plugins=selected_plugins(env),
        )


@dataclass(frozen=True)
class _Reading:
    """A segmentation of the message whose instruction parsed."""

    segmented: Segmented
    instruction: str  # normalised
    directives: tuple[Directive, ...]


@dataclass
class _Trace:
    timings: dict[str, float] = field(default_factory=dict)
    last: float = field(default_factory=time.perf_counter)

    def mark(self, stage: str) -> None:
        now = time.perf_counter()
        self.timings[stage] = now - self.last
        self.last = now


class Engine:
    """The deterministic instruction engine."""

    def __init__(
        self, config: EngineConfig | None = None, *, plugins: Mapping[str, object] | None = None
    ) -> None:
        self.config = config or EngineConfig.from_env()
        self.plugin_manager, self.registry = load_plugins(self.config.plugins, extra=plugins)
        self.parser = InstructionParser(self.registry.fragments)
        digest = hashlib.sha256(self.parser.text.encode())
        for name in sorted(self.registry.ops):
            digest.update(name.encode())
        self.rule_set_version = f"builtin-{digest.hexdigest()[:12]}"
        self._parse_cached = lru_cache(maxsize=self.config.plan_cache_size)(self._parse)

    # ---- public API -------------------------------------------------------------------

    def run(self, request: EngineRequest | str, *payloads: str) -> EngineResult:
        """Answer a request, or an instruction with its payloads."""
        if isinstance(request, str):
            request = EngineRequest.from_instruction(request, *payloads)
        trace = _Trace()
        if protocol := self._protocol(request, trace):
            return protocol
        try:
            return self._run(request, trace)
        except (PayloadError, OpError, LimitExceeded) as exc:
            return EngineResult(Route.ERROR, error=exc, reason=exc.code, timings=trace.timings)
        except Unsupported as exc:
            return self._fallback(exc.reason, exc.message, trace)

    def explain(self, request: EngineRequest | str, *payloads: str) -> EngineResult:
        """The plan the engine would run (route DETERMINISTIC, no output), or why not."""
        if isinstance(request, str):
            request = EngineRequest.from_instruction(request, *payloads)
        trace = _Trace()
        if protocol := self._protocol(request, trace):
            return protocol
        try:
            failure = self._gate(request)
            if failure:
                return self._fallback(failure.reason, failure.detail, trace)
            _reading, plan = self._plan(request)
            return EngineResult(Route.DETERMINISTIC, plan=self.format(plan), timings=trace.timings)
        except Unsupported as exc:
            return self._fallback(exc.reason, exc.message, trace)

    def run_plan(self, plan: Plan | str, payload: str) -> str:
        """Run a plan given as pipeline text on a payload; return the answer text.

        Raises the typed errors (``PlanError``, ``PayloadError`` …) instead of falling back.
        """
        parsed = parse_plan(plan) if isinstance(plan, str) else plan
        if not parsed.steps:
            raise PlanError("the plan has no steps")
        first = self.registry.ops.get(parsed.steps[0].op)
        start = CONVERSATION if first and first.input_type == CONVERSATION else TEXT
        checked = check_chain(parsed.steps, self.registry, start, hint=PayloadHint(text=payload))
        output, _ = execute(checked, payload, self.registry, time_limit=self.config.time_limit)
        return str(output)

    def format(self, plan: Plan) -> str:
        return format_plan(plan, self.registry.param_orders())

    def fingerprint(self, request: EngineRequest) -> str | None:
        """The exact cache key of a request the engine may answer, else None."""
        if self._gate_sampling(request) is not None or not request.messages:
            return None
        h = hashlib.sha256()
        h.update(self.rule_set_version.encode())
        h.update((request.tenant or "").encode())
        h.update((request.system or "").encode("utf-8", "surrogatepass"))
        for m in request.messages:
            h.update(
                b"\x00" + m.role.encode() + b"\x01" + m.content.encode("utf-8", "surrogatepass")
            )
        for p in request.payloads:
            h.update(b"\x02" + p.encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def plugin_info(self) -> list[dict[str, Any]]:
        return [p.to_dict() for p in self.registry.plugins.values()]

    # ---- stages -----------------------------------------------------------------------

    def _protocol(self, request: EngineRequest, trace: _Trace) -> EngineResult | None:
        """A meta-instruction ("answer in 5 bullet points") is never answered here: its result
        carries the protocol whose slots the model fills (core/protocol, docs/protocols.md)."""
        protocol = recognise_request(request)
        trace.mark("protocol")
        if protocol is None:
            return None
        detail = f"the answer must have this structure: {protocol.describe()}"
        return EngineResult(
            Route.FALLBACK, reason=PROTOCOL_REASON, detail=detail, protocol=protocol,
            timings=trace.timings,
        )  # fmt: skip

    def _gate_sampling(self, request: EngineRequest) -> GateFailure | None:
        return check_sampling(
            request, absent_temperature_is_zero=self.config.absent_temperature_is_zero
        )

    def _gate(self, request: EngineRequest) -> GateFailure | None:
        failure = self._gate_sampling(request)
        if failure:
            return failure
        if not request.messages or request.messages[-1].role != "user":
            return GateFailure("gate.no_user_turn", "the last message is not the user's")
        return None

    def _parse(self, instruction: str) -> tuple[Directive, ...]:
        return tuple(self.parser.parse(instruction))

    def _read(self, message: str, payloads: tuple[str, ...] = ()) -> _Reading:
        if payloads:
            given = tuple(Payload(p) for p in payloads)
            candidates = [Segmented(message, given, how="explicit")]
        else:
            candidates = segment(message)
        first_failure: Unsupported | None = None
        refused: list[tuple[Segmented, GateFailure]] = []
        for candidate in candidates:
            instruction = normalise(candidate.instruction)
            gate = check_text(instruction, tuple(p.text for p in candidate.payloads))
            if gate is not None:
                refused.append((candidate, gate))
                continue
            try:
                directives = self._parse_cached(instruction)
            except NoMatch as exc:
                first_failure = first_failure or exc
                continue
            # A reading that failed the gate still counts unless its "instruction" is the
            # whole payload of this reading (a YAML payload placed before the instruction).
            for earlier, failure in refused:
                gated = earlier.instruction.strip()
                if not any(gated == p.text.strip() for p in candidate.payloads):
                    raise Unsupported(failure.reason, failure.detail)
            return _Reading(candidate, instruction, directives)
        if refused:
            raise Unsupported(refused[0][1].reason, refused[0][1].detail)
        raise first_failure or NoMatch("the instruction is not understood")

    def _plan(self, request: EngineRequest) -> tuple[_Reading, Plan]:
        reading = self._read(request.messages[-1].content, request.payloads)
        payloads = reading.segmented.payloads
        first = payloads[0] if payloads else None
        hint = PayloadHint(first.hint if first else None, first.text if first else None)
        plan = make_plan(reading.directives, self.registry, hint=hint)
        return reading, plan

    def _input(self, request: EngineRequest, reading: _Reading, plan: Plan) -> Any:
        if plan.input_type == CONVERSATION:
            return Conversation(
                messages=request.messages[:-1],
                system=request.system,
                before=reading.segmented.before,
                current=request.messages[-1].content,
            )
        payloads = reading.segmented.payloads
        if not payloads:
            raise Unsupported("segment.no_payload", "the instruction has no payload to work on")
        if len(payloads) > 1:
            raise Unsupported(
                "segment.several_payloads",
                f"the message has {len(payloads)} payloads and the instruction takes one",
            )
        return _checked_size(payloads[0], self.config.max_payload_bytes)

    def _run(self, request: EngineRequest, trace: _Trace) -> EngineResult:
        failure = self._gate(request)
        trace.mark("gate")
        if failure:
            return self._fallback(failure.reason, failure.detail, trace)
        reading, plan = self._plan(request)
        trace.mark("parse")
        value = self._input(request, reading, plan)
        try:
            output, ran = execute(plan, value, self.registry, time_limit=self.config.time_limit)
        except PayloadError as exc:
            if plan.format_stated:
                raise
            raise Unsupported(
                "payload.format_unstated",
                f"the payload does not read as {exc.what} and the request does not say it is "
                f"{exc.what}: {exc.reason}",
            ) from exc
        trace.mark("execute")
        if not isinstance(output, str):
            raise Unsupported("plan.no_text", "the plan did not produce text")
        return EngineResult(
            Route.DETERMINISTIC, output=output, plan=self.format(ran), timings=trace.timings
        )

    def _fallback(self, reason: str, detail: str, trace: _Trace) -> EngineResult:
        return EngineResult(Route.FALLBACK, reason=reason, detail=detail, timings=trace.timings)


def _checked_size(payload: Payload, limit: int) -> str:
    size = len(payload.text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise LimitExceeded(
            f"the payload is {size} bytes; the limit is {limit}",
            hint="raise ZEROLAYER_MAX_PAYLOAD_BYTES or send a smaller payload",
        )
    return payload.text


__all__ = ["Engine", "EngineConfig", "EngineRequest", "EngineResult", "Message", "Route"]
_ = ZeroLayerError
