"""Compile a rule document: schema, triggers, patterns, templates, pipeline and types.

``compile_rule`` collects every problem it finds (each an ``Issue`` with a JSON pointer and a
line and column) and raises ``RuleInvalid`` with all of them, or returns a ``CompiledRule``.
Nothing uploaded runs here: templates are parsed, regular expressions compiled, triggers
checked against the built-in grammar (a rule never shadows a built-in instruction) and
against the tenant's other rules (no two rules claim one instruction). A trigger grammar
fragment is read by ``grammar_fragment``, composed under the tenant's namespace by
``tenant_grammar`` (with the tenant's other grammars, so collisions show as conflicts), and
its sample instructions are checked against the built-in grammar and the other rules.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from zerolayer.core.errors import PipelineSyntaxError, PlanError, Unsupported
from zerolayer.core.normalise import normalise
from zerolayer.core.ops import OpSpec
from zerolayer.core.pipeline import parse_plan
from zerolayer.core.plan import Plan, Step
from zerolayer.core.planner import PayloadHint, check_chain
from zerolayer.core.registry import Registry
from zerolayer.core.types import TEXT
from zerolayer.rules_api.rules import sandbox
from zerolayer.rules_api.rules.document import Document, Issue, RuleInvalid, load_document, pointer
from zerolayer.rules_api.rules.grammar_fragment import Fragment, FragmentInvalid, parse_fragment
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits
from zerolayer.rules_api.rules.rule_ops import (
    RULE_OP_NAMES,
    RuleAssets,
    refers_to,
    rule_ops,
    rule_registry,
)
from zerolayer.rules_api.rules.schema import rule_schema
from zerolayer.rules_api.rules.tenant_grammar import GrammarConflict, TenantGrammar, sentences
from zerolayer.rules_api.rules.triggers import (
    MIN_LITERAL_CHARS,
    Trigger,
    TriggerError,
    compile_trigger,
    instruction_key,
)

#: Does the built-in grammar understand this (normalised) instruction?
BuiltinParser = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class CompiledStep:
    """One step of a rule's plan as a reader sees it: the op, its parameters, whether it is a
    rule op, and the types it takes and gives there."""

    op: str
    params: dict[str, Any]
    rule_op: bool
    input_type: str
    output_type: str


@dataclass(frozen=True)
class GrammarTrigger:
    """A rule's trigger grammar: the checked fragment, a parser of it alone, its samples."""

    fragment: Fragment
    matcher: TenantGrammar = field(repr=False)
    samples: tuple[str, ...]


@dataclass(frozen=True)
class CompiledRule:
    """A rule that compiled: what the matcher and the runner need."""

    name: str
    description: str
    content_hash: str
    triggers: tuple[Trigger, ...]
    plan: Plan
    steps: tuple[CompiledStep, ...]
    pipeline: str
    patterns: dict[str, str]
    templates: dict[str, str]
    output_type: str
    examples: tuple[dict[str, Any], ...]
    data: dict[str, Any] = field(repr=False)
    grammar: GrammarTrigger | None = field(default=None, repr=False)

    def match_instruction(self, instruction: str) -> tuple[str | None, dict[str, Any]] | None:
        """(the phrase, or None for the grammar; slots) when a trigger reads ``instruction``."""
        key = instruction_key(instruction)
        for trigger in self.triggers:
            slots = trigger.match(key)
            if slots is not None:
                return trigger.phrase, slots
        if self.grammar is not None:
            found = self.grammar.matcher.match(instruction)
            if found is not None:
                return None, found.slots
        return None


def content_hash(data: Mapping[str, Any]) -> str:
    """sha256 of the document's canonical JSON: the same rule in YAML or JSON hashes alike."""
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def compile_rule(
    text: str,
    fmt: str,
    *,
    builtin_ops: Mapping[str, OpSpec],
    builtin_parser: BuiltinParser | None = None,
    others: Sequence[CompiledRule] = (),
    limits: RuleLimits = DEFAULT_LIMITS,
    tenant: str = "",
) -> CompiledRule:
    """Compile a document; ``RuleInvalid`` lists every problem with its location.

    ``others`` are the tenant's other active rules; ``tenant`` names the namespace a trigger
    grammar is composed under.
    """
    doc = load_document(text, fmt, limits)
    return compile_document(
        doc,
        builtin_ops=builtin_ops,
        builtin_parser=builtin_parser,
        others=others,
        limits=limits,
        tenant=tenant,
    )


