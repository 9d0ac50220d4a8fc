"""Answer a message written in blocks: the engine's parts and the model's, merged in order.

``Engine.run`` answers the deterministic blocks of such a message and returns the rest as
``model`` parts (``EngineResult.parts``). ``MergedAnswer`` is a ``FallbackBackend`` that asks
a real backend for the model parts only, one request per part, and yields the whole answer
in message order — streamed or whole — so that a caller serves a mixed request exactly like a
fallback request.

Merging: parts are joined with a blank line; a part's leading and trailing line breaks are
dropped, and a part with no text adds nothing. The answer honours ``stop`` (it ends at the
earliest stop sequence anywhere in the merged text) and ``max_tokens`` (counted by the
``count_tokens``/``truncate_tokens`` functions given; without them each model part is limited
to ``max_tokens`` and the merged answer is not cut).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field

from zerolayer.core.fallback import Completion, FallbackBackend, final_completion
from zerolayer.core.messages import EngineRequest, Message, Part
from zerolayer.core.neural.stops import StopScanner

SEPARATOR = "\n\n"

Counter = Callable[[str], int]
Truncator = Callable[[str, int], tuple[str, bool]]


def part_request(request: EngineRequest, part: Part) -> EngineRequest:
    """What the model is asked for one part: the same conversation, system prompt and
    sampling, with the part's text as the last user message (read as current syntax)."""
    return EngineRequest(
        messages=(*request.messages[:-1], Message("user", part.text)),
        system=request.system,
        temperature=request.temperature,
        top_p=request.top_p,
        disabled=request.disabled,
        tenant=request.tenant,
        syntax="v2",
    )


@dataclass
class PartJoiner:
    """Joins the texts of parts as they stream: see the module docstring."""

    _any: bool = False
    _started: bool = False
    _held: str = field(default="", repr=False)

    def start_part(self) -> None:
        """The next pieces belong to a new part (its trailing line breaks are dropped)."""
        self._started, self._held = False, ""

    def feed(self, piece: str) -> str:
        """The text to emit for ``piece`` of the current part."""
        out = ""
        if not self._started:
            piece = piece.lstrip("\n")
            if not piece:
                return ""
            self._started = True
            out = SEPARATOR if self._any else ""
            self._any = True
        text = self._held + piece
        body = text.rstrip("\n")
        self._held = text[len(body) :]
        return out + body


def merge_texts(texts: Sequence[str]) -> str:
    """The parts' texts merged into one answer (what ``PartJoiner`` streams)."""
    joiner = PartJoiner()
    out = []
    for text in texts:
        joiner.start_part()
        out.append(joiner.feed(text))
    return "".join(out)


