"""Op specifications: the atomic operations that plans are made of.

An op is a pure function ``func(value, **params) -> value`` with a name, an input type, an
output type and a JSON Schema for its parameters. Plugins register ops through the
``register_ops`` hook; the planner checks chains and parameters against these specs before
anything runs.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from zerolayer.core.errors import PlanError
from zerolayer.core.types import OpFunction, Verifier

OP_NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")
_EMPTY_SCHEMA: Mapping[str, Any] = {"type": "object", "properties": {}}


@dataclass(frozen=True)
class OpSpec:
    """One atomic operation.

    ``implicit`` ops convert one type to another and may be inserted by the planner when a
    chain needs them (``json.parse`` turns text into a json-value); ``formats`` name the
    payload formats such an op reads, which the planner uses to pick between candidates.
    ``verify(input, output, **params)`` raises when an output is not what was intended.
    ``fused`` maps the name of an op that may run just before this one (with no parameters)
    to a function ``f(input, **params)`` that gives the same output as the two ops in turn,
    this op's check included, straight from the first op's input: the JSON → YAML writer
    uses it to convert a large payload without holding the whole parsed value.
    ``tag_params`` maps a payload's fence tag to the parameters it implies for this op
    (```` ```postgres ```` → ``{"dialect": "postgres"}``); the planner sets them where the
    instruction does not, and falls back when the instruction sets another value. ``None``
    for a tag marks payloads this op cannot take exactly (```` ```tsql ````): they fall back.
    ``also_accepts`` names further input types the op takes as they are (a template renders
    parsed data or text alike); the planner bridges only from other types.
    """

    name: str
    input_type: str
    output_type: str
    func: OpFunction
    params: Mapping[str, Any] = field(default_factory=lambda: dict(_EMPTY_SCHEMA))
    description: str = ""
    implicit: bool = False
    formats: tuple[str, ...] = ()
    verify: Verifier | None = None
    sniff: Callable[[str], bool] | None = None  # does this implicit op claim that payload?
    fused: Mapping[str, OpFunction] = field(default_factory=dict)
    tag_params: Mapping[str, Mapping[str, Any] | None] = field(default_factory=dict)
    also_accepts: frozenset[str] = frozenset()
    plugin: str = ""  # filled in by the registry

    def __post_init__(self) -> None:
        if not OP_NAME.match(self.name):
            raise ValueError(
                f"op name {self.name!r} must be lower-case words joined by dots (json.parse)"
            )
        if not callable(self.func):
            raise TypeError(f"op {self.name!r}: func must be callable")
        jsonschema.Draft202012Validator.check_schema(self.params)
        if self.params.get("type") != "object":
            raise ValueError(f"op {self.name!r}: the parameter schema must be of type object")
        closed = {"additionalProperties": False, **self.params}
        validator = jsonschema.Draft202012Validator(closed)
        object.__setattr__(self, "_validator", validator)
        object.__setattr__(self, "_takes_none", validator.is_valid({}))

    def with_func(self, func: OpFunction) -> OpSpec:
        """This op with another function (the same schema, checked once: a rule's ops are
        made for every run with its assets bound in)."""
        if not callable(func):
            raise TypeError(f"op {self.name!r}: func must be callable")
        clone = copy.copy(self)
        object.__setattr__(clone, "func", func)
        return clone

    def accepts(self, input_type: str) -> bool:
        """Whether the op takes a value of ``input_type`` as it is."""
        return input_type == self.input_type or input_type in self.also_accepts

    @property
    def param_names(self) -> tuple[str, ...]:
        """Parameter names in the schema's order (the canonical order in plan text)."""
        return tuple(self.params.get("properties", {}))

    def validate_params(self, params: Mapping[str, Any]) -> None:
        """Raise ``PlanError`` naming the parameter when ``params`` break the schema."""
        if not params and self._takes_none:  # type: ignore[attr-defined]
            return  # most steps: no parameters, and the schema requires none
        validator: jsonschema.Draft202012Validator = self._validator  # type: ignore[attr-defined]
        errors = sorted(validator.iter_errors(dict(params)), key=lambda e: list(e.path))
        if errors:
            err = errors[0]
            where = ".".join(str(p) for p in err.absolute_path) or "(parameters)"
            raise PlanError(
                f"op {self.name}: parameter {where}: {err.message}",
                hint=f"parameters of {self.name}: {', '.join(self.param_names) or 'none'}",
            )