def compile_document(
    doc: Document,
    *,
    builtin_ops: Mapping[str, OpSpec],
    builtin_parser: BuiltinParser | None = None,
    others: Sequence[CompiledRule] = (),
    limits: RuleLimits = DEFAULT_LIMITS,
    tenant: str = "",
) -> CompiledRule:
    """``compile_rule`` on a parsed document."""
    schema_issues = _schema_issues(doc, limits)
    if schema_issues:
        raise RuleInvalid(schema_issues)
    data = doc.data
    issues: list[Issue] = []
    triggers = _triggers(doc, limits, builtin_parser, others, issues)
    grammar = _grammar(doc, limits, builtin_parser, others, issues, tenant)
    patterns: dict[str, str] = data.get("patterns", {})
    templates: dict[str, str] = data.get("templates", {})
    for name, source in patterns.items():
        problem = sandbox.pattern_problem(source)
        if problem:
            issues.append(doc.issue(pointer("patterns", name), problem[1], offset=(1, problem[0])))
    for name, source in templates.items():
        for line, col, message in sandbox.template_problems(source):
            issues.append(doc.issue(pointer("templates", name), message, offset=(line, col)))
    output_type = data.get("output", {}).get("type", TEXT)
    plan = _pipeline(doc, builtin_ops, limits, output_type, issues)
    _examples(doc, triggers, grammar, issues)
    if issues or plan is None:
        raise RuleInvalid(issues)
    return CompiledRule(
        name=data["name"],
        description=data.get("description", ""),
        content_hash=content_hash(data),
        triggers=tuple(triggers),
        plan=plan,
        steps=_typed_steps(plan, builtin_ops),
        pipeline=data["pipeline"],
        patterns=dict(patterns),
        templates=dict(templates),
        output_type=output_type,
        examples=tuple(data["examples"]),
        data=data,
        grammar=grammar,
    )


def _schema_issues(doc: Document, limits: RuleLimits) -> list[Issue]:
    validator = jsonschema.Draft202012Validator(rule_schema(limits))
    issues = []
    for err in sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.path))):
        at = pointer(*err.absolute_path)
        short = _SHORT.get(str(err.validator))
        message = short.format(err.validator_value) if short else err.message
        if len(message) > 300:
            message = message[:300] + "…"
        issues.append(doc.issue(at, message))
    return issues


_SHORT = {
    "maxItems": "is too long: at most {} items",
    "maxLength": "is too long: at most {} characters",
    "maxProperties": "has too many entries: at most {}",
    "minItems": "is too short: at least {} items",
    "minLength": "is too short: at least {} characters",
    "minProperties": "is empty: give phrases, a grammar, or both",
}


def _triggers(
    doc: Document,
    limits: RuleLimits,
    builtin_parser: BuiltinParser | None,
    others: Sequence[CompiledRule],
    issues: list[Issue],
) -> list[Trigger]:
    out: list[Trigger] = []
    seen: dict[str, int] = {}
    for i, phrase in enumerate(doc.data["triggers"].get("phrases", [])):
        at = pointer("triggers", "phrases", i)
        try:
            trigger = compile_trigger(phrase, max_slots=limits.max_slots)
        except TriggerError as exc:
            issues.append(doc.issue(at, exc.message, offset=(1, exc.column)))
            continue
        if trigger.key in seen:
            issues.append(doc.issue(at, f"the same phrase as phrases/{seen[trigger.key]}"))
            continue
        seen[trigger.key] = i
        if builtin_parser is not None and builtin_parser(trigger.sample):
            issues.append(
                doc.issue(
                    at,
                    f"collides with a built-in instruction: {trigger.sample!r} is already "
                    "understood by zerolayer, and a rule never shadows a built-in",
                )
            )
            continue
        for other in others:
            if other.name == doc.data["name"]:
                continue
            if any(_collide(trigger, theirs) for theirs in other.triggers) or (
                other.grammar is not None and other.grammar.matcher.match(trigger.sample)
            ):
                issues.append(
                    doc.issue(at, f"collides with a trigger of rule {other.name!r} of this tenant")
                )
                break
        out.append(trigger)
    return out


def _collide(a: Trigger, b: Trigger) -> bool:
    """Two triggers collide when one matches the other's sample (or their keys are equal)."""
    return a.key == b.key or a.match(b.sample) is not None or b.match(a.sample) is not None


