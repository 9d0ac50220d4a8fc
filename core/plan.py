"""Plans: the chain of atomic ops that answers an instruction.

A plan has one textual form, the pipeline language (see :mod:`zerolayer.core.pipeline`):
``json.parse | sort(key="created_at", order="desc") | project(fields=["id","name"])``.
Instruction grammars produce *directives*: ``Step`` (run this op) and ``Option`` (set this
parameter on whichever step of the chain accepts it, as in "... with 4-space indentation").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Step:
    """One op call with its parameters."""

    op: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def with_params(self, **params: Any) -> Step:
        return Step(self.op, {**self.params, **params})


@dataclass(frozen=True, slots=True)
class Option:
    """A parameter for the step that accepts it (the nearest one before it, else after)."""

    name: str
    value: Any


@dataclass(frozen=True, slots=True)
class Source:
    """The format the payload is in, as the instruction states it ("this YAML", "JSON to …").

    The planner uses it to choose the implicit op that reads the payload.
    """

    format: str


Directive = Step | Option | Source


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked chain of steps, from the input type to a textual answer."""

    steps: tuple[Step, ...]
    input_type: str = "text"
    # False when the payload's reader was chosen from the payload's look alone: a payload
    # that reader cannot read then falls back instead of being reported as malformed.
    format_stated: bool = True

    def to_text(self) -> str:
        from zerolayer.core.pipeline import format_plan

        return format_plan(self)

    @classmethod
    def from_text(cls, text: str) -> Plan:
        from zerolayer.core.pipeline import parse_plan

        return parse_plan(text)

    def __str__(self) -> str:
        return self.to_text()
