"""The ops only rules have: regular expressions (with time limits) and sandboxed templates.

Their parameters name entries of the rule's ``patterns`` and ``templates`` maps; the compiler
checks the names, the runner looks the text up. They live beside the built-in ops, never in
the engine's registry, and a built-in op with the same name would be a start-up error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerolayer.core.errors import OpError
from zerolayer.core.types import JSON_VALUE, TEXT, TEXTUAL_TYPES
from zerolayer.rules_api.rules import sandbox
from zerolayer.rules_api.rules.limits import RuleLimits


@dataclass(frozen=True, slots=True)
class RunContext:
    """What a rule op may see besides its input: the rule's texts, slots and limits."""

    patterns: dict[str, str]
    templates: dict[str, str]
    slots: dict[str, Any]
    limits: RuleLimits


@dataclass(frozen=True, slots=True)
class RuleOp:
    """A rule-only op: accepted input types, output type, parameter schema, function."""

    name: str
    inputs: frozenset[str]
    output: str
    params: dict[str, Any]
    func: Callable[..., Any]
    description: str

    @property
    def refs(self) -> dict[str, str]:
        """Parameters that name an entry of ``patterns`` or ``templates``."""
        return {
            k: v["x-refers-to"] for k, v in self.params["properties"].items() if "x-refers-to" in v
        }


def _text(value: Any, op: str) -> str:
    if not isinstance(value, str):
        raise OpError(f"{op} needs text, got {type(value).__name__}")
    return value


def _findall(value: Any, ctx: RunContext, pattern: str) -> list[Any]:
    return sandbox.findall(
        ctx.patterns[pattern], _text(value, "regex.findall"), timeout=ctx.limits.regex_timeout_s
    )


def _match(value: Any, ctx: RunContext, pattern: str) -> dict[str, Any]:
    return sandbox.fullmatch(
        ctx.patterns[pattern], _text(value, "regex.match"), timeout=ctx.limits.regex_timeout_s
    )


def _replace(value: Any, ctx: RunContext, pattern: str, replacement: str, count: int = 0) -> str:
    return sandbox.replace(
        ctx.patterns[pattern],
        replacement,
        _text(value, "regex.replace"),
        timeout=ctx.limits.regex_timeout_s,
        count=count,
    )


def _split(value: Any, ctx: RunContext, pattern: str) -> list[str]:
    return sandbox.split(
        ctx.patterns[pattern], _text(value, "regex.split"), timeout=ctx.limits.regex_timeout_s
    )


def _render(value: Any, ctx: RunContext, template: str) -> str:
    return sandbox.render(
        ctx.templates[template],
        {"data": value, "slots": dict(ctx.slots)},
        max_chars=ctx.limits.max_output_chars,
        time_limit=ctx.limits.run_timeout_s,
    )


def _schema(required: list[str], **props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required}


_PATTERN = {"type": "string", "x-refers-to": "patterns"}
RULE_OPS: dict[str, RuleOp] = {
    op.name: op
    for op in (
        RuleOp(
            "regex.findall",
            frozenset({TEXT}),
            JSON_VALUE,
            _schema(["pattern"], pattern=_PATTERN),
            _findall,
            "every match: a mapping of named groups, or the matched text",
        ),
        RuleOp(
            "regex.match",
            frozenset({TEXT}),
            JSON_VALUE,
            _schema(["pattern"], pattern=_PATTERN),
            _match,
            "the named groups of a match of the whole text; no match falls back",
        ),
        RuleOp(
            "regex.replace",
            frozenset({TEXT}),
            TEXT,
            _schema(
                ["pattern", "replacement"],
                pattern=_PATTERN,
                replacement={"type": "string", "maxLength": 1000},
                count={"type": "integer", "minimum": 0},
            ),
            _replace,
            "replace matches (\\g<name> and \\1 name groups)",
        ),
        RuleOp(
            "regex.split",
            frozenset({TEXT}),
            JSON_VALUE,
            _schema(["pattern"], pattern=_PATTERN),
            _split,
            "the non-empty pieces between matches",
        ),
        RuleOp(
            "template.render",
            frozenset({JSON_VALUE, *TEXTUAL_TYPES}),
            TEXT,
            _schema(["template"], template={"type": "string", "x-refers-to": "templates"}),
            _render,
            "render a sandboxed Jinja2 template with data (the input) and slots",
        ),
    )
}
