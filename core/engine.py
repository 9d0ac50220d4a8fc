"""The engine: request → gate → normalise → segment → parse → plan → execute → verify → answer.

``Engine`` is built once (plugins loaded, grammar compiled) and then shared: it holds no
per-request state, so one instance serves many threads.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from zerolayer.core.answer_only import naming_words
from zerolayer.core.blocks.parts import merge_texts
from zerolayer.core.blocks.split import Block, split_blocks
from zerolayer.core.blocks.syntax import CURRENT, to_current
from zerolayer.core.errors import (
    LimitExceeded,
    OpError,
    PayloadError,
    PlanError,
    Unsupported,
    ZeroLayerError,
)
from zerolayer.core.execute import execute
from zerolayer.core.fields import RECORD_NOUNS, data_record_nouns, singular
from zerolayer.core.frames import FrameReader, asks_politely, payload_formats
from zerolayer.core.gate import GateFailure, check_sampling, check_text, forget_gate_readings
from zerolayer.core.grammar import InstructionParser, NoMatch
from zerolayer.core.lexicon_zh import RECORD_NOUNS as ZH_RECORD_NOUNS
from zerolayer.core.message import INSTRUCTION_LABEL_LINE, normalise_newlines
from zerolayer.core.messages import (
    Conversation,
    EngineRequest,
    EngineResult,
    Message,
    Part,
    Route,
)
from zerolayer.core.normalise import forget_normalised, normalise
from zerolayer.core.persona import role_end
from zerolayer.core.pipeline import format_plan, parse_plan
from zerolayer.core.plan import Directive, Plan, Source, Step
from zerolayer.core.planner import PayloadHint, check_chain, make_plan
from zerolayer.core.plugin_host import load_plugins, selected_plugins
from zerolayer.core.protocol.model import PROTOCOL_REASON
from zerolayer.core.protocol.recogniser import recognise_request
from zerolayer.core.query_frames import (
    query_sentence,
    quoted_zh,
    records_of,
    respelt,
    wrapped_records,
)
from zerolayer.core.query_paths import path_sentence
from zerolayer.core.router.config import RouterSettings, load_router
from zerolayer.core.router.evidence import NOT_FORMATS
from zerolayer.core.segment import (
    TIGHT_CLOSING,
    Payload,
    Segmented,
    first_sentence,
    is_one_sentence,
    is_prose,
    last_sentence,
    presented_data,
    readings,
    segment,
)
from zerolayer.core.skipped_fields import SkippedFieldCheck
from zerolayer.core.surface import ALIASES, PayloadKeys, Surface
from zerolayer.core.system_prompt import without_statements
from zerolayer.core.types import CONVERSATION, JSON_VALUE, TEXT

if TYPE_CHECKING:
    from zerolayer.core.router.router import Attempt, IntentRouter, RouterIndex

ROUTED_READINGS = 3  # readings of one message the router is asked about, at most


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return float(raw) if raw else default


def _absent_temperature_is_zero(env: Mapping[str, str]) -> bool:
    """Absent temperature counts as 0 unless ZEROLAYER_STRICT_SAMPLING is on.

    ZEROLAYER_ASSUME_TEMPERATURE_ZERO (deprecated) maps onto it: 1 is the default now, 0 is
    the same as ZEROLAYER_STRICT_SAMPLING=1.
    """
    if env.get("ZEROLAYER_STRICT_SAMPLING", "") in ("1", "true"):
        return False
    return env.get("ZEROLAYER_ASSUME_TEMPERATURE_ZERO", "") not in ("0", "false")


_FINAL_STOP = re.compile(r"\s*(?<!\.)\.\s*$")  # one full stop, not an ellipsis


class _ParseCache:
    """An instruction's directives by its text, the grammar's refusals remembered as well as
    its readings: a message is read in several ways, and a closing sentence ("Return only
    the JSON.") or an instruction that is not understood comes back request after request."""

    def __init__(self, parse: Callable[[str], tuple[Directive, ...]], size: int) -> None:
        self._outcome = lru_cache(maxsize=size)(self._catch(parse))
        self.cache_clear = self._outcome.cache_clear
        self.cache_info = self._outcome.cache_info

    @staticmethod
    def _catch(
        parse: Callable[[str], tuple[Directive, ...]],
    ) -> Callable[[str], tuple[Directive, ...] | Unsupported]:
        def outcome(instruction: str) -> tuple[Directive, ...] | Unsupported:
            try:
                return parse(instruction)
            except Unsupported as exc:
                return exc.with_traceback(None)

        return outcome

    def __call__(self, instruction: str) -> tuple[Directive, ...]:
        # a full stop that ends the text ends the sentence and says nothing of what to do:
        # "Convert this to YAML." and "Convert this to YAML" are one parse
        if instruction.endswith(".") or instruction[-1:].isspace():
            instruction = _FINAL_STOP.sub("", instruction)
        result = self._outcome(instruction)
        if isinstance(result, Unsupported):
            result.__cause__ = result.__context__ = None
            raise result.with_traceback(None)
        return result


@dataclass(frozen=True)
class EngineConfig:
    """Engine settings; ``from_env`` reads the ``ZEROLAYER_*`` environment variables."""

    # Absent sampling parameters let the instruction decide; ZEROLAYER_STRICT_SAMPLING=1 brings
    # back the strict rule (absent temperature -> gate.temperature_absent).
    absent_temperature_is_zero: bool = True
    max_payload_bytes: int = 16 * 1024 * 1024
    time_limit: float = 5.0  # seconds per plan
    plan_cache_size: int = 4096
    max_blocks: int = 64  # blocks of one message written in blocks
    plugins: frozenset[str] | None = None  # None: every installed plugin
    router: RouterSettings = field(default_factory=RouterSettings)  # ZEROLAYER_ROUTER

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> EngineConfig:
        env = os.environ if env is None else env
        return cls(
            absent_temperature_is_zero=_absent_temperature_is_zero(env),
            max_payload_bytes=int(env.get("ZEROLAYER_MAX_PAYLOAD_BYTES", 16 * 1024 * 1024)),
            time_limit=float(env.get("ZEROLAYER_TIME_LIMIT", 5.0)),
            max_blocks=int(env.get("ZEROLAYER_MAX_BLOCKS", 64)),
            plugins=selected_plugins(env),
            router=RouterSettings.from_env(env),
        )


class _Closing(Enum):
    """What a sentence after the payload ("Return only the JSON.") is to the instruction."""

    DATA = "data"  # the payload's last line, or text of the conversation
    TOGETHER = "together"  # instruction, read with the words before the payload
    # answer-only words after an instruction the grammar reads, naming no other format:
    # the reading is that instruction's (the surface would drop the sentence)
    ANSWER_ONLY = "answer-only"


@dataclass(frozen=True)
class _Reading:
    """A segmentation of the message whose instruction parsed."""

    segmented: Segmented
    instruction: str  # normalised
    directives: tuple[Directive, ...]
    routed: str | None = None  # the router's proposal, when the instruction did not parse
    # a short line after the payload read as neither instruction nor (so far) data: when the
    # payload with it does not read, the line was instruction the grammar does not know
    closing_unread: str = ""
    # where the payload came from when not from the message with the instruction: "system"
    # (the instruction is the system prompt, the message is the payload) or "earlier" (a
    # fenced block of an earlier user turn)
    payload_from: str = ""


# Failures that show the grammar misread the instruction (a field the data lacks, a field the
# instruction names left unused, a reading across a question that does not fit the data).
# So are an order in time words on a field of no dates ("oldest first" of ages) and "the" one
# record of a plural ("the names of the engineers" read as one name), and a count of the
# records named of an object that holds them ("count the orders" of {"orders": […]}).
_MISREAD = frozenset(
    {"field.unknown", "field.skipped", "plan.across_question", "query.order_in_time"}
    | {"query.not_single", "query.records_inside"}
)


# Refusals of a grammar reading that leaves unsaid what to answer with ("which students
# scored above 80?"), by what to rank ("the top 2 earners", "earners" being no sort field) or
# what to count ("how many engineers", "engineers" being no noun of the records it knows) or
# which field to answer with ("Engineering only" read as a field), or that reads a part of a
# record query as a clause of another family ("average pay, 2 decimals": the decimals of a
# table's column, mixed with a query):
# the query frame reads the words again, and its reading stands when it says both.
_UNSTATED = frozenset(
    {"query.which_unstated", "query.top_unordered", "query.count_noun", "query.focus"}
    | {"context.incomplete"}
)


def _states_answer(directives: tuple[Directive, ...]) -> bool:
    """Whether a query reading says what to answer with: a step beyond filtering and
    sorting the records (a record, a count, fields, the first N)."""
    return any(isinstance(d, Step) and d.op not in ("filter", "sort") for d in directives)


def _recorded(items: Iterator[Segmented], seen: list[Segmented]) -> Iterator[Segmented]:
    """``items``, each added to ``seen`` as it is made."""
    for item in items:
        seen.append(item)
        yield item


def _accepted(reading: _Reading, refused: list[tuple[Segmented, GateFailure]]) -> _Reading:
    """``reading``, unless an earlier reading failed the gate: that failure still counts
    unless its "instruction" is the whole payload of this reading (a YAML payload placed
    before the instruction)."""
    for earlier, failure in refused:
        gated = earlier.instruction.strip()
        if not any(gated == p.text.strip() for p in reading.segmented.payloads):
            raise Unsupported(failure.reason, failure.detail)
    return reading


#: What the engine asks when it does not understand a request (a tenant's rules, say): the
#: request, the readings of its last message the engine made (reused, never made again) and
#: why the engine cannot answer; an answer it gives is the request's answer.
NotUnderstoodHook = Callable[
    [EngineRequest, tuple[Segmented, ...], Unsupported], EngineResult | None
]


@dataclass
class _Trace:
    timings: dict[str, float] = field(default_factory=dict)
    last: float = field(default_factory=time.perf_counter)
    readings: list[Segmented] = field(default_factory=list)  # of the last message, once

    def mark(self, stage: str) -> None:
        now = time.perf_counter()
        self.timings[stage] = now - self.last
        self.last = now


class Engine:
    """The deterministic instruction engine."""

    def __init__(
        self,
        config: EngineConfig | None = None,
        *,
        plugins: Mapping[str, object] | None = None,
        router: IntentRouter | None = None,
    ) -> None:
        """Load the plugins and compile the grammar; ``router`` replaces the one the
        configuration names (``ZEROLAYER_ROUTER``, off by default)."""
        self.config = config or EngineConfig.from_env()
        self.plugin_manager, self.registry = load_plugins(self.config.plugins, extra=plugins)
        self.parser = InstructionParser(self.registry.fragments)
        self._parse_cached = _ParseCache(self._parse, self.config.plan_cache_size)
        self._closing_cached = lru_cache(maxsize=self.config.plan_cache_size)(self._closing_role)
        formats = self.format_words() - NOT_FORMATS
        self.surface = Surface(formats, self.parser.keywords())
        self.frames = FrameReader(formats, self.registry.lexicons, self._parse_cached)
        self._grammar_words = frozenset(self.parser.keywords())  # quoted as field names
        self._sniffers: dict[str, list[Callable[[str], bool]]] = {}
        for spec in self.registry.ops.values():
            if spec.implicit and spec.input_type == TEXT and spec.sniff is not None:
                for f in spec.formats:
                    self._sniffers.setdefault(f, []).append(spec.sniff)
        self.router = router if router is not None else load_router(self.config.router)
        self.router_index: RouterIndex | None = None
        digest = hashlib.sha256(self.parser.text.encode())
        for name in sorted(self.registry.ops):
            digest.update(name.encode())
        if self.router is not None:
            self.router_index = self.index_examples(
                (normalise(e.instruction), e.plugin) for e in self.registry.examples
            )
            digest.update(repr(sorted(self.router.status(self.router_index).items())).encode())
            digest.update("\x00".join(e.instruction for e in self.router_index.entries).encode())
        self.rule_set_version = f"builtin-{digest.hexdigest()[:12]}"
        self._param_orders = self.registry.param_orders()  # the registry is fixed from here

    # ---- public API -------------------------------------------------------------------

    def run(
        self,
        request: EngineRequest | str,
        *payloads: str,
        syntax: str | None = None,
        not_understood: NotUnderstoodHook | None = None,
    ) -> EngineResult:
        """Answer a request, or an instruction with its payloads (``syntax``: the block syntax
        version of an instruction given as text). ``not_understood`` is asked for an answer
        when the engine would hand a whole request to the fallback for not understanding it
        (never one the gate refused, nor a message written in blocks), with the readings of
        the message the engine made."""
        if isinstance(request, str):
            request = EngineRequest.from_instruction(request, *payloads, syntax=syntax)
        trace = _Trace()
        request, warnings = _current_syntax(request)
        if protocol := self._protocol(request, trace):
            protocol.warnings = warnings
            return protocol
        try:
            result = self._run(request, trace)
        except (PayloadError, OpError, LimitExceeded) as exc:
            result = EngineResult(Route.ERROR, error=exc, reason=exc.code, timings=trace.timings)
        except Unsupported as exc:
            answer = self._not_understood(request, exc, trace, not_understood)
            result = answer or self._fallback(exc.reason, exc.message, trace)
        result.warnings = warnings
        return result

    def _not_understood(
        self,
        request: EngineRequest,
        failure: Unsupported,
        trace: _Trace,
        hook: NotUnderstoodHook | None,
    ) -> EngineResult | None:
        if hook is None or failure.reason.startswith(("gate.", "blocks.")):
            return None
        answer = hook(request, tuple(trace.readings), failure)
        if answer is not None:
            trace.mark("tenant")
            answer.timings = {**trace.timings, **answer.timings}
        return answer

    def explain(
        self, request: EngineRequest | str, *payloads: str, syntax: str | None = None
    ) -> EngineResult:
        """The plan the engine would run (route DETERMINISTIC, no output), or why not."""
        if isinstance(request, str):
            request = EngineRequest.from_instruction(request, *payloads, syntax=syntax)
        trace = _Trace()
        request, warnings = _current_syntax(request)
        if protocol := self._protocol(request, trace):
            protocol.warnings = warnings
            return protocol
        try:
            failure = self._gate(request)
            if failure:
                result = self._fallback(failure.reason, failure.detail, trace)
            elif (blocks := self._blocks(request)) is not None:
                result = self._parts(request, blocks, trace, run=False)
            else:
                reading, plan = self._plan(request)
                result = EngineResult(
                    Route.DETERMINISTIC,
                    plan=self.format(plan),
                    timings=trace.timings,
                    routed=reading.routed,
                )
        except Unsupported as exc:
            result = self._fallback(exc.reason, exc.message, trace)
        result.warnings = warnings
        return result

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
        return format_plan(plan, self._param_orders)

    def forget_instructions(self) -> None:
        """Drop what is remembered of instructions seen before (their normalised text, the
        gate's reading and the parse), so that the next run reads its instruction afresh:
        for benchmarks of a first-time instruction."""
        self._parse_cached.cache_clear()
        self._closing_cached.cache_clear()
        forget_normalised()
        forget_gate_readings()
        self.surface.forget()
        self.frames.forget()

    def runs_locally(self, request: EngineRequest) -> bool:
        """True when answering ``request`` reads nothing but memory and its cost follows its
        length: no intent router (a model) is loaded. The HTTP service runs such requests,
        when short, on its event loop's thread (rules_api/loop_runs.py); plugin ops are pure
        functions, so theirs is the same."""
        return self.router is None

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
        h.update(b"\x03" + (request.syntax or "").encode())
        return h.hexdigest()

    def plugin_info(self) -> list[dict[str, Any]]:
        return [p.to_dict() for p in self.registry.plugins.values()]

    def router_info(self) -> dict[str, Any]:
        """The intent router's status: off, or its model, device, thresholds and examples."""
        if self.router is None:
            return {"router": "off", "mode": self.config.router.mode}
        return {"mode": self.config.router.mode, **self.router.status(self.router_index)}

    def index_examples(self, examples: Any) -> RouterIndex:
        """A router index of ``(normalised instruction, origin)`` pairs, parsed by this
        engine's grammar (the router must be on)."""
        assert self.router is not None
        return self.router.build_index(
            examples,
            self._parse_cached,
            formats=self.format_words(),
            keywords=self.parser.keywords(),
        )

    def route(
        self, instruction: str, segmented: Segmented, index: RouterIndex | None = None
    ) -> Attempt | None:
        """Ask the router about a normalised instruction the grammar did not parse."""
        index = index or self.router_index
        if self.router is None or index is None:
            return None
        payloads = tuple(p.text for p in segmented.payloads)
        return self.router.route(
            index,
            instruction,
            payloads,
            self._parse_cached,
            lambda directives, formats: self._agrees(directives, segmented, formats),
        )

    def format_words(self) -> set[str]:
        """Format names of the installed ops (the families and types they read and write)."""
        words: set[str] = set()
        for spec in self.registry.ops.values():
            if "." in spec.name:
                words.add(spec.name.split(".")[0])
            for type_name in (spec.input_type, spec.output_type):
                words.add(type_name.split("-")[0])
            if spec.name.startswith("sql.to_"):
                words.add(spec.name.removeprefix("sql.to_"))
        return words

    def _agrees(
        self,
        directives: Any,
        segmented: Segmented,
        formats: tuple[str, ...],
        writer_last: bool = False,
    ) -> bool:
        """True when a proposal plans and fits the payload: the op that reads the payload
        claims it (its sniffer says yes), and no reader of another format the request names
        claims it too ("YAML for this JSON" must not read a JSON payload as YAML).
        ``writer_last``: the proposal is a frame's, whose sentence names the conversion first
        and the islands' work after it (``make_plan``)."""
        first = segmented.payloads[0] if segmented.payloads else None
        hint = PayloadHint(first.hint if first else None, first.text if first else None)
        try:
            plan = make_plan(directives, self.registry, hint=hint, writer_last=writer_last)
        except (Unsupported, PlanError):
            return False
        if first is None or not plan.steps:
            return True
        reader = self.registry.ops[plan.steps[0].op]
        if reader.sniff is not None and not reader.sniff(first.text):
            return False
        others = set(formats) - set(reader.formats)
        return not any(
            spec.sniff(first.text)
            for spec in self.registry.ops.values()
            if spec.implicit
            and spec.input_type == TEXT
            and spec.sniff is not None
            and spec is not reader
            and others & set(spec.formats)
        )

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

    def _parse_surface(self, instruction: str, written: str) -> tuple[Directive, ...]:
        """Directives of the surface-canonical instruction; where the grammar does not
        cover it, of the instruction as written (the surface rewrites never make an
        instruction the grammar already knows unknown)."""
        try:
            return self._parse_cached(instruction)
        except NoMatch:
            if instruction == written or check_text(written) is not None:
                raise
            return self._parse_cached(written)

    def _read(
        self,
        message: str,
        payloads: tuple[str | Payload, ...] = (),
        seen: list[Segmented] | None = None,
    ) -> _Reading:
        if payloads:
            given = tuple(p if isinstance(p, Payload) else Payload(p) for p in payloads)
            made: Iterator[Segmented] = iter([Segmented(message, given, how="explicit")])
        else:
            made = readings(message, self.surface.format_names)
        if seen is None:
            seen = []
        seen.clear()
        candidates = _recorded(made, seen)
        try:
            return self._answer_as_converted(self._first_reading(candidates))
        except Exception:
            seen.extend(made)  # the readings not made yet: the caller's fallbacks read them all
            raise

    def _first_reading(self, candidates: Iterator[Segmented]) -> _Reading:
        """The first of a message's readings the engine takes, made one at a time."""
        first_failure: Unsupported | None = None
        refused: list[tuple[Segmented, GateFailure]] = []
        unparsed: list[tuple[Segmented, str]] = []
        stepless: _Reading | None = None
        # readings for the frame readers, in the segmenter's order: those the grammar does
        # not read, and those whose closing sentence the grammar does not take with the
        # instruction before the payload (a frame may read the two together)
        frameable: list[tuple[Segmented, str]] = []
        unread = ""
        for candidate in candidates:
            for payload in candidate.payloads:
                if payload.error is not None:  # a block that says what its payload is not
                    raise payload.error
            texts = tuple(p.text for p in candidate.payloads)
            closing = self._closing_reads(candidate) if candidate.closing else None
            written = normalise(candidate.instruction)
            said = self._words_read(candidate, closing, written, texts)
            instruction = self.surface.canonical(said, texts)
            gate = check_text(instruction, texts)
            if closing is _Closing.DATA:
                if candidate.how == TIGHT_CLOSING:
                    continue  # a line right under the data is the data's unless answer-only
                unread = unread or candidate.closing
                if gate is None:
                    frameable.append((candidate, instruction))
                continue
            if gate is not None:
                refused.append((candidate, gate))
                continue
            try:
                directives = self._parse_surface(instruction, said)
                if instruction != said:
                    if not self._agrees(directives, candidate, self.surface.named(instruction)):
                        raise NoMatch(
                            "the payload is not in the format the instruction names; "
                            "name its format as it is"
                        )
                    self._screened(said)
            except NoMatch as exc:
                first_failure = first_failure or exc
                unparsed.append((candidate, instruction))
                frameable.append((candidate, instruction))
                # a reading that ends the payload before a closing instruction did not hold:
                # a later reading that takes that sentence as data is a guess at the boundary
                unread = unread or candidate.closing
                continue
            except Unsupported as exc:
                if exc.reason not in _UNSTATED:
                    raise
                # the grammar's reading leaves the answer or the order unsaid: the query
                # frame's reading of the same words, when it says them
                framed = self._query_framed(candidate, instruction)
                if framed is None or (
                    exc.reason == "query.which_unstated" and not _states_answer(framed.directives)
                ):
                    raise
                return _accepted(framed, refused)
            if not any(isinstance(d, Step) for d in directives):
                # options alone ("First block here." reads as "block style"): a later reading
                # that asks for an operation is the instruction; else this one fails planning
                stepless = stepless or _Reading(candidate, instruction, directives)
                unparsed.append((candidate, instruction))
                frameable.append((candidate, instruction))
                continue
            sentence = last_sentence(candidate)
            if sentence and self._ambiguous_end(directives, sentence, candidate):
                # an earlier reading a frame reads (the sentence as instruction) comes first
                if (framed := self._first_framed(frameable, unread, refused)) is not None:
                    return framed
                raise Unsupported(
                    "segment.ambiguous",
                    f"the payload ends in {sentence!r}, which reads as an instruction too: "
                    "fence the payload, or put all of the instruction before it",
                )
            if self._head_may_be_data(candidate, directives):
                raise Unsupported(
                    "segment.ambiguous",
                    "the lines under the instruction's first sentence may be the data's first "
                    "paragraph: put a blank line or a colon between the instruction and the "
                    "data, or fence it",
                )
            opening = first_sentence(candidate)
            if opening and self._asks_operation(opening):
                raise Unsupported(
                    "segment.ambiguous",
                    f"the payload begins with {opening!r}, which reads as an instruction too: "
                    "fence the payload, or put all of the instruction on one side of it",
                )
            # answer-only words alone ("Only output valid JSON.") are a weak reading: an
            # earlier reading a frame reads comes first
            if (
                frameable
                and self.surface.answer_only(written)
                and (framed := self._first_framed(frameable, unread, refused)) is not None
            ):
                return framed
            if any(p.ambiguous for p in candidate.payloads):
                raise Unsupported(
                    "segment.ambiguous",
                    "the line before the data names a format and may be the data's own key: "
                    "fence the payload",
                )
            if unread and _ends_in(candidate, unread) and self._asks_of_answer(unread):
                # the data would end in a sentence that asks for the answer in some way
                # ("…, no commentary") and more that is not read: not the data's own line
                raise Unsupported(
                    "segment.closing_sentence",
                    f"the payload ends in {unread!r}, which asks for more than the answer "
                    "alone: put all of the instruction before the payload, or fence it",
                )
            reading = _Reading(candidate, instruction, directives, closing_unread=unread)
            return _accepted(reading, refused)
        if (framed := self._first_framed(frameable, unread, refused)) is not None:
            return framed
        if stepless is not None:
            return _accepted(replace(stepless, closing_unread=unread), refused)
        if refused:
            raise Unsupported(refused[0][1].reason, refused[0][1].detail)
        if self.router is not None and first_failure is not None and unparsed:
            return self._routed(unparsed, first_failure)
        raise first_failure or NoMatch("the instruction is not understood")

    def _first_framed(
        self,
        frameable: list[tuple[Segmented, str]],
        unread: str,
        refused: list[tuple[Segmented, GateFailure]],
    ) -> _Reading | None:
        """The first of the readings the grammar did not take that a frame reader reads."""
        for candidate, instruction in frameable:
            if (framed := self._framed(candidate, instruction)) is not None:
                # a reading with its closing sentence read no line as unread
                unread_here = "" if candidate.closing else unread
                return _accepted(replace(framed, closing_unread=unread_here), refused)
        return None

    def _answer_as_converted(self, reading: _Reading) -> _Reading:
        """``reading``, unless an answer-only clause names the format the request converts
        from rather than the one it converts to ("Convert this YAML to JSON. Return only the
        YAML."): the request contradicts itself, whatever the surface made of the clause."""
        sources = {d.format for d in reading.directives if isinstance(d, Source)}
        steps = [d for d in reading.directives if isinstance(d, Step)]
        spec = self.registry.ops.get(steps[-1].op) if steps else None
        if not sources or spec is None:
            return reading
        output = spec.output_type
        if not output.endswith(("-text", "-source")):
            return reading  # data or text, written out in a format the request may name
        written = normalise(reading.segmented.instruction)
        mentions = self.surface.named(written)
        if all(mentions.count(name) < 2 for name in sources):
            return reading  # the source is named once: as the source
        target = output.rsplit("-", 1)[0]
        for name in self.surface.answer_formats(written):
            if name in sources and name != target:
                raise NoMatch(
                    f"the instruction converts {name} to {target} and asks for the answer as "
                    f"{name}: say which format you want"
                )
        return reading

    def _screened(self, written: str) -> None:
        """A rewritten instruction is read only when the words as written ask nothing open
        ("should this be YAML instead of JSON?" is a question, not a request)."""
        try:
            self.frames.screen(self.surface.terse(written))
        except Unsupported as exc:
            raise NoMatch(exc.message) from None

    def _framed(self, candidate: Segmented, instruction: str) -> _Reading | None:
        """The conversion frame of an instruction the grammar has no shape for
        (core/frames.py), when the grammar reads its sentence and the payload fits it. A text
        longer than any one instruction is no frame's (the readers are linear, but it costs)."""
        if len(instruction) > _FRAME_MAX_CHARS:
            return None
        first = candidate.payloads[0] if candidate.payloads else None
        known = (
            payload_formats(first.hint, first.text, self._sniffers)
            if first is not None
            else frozenset()
        )
        try:
            polite = asks_politely(candidate.instruction)
            text = first.text if first is not None else ""
            directives = tuple(self.frames.read(instruction, known, polite=polite, payload=text))
        except Unsupported:
            return self._query_framed(candidate, instruction)
        named = tuple(d.format for d in directives if isinstance(d, Source))
        targets = self.surface.named(instruction)
        last = not candidate.closing
        if not self._agrees(directives, candidate, (*named, *targets), writer_last=last):
            return self._query_framed(candidate, instruction)  # a reading that does not plan
        return _Reading(candidate, instruction, directives)

    def _query_framed(self, candidate: Segmented, instruction: str) -> _Reading | None:
        """The query frame of an instruction on a JSON array of records (core/query_frames.py),
        when the grammar reads its sentence, the words as written ask nothing open and the
        payload fits the plan."""
        first = candidate.payloads[0] if candidate.payloads else None
        data = self._data(first)
        if data is None:
            return None
        value, source = data
        try:
            wrapped = wrapped_records(value)
            shape = records_of(value if wrapped is None else wrapped[1])
            keys = frozenset(k.lower() for k in shape.numeric) if shape is not None else frozenset()
            self.frames.screen(instruction, query=True, fields=keys)
            sentence = self._query_sentence(instruction, value, source)
            records = value if wrapped is None else wrapped[1]
            directives = tuple(self._parse_sentence(sentence, records))
        except Unsupported:
            return None
        if not any(isinstance(d, Step) for d in directives):
            return None
        if not self._agrees(directives, candidate, ()):
            return None
        return _Reading(candidate, instruction, directives)

    def _parse_sentence(self, sentence: str, records: Any) -> list[Directive]:
        """The grammar's reading of a query frame's ``sentence``, or of the same sentence with
        the records' keys in Chinese quoted when the grammar reads the bare keys as its own
        words (员工数, 是否营业)."""
        try:
            return list(self._parse_cached(sentence))
        except Unsupported:
            keys = {str(k) for r in records if isinstance(r, Mapping) for k in r}
            again = quoted_zh(sentence, keys)
            if again == sentence:
                raise
            return list(self._parse_cached(again))

    def _query_sentence(self, instruction: str, value: Any, source: str) -> str:
        """The grammar's sentence for a value asked for by its path (core/query_paths.py),
        else for a query on records (core/query_frames.py), also on records an object holds
        under one key the instruction names as their noun ({"shipments": […]}, "the cheapest
        shipment": extracted first); ``Unsupported`` for neither."""
        try:
            return path_sentence(instruction, value)
        except Unsupported:
            wrapped = wrapped_records(value)
            if wrapped is None and records_of(value) is None:
                raise
        instruction = self._respelt(instruction, value if wrapped is None else wrapped[1], wrapped)
        if wrapped is None:
            return self._records_sentence(instruction, value, source)
        key, records = wrapped
        named = {key.lower(), singular(key.lower())}
        # a Chinese noun of the records (core/lexicon_zh.RECORD_NOUNS) names them too: one read
        # as "records", or as the key that holds them (发票 for invoices)
        said_zh = any(
            noun in instruction and english.strip() in ("records", key.lower())
            for noun, english in ZH_RECORD_NOUNS.items()
        )
        if not named & set(re.findall(r"[a-z]+", instruction.lower())) and not said_zh:
            raise Unsupported("parse.no_match", f"the records are under {key!r}: name them")
        said = self._records_sentence(instruction, records, source, key)
        return f"extract {json.dumps(key)} then {said}"

    @staticmethod
    def _respelt(instruction: str, records: Any, wrapped: tuple[str, Any] | None) -> str:
        """``instruction`` with a slip of typing in a noun of the records (theirs, or of
        ``RECORD_NOUNS``) or in a word of an aggregate read as the word meant
        (core/query_frames.respelt); the records' keys and text values are never respelt."""
        wrapper = wrapped[0] if wrapped is not None else None
        nouns = {*RECORD_NOUNS, *data_record_nouns(records, wrapper)}
        if wrapper is not None:
            nouns |= {wrapper.lower(), singular(wrapper.lower())}
        known = {
            w
            for r in records
            if isinstance(r, Mapping)
            for k, v in r.items()
            for w in re.findall(r"[a-z]+", f"{k} {v if isinstance(v, str) else ''}".lower())
        }
        return respelt(instruction, nouns, known)

    def _records_inside(self, reading: _Reading) -> bool:
        """Whether the reading's payload is an object that holds records under one key."""
        first = reading.segmented.payloads[0] if reading.segmented.payloads else None
        data = self._data(first)
        return data is not None and wrapped_records(data[0]) is not None

    def _records_sentence(
        self, instruction: str, records: Any, source: str, wrapper: str | None = None
    ) -> str:
        """The query frame's sentence for ``instruction`` on ``records`` (a JSON array of
        objects), the nouns they are given read as "records"."""
        shape = records_of(records)
        if shape is None:
            raise Unsupported("parse.no_match", "the payload holds no records")
        return query_sentence(
            instruction,
            shape.numeric,
            shape.texts,
            source,
            self._grammar_words,
            shape.flags,
            shape.members,
            shape.numbers,
            shape.nullable,
            shape.nulls,
            shape.partial,
            shape.sparse,
            data_record_nouns(records, wrapper),
        )

    def _data(self, payload: Payload | None) -> tuple[Any, str] | None:
        """The data of a JSON payload, or of a YAML one read by its plugin's reader (the one
        reader that claims the payload), with its format; None for any other payload."""
        if payload is None:
            return None
        if payload.text.lstrip()[:1] in ("[", "{"):
            try:
                return json.loads(payload.text), "json"
            except (ValueError, RecursionError):
                pass
        formats = payload_formats(payload.hint, payload.text, self._sniffers)
        readers = [
            spec
            for spec in self.registry.ops.values()
            if spec.implicit
            and spec.input_type == TEXT
            and spec.output_type == JSON_VALUE
            and "yaml" in spec.formats
            and formats & set(spec.formats)
        ]
        if len(readers) != 1:
            return None
        try:
            return readers[0].func(payload.text), "yaml"
        except (ZeroLayerError, ValueError, RecursionError):
            return None

    def _words_read(
        self, candidate: Segmented, closing: _Closing | None, written: str, texts: tuple[str, ...]
    ) -> str:
        """The words of a reading's instruction the grammar reads: all of them (``written``),
        or the words before the payload where the sentence after it (a closing sentence, or
        the words after the last fence) only asks for the answer alone and names no format
        those words do not. The surface would drop that sentence; joined with the words
        before it into one clause, it may change what they read as."""
        after = candidate.closing or candidate.after_fence
        if not after:
            return written
        role = closing if candidate.closing else self._closing_cached(_head(candidate), after)
        if role is not _Closing.ANSWER_ONLY or _names_key(after, texts):
            return written
        return normalise(_head(candidate))

    def _closing_reads(self, candidate: Segmented) -> _Closing:
        """What a reading's closing sentence is: instruction when the instruction before the
        payload asks for an operation on a payload of its own (text of the conversation may
        end in any sentence) and the grammar reads the sentence."""
        tight = candidate.how == TIGHT_CLOSING
        if tight and not self.surface.answer_only(normalise(candidate.closing)):
            # a line right under data of a format whose reader claims only its own data
            # ("SELECT … FROM t\nThanks!", "…\nOnly the code, no explanation."), that the
            # data does not read with, is the user's: thanks alone say nothing, other words
            # are read as a closing sentence; under any other data it is the data's line
            if not self._ends_own_data(candidate):
                return _Closing.DATA
            if _THANKS_LINE.fullmatch(candidate.closing.strip()):
                return _Closing.ANSWER_ONLY
            # "only the code" under such data asks for the answer alone, as "only the result"
            named = self.surface.answer_only_formats(
                normalise(_CODE.sub("result", candidate.closing))
            )
            if named is None:
                return _Closing.DATA
            said = self.surface.named(normalise(_head(candidate)))
            return _Closing.ANSWER_ONLY if all(n in said for n in named) else _Closing.DATA
        return self._closing_cached(_head(candidate), candidate.closing)

    def _ends_own_data(self, candidate: Segmented) -> bool:
        """Whether a reading's payload is data of a format whose reader claims only its own
        data and its closing line does not read as part of it."""
        if not candidate.payloads or candidate.payloads[0].lang:
            return False
        body = candidate.payloads[0].text.rstrip("\n")
        own = payload_formats(None, body, self._sniffers) - _CLAIMS_ANY_TEXT
        line = payload_formats(None, candidate.closing, self._sniffers)
        return bool(own) and not own & line

    def _closing_role(self, head: str, closing: str) -> _Closing:
        if _one_word(head):
            return _Closing.DATA  # "key" in "key:\n - item1": a word of the data
        answers = self.surface.answer_only_formats(normalise(closing))
        terse = answers is not None
        try:
            written = normalise(head)
            directives = self._parse_surface(self.surface.canonical(written), written)
            if not any(isinstance(d, Step) for d in directives):
                return _Closing.DATA
            if self._conversational(directives):
                return _Closing.DATA
        except NoMatch:
            # an instruction the grammar has no shape for (a frame may read it) takes a
            # closing sentence of answer-only words ("Only output valid JSON, no prose.")
            return _Closing.TOGETHER if terse else _Closing.DATA
        except (Unsupported, PlanError):
            return _Closing.DATA
        # answer-only words are instruction, whatever the grammar makes of them ("Only
        # return the HTML.", "typescript please, no commentary"): naming no format the words
        # before the payload do not, they ask for what those words ask for, alone
        if answers is not None:
            named = self.surface.named(written)
            if all(name in named for name in answers):
                return _Closing.ANSWER_ONLY
            return _Closing.TOGETHER
        return _Closing.TOGETHER if self._is_instruction(closing) else _Closing.DATA

    def _asks_of_answer(self, sentence: str) -> bool:
        """Whether a clause of ``sentence`` asks for the answer alone ("no commentary"): it
        is the user's, whatever the rest of it is."""
        written = normalise(sentence)
        return self.surface.terse(written) != written

    def _ambiguous_end(
        self, directives: tuple[Directive, ...], sentence: str, candidate: Segmented
    ) -> bool:
        """Whether a reading whose payload ends in ``sentence`` may have cut the instruction
        short: the payload is data of a format (text of the conversation may end in any
        sentence) and is that sentence alone (a payload of one sentence of prose is the
        user's words, such as an instruction the grammar does not read, not data), or the
        grammar reads the sentence as asking for an operation."""
        try:
            if make_plan(directives, self.registry).input_type == CONVERSATION:
                return False
        except (Unsupported, PlanError):
            pass
        return is_one_sentence(candidate, sentence) or self._asks_operation(sentence)

    def _head_may_be_data(self, candidate: Segmented, directives: tuple[Directive, ...]) -> bool:
        """Whether a reading whose instruction runs over several lines before a blank line
        ("Render this Markdown as HTML.\nHello there\n\n# Title") may have taken the data's
        first paragraph as instruction: its first line is a sentence that asks for an
        operation alone, the grammar reads nothing in the lines after it, and the payload's
        format takes any text (Markdown), so nothing tells the two readings apart."""
        if candidate.how != "after" or "\n" not in candidate.instruction.strip():
            return False
        first, _, rest = candidate.instruction.strip().partition("\n")
        if not _SENTENCE_ENDS.search(first.rstrip()) or not rest.strip():
            return False
        formats = {d.format.lower() for d in directives if isinstance(d, Source)}
        formats |= {(p.lang or "").lower() for p in candidate.payloads}
        steps = [d for d in directives if isinstance(d, Step)]
        spec = self.registry.ops.get(steps[0].op) if steps else None
        if spec is not None:
            formats.add(spec.input_type.rsplit("-", 1)[0])  # markdown-text: markdown
        if not formats & _TAKES_ANY_TEXT:
            return False
        return self._asks_operation(first) and not self._says_anything(rest)

    def _says_anything(self, sentence: str) -> bool:
        """Whether the grammar reads ``sentence`` on its own as an operation or an option."""
        written = normalise(sentence)
        try:
            return bool(self._parse_surface(self.surface.canonical(written), written))
        except Unsupported:
            return False

    def _asks_operation(self, sentence: str) -> bool:
        """Whether the grammar reads ``sentence`` on its own as asking for an operation."""
        written = normalise(sentence)
        try:
            directives = self._parse_surface(self.surface.canonical(written), written)
        except Unsupported:
            return False
        return any(isinstance(d, Step) for d in directives)

    def _conversational(self, directives: tuple[Directive, ...]) -> bool:
        """Whether the plan of ``directives`` reads the conversation rather than a payload (a
        plan that needs the payload to tell its format reads a payload)."""
        try:
            return make_plan(directives, self.registry).input_type == CONVERSATION
        except Unsupported as exc:
            if exc.reason == "plan.ambiguous_input":
                return False
            raise

    def _is_instruction(self, sentence: str) -> bool:
        """Whether the grammar reads ``sentence`` on its own as instruction (one it may still
        refuse, such as an answer-only marker it cannot honour)."""
        written = normalise(sentence)
        try:
            self._parse_cached(written)
        except NoMatch:
            # answer-only words ("No explanation needed.", 别的不用说) are the
            # instruction's too: the surface drops them, or reads them as naming the target
            canonical = self.surface.canonical(written)
            if not canonical.strip(" .。!！"):
                return True
            try:
                self._parse_cached(canonical)
            except NoMatch:
                return False
            except Unsupported:
                return True
        except Unsupported:
            return True
        return True

    def _routed(self, unparsed: list[tuple[Segmented, str]], failure: Unsupported) -> _Reading:
        """The first reading the router finds a proposal for; else the parse failure."""
        why = ""
        for candidate, instruction in unparsed[:ROUTED_READINGS]:
            attempt = self.route(instruction, candidate)
            if attempt is None:
                break
            if attempt.proposal is not None:
                proposal = attempt.proposal
                return _Reading(
                    candidate, proposal.instruction, proposal.directives, proposal.instruction
                )
            why = why or attempt.reason
        if why and isinstance(failure, NoMatch):
            raise NoMatch(f"{failure.message} ({why})", column=failure.column)
        raise failure

    def _plan(
        self, request: EngineRequest, seen: list[Segmented] | None = None
    ) -> tuple[_Reading, Plan]:
        readings: list[Segmented] = [] if seen is None else seen
        try:
            reading = self._read(request.messages[-1].content, request.payloads, readings)
        except NoMatch:
            reading = self._system_reading(request, readings)
            if reading is None:
                reading = self._earlier_reading(request, readings)
            if reading is None and not any(r.payloads for r in readings):
                reading = self._table_reading(request)
            if reading is None:
                raise
        else:
            if request.system and _one_word(reading.segmented.instruction):
                # "key:\n - item1" under a system prompt that is an instruction: the line
                # is the payload's, not an instruction of one word
                reading = self._system_reading(request, readings) or reading
        if not reading.segmented.payloads and not request.payloads:
            reading = self._earlier_payload(request, reading)
            if not reading.segmented.payloads:
                reading = self._table_reading(request) or reading
        if request.system and reading.payload_from != "system":
            reading = self._under_system(request.system, reading)
        # the writer named before the work on the data ("convert to JSON and sort by price")
        # writes last, in an instruction of the user's own words: never in one joined with a
        # sentence after the payload, which a misreading of the sentence would plan so
        last = not reading.segmented.closing and reading.routed is None
        plan = make_plan(reading.directives, self.registry, hint=_hint(reading), writer_last=last)
        return reading, plan

    def _under_system(self, system: str, reading: _Reading) -> _Reading:
        """The reading of the user's message under a system prompt that is not its
        instruction: a system prompt of role sentences and answer-only words says nothing of
        what to do; any other is read with the message's instruction as one instruction
        ("Use 4-space indentation in all YAML." then "Convert this JSON to YAML"), and when
        the two do not read together the request falls back (it may set an option, ask for
        an explanation or another language)."""
        text = normalise(normalise_newlines(system)).strip()
        while text and (end := role_end(text, self.surface.formats)):
            text = text[end:].strip()
        if not text or self.surface.answer_only(text):
            return reading
        payloads = reading.segmented.payloads
        try:
            alone = self._read(text, payloads).directives
        except Unsupported:
            alone = ()
        if _ops(alone) and _ops(alone) != _ops(reading.directives):
            raise Unsupported(
                "system.conflict",
                "the system prompt and the message ask for different operations: the model answers",
            )
        joined = f"{text}\n\n{reading.segmented.instruction}"
        try:
            together = self._read(joined, payloads)
        except Unsupported as exc:
            raise Unsupported(
                "system.unread",
                "the system prompt says something the instruction does not, and the two do "
                f"not read as one instruction ({exc.reason}): the model answers",
            ) from exc
        return replace(together, segmented=reading.segmented, payload_from=reading.payload_from)

    def _table_reading(self, request: EngineRequest) -> _Reading | None:
        """A sort of "that", "them" or "the rows" read as a sort of the table, when nothing
        gave a payload and the latest turn that shows something is an assistant's reply of one
        Markdown table, the turns after it chat alone (no table, fence, bracket or brace):
        "sort that by 2024 highest first", "order the rows by Q1 desc". None when the words
        name no such sort or the reading of the table does not hold."""
        messages = request.messages
        shown = None
        for message in reversed(messages[-7:-1]):
            text = message.content
            if "```" in text or "~~~" in text or "{" in text or "[" in text:
                return None  # data of another kind was given or shown since
            tables = len(_TABLE_RULE.findall(text))
            if tables:
                shown = message if tables == 1 and message.role == "assistant" else None
                break
        if shown is None:
            return None
        written = messages[-1].content.strip()
        rewritten, n = _SORT_OF_SHOWN.subn(r"\g<verb> the table", written, count=1)
        if n != 1:
            return None
        try:
            table = self._read(rewritten)
            if (
                not table.segmented.payloads
                and make_plan(table.directives, self.registry).input_type == CONVERSATION
            ):
                return table
        except (Unsupported, PlanError):
            return None
        return None

    def _earlier_reading(
        self, request: EngineRequest, readings: list[Segmented]
    ) -> _Reading | None:
        """The message read as an instruction on the payload an earlier turn gave, when the
        message has no payload of its own and no reading of it was taken: a frame reader
        needs the payload's format ("can I get that in yaml instead?" of the JSON block the
        assistant just gave), as for a payload given with the instruction; None when there
        is no such payload or the reading does not hold either."""
        if request.payloads or len(request.messages) < 2 or any(r.payloads for r in readings):
            return None
        message = request.messages[-1].content
        probe = _Reading(Segmented(message.strip(), (), how="plain"), "", ())
        try:
            found = self._earlier_payload(request, probe)
        except Unsupported:
            return None
        if not found.segmented.payloads:
            return None
        try:
            reading = self._read(message.strip(), found.segmented.payloads)
        except Unsupported:
            return None
        if not any(isinstance(d, Step) for d in reading.directives):
            return None
        return replace(reading, payload_from="earlier")

    def _system_reading(self, request: EngineRequest, readings: list[Segmented]) -> _Reading | None:
        """The system prompt as the instruction and the user's message as its payload, when the
        message holds no instruction the grammar reads (a prompt template's system prompt
        says what to do with each message); None when that reading does not hold either.
        ``readings`` are the message's own, as ``_read`` made them."""
        system = (request.system or "").strip()
        if not system or request.payloads or len(system) > _SYSTEM_INSTRUCTION_MAX:
            return None
        message = request.messages[-1].content
        fenced = [r for r in readings if r.how == "fenced" and _label_alone(r.instruction)]
        labelled = [r for r in readings if r.how == "colon" and _label_alone(r.instruction)]
        if fenced and len(fenced[0].payloads) == 1:
            payload = fenced[0].payloads[0]
        elif labelled and not labelled[0].payloads[0].ambiguous:
            payload = labelled[0].payloads[0]  # "Input:\n\n{…}": a template's label, the data
        elif not any(r.how == "fenced" for r in readings) and (
            not is_prose(message) or self._reads_as_data(message)
        ):
            payload = Payload(normalise_newlines(message).strip("\n") + "\n")
        else:
            return None
        # clauses that say what the user sends ("The user will paste YAML.") restate the
        # payload's format: dropped, and each format they name must be the reading's source
        # or one the payload reads as (core/system_prompt.py)
        system, stated = without_statements(system, self.surface.format_names)
        if not system:
            return None
        try:
            reading = self._read(system, (payload,))
        except Unsupported:
            return None
        if not any(isinstance(d, Step) for d in reading.directives):
            return None
        if stated:
            sources = {d.format for d in reading.directives if isinstance(d, Source)}
            sniffed = payload_formats(None, payload.text, self._sniffers)
            known = {ALIASES.get(f, f) for f in (*sources, *sniffed)}
            if any(ALIASES.get(f, f) not in known for f in stated):
                return None
        return replace(reading, payload_from="system")

    def _reads_as_data(self, text: str) -> bool:
        """Whether a line that looks like prose reads as data of a format whose reader claims
        only its own data ("SELECT name FROM users"; any line would read as YAML or Markdown,
        so those formats do not count)."""
        return bool(payload_formats(None, text.strip(), self._sniffers) - _CLAIMS_ANY_TEXT)

    def _earlier_payload(self, request: EngineRequest, reading: _Reading) -> _Reading:
        """``reading`` with the payload of an earlier user turn when its own message has none
        ("Now convert that JSON to YAML"): the one fenced block of the latest earlier user
        message that has fenced blocks, or the JSON a message only presents on its line
        (``presented_data``); ``reading`` unchanged when there is none."""
        for message in reversed(request.messages[:-1]):
            if message.role != "user":
                continue
            blocks = [r for r in segment(message.content) if r.how == "fenced"]
            if not blocks and (data := presented_data(message.content)) is not None:
                # "这是我的数据：{…}", then "转成yaml": the data that message presented
                segmented = replace(reading.segmented, payloads=(data,))
                return replace(reading, segmented=segmented, payload_from="earlier")
            if not blocks:
                continue
            if len(blocks[0].payloads) != 1:
                raise Unsupported(
                    "segment.several_payloads",
                    "the instruction refers to an earlier message with several code blocks: "
                    "paste the one to convert with the instruction",
                )
            segmented = replace(reading.segmented, payloads=blocks[0].payloads)
            return replace(reading, segmented=segmented, payload_from="earlier")
        return _assistant_block(request, reading)

    def _input(self, request: EngineRequest, reading: _Reading, plan: Plan) -> Any:
        if plan.input_type == CONVERSATION:
            current = request.messages[-1].content
            return Conversation(
                messages=request.messages[:-1],
                system=request.system,
                before=reading.segmented.before,
                current=current,
                after=_text_after(current, reading.segmented),
                instruction=reading.segmented.instruction,
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
        blocks = self._blocks(request)
        if blocks is not None:
            return self._parts(request, blocks, trace, run=True)
        reading, plan = self._plan(request, trace.readings)
        trace.mark("parse")
        try:
            return self._answer(request, reading, plan, trace)
        except Unsupported as exc:
            if exc.reason not in _MISREAD or reading.routed is not None:
                raise
            # the grammar's reading names what the records do not have: the query frame of
            # the same words, when it reads them, is the reading
            framed = self._query_framed(reading.segmented, reading.instruction)
            if framed is None or framed.directives == reading.directives:
                raise
            framed = replace(framed, payload_from=reading.payload_from)
            try:
                plan = make_plan(framed.directives, self.registry, hint=_hint(framed))
                return self._answer(request, framed, plan, trace)
            except (Unsupported, PlanError):
                raise exc from None

    def _answer(
        self, request: EngineRequest, reading: _Reading, plan: Plan, trace: _Trace
    ) -> EngineResult:
        """Execute ``plan``, the plan of ``reading``, and verify its answer."""
        value = self._input(request, reading, plan)
        fields = None
        if SkippedFieldCheck.needed(plan):
            fields = SkippedFieldCheck(reading.segmented.instruction, plan, value)
        try:
            output, ran = execute(
                plan, value, self.registry, time_limit=self.config.time_limit, on_step=fields
            )
        except (PayloadError, OpError) as exc:
            if reading.routed is not None:  # the request's own words were not understood
                raise Unsupported(
                    "router.unverified",
                    f"the router's proposal {reading.routed!r} does not fit the payload: {exc}",
                ) from exc
            if isinstance(exc, PayloadError) and reading.payload_from == "system":
                raise Unsupported(
                    "system.payload_unread",
                    f"the message does not read as the payload the system prompt's instruction "
                    f"takes: {exc}",
                ) from exc
            if isinstance(exc, PayloadError) and reading.closing_unread:
                raise Unsupported(
                    "segment.closing_sentence",
                    f"the payload does not read with the line after it "
                    f"({reading.closing_unread!r}), and without it the request is not "
                    f"understood: {exc}",
                ) from exc
            if isinstance(exc, OpError) and self._records_inside(reading):
                # "the biggest order" of {"orders": […]}: an op of records run on the object
                # that holds them; the query frame reads the words again, with their key
                raise Unsupported(
                    "query.records_inside",
                    f"the records are inside an object, and the reading ran on the object: {exc}",
                ) from exc
            if isinstance(exc, OpError) and _INNER_QUESTION.search(reading.segmented.instruction):
                # "who earns the most? just the name" read as one clause ("the most name"):
                # a reading across a question whose op does not fit the data is not certain
                raise Unsupported(
                    "plan.across_question",
                    f"the instruction was read across its question mark and the reading does "
                    f"not fit the data: {exc}",
                ) from exc
            if isinstance(exc, PayloadError) and _error_in_last_sentence(reading, exc):
                # "…]\n\nReturn only the YAML.\n\nOnly return the YAML.": the data ended
                # before a sentence of the user's, which is not data the user got wrong
                raise Unsupported(
                    "segment.closing_sentence",
                    f"the payload does not read with the sentence that ends it: {exc}",
                ) from exc
            if isinstance(exc, PayloadError) and _words_before_data(reading, exc):
                # "Example\nInput:\n{…}\nOutput:\n…\n\nNow the real one\nInput:\n{…}": a
                # line of words opens what was read as the payload; where the data starts
                # is not certain
                raise Unsupported(
                    "segment.ambiguous",
                    f"the payload read opens with a line of words, not data: {exc}",
                ) from exc
            if isinstance(exc, PayloadError) and _words_after_data(reading, exc):
                # '{"a": 1}. Thanks!', '{"a": 1}\nThanks!': the data is whole, and the user's
                # words after it on its line or the next are not data the user got wrong
                raise Unsupported(
                    "segment.closing_sentence",
                    f"the payload is whole before words of the user's after it: {exc}",
                ) from exc
            if isinstance(exc, PayloadError) and self._format_wanted(reading, plan):
                raise Unsupported(
                    "payload.other_format",
                    f"the payload reads as another format than {exc.what}, and the request "
                    f"names {exc.what} without saying the payload is in it: {exc.reason}",
                ) from exc
            if isinstance(exc, OpError) or plan.format_stated:
                raise
            raise Unsupported(
                "payload.format_unstated",
                f"the payload does not read as {exc.what} and the request does not say it is "
                f"{exc.what}: {exc.reason}",
            ) from exc
        if fields is not None:
            fields.check()
        trace.mark("execute")
        if not isinstance(output, str):
            raise Unsupported("plan.no_text", "the plan did not produce text")
        return EngineResult(
            Route.DETERMINISTIC,
            output=output,
            plan=self.format(ran),
            timings=trace.timings,
            routed=reading.routed,
        )

    def _format_wanted(self, reading: _Reading, plan: Plan) -> bool:
        """Whether a plan that reads and writes one format ("I need JSON, sorted keys")
        may have read a format the user wants for one the payload is in: the payload reads as
        another format, and the instruction names the plan's format without pointing at the
        payload ("this JSON", 这段JSON)."""
        if len(plan.steps) < 2 or not reading.segmented.payloads:
            return False
        first = plan.steps[0].op.removesuffix(".parse")
        if plan.steps[-1].op != f"{first}.emit" or reading.segmented.payloads[0].hint is not None:
            return False  # a conversion, or a payload whose fence names its format
        text = reading.segmented.payloads[0].text
        others = payload_formats(None, text, self._sniffers) - {first}
        return bool(others) and not _points_at(reading.segmented.instruction, first)

    # ---- messages written in blocks ---------------------------------------------------

    def _blocks(self, request: EngineRequest) -> list[Block] | None:
        """The parts of the last message when it is written in blocks (never with payloads
        given apart, which are used exactly as they are)."""
        if request.payloads or not request.messages:
            return None
        blocks = split_blocks(request.messages[-1].content)
        if blocks is not None:
            tagged = sum(b.number is not None for b in blocks)
            if tagged > self.config.max_blocks:
                raise LimitExceeded(
                    f"the message has {tagged} blocks; the limit is {self.config.max_blocks}",
                    hint="raise ZEROLAYER_MAX_BLOCKS or send the blocks in several requests",
                )
        return blocks

    def _parts(
        self, request: EngineRequest, blocks: list[Block], trace: _Trace, *, run: bool
    ) -> EngineResult:
        """Answer (``run``) or explain each deterministic block on its own; the rest is the
        model's. A block with a bad payload makes the whole request an error naming it."""
        parts: list[Part] = []
        tagged = sum(b.number is not None for b in blocks)
        for block in blocks:
            if not block.deterministic:
                parts.append(Part("model", block.text, reason="blocks.open", block=block.number))
                continue
            sub = request.with_last_message(block.text, syntax=CURRENT)
            try:
                result = self._run(sub, trace) if run else self.explain(sub)
            except (PayloadError, OpError, LimitExceeded) as exc:
                raise exc.in_block(block.number or 0, tagged, block.label) from None
            except Unsupported as exc:
                result = self._fallback(exc.reason, exc.message, trace)
            if result.route is Route.DETERMINISTIC:
                parts.append(Part("zero", result.output or "", result.plan, block=block.number))
            else:
                parts.append(Part("model", block.text, reason=result.reason, block=block.number))
        plans = "\n".join(p.plan for p in parts if p.plan)
        if all(p.kind == "zero" for p in parts):
            output = merge_texts([p.text for p in parts]) if run else None
            return EngineResult(
                Route.DETERMINISTIC,
                output=output,
                plan=plans,
                parts=tuple(parts),
                timings=trace.timings,
            )
        if all(p.kind == "model" for p in parts):  # nothing to merge: one model request
            return self._fallback(
                parts[0].reason or "blocks.open",
                "no block of the message is answered by the engine",
                trace,
            )
        kinds = ",".join(p.kind for p in parts)
        return EngineResult(
            Route.FALLBACK,
            plan=plans,
            reason="blocks.mixed",
            detail=f"the message is written in blocks; its parts are {kinds}",
            parts=tuple(parts),
            timings=trace.timings,
        )

    def _fallback(self, reason: str, detail: str, trace: _Trace) -> EngineResult:
        return EngineResult(Route.FALLBACK, reason=reason, detail=detail, timings=trace.timings)


def _assistant_block(request: EngineRequest, reading: _Reading) -> _Reading:
    """``reading`` with the one fenced block of the reply just before the instruction, when
    no user turn gave a payload ("convert that JSON you gave me to YAML", "can I get that
    in yaml instead?"); unchanged when that reply has no block or several."""
    if len(request.messages) < 2 or request.messages[-2].role != "assistant":
        return reading
    blocks = [r for r in segment(request.messages[-2].content) if r.how == "fenced"]
    if len(blocks) != 1 or len(blocks[0].payloads) != 1:
        return reading
    segmented = replace(reading.segmented, payloads=blocks[0].payloads)
    return replace(reading, segmented=segmented, payload_from="earlier")


def _hint(reading: _Reading) -> PayloadHint:
    """What the planner knows of a reading's first payload."""
    payloads = reading.segmented.payloads
    first = payloads[0] if payloads else None
    return PayloadHint(first.hint, first.text, first.lang) if first is not None else PayloadHint()


def _current_syntax(request: EngineRequest) -> tuple[EngineRequest, tuple[str, ...]]:
    """The request with its last message in the current block syntax, and the warnings."""
    if any("\r" in m.content for m in request.messages):
        request = replace(
            request,
            messages=tuple(
                Message(m.role, normalise_newlines(m.content)) for m in request.messages
            ),
        )
    if request.payloads or not request.messages:
        return request, ()
    text = request.messages[-1].content
    translation = to_current(text, request.syntax)
    if translation.text != text:
        request = request.with_last_message(translation.text)
    return request, translation.warnings


# Readings whose one payload follows the instruction: "<instruction>:\n\n<text>", the
# instruction's paragraph then the rest, its first line then the rest, and payloads given
# apart from the message (the Python API's ``engine.run(instruction, payload)``).
def _head(candidate: Segmented) -> str:
    """The instruction of a reading before its closing sentence (or the words after its
    last fence)."""
    after = candidate.closing or candidate.after_fence
    return candidate.instruction[: len(candidate.instruction) - len(after)]


def _ends_in(candidate: Segmented, sentence: str) -> bool:
    """Whether the last payload of a reading ends in ``sentence``."""
    return bool(candidate.payloads) and candidate.payloads[-1].text.rstrip().endswith(sentence)


def _names_key(sentence: str, payloads: tuple[str, ...]) -> bool:
    """Whether a word of ``sentence`` is a key of the payloads' data ("只输出code" asks for
    the records' code, not for the answer alone)."""
    if not payloads:
        return False
    named = naming_words(sentence)
    if not named:
        return False
    keys = PayloadKeys(payloads)
    return any(w in keys for w in named)


def _label_alone(instruction: str) -> bool:
    """Whether a reading's instruction is nothing, or a template's label alone ("Input",
    "### Input", 输入): the message is the data of a system prompt's instruction."""
    text = instruction.strip()
    return not text or INSTRUCTION_LABEL_LINE.match(text) is not None


def _ops(directives: tuple[Directive, ...]) -> tuple[str, ...]:
    """The operations ``directives`` ask for, in order."""
    return tuple(d.op for d in directives if isinstance(d, Step))


def _one_word(instruction: str) -> bool:
    """Whether an instruction has at most one word of letters, and no Chinese."""
    return len(_LETTERS.findall(instruction)) < 2 and not _CJK_CHAR.search(instruction)


def _error_in_last_sentence(reading: _Reading, exc: PayloadError) -> bool:
    """Whether a payload error lies in a short sentence of prose that ends the payload."""
    if exc.line is None or not reading.segmented.payloads:
        return False
    sentence = last_sentence(reading.segmented)
    text = reading.segmented.payloads[0].text.rstrip("\n")
    if not sentence or text.strip() == sentence:
        return False  # no sentence, or the payload is that sentence alone
    return exc.line >= text.count("\n") + 1


# One short line of words (a sentence, a bracketed remark), no data symbols.
_TRAILING_WORDS = re.compile(
    r"[.,;!?。，；！？]*\s*[(（]?[A-Za-z\u3400-\u9fff][^{}\[\]<>:=\"\n]{0,78}"
)


# A line of plain words: letters, spaces, an apostrophe or comma, a sentence's end.
_WORDS_LINE = re.compile(r"[A-Za-z\u3400-\u9fff][A-Za-z\u3400-\u9fff' ,，]{0,78}[.!。！]?")


_SENTENCE_ENDS = re.compile(r"[.!。！]$")
_CODE = re.compile(r"(?i)\bcode\b")
# A Markdown table's delimiter row ("| --- | ---: |").
_TABLE_RULE = re.compile(
    r"(?m)^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$"
)
# A sort of what was just shown, named by a pronoun or "the rows" ("sort that by …").
_SORT_OF_SHOWN = re.compile(
    r"(?i)^(?:(?:pls|please|now|ok|okay|and|then|can\s+you|could\s+you)[\s,]+)*"
    r"(?P<verb>sort|order|reorder|re-order|arrange|rank)\s+"
    r"(?:that|it|them|this|these|those|(?:the|all\s+the|all)\s+rows)(?=\s+(?:by|descending|ascending|in)\b)"
)
# A line of thanks alone ("Thanks!", "thank you so much", 谢谢！).
_THANKS_LINE = re.compile(
    r"(?i)(?:(?:many\s+)?thanks(?:\s+(?:a\s+lot|so\s+much|in\s+advance))?|thank\s+you"
    r"(?:\s+(?:so\s+much|very\s+much|in\s+advance))?|thx|ty|cheers|谢谢|多谢|感谢)"
    r"[\s!.。！~]*"
)
_THANKS = re.compile(r"(?i)(?:thanks|thank\s+you|thx|cheers|ty)\b|谢谢|多谢|感谢")


def _words_before_data(reading: _Reading, exc: PayloadError) -> bool:
    """Whether a payload error lies on the first line of an unfenced payload of several
    lines, and that line is words alone (letters, spaces and commas: "Example", "Now the
    real one")."""
    if exc.line != 1 or not reading.segmented.payloads:
        return False
    if reading.segmented.how in ("fenced", "explicit", "convert-block"):
        return False
    first, _, rest = reading.segmented.payloads[0].text.partition("\n")
    return bool(rest.strip()) and _WORDS_LINE.fullmatch(first.strip()) is not None


def _is_prose(line: str) -> bool:
    """Whether ``line`` reads as sentences of prose, not data: it ends a sentence, holds four
    words or more, and is mostly letters and spaces ("Remember: Each table is a pandas
    DataFrame … Return only Python code, no explanation.")."""
    text = line.strip()
    if not _SENTENCE_ENDS.search(text) or len(_PROSE_WORD.findall(text)) < 4:
        return False
    plain = sum(c.isalpha() or c == " " for c in text)
    return plain >= 0.85 * len(text)


_PROSE_WORD = re.compile(r"[A-Za-z]{2,}|[\u3400-\u9fff]{2,}")


def _words_after_data(reading: _Reading, exc: PayloadError) -> bool:
    """Whether a payload error points just after a whole JSON value, at one short line of
    words that ends the payload ('{"a": 1}. Thanks!', '{"a": 1} (keep key order)'), or on
    an unfenced payload's last line when that line is a sentence or thanks (any format)."""
    if exc.line is None or exc.column is None or not reading.segmented.payloads:
        return False
    text = reading.segmented.payloads[0].text
    lines = text.split("\n")
    if exc.line > len(lines):
        return False
    last = lines[exc.line - 1]
    if (
        reading.segmented.how not in ("fenced", "explicit", "convert-block")
        and exc.line == len(text.rstrip("\n").split("\n")) > 1
        and last == last.lstrip()
        and (
            (
                _WORDS_LINE.fullmatch(last.strip())
                and (_SENTENCE_ENDS.search(last.strip()) or _THANKS.match(last))
            )
            or _is_prose(last)
        )
    ):
        # the error is on an unfenced payload's last line, a sentence of plain words or
        # thanks ("SELECT … FROM t\nThanks!"): whatever the format, the data ended before
        # the user's words (a fence carries exactly its lines: those are data)
        return True
    offset = sum(len(line) + 1 for line in lines[: exc.line - 1]) + exc.column - 1
    head, rest = text[:offset], text[offset:].strip()
    if not head.strip() or not _TRAILING_WORDS.fullmatch(rest):
        return False
    try:
        json.loads(head)
    except (ValueError, RecursionError):
        return False
    return True


def _points_at(instruction: str, fmt: str) -> bool:
    """Whether ``instruction`` names format ``fmt`` as the payload's ("this JSON", "the
    following JSON", "my JSON", 这段JSON, 下面的JSON)."""
    return (
        re.search(
            rf"(?i)\b(?:this|the|these|that|those|following|below|above|my|our|your|attached)"
            rf"\s+(?:\w+\s+)?{re.escape(fmt)}\b|(?:这段|这个|以下|下面的?|上面的?|该){re.escape(fmt)}",
            instruction,
        )
        is not None
    )


# the longest instruction the frame readers read: a request says what to do in a few sentences
_FRAME_MAX_CHARS = 2000
# formats whose readers take any line of text: a line reading as one of them says nothing
_CLAIMS_ANY_TEXT = frozenset({"yaml", "yml", "markdown", "md", "csv", "text"})
# formats in which any lines of text, one paragraph after another, are a document
_TAKES_ANY_TEXT = frozenset({"markdown", "md", "text"})
_LETTERS = re.compile(r"[A-Za-z]+")
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
_SYSTEM_INSTRUCTION_MAX = 400  # a system prompt longer than this is not one instruction
_INNER_QUESTION = re.compile(r"[?？]\s*\S")  # a question mark with more instruction after it
_PAYLOAD_AFTER = frozenset({"colon", "after", "inline", "first-line", "explicit"})


def _text_after(message: str, segmented: Segmented) -> str:
    """The text of the message after the instruction, when the reading has one payload and
    it follows the instruction (a fenced one only when nothing but its fence follows it)."""
    if len(segmented.payloads) != 1:
        return ""
    text = segmented.payloads[0].text
    if segmented.how in _PAYLOAD_AFTER:
        return text
    span = segmented.payloads[0].span
    if segmented.how == "fenced" and span is not None:
        start, end = span
        if message[:start].strip().startswith(segmented.instruction) and not message[end:].strip():
            return text
    return ""


def _checked_size(payload: Payload, limit: int) -> str:
    text = payload.text
    if text.isascii():
        size = len(text)
    elif len(text) * 4 <= limit:  # at most four UTF-8 bytes a character: within the limit
        return text
    else:  # the one case that needs a UTF-8 copy of the payload
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise LimitExceeded(
            f"the payload is {size} bytes; the limit is {limit}",
            hint="raise ZEROLAYER_MAX_PAYLOAD_BYTES or send a smaller payload",
        )
    return text


__all__ = ["Engine", "EngineConfig", "EngineRequest", "EngineResult", "Message", "Route"]
_ = ZeroLayerError