def _pipeline(
    doc: Document,
    builtin_ops: Mapping[str, OpSpec],
    limits: RuleLimits,
    output_type: str,
    issues: list[Issue],
) -> Plan | None:
    """The rule's checked plan: the planner's ``check_chain`` over the rule's registry, with
    the implicit steps that read the input (``json.parse`` before ``sort``) inserted; None,
    with the problems in ``issues``, when it does not check."""
    text = doc.data["pipeline"]
    try:
        written = parse_plan(text)
    except PipelineSyntaxError as exc:
        line, col = exc.line or 1, exc.column or 1
        hint = f" ({exc.hint})" if exc.hint else ""
        issues.append(doc.issue("/pipeline", f"pipeline: {exc.reason}{hint}", offset=(line, col)))
        return None
    if len(written.steps) > limits.max_steps:
        issues.append(doc.issue("/pipeline", f"at most {limits.max_steps} steps"))
        return None
    data = doc.data
    registry = rule_registry(
        builtin_ops, RuleAssets(data.get("patterns", {}), data.get("templates", {}), {}, limits)
    )
    found = len(issues)
    for i, step in enumerate(written.steps, 1):
        where = f"pipeline step {i} ({step.op})"
        spec = registry.ops.get(step.op)
        if spec is None:
            known = ", ".join(RULE_OP_NAMES)
            issues.append(
                doc.issue(
                    "/pipeline",
                    f"{where}: unknown op; rule ops are {known}, "
                    "and every registered op (GET /v1/plugins)",
                )
            )
            return None
        problem = _refs_problem(spec, step.params, data)
        if problem:
            issues.append(doc.issue("/pipeline", f"{where}: {problem}"))
    if len(issues) > found:
        return None
    fmt = data.get("input", {}).get("format")
    readers = sorted({f for s in registry.ops.values() if s.implicit for f in s.formats})
    if fmt is not None and fmt not in readers:
        issues.append(doc.issue("/input/format", f"no op reads {fmt!r}; formats: {readers}"))
        return None
    try:
        plan = _checked(written.steps, registry, [fmt] if fmt else [], data["examples"])
    except (PlanError, Unsupported) as exc:
        issues.append(doc.issue("/pipeline", f"pipeline: {exc.message}"))
        return None
    problem = _bridge_problem(written.steps, plan.steps, registry)
    if problem:
        issues.append(doc.issue("/pipeline", problem))
        return None
    current = registry.ops[plan.steps[-1].op].output_type
    if output_type != TEXT and current not in (TEXT, output_type):
        issues.append(doc.issue("/output/type", f"the pipeline gives {current}, not {output_type}"))
        return None
    return plan


def _typed_steps(plan: Plan, builtin_ops: Mapping[str, OpSpec]) -> tuple[CompiledStep, ...]:
    out: list[CompiledStep] = []
    current = plan.input_type
    rule_specs = {s.name: s for s in rule_ops(RuleAssets())}
    for step in plan.steps:
        spec = builtin_ops.get(step.op) or rule_specs[step.op]
        rule_op = step.op in rule_specs
        out.append(CompiledStep(step.op, dict(step.params), rule_op, current, spec.output_type))
        current = spec.output_type
    return tuple(out)


def _checked(
    steps: Sequence[Step], registry: Registry, sources: list[str], examples: Sequence[Any]
) -> Plan:
    """``check_chain`` from text. When the reader of the input is not stated and more than one
    could read it, the examples decide: the reader that claims all of them, else none."""
    try:
        return check_chain(steps, registry, TEXT, sources)
    except Unsupported as exc:
        if exc.reason != "plan.ambiguous_input":
            raise
        ambiguous = exc
    plans = {
        check_chain(steps, registry, TEXT, sources, PayloadHint(text=e["input"])).to_text()
        for e in examples
    }
    if len(plans) != 1:
        raise Unsupported(
            ambiguous.reason,
            f"{ambiguous.message} (input: {{format: json}}); the examples do not settle it",
        )
    return check_chain(steps, registry, TEXT, sources, PayloadHint(text=examples[0]["input"]))


def _bridge_problem(
    written: Sequence[Step], checked: Sequence[Step], registry: Registry
) -> str | None:
    """Why the steps the planner inserted are not for a rule: a rule's pipeline is read
    as written except for the steps that read its input text (``json.parse``); a value that
    would be rendered to text between two steps, or at the end, is the author's to say."""
    j = 0
    for step in checked:
        if j < len(written) and step == written[j]:
            j += 1
            continue
        bridge = registry.ops[step.op]
        if bridge.input_type == TEXT:
            continue  # the implicit step that reads the input text
        if j < len(written):
            spec = registry.ops[written[j].op]
            return (
                f"pipeline step {j + 1} ({spec.name}): takes {spec.input_type}, "
                f"not {bridge.input_type}"
            )
        return (
            f"the pipeline ends with {bridge.input_type}, not text: end with template.render, "
            "json.emit or yaml.emit"
        )
    return None


def _refs_problem(spec: OpSpec, params: Mapping[str, Any], data: dict[str, Any]) -> str | None:
    """Why a rule op's parameters name no entry of the rule's patterns or templates."""
    for param, section in refers_to(spec).items():
        name = params.get(param)
        if name is not None and name not in data.get(section, {}):
            names = ", ".join(sorted(data.get(section, {}))) or "none"
            return f"{param}={name!r} names no entry of {section} (defined: {names})"
    return None


