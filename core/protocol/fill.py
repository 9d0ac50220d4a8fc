"""Filling a protocol: one model call per item or paragraph, rendered into the skeleton.

The engine writes the skeleton (headings, list markers, blank lines); the backend writes only
the text of one slot item per call, and that text is cleaned into one safe line
(``clean.py``). Each call sees the request's earlier turns and system prompt, the task, the
outline of the whole answer, and what has been written so far, so that items do not repeat
each other. Streaming sends the skeleton and each item's text in order as they come; the
first piece is sent only once the model has answered the first call, so that a backend that
fails to start fails the request before any answer is sent.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from zerolayer.core.fallback import Completion, FallbackBackend, final_completion
from zerolayer.core.messages import EngineRequest, Message
from zerolayer.core.protocol.clean import SlotText
from zerolayer.core.protocol.markdown import Fill, check_structure, skeleton
from zerolayer.core.protocol.model import Kind, Protocol, Slot
from zerolayer.core.protocol.vocabulary import english_singular


@dataclass(frozen=True, slots=True)
class FillLimits:
    """Per-call limits: tokens the model may generate and characters kept of its text.

    The token budget of a call is also at most the request's ``max_tokens`` shared among
    the calls (never under ``min_tokens``).
    """

    item_tokens: int = 96
    paragraph_tokens: int = 320
    min_tokens: int = 16
    item_chars: int = 500
    paragraph_chars: int = 1600


_KIND_WORDS = {
    Kind.QUESTION: "question",
    Kind.OPTION: "option",
    Kind.BULLET: "bullet point",
    Kind.ITEM: "point",
    Kind.STEP: "step",
    Kind.PARAGRAPH: "paragraph",
}
_FORMS = {
    Kind.QUESTION: "Write one question, ending with a question mark.",
    Kind.OPTION: "Name one option, then say in one sentence what it is.",
    Kind.BULLET: "Write one sentence.",
    Kind.ITEM: "Write one sentence.",
    Kind.STEP: "Write one sentence that describes this step.",
    Kind.PARAGRAPH: "Write one paragraph of plain text.",
}


def outline(protocol: Protocol) -> str:
    """The whole answer's shape in words, for the prompt."""
    parts = []
    for slot in protocol.slots:
        if slot.kind.listed:
            shape = f"{slot.count} {slot.noun or _KIND_WORDS[slot.kind] + 's'}"
            shape += f" {slot.about}" if slot.about else ""
        else:
            shape = "one paragraph" if slot.count == 1 else f"{slot.count} paragraphs"
        parts.append(f'"{slot.title}": {shape}' if slot.title else shape)
    return "; ".join(parts)


_GLOSSES = {"pro": "pro, an advantage", "con": "con, a disadvantage"}


def _target(slot: Slot, fill: Fill) -> str:
    """What one call writes: "one challenging question (question 2 of 3)"."""
    section = f' of the section "{slot.title}"' if slot.title else ""
    if not slot.kind.listed:
        which = f"paragraph {fill.index} of {slot.count}" if slot.count > 1 else "the paragraph"
        return which + section
    kind = _KIND_WORDS[slot.kind]
    noun = english_singular(slot.noun) if slot.noun else kind
    noun = _GLOSSES.get(noun.lower(), noun) + (f" {slot.about}" if slot.about else "")
    return f"one {noun} ({kind} {fill.index} of {slot.count}{section})"


def slot_request(
    protocol: Protocol, request: EngineRequest, fill: Fill, written: str
) -> EngineRequest:
    """The request that asks the model for the text of one fill."""
    slot = protocol.slots[fill.slot]
    task = protocol.task or "see the conversation above"
    parts = [f"Request: {task}", f"Outline of the answer: {outline(protocol)}."]
    if written.strip():
        parts.append("Written so far:\n" + written.strip())
    parts.append(
        f"Write {_target(slot, fill)} now. {_FORMS[slot.kind]} Reply with it only: no heading, "
        "no number, no list marker" + (", and nothing already written." if written.strip() else ".")
    )
    if protocol.language == "zh":
        parts.append("用中文回答。")
    return EngineRequest(
        messages=(*request.messages[:-1], Message("user", "\n\n".join(parts))),
        system=request.system,
        temperature=request.temperature,
        top_p=request.top_p,
        tenant=request.tenant,
    )


def _tokens(protocol: Protocol, limits: FillLimits, max_tokens: int) -> tuple[int, int]:
    """(item, paragraph) token budgets of one call."""
    share = max(limits.min_tokens, max_tokens // max(protocol.fills, 1))
    return min(limits.item_tokens, share), min(limits.paragraph_tokens, share)


def _pieces(
    protocol: Protocol,
    request: EngineRequest,
    backend: FallbackBackend,
    max_tokens: int,
    stop: Sequence[str],
    limits: FillLimits,
) -> Iterator[str]:
    """The answer's text in order: skeleton pieces joined to the cleaned text after them."""
    shape = skeleton(protocol)
    item_tokens, paragraph_tokens = _tokens(protocol, limits, max_tokens)
    written: list[str] = []
    for fill in shape.fills:
        listed = protocol.slots[fill.slot].kind.listed
        cleaner = SlotText(limits.item_chars if listed else limits.paragraph_chars)
        ask = slot_request(protocol, request, fill, "".join(written))
        pending = fill.prefix
        written.append(fill.prefix)
        stream = iter(
            backend.stream(ask, max_tokens=item_tokens if listed else paragraph_tokens, stop=stop)
        )
        cut, seen = False, False
        try:
            for item in stream:
                if isinstance(item, Completion):
                    cut = item.stop_reason == "max_tokens"
                    if seen or not item.text:
                        break
                    item = item.text  # a backend that sent its text only in the completion
                seen = True
                text = cleaner.feed(item)
                if text:
                    written.append(text)
                    yield pending + text
                    pending = ""
                if cleaner.done:
                    break
        finally:
            close = getattr(stream, "close", None)
            if callable(close):
                close()  # a local model frees its slot; an upstream closes its response
        text = cleaner.close(cut=cut)
        written.append(text)
        if pending or text:
            yield pending + text
    if shape.suffix:
        yield shape.suffix


def stream_protocol(
    protocol: Protocol,
    request: EngineRequest,
    backend: FallbackBackend,
    *,
    max_tokens: int = 1024,
    stop: Sequence[str] = (),
    limits: FillLimits | None = None,
) -> Iterator[str | Completion]:
    """Text pieces of the answer in order, then one ``Completion`` with the whole text.

    The caller's ``stop`` sequences end an item's text, never the skeleton. Backend errors
    propagate; ``ProtocolDefect`` (a bug) if the answer lacks its structure.
    """
    texts: list[str] = []
    for piece in _pieces(protocol, request, backend, max_tokens, stop, limits or FillLimits()):
        texts.append(piece)
        yield piece
    answer = "".join(texts)
    check_structure(answer, protocol)
    yield Completion(answer)


def answer_protocol(
    protocol: Protocol,
    request: EngineRequest,
    backend: FallbackBackend,
    *,
    max_tokens: int = 1024,
    stop: Sequence[str] = (),
    limits: FillLimits | None = None,
) -> Completion:
    """The whole answer of a protocol (see ``stream_protocol``)."""
    return final_completion(
        stream_protocol(protocol, request, backend, max_tokens=max_tokens, stop=stop, limits=limits)
    )
