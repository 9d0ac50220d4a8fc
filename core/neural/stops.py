"""Stop sequences over streamed text: emit what is safe, hold back what may start a stop."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class StopScanner:
    """Feed text pieces; get back the text that can be emitted without passing a stop sequence.

    Text that could be the beginning of a stop sequence is held until the next piece decides;
    once a stop sequence appears, ``stopped`` names it and everything from it on is dropped.
    """

    stops: Sequence[str]
    stopped: str | None = None
    _held: str = field(default="", repr=False)

    def feed(self, piece: str) -> str:
        """The text of ``piece`` (and held text before it) that is now safe to emit."""
        if self.stopped is not None:
            return ""
        text = self._held + piece
        partial = len(text) - _longest_stop_prefix_suffix(text, self.stops)
        hit = _earliest_stop(text, self.stops)
        if hit is not None and hit[0] <= partial:
            # No longer stop that starts earlier can still complete: this one ends the text.
            self.stopped, self._held = hit[1], ""
            return text[: hit[0]]
        self._held = text[partial:]
        return text[:partial]

    def flush(self) -> str:
        """The held text, at the end of the generation (cut at a stop sequence inside it)."""
        text, self._held = self._held, ""
        if self.stopped is not None:
            return ""
        hit = _earliest_stop(text, self.stops)
        if hit is not None:
            self.stopped = hit[1]
            return text[: hit[0]]
        return text


def _earliest_stop(text: str, stops: Sequence[str]) -> tuple[int, str] | None:
    """(position, stop sequence) of the earliest stop sequence in ``text``, or None."""
    hits = [(text.find(s), s) for s in stops if s and s in text]
    return min(hits) if hits else None


def _longest_stop_prefix_suffix(text: str, stops: Sequence[str]) -> int:
    """Length of the longest end of ``text`` that is a proper beginning of a stop sequence."""
    best = 0
    for stop in stops:
        for n in range(min(len(stop) - 1, len(text)), best, -1):
            if text.endswith(stop[:n]):
                best = n
                break
    return best
