"""The planner: from directives to a checked plan.

1. Options attach to the step that accepts them: the nearest one before the option, else the
   first after it ("Convert to YAML. Put strings in double quotes." sets ``quote`` on
   ``yaml.emit``). An option no step accepts, or two different values for one parameter,
   make the instruction uncertain: the request falls back.
   A payload's fence tag may imply parameters (```` ```postgres ```` sets ``dialect``); the
   instruction's own value wins when it is the same, and a different one falls back.
2. Types are checked along the chain; where a step needs another type than the one at hand,
   the one implicit op that bridges them is inserted (``json.parse`` before ``sort``), chosen
   by the format the instruction states, else the payload's fence tag, else the ops' sniffers.
3. A chain that does not end in text gets the implicit op that renders its type.
4. Every step's parameters are checked against the op's JSON Schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zerolayer.core.errors import PlanError, Unsupported
from zerolayer.core.ops import OpSpec
from zerolayer.core.plan import Directive, Option, Plan, Source, Step
from zerolayer.core.registry import Registry
from zerolayer.core.types import CONVERSATION, TEXT, TEXTUAL_TYPES


@dataclass(frozen=True, slots=True)
class PayloadHint:
    """What is known of the payload before any op reads it."""

    lang: str | None = None  # fence tag, normalised (json, yaml, sql …)
    text: str | None = None  # the payload itself, for sniffers
    tag: str | None = None  # fence tag as written, lower case (postgres, mysql, sqlite …)


def attach_options(directives: Sequence[Directive], registry: Registry) -> list[Step]:
    steps: list[Step] = []
    pending: list[tuple[int, Option]] = []
    for d in directives:
        if isinstance(d, Step):
            steps.append(d)
        elif isinstance(d, Option):
            pending.append((len(steps), d))
    for position, option in pending:
        index = _target(steps, position, option.name, registry)
        step = steps[index]
        if option.name in step.params and step.params[option.name] != option.value:
            raise Unsupported(
                "plan.conflicting_options",
                f"the instruction asks for {option.name}={step.params[option.name]!r} and "
                f"{option.name}={option.value!r}",
            )
        steps[index] = step.with_params(**{option.name: option.value})
    return steps


def _accepts(step: Step, name: str, registry: Registry) -> bool:
    spec = registry.ops.get(step.op)
    return spec is not None and name in spec.param_names


def _target(steps: list[Step], position: int, name: str, registry: Registry) -> int:
    for i in range(min(position, len(steps)) - 1, -1, -1):
        if _accepts(steps[i], name, registry):
            return i
    for i in range(position, len(steps)):
        if _accepts(steps[i], name, registry):
            return i
    raise Unsupported("plan.option_unused", f"no step of the instruction takes the option {name!r}")


def _bridge(
    from_type: str, to_type: str, registry: Registry, sources: Sequence[str], hint: PayloadHint
) -> OpSpec:
    candidates = registry.implicit_ops(from_type, to_type)
    if not candidates:
        raise Unsupported(
            "plan.type_mismatch", f"nothing turns {from_type} into {to_type} for this chain"
        )
    for wanted in sources:
        chosen = [c for c in candidates if wanted in c.formats]
        if len(chosen) == 1:
            return chosen[0]
    if hint.lang and from_type == TEXT:
        chosen = [c for c in candidates if hint.lang in c.formats]
        if len(chosen) == 1:
            return chosen[0]
        if not chosen and any(c.formats for c in candidates):
            raise Unsupported(
                "plan.payload_format",
                f"the payload is marked {hint.lang!r}, which none of "
                f"{', '.join(c.name for c in candidates)} reads",
            )
    if len(candidates) == 1:
        return candidates[0]
    if hint.text is not None:
        sniffed = [c for c in candidates if c.sniff is not None and c.sniff(hint.text)]
        if len(sniffed) == 1:
            return sniffed[0]
    names = ", ".join(c.name for c in candidates)
    raise Unsupported(
        "plan.ambiguous_input",
        f"the payload could be read by any of {names}; say which format it is in",
    )


def _stated(from_type: str, bridge: OpSpec, sources: Sequence[str], hint: PayloadHint) -> bool:
    """Whether the payload's format was stated (by the instruction or a fence tag) rather
    than guessed from the payload's first characters."""
    if from_type != TEXT or not bridge.formats:
        return True
    return any(f in bridge.formats for f in (*sources, hint.lang) if f)


def _with_tag_params(step: Step, spec: OpSpec, tag: str) -> Step:
    """``step`` with the parameters the payload's fence tag implies for its op; the
    instruction's own value stays, and a different one makes the request fall back."""
    if tag in spec.tag_params and spec.tag_params[tag] is None:
        raise Unsupported(
            "plan.fence_unsupported", f"{spec.name} cannot take a payload marked {tag!r}"
        )
    implied = spec.tag_params.get(tag) or {}
    for name, value in implied.items():
        if name in step.params and step.params[name] != value:
            raise Unsupported(
                "plan.fence_conflict",
                f"the instruction asks for {name}={step.params[name]!r} but the payload is "
                f"marked {tag!r}",
            )
    return step.with_params(**implied) if implied else step


