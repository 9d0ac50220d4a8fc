"""A fallback backend that answers each call with the next scripted text, in chunks."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from zerolayer.core.fallback import Completion, StopReason
from zerolayer.core.messages import EngineRequest


@dataclass
class Call:
    request: EngineRequest
    max_tokens: int
    stop: tuple[str, ...]
    closed: bool = False
    read: int = 0  # chunks the caller took


@dataclass
class ScriptedBackend:
    """``texts`` answer the calls in order; each is streamed in ``chunk``-character pieces
    (or at the cut points of ``cuts``), then a ``Completion`` with ``stop_reason``."""

    texts: Sequence[str]
    chunk: int = 3
    stop_reason: StopReason = "end_turn"
    fail_on_call: int | None = None
    name: str = "scripted"
    calls: list[Call] = field(default_factory=list)

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        text = "".join(p for p in self.stream(request, max_tokens=max_tokens, stop=stop)
                       if isinstance(p, str))  # fmt: skip
        return Completion(text, self.stop_reason)

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        call = Call(request, max_tokens, tuple(stop))
        self.calls.append(call)
        if self.fail_on_call is not None and len(self.calls) - 1 == self.fail_on_call:
            raise ConnectionError("scripted backend is down")
        text = self.texts[(len(self.calls) - 1) % len(self.texts)]
        return self._pieces(call, text)

    def _pieces(self, call: Call, text: str) -> Iterator[str | Completion]:
        try:
            for i in range(0, len(text), max(self.chunk, 1)):
                call.read += 1
                yield text[i : i + self.chunk]
            yield Completion(text, self.stop_reason)
        finally:
            call.closed = True