class MergedAnswer:
    """A ``FallbackBackend`` answering one mixed request from its parts and a real backend.

    ``generate``/``stream`` must be called with the request the parts came from.
    """

    def __init__(
        self,
        parts: Sequence[Part],
        backend: FallbackBackend,
        *,
        count_tokens: Counter | None = None,
        truncate_tokens: Truncator | None = None,
    ) -> None:
        self.parts = tuple(parts)
        self.backend = backend
        self.name = f"{backend.name}+zero"
        self._count = count_tokens
        self._truncate = truncate_tokens

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """The whole merged answer."""
        return final_completion(self.stream(request, max_tokens=max_tokens, stop=stop))

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        """Text deltas of the merged answer in message order, then one ``Completion``.

        The first model part's stream is opened (and its first item read) before this
        returns, so that a backend that cannot answer fails here, not in the middle.
        """
        models = [i for i, p in enumerate(self.parts) if p.kind == "model"]
        opened: tuple[int, list[str | Completion], Iterator[str | Completion]] | None = None
        budget = self._budget(models[0], max_tokens, stop) if models else 0
        if budget > 0:
            first = models[0]
            items = iter(
                self.backend.stream(
                    part_request(request, self.parts[first]), max_tokens=budget, stop=stop
                )
            )
            try:
                head: list[str | Completion] = [next(items)]
            except StopIteration:
                head = []
            opened = (first, head, items)
        return self._merged(request, max_tokens, tuple(stop), opened)

    def _budget(self, index: int, max_tokens: int, stop: Sequence[str]) -> int:
        """The tokens left for part ``index`` after the engine's parts before it; 0 when they
        fill ``max_tokens`` or hold a stop sequence (the answer never gets to it)."""
        before = merge_texts([p.text for p in self.parts[:index]])
        if any(s and s in before for s in stop):
            return 0
        if self._count is None:
            return max_tokens
        return max(max_tokens - self._count(before), 0)

    def _merged(
        self,
        request: EngineRequest,
        max_tokens: int,
        stop: tuple[str, ...],
        opened: tuple[int, list[str | Completion], Iterator[str | Completion]] | None,
    ) -> Iterator[str | Completion]:
        joiner, scanner = PartJoiner(), StopScanner(stop)
        limit = _Limit(max_tokens, self._count, self._truncate)
        model_stop: str | None = None  # a stop sequence a model part stopped at
        for index, part in enumerate(self.parts):
            if limit.full or scanner.stopped is not None or model_stop is not None:
                break
            joiner.start_part()
            pieces = self._pieces(request, index, part, limit, stop, opened)
            try:
                for piece in pieces:
                    if isinstance(piece, Completion):
                        if piece.stop_reason == "stop_sequence":  # the model ended the answer
                            model_stop = piece.stop_sequence or ""
                        break
                    text = limit.take(scanner.feed(joiner.feed(piece)))
                    if text:
                        yield text
                    if limit.full or scanner.stopped is not None:
                        break
            finally:
                pieces.close()  # an abandoned model stream frees its backend's slot
        if scanner.stopped is None and not limit.full:
            tail = limit.take(scanner.flush())
            if tail:
                yield tail
        stopped = scanner.stopped if scanner.stopped is not None else model_stop
        if stopped is not None and not limit.full:
            yield Completion(limit.text, "stop_sequence", stopped or None)
        elif limit.full:
            yield Completion(limit.text, "max_tokens")
        else:
            yield Completion(limit.text, "end_turn")

    def _pieces(
        self,
        request: EngineRequest,
        index: int,
        part: Part,
        limit: _Limit,
        stop: tuple[str, ...],
        opened: tuple[int, list[str | Completion], Iterator[str | Completion]] | None,
    ) -> Generator[str | Completion, None, None]:
        if part.kind == "zero":
            yield part.text
            return
        if opened is not None and opened[0] == index:
            yield from opened[1]
            yield from opened[2]
            return
        sub = part_request(request, part)
        yield from self.backend.stream(sub, max_tokens=limit.left, stop=stop)


class _Limit:
    """The ``max_tokens`` budget of a merged answer, over the text emitted so far."""

    def __init__(self, max_tokens: int, count: Counter | None, truncate: Truncator | None):
        self.max_tokens = max_tokens
        self.count, self.truncate = count, truncate
        self.parts: list[str] = []
        self.bound = 0  # an upper bound of the tokens emitted (splitting never lowers a count)
        self.full = False

    @property
    def text(self) -> str:
        return "".join(self.parts)

    @property
    def left(self) -> int:
        return max(self.max_tokens - self.bound, 1)

    def take(self, piece: str) -> str:
        """The part of ``piece`` that fits in the budget (all of it without a counter)."""
        if not piece or self.full:
            return ""
        if self.count is None or self.truncate is None:
            self.parts.append(piece)
            return piece
        added = self.count(piece)
        if self.bound + added <= self.max_tokens:
            self.bound += added
            self.parts.append(piece)
            return piece
        emitted = self.text
        whole, cut = self.truncate(emitted + piece, self.max_tokens)
        fits = whole[len(emitted) :] if whole.startswith(emitted) else ""
        self.parts.append(fits)
        self.bound = self.count(emitted + fits)
        self.full = cut
        return fits
