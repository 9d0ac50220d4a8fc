"""The ops only rules have: regular expressions (with time limits) and sandboxed templates.

They are ``OpSpec``s like every other op. ``rule_ops`` makes them for one rule, with its
patterns, templates, slots and limits bound in; ``rule_registry`` lays them over the built-in
ops (``Registry.overlay``), so that the planner checks a rule's pipeline and the executor runs
it exactly as they do the engine's own plans. Their parameters name entries of the rule's
``patterns`` and ``templates`` maps (the schema marks them with ``x-refers-to``; the compiler
checks the names). They never enter the engine's registry, and a built-in op with the same
name is a ``StartupError`` when a rule's registry is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from zerolayer.core.errors import OpError
from zerolayer.core.ops import OpSpec
from zerolayer.core.registry import Registry
from zerolayer.core.types import JSON_VALUE, TEXT, TEXTUAL_TYPES
from zerolayer.rules_api.rules import sandbox
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits

OWNER = "rules"  # the ``plugin`` of every rule op
REFERS_TO = "x-refers-to"


@dataclass(frozen=True, slots=True)
class RuleAssets:
    """What a rule's ops may see besides their input: the rule's texts, slots and limits."""

    patterns: Mapping[str, str] = field(default_factory=dict)
    templates: Mapping[str, str] = field(default_factory=dict)
    slots: Mapping[str, Any] = field(default_factory=dict)
    limits: RuleLimits = DEFAULT_LIMITS


def _text(value: Any, op: str) -> str:
    if not isinstance(value, str):
        raise OpError(f"{op} needs text, got {type(value).__name__}")
    return value


def _schema(required: list[str], **props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required}


_PATTERN = {"type": "string", REFERS_TO: "patterns"}
_TEMPLATE = {"type": "string", REFERS_TO: "templates"}
RULE_OP_NAMES = ("regex.findall", "regex.match", "regex.replace", "regex.split", "template.render")


def rule_ops(assets: RuleAssets) -> list[OpSpec]:
    """The rule-only ops, with ``assets`` bound into their functions."""
    timeout = assets.limits.regex_timeout_s
    patterns, templates = dict(assets.patterns), dict(assets.templates)
    slots = dict(assets.slots)

    def findall(value: Any, pattern: str) -> list[Any]:
        return sandbox.findall(patterns[pattern], _text(value, "regex.findall"), timeout=timeout)

    def match(value: Any, pattern: str) -> dict[str, Any]:
        return sandbox.fullmatch(patterns[pattern], _text(value, "regex.match"), timeout=timeout)

    def replace(value: Any, pattern: str, replacement: str, count: int = 0) -> str:
        text = _text(value, "regex.replace")
        return sandbox.replace(patterns[pattern], replacement, text, timeout=timeout, count=count)

    def split(value: Any, pattern: str) -> list[str]:
        return sandbox.split(patterns[pattern], _text(value, "regex.split"), timeout=timeout)

    def render(value: Any, template: str) -> str:
        return sandbox.render(
            templates[template],
            {"data": value, "slots": dict(slots)},
            max_chars=assets.limits.max_output_chars,
            time_limit=assets.limits.run_timeout_s,
        )

    funcs = [findall, match, replace, split, render]
    return [spec.with_func(func) for spec, func in zip(_SPECS, funcs, strict=True)]


def _unbound(value: Any, **params: Any) -> Any:
    raise OpError("a rule op runs only with its rule's assets bound in")


def _spec(name: str, output: str, params: dict[str, Any], description: str) -> OpSpec:
    return OpSpec(name, TEXT, output, _unbound, params, description, plugin=OWNER)


# The specs, their schemas checked once; ``rule_ops`` binds a rule's functions into copies.
_SPECS = (
    _spec(
        "regex.findall",
        JSON_VALUE,
        _schema(["pattern"], pattern=_PATTERN),
        "every match: a mapping of named groups, or the matched text",
    ),
    _spec(
        "regex.match",
        JSON_VALUE,
        _schema(["pattern"], pattern=_PATTERN),
        "the named groups of a match of the whole text; no match falls back",
    ),
    _spec(
        "regex.replace",
        TEXT,
        _schema(
            ["pattern", "replacement"],
            pattern=_PATTERN,
            replacement={"type": "string", "maxLength": 1000},
            count={"type": "integer", "minimum": 0},
        ),
        "replace matches (\\g<name> and \\1 name groups)",
    ),
    _spec(
        "regex.split",
        JSON_VALUE,
        _schema(["pattern"], pattern=_PATTERN),
        "the non-empty pieces between matches",
    ),
    OpSpec(
        "template.render",
        JSON_VALUE,
        TEXT,
        _unbound,
        _schema(["template"], template=_TEMPLATE),
        "render a sandboxed Jinja2 template with data (the input) and slots",
        also_accepts=TEXTUAL_TYPES,
        plugin=OWNER,
    ),
)
assert tuple(s.name for s in _SPECS) == RULE_OP_NAMES


def rule_registry(builtin: Registry | Mapping[str, OpSpec], assets: RuleAssets) -> Registry:
    """The built-in ops with one rule's ops laid over them."""
    base = builtin if isinstance(builtin, Registry) else Registry(ops=dict(builtin))
    return base.overlay(rule_ops(assets))


def refers_to(spec: OpSpec) -> dict[str, str]:
    """The parameters of ``spec`` that name an entry of ``patterns`` or ``templates``."""
    props: Mapping[str, Any] = spec.params.get("properties", {})
    return {k: v[REFERS_TO] for k, v in props.items() if REFERS_TO in v}