def make_plan(
    directives: Sequence[Directive],
    registry: Registry,
    *,
    input_type: str | None = None,
    hint: PayloadHint | None = None,
    writer_last: bool = False,
) -> Plan:
    """A checked plan for ``directives``; raises ``Unsupported`` or ``PlanError``. With
    ``writer_last``, a chain that names its one writer before the work on the data is planned
    with the writer last (``_writer_last``): the engine asks it of the reading it took, never
    while it weighs readings (a misreading that plans only so is not taken for a reading)."""
    hint = hint or PayloadHint()
    sources = [d.format for d in directives if isinstance(d, Source)]
    steps = attach_options(directives, registry)
    if not steps:
        raise Unsupported("plan.empty", "the instruction asks for no operation")
    for step in steps:
        if step.op not in registry.ops:
            raise PlanError(f"unknown op {step.op!r}", hint=_did_you_mean(step.op, registry))
    _check_sources(sources, steps)
    _check_fence(sources, steps, hint)
    if hint.tag:
        steps = [_with_tag_params(step, registry.ops[step.op], hint.tag) for step in steps]
    first = registry.ops[steps[0].op]
    start = input_type or (CONVERSATION if first.input_type == CONVERSATION else TEXT)
    try:
        return check_chain(steps, registry, start, sources, hint)
    except Unsupported as exc:
        mismatch = writer_last and exc.reason == "plan.type_mismatch"
        moved = _writer_last(steps, registry) if mismatch else None
        if moved is None:
            raise
        return check_chain(moved, registry, start, sources, hint)


def _writer_last(steps: Sequence[Step], registry: Registry) -> list[Step] | None:
    """``steps`` with the one step that writes data out as text moved to the end, when it is
    the first step and every step after it takes and gives the data that step writes:
    "convert to JSON and sort by price" names the answer's format first and the work on the
    data after it (the writer's options stay on it). A writer between steps on the data
    ("sort by age, then convert to YAML, then keep only name") orders work across the
    conversion: None, as for any other shape."""
    specs = [registry.ops[step.op] for step in steps]
    writers = [
        i
        for i, spec in enumerate(specs)
        if spec.output_type.endswith("-text") and spec.input_type not in TEXTUAL_TYPES
    ]
    if len(writers) != 1 or writers[0] != 0 or len(steps) < 2:
        return None
    at = writers[0]
    data = specs[at].input_type
    if not all(spec.input_type == data and spec.output_type == data for spec in specs[at + 1 :]):
        return None
    return [*steps[:at], *steps[at + 1 :], steps[at]]


def _check_sources(sources: Sequence[str], steps: Sequence[Step]) -> None:
    """The instruction names the payload's format once: a second format named as a source
    ("give me compact JSON for this YAML", read as a field of JSON data) must be one a step
    of the chain writes ("convert this YAML to JSON, then sort the keys in the JSON");
    else the reading contradicts itself and falls back."""
    if len(set(sources)) < 2:
        return
    written = {step.op.partition(".")[0] for step in steps}
    others = set(sources) - {sources[0]} - written
    if others:
        raise Unsupported(
            "plan.sources_conflict",
            f"the instruction names the payload as {sources[0]} and as "
            f"{', '.join(sorted(others))}: say which format it is in",
        )


# Fence tags that name a data format the instruction may name as its source.
_FENCE_FORMATS = frozenset({"json", "yaml"})


def _check_fence(sources: Sequence[str], steps: Sequence[Step], hint: PayloadHint) -> None:
    """A source the instruction names must be the format the payload's fence names: "sort by
    age, yaml" over a ```json block read "yaml" as the payload's format (JSON is YAML too)
    and answered JSON, where the user asked for YAML; such a reading falls back. Only a
    fence's tag says the payload's format here: unmarked JSON text is YAML as well."""
    lang = hint.lang
    if not sources or lang not in _FENCE_FORMATS or sources[0] not in _FENCE_FORMATS:
        return
    written = {step.op.partition(".")[0] for step in steps}
    if sources[0] != lang and sources[0] not in written:
        raise Unsupported(
            "plan.fence_source_conflict",
            f"the instruction names the payload as {sources[0]} but it is {lang}",
        )


def check_chain(
    steps: Sequence[Step],
    registry: Registry,
    start: str,
    sources: Sequence[str] = (),
    hint: PayloadHint | None = None,
) -> Plan:
    """Type-check ``steps`` from ``start``, inserting implicit ops and a final renderer."""
    hint = hint or PayloadHint()
    out: list[Step] = []
    current = start
    stated = True
    for step in steps:
        spec = registry.ops.get(step.op)
        if spec is None:
            raise PlanError(f"unknown op {step.op!r}", hint=_did_you_mean(step.op, registry))
        if not spec.accepts(current):
            try:
                bridge = _bridge(current, spec.input_type, registry, sources, hint)
            except Unsupported as exc:
                if exc.reason == "plan.type_mismatch":
                    raise Unsupported(
                        exc.reason,
                        f"{step.op} takes {spec.input_type}, not {current}, and nothing turns "
                        "one into the other",
                    ) from None
                raise
            stated = stated and _stated(current, bridge, sources, hint)
            out.append(Step(bridge.name))
            current = bridge.output_type
        spec.validate_params(step.params)
        out.append(step)
        current = spec.output_type
    if current not in TEXTUAL_TYPES:
        renderer = _bridge(current, TEXT, registry, sources, hint)
        out.append(Step(renderer.name))
    return Plan(tuple(out), input_type=start, format_stated=stated)


def _did_you_mean(name: str, registry: Registry) -> str:
    from difflib import get_close_matches

    close = get_close_matches(name, list(registry.ops), n=3)
    return f"did you mean {' or '.join(close)}?" if close else "run `zerolayer plugins` for ops"
