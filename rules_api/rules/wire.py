"""The engine's typed errors across the worker-process boundary, positions included.

A rule runs in a worker process (``isolation.py``); what it raises comes back as plain data
(``error_to_wire``) and is raised again in the server as the same class with the same
attributes (``error_from_wire``): a ``PayloadError`` keeps its line, column and excerpt, an
``Unsupported`` its reason. Only the classes of the engine's exception tree travel; an error of
another subclass travels as the nearest of them.
"""

from __future__ import annotations

from typing import Any

from zerolayer.core.errors import (
    LimitExceeded,
    OpError,
    PayloadError,
    PipelineSyntaxError,
    PlanError,
    PositionedLimit,
    StartupError,
    Unsupported,
    ZeroLayerError,
)

_CLASSES: dict[str, type[ZeroLayerError]] = {
    cls.__name__: cls
    for cls in (
        ZeroLayerError,
        StartupError,
        PlanError,
        PipelineSyntaxError,
        PayloadError,
        OpError,
        Unsupported,
        LimitExceeded,
        PositionedLimit,
    )
}
_PLAIN = (str, int, float, bool, type(None))


class WireError(ValueError):
    """Data that does not describe an error of the engine's tree."""


def error_to_wire(exc: ZeroLayerError) -> dict[str, Any]:
    """``exc`` as plain data: its class in the engine's tree and its attributes."""
    name = next(c.__name__ for c in type(exc).__mro__ if c.__name__ in _CLASSES)
    attrs = {k: v for k, v in vars(exc).items() if isinstance(v, _PLAIN)}
    attrs["message"] = exc.message
    return {"type": name, "attrs": attrs}


def error_from_wire(data: Any) -> ZeroLayerError:
    """The error ``error_to_wire`` described, as its class with its attributes."""
    if not isinstance(data, dict) or not isinstance(data.get("attrs"), dict):
        raise WireError("an error on the wire is {type, attrs}")
    cls = _CLASSES.get(data.get("type", ""))
    attrs: dict[str, Any] = data["attrs"]
    if cls is None or not isinstance(attrs.get("message"), str):
        raise WireError(f"{data.get('type')!r} is not an error of the engine's tree")
    exc = cls.__new__(cls)
    Exception.__init__(exc, attrs["message"])
    exc.__dict__.update({"hint": None, "block": None, **attrs})
    return exc
