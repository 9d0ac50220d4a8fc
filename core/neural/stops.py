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
        hits = [(text.find(s), s) for s in self.stops if s and s in text]
        if hits:
            pos, self.stopped = min(hits)
            self._held = ""
            return text[:pos]
        keep = _longest_stop_prefix_suffix(text, self.stops)
        self._held = text[len(text) - keep :] if keep else ""
        return text[: len(text) - keep]

    def flush(self) -> str:
        """The held text, at the end of the generation (no stop sequence completed)."""
        text, self._held = ("" if self.stopped is not None else self._held), ""
        return text


def _longest_stop_prefix_suffix(text: str, stops: Sequence[str]) -> int:
    """Length of the longest end of ``text`` that is a proper beginning of a stop sequence."""
    best = 0
    for stop in stops:
        for n in range(min(len(stop) - 1, len(text)), best, -1):
            if text.endswith(stop[:n]):
                best = n
                break
    return best
