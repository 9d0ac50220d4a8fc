"""The neural fallback contract: what the engine hands requests to when it does not answer.

A backend generates the assistant's text for an ``EngineRequest``. Backends are chosen by
configuration; the HTTP service calls ``generate`` or ``stream`` when the engine's result is
``Route.FALLBACK``, and answers 503 when no backend is configured.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from zerolayer.core.messages import EngineRequest

StopReason = Literal["end_turn", "max_tokens", "stop_sequence"]


@dataclass(frozen=True, slots=True)
class Completion:
    """A finished generation."""

    text: str
    stop_reason: StopReason = "end_turn"
    stop_sequence: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0


def final_completion(items: Iterable[str | Completion]) -> Completion:
    """Run a backend's stream (text pieces, then one ``Completion``) to its end; its
    ``Completion``. A stream that ends without one is a defect of the backend."""
    final: Completion | None = None
    for item in items:
        if isinstance(item, Completion):
            final = item
    if final is None:
        raise RuntimeError("the stream ended without its completion")
    return final


@runtime_checkable
class FallbackBackend(Protocol):
    """A model that answers what the engine does not."""

    name: str

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """Generate the whole answer."""
        ...

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        """Yield text deltas, then one final ``Completion`` with the totals."""
        ...


class FallbackUnavailable(Exception):
    """No backend is configured, or the configured one cannot answer now."""


BackendFactory = Callable[[str, Mapping[str, str]], FallbackBackend]


@dataclass(frozen=True)
class BackendSpec:
    """A fallback backend a plugin offers through ``register_backends``.

    ``name`` is what ``ZEROLAYER_FALLBACK`` names (``local``, ``upstream:URL``); ``factory``
    receives the text after ``name:`` (empty when there is none) and the environment, and
    returns the backend or raises ``StartupError``. Factories import heavy libraries (torch)
    only when called, so registering a backend costs nothing.
    """

    name: str
    factory: BackendFactory
    description: str = ""
    plugin: str = ""
