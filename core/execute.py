"""Running a plan: each op in turn, fields resolved against the data, outputs verified.

Ops are pure functions. Before a step runs, the names its parameters give as ``FieldRef``
are resolved against the value at hand; after it runs, its verifier (if any) checks the
output, and the plan's time budget is checked. The plan that actually ran, with resolved
names, is returned for the trace.

When a step has no parameters and the next op offers a ``fused`` function for it, the two
run as that one function (same output, checked the same way): ``json.parse | yaml.emit``
converts a large payload a batch at a time instead of holding its whole parsed value.

``on_step(step, spec, output, seconds)``, when given, sees every step that ran, with resolved
parameters and its output (``FUSED`` for a step run as one with the next), for traces that
show what each step did.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from zerolayer.core.errors import LimitExceeded, Unsupported, ZeroLayerError
from zerolayer.core.fields import FieldRef, resolve_params
from zerolayer.core.ops import OpSpec
from zerolayer.core.plan import Plan, Step
from zerolayer.core.registry import Registry
from zerolayer.core.types import OpFunction

log = logging.getLogger(__name__)

#: The output ``on_step`` sees for a step that ran as one with the next (it has none).
FUSED: Final = object()
StepObserver = Callable[[Step, OpSpec, Any, float], None]


def execute(
    plan: Plan,
    value: Any,
    registry: Registry,
    *,
    time_limit: float | None = None,
    limit_hint: str = "send a smaller payload, or raise ZEROLAYER_TIME_LIMIT",
    on_step: StepObserver | None = None,
) -> tuple[Any, Plan]:
    """Run ``plan`` on ``value``; return the result and the plan with resolved parameters."""
    deadline = time.perf_counter() + time_limit if time_limit else None
    ran: list[Step] = []
    steps = list(plan.steps)
    while steps:
        started = time.perf_counter()
        step = steps.pop(0)
        fused = _fused(step, steps[0] if steps else None, registry)
        if fused is not None:
            ran.append(step)
            if on_step is not None:
                on_step(step, registry.ops[step.op], FUSED, 0.0)
            step = steps.pop(0)
        spec = registry.ops[step.op]
        params = resolve_params(step.params, value)
        try:
            if fused is not None:
                out = fused(value, **params)
            else:
                out = spec.func(value, **params)
                if spec.verify is not None:
                    spec.verify(value, out, **params)
        except ZeroLayerError:
            raise
        except RecursionError as exc:
            raise LimitExceeded(f"{step.op}: the input is nested too deeply") from exc
        except Exception as exc:  # a defect in an op: not certain, so fall back, and log it
            log.exception("op %s failed", step.op)
            raise Unsupported("op.failed", f"{step.op} failed: {type(exc).__name__}") from exc
        ran.append(Step(step.op, params))
        value = out
        if on_step is not None:
            on_step(ran[-1], spec, out, time.perf_counter() - started)
        if deadline is not None and time.perf_counter() > deadline:
            raise LimitExceeded(
                f"the plan ran past its time limit of {time_limit:g} s at {step.op}",
                hint=limit_hint,
            )
    return value, Plan(tuple(ran), plan.input_type)


def _fused(step: Step, after: Step | None, registry: Registry) -> OpFunction | None:
    """The function running ``step`` and ``after`` as one, when ``after``'s op has one."""
    if after is None or step.params:
        return None
    fused = registry.ops[after.op].fused.get(step.op)
    if fused is None or any(isinstance(v, FieldRef) for v in leaves(after.params)):
        return None  # names are resolved against the parsed value, which is never built
    return fused


def leaves(value: Any) -> list[Any]:
    """The scalars of a parameter value, nested mappings and lists walked."""
    if isinstance(value, Mapping):
        return [leaf for v in value.values() for leaf in leaves(v)]
    if isinstance(value, list | tuple):
        return [leaf for v in value for leaf in leaves(v)]
    return [value]