def _examples(
    doc: Document, triggers: list[Trigger], grammar: GrammarTrigger | None, issues: list[Issue]
) -> None:
    if not triggers and grammar is None:
        return
    for i, example in enumerate(doc.data["examples"]):
        instruction = example.get("instruction")
        if instruction is None:
            continue
        key = instruction_key(instruction)
        if any(t.match(key) is not None for t in triggers):
            continue
        if grammar is not None and grammar.matcher.match(instruction) is not None:
            continue
        issues.append(
            doc.issue(pointer("examples", i, "instruction"), "matches none of the triggers")
        )


def example_slots(rule: CompiledRule, example: Mapping[str, Any]) -> dict[str, Any]:
    """The slot values of an example's instruction (none without one)."""
    instruction = example.get("instruction")
    if not instruction:
        return {}
    found = rule.match_instruction(instruction)
    return found[1] if found is not None else {}


def _grammar(
    doc: Document,
    limits: RuleLimits,
    builtin_parser: BuiltinParser | None,
    others: Sequence[CompiledRule],
    issues: list[Issue],
    tenant: str,
) -> GrammarTrigger | None:
    """Read, compose and check the trigger grammar (None when there is none or it fails)."""
    source = doc.data["triggers"].get("grammar")
    if source is None:
        return None
    at = pointer("triggers", "grammar")
    name = doc.data["name"]
    try:
        fragment = parse_fragment(source, limits)
    except FragmentInvalid as exc:
        for p in exc.problems:
            issues.append(
                doc.issue(
                    at,
                    f"grammar line {p.line}, column {p.column}: {p.message}",
                    offset=(p.line, p.column),
                )
            )
        return None
    try:
        own = TenantGrammar(tenant, [(name, fragment)], limits)
    except GrammarConflict as exc:
        issues.append(doc.issue(at, f"the trigger grammar is ambiguous: {exc.message}"))
        return None
    samples = sentences(fragment, limits.max_grammar_samples)
    problem = _sample_problem(name, own, samples, builtin_parser, others)
    if problem:
        issues.append(doc.issue(at, problem))
        return None
    theirs = [(o.name, o.grammar.fragment) for o in others if o.grammar and o.name != name]
    if len(theirs) + 1 > limits.max_grammar_rules_per_tenant:
        issues.append(
            doc.issue(
                at,
                f"the tenant has {len(theirs)} active rules with a trigger grammar; the limit "
                f"is {limits.max_grammar_rules_per_tenant}",
            )
        )
        return None
    if theirs:
        try:
            TenantGrammar(tenant, [(name, fragment), *theirs], limits)
        except GrammarConflict as exc:
            involved = sorted(exc.rules - {name})
            if involved:
                message = (
                    f"collides with the trigger grammar of rule {involved[0]!r} of this tenant"
                )
            else:
                message = "the trigger grammar is ambiguous"
            issues.append(doc.issue(at, f"{message}: {exc.message}"))
            return None
    for other in others:
        if other.name == name:
            continue
        for trigger in other.triggers:
            if own.match(trigger.sample) is not None:
                issues.append(
                    doc.issue(
                        at,
                        f"collides with a trigger of rule {other.name!r} of this tenant: the "
                        f"grammar reads its phrase {trigger.phrase!r}",
                    )
                )
                return None
    return GrammarTrigger(fragment, own, tuple(samples))


def _sample_problem(
    name: str,
    own: TenantGrammar,
    samples: Sequence[str],
    builtin_parser: BuiltinParser | None,
    others: Sequence[CompiledRule],
) -> str | None:
    """Why the grammar's sample instructions show it cannot be a trigger, or None."""
    for sample in samples:
        if sum(1 for ch in sample if ch.isalnum()) < MIN_LITERAL_CHARS:
            return (
                f"the grammar reads {sample!r}, which is too short to be an instruction: "
                f"a trigger needs at least {MIN_LITERAL_CHARS} letters"
            )
        found = own.match(sample)
        if found is None or found.rule != name:
            seen = normalise(sample)
            after = f" (normalised: {seen!r})" if seen != sample else ""
            return (
                f"the grammar does not read its own sentence {sample!r}{after}: a pattern may "
                "swallow the next word, or normalisation changes a literal; make them distinct"
            )
        if builtin_parser is not None and builtin_parser(sample):
            return (
                f"collides with a built-in instruction: {sample!r} is already understood by "
                "zerolayer, and a rule never shadows a built-in"
            )
        key = instruction_key(sample)
        for other in others:
            if other.name != name and any(t.match(key) is not None for t in other.triggers):
                return (
                    f"collides with a trigger of rule {other.name!r} of this tenant: its "
                    f"phrases read {sample!r}"
                )
    return None
