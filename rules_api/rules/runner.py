"""Running a compiled rule: its pipeline on a payload, its examples, and trigger matching.

These functions run in a worker process (``isolation.py``) when called by the service; they
are pure and also run in-process (the CLI, tests).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zerolayer.core.errors import LimitExceeded, Unsupported, ZeroLayerError
from zerolayer.core.execute import FUSED, execute
from zerolayer.core.ops import OpSpec
from zerolayer.core.pipeline import format_step
from zerolayer.core.plan import Step
from zerolayer.core.segment import Payload, Segmented, segment
from zerolayer.rules_api.rules.compiler import CompiledRule, example_slots
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits
from zerolayer.rules_api.rules.rule_ops import RuleAssets, rule_registry
from zerolayer.rules_api.rules.tenant_grammar import TenantGrammar
from zerolayer.rules_api.rules.triggers import instruction_key

PREVIEW_CHARS = 200


@dataclass(slots=True)
class StepTrace:
    """What one step did: for ``evaluate`` explanations."""

    step: str
    input_type: str
    output_type: str
    seconds: float
    preview: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "input_type": self.input_type,
            "output_type": self.output_type,
            "seconds": round(self.seconds, 6),
            "output_preview": self.preview,
        }


@dataclass(slots=True)
class Match:
    """A rule whose trigger matched a message: which phrase, the slots and the payload."""

    rule: CompiledRule
    phrase: str | None  # None: the rule's trigger grammar matched
    slots: dict[str, Any]
    instruction: str
    payload: str
    how: str = ""


@dataclass(slots=True)
class ExampleResult:
    """One example's outcome."""

    index: int
    name: str
    passed: bool
    seconds: float
    output: str | None = None
    error: str | None = None
    diff: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "name": self.name,
            "passed": self.passed,
            "seconds": round(self.seconds, 6),
        }
        if not self.passed:
            out["output"] = self.output
            out["error"] = self.error
        return out


def _preview(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "…"


def run_rule(
    rule: CompiledRule,
    payload: str,
    slots: Mapping[str, Any],
    builtin_ops: Mapping[str, OpSpec],
    limits: RuleLimits = DEFAULT_LIMITS,
) -> tuple[str, list[StepTrace]]:
    """Run the rule's plan on ``payload`` with the engine's executor, over the built-in ops
    with the rule's own laid over them; the output text and a trace of each step.

    Raises the typed errors: ``Unsupported`` (the request falls back), ``OpError``,
    ``PayloadError`` and ``LimitExceeded``.
    """
    size = len(payload.encode("utf-8", "surrogatepass"))
    if size > limits.max_payload_bytes:
        raise LimitExceeded(f"the payload is {size} bytes; the limit is {limits.max_payload_bytes}")
    assets = RuleAssets(rule.patterns, rule.templates, dict(slots), limits)
    registry = rule_registry(builtin_ops, assets)
    trace: list[StepTrace] = []
    current = [rule.plan.input_type]

    def observe(step: Step, spec: OpSpec, out: Any, seconds: float) -> None:
        preview = "(run as one with the next step)" if out is FUSED else _preview(out)
        trace.append(StepTrace(format_step(step), current[0], spec.output_type, seconds, preview))
        current[0] = spec.output_type

    value, _ = execute(
        rule.plan,
        payload,
        registry,
        time_limit=limits.run_timeout_s,
        limit_hint="send a smaller payload, or make the rule's patterns and templates cheaper",
        on_step=observe,
    )
    if not isinstance(value, str):
        raise Unsupported("rule.no_text", "the rule's pipeline did not produce text")
    return value, trace


def run_examples(
    rule: CompiledRule, builtin_ops: Mapping[str, OpSpec], limits: RuleLimits = DEFAULT_LIMITS
) -> list[ExampleResult]:
    """Run every example; exact equality of the output with ``expected`` passes."""
    results = []
    for i, example in enumerate(rule.examples):
        started = time.perf_counter()
        name = example.get("name") or f"example {i + 1}"
        try:
            output, _ = run_rule(
                rule, example["input"], example_slots(rule, example), builtin_ops, limits
            )
        except ZeroLayerError as exc:
            results.append(
                ExampleResult(i, name, False, time.perf_counter() - started, None, _one_line(exc))
            )
            continue
        passed = output == example["expected"]
        results.append(
            ExampleResult(
                i,
                name,
                passed,
                time.perf_counter() - started,
                output,
                None if passed else "the output differs from expected",
            )
        )
    return results


def _one_line(exc: ZeroLayerError) -> str:
    return f"{exc.code}: {exc.message}"


def readings_of(
    message: str, payloads: Sequence[str] = (), segmented: Sequence[Segmented] | None = None
) -> Sequence[Segmented]:
    """The readings of a message: those the engine made when given, else the payloads given
    apart (the message is the instruction), else the message segmented."""
    if segmented:
        return segmented
    if payloads:
        return [Segmented(message, tuple(Payload(p) for p in payloads), how="explicit")]
    return segment(message)


def match_message(
    rules: Sequence[CompiledRule],
    message: str,
    payloads: Sequence[str] = (),
    grammars: Sequence[TenantGrammar] | None = None,
    segmented: Sequence[Segmented] | None = None,
) -> Match | None:
    """The rule whose trigger matches the message's instruction, with its one payload.

    Phrases are tried first, then ``grammars`` (the tenant's composed trigger grammars); by
    default each rule's own grammar, which is right for a single rule. ``segmented`` are the
    readings of the message the engine made already; without them the message is read here.
    """
    readings = [
        (s.instruction, tuple(p.text for p in s.payloads), s.how)
        for s in readings_of(message, payloads, segmented)
    ]
    by_name = {rule.name: rule for rule in rules}
    for instruction, texts, how in readings:
        if len(texts) != 1:
            continue
        key = instruction_key(instruction)
        for rule in rules:
            for trigger in rule.triggers:
                slots = trigger.match(key)
                if slots is not None:
                    return Match(rule, trigger.phrase, slots, instruction, texts[0], how)
        if grammars is None:
            grammars = [r.grammar.matcher for r in rules if r.grammar]
        for parser in grammars:
            found = parser.match(instruction)
            if found is not None and found.rule in by_name:
                return Match(by_name[found.rule], None, found.slots, instruction, texts[0], how)
    return None
