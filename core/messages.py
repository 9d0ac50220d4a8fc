"""What goes into the engine and what comes out: the contract every front end uses.

The HTTP service, the CLI, the bench command and embedders all build an ``EngineRequest``
and read an ``EngineResult``; nothing else about the engine is needed to serve a request.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from zerolayer.core.blocks.syntax import check_version
from zerolayer.core.errors import ZeroLayerError

if TYPE_CHECKING:
    from zerolayer.core.protocol.model import Protocol

Role = Literal["user", "assistant"]


@dataclass(frozen=True, slots=True)
class Message:
    """One turn of a conversation; ``content`` is plain text (content blocks are joined)."""

    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class EngineRequest:
    """A request as the engine sees it, whatever API it arrived through.

    ``temperature`` and ``top_p`` are ``None`` when the caller did not send them. With
    ``payloads`` the last message is the instruction alone; without, the engine finds the
    payloads in the message (fenced blocks, text after a colon, …).
    ``disabled`` is true when the caller asked for the neural route (``x-zero-layer: disable``).
    ``syntax`` is the block syntax version the request was written for (``v1``, ``v2``;
    ``None``: not declared, see ``zerolayer.core.blocks.syntax``); an unknown version raises
    ``SyntaxVersionError``.
    ``sampling`` holds the other sampling parameters the caller sent, as (name, value) pairs
    in the caller's names (``n``, ``seed``, ``top_k``, ``presence_penalty`` …): the engine
    ignores them, a fallback backend forwards or honours them (``core/fallback.py``).
    """

    messages: tuple[Message, ...]
    system: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    disabled: bool = False
    tenant: str | None = None
    payloads: tuple[str, ...] = ()  # given apart from the message: not searched for in it
    syntax: str | None = None
    sampling: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.syntax is not None:
            object.__setattr__(self, "syntax", check_version(self.syntax))

    @classmethod
    def from_instruction(
        cls,
        instruction: str,
        *payloads: str,
        temperature: float | None = 0.0,
        syntax: str | None = None,
    ) -> EngineRequest:
        """A one-turn request: the instruction, with its payloads given exactly as they are."""
        return cls(
            messages=(Message("user", instruction),),
            temperature=temperature,
            payloads=payloads,
            syntax=syntax,
        )

    def option(self, name: str, default: Any = None) -> Any:
        """The value of sampling parameter ``name``, or ``default`` when it was not sent."""
        for key, value in self.sampling:
            if key == name:
                return value
        return default

    def without_options(self, *names: str) -> EngineRequest:
        """This request without the sampling parameters ``names``."""
        return replace(self, sampling=tuple(kv for kv in self.sampling if kv[0] not in names))

    def with_last_message(self, content: str, *, syntax: str | None = None) -> EngineRequest:
        """This request with the last message's text replaced (same role, earlier turns)."""
        last = self.messages[-1]
        return replace(
            self,
            messages=(*self.messages[:-1], Message(last.role, content)),
            syntax=syntax or self.syntax,
        )


class Route(enum.StrEnum):
    """How a request was answered."""

    DETERMINISTIC = "deterministic"  # answered by the engine; HTTP status header "active"
    FALLBACK = "fallback"  # handed to the neural fallback; header "inactive"
    ERROR = "error"  # a recognised instruction with a bad payload: HTTP 400


@dataclass(frozen=True, slots=True)
class Part:
    """One part of the answer to a message written in blocks (``core/blocks/split.py``).

    - ``zero``: the engine answered the block; ``text`` is its output, ``plan`` the plan.
    - ``model``: the part is the model's; ``text`` is what the model is asked (an ``<ask>``
      block's body, the prose, or a ``<convert>`` block the engine does not answer) and
      ``reason`` why (``blocks.open``, ``parse.no_match`` …).

    ``block`` is the number of the tagged block it comes from (from 1; ``None`` for prose).
    """

    kind: Literal["zero", "model"]
    text: str
    plan: str | None = None
    reason: str | None = None
    block: int | None = None


@dataclass(slots=True)
class EngineResult:
    """The engine's answer.

    - ``DETERMINISTIC``: ``output`` is the raw result and ``plan`` its pipeline text.
    - ``FALLBACK``: ``reason`` names why (``gate.temperature``, ``parse.no_match`` …) and
      ``detail`` says it in words; ``output`` is ``None`` (the caller asks its model). With
      ``protocol`` set (reason ``protocol.recognised``) the request asked for a structure:
      the caller has the model fill it (``zerolayer.core.protocol.answer_protocol``).
    - ``ERROR``: ``error`` is the typed exception whose message names line and column.

    A message written in blocks has ``parts``, in message order. When every part is the
    engine's, the route is ``DETERMINISTIC`` and ``output`` is their merge; when some part is
    the model's, the route is ``FALLBACK`` with reason ``blocks.mixed``: a caller that ignores
    ``parts`` sends the whole request to its model, one that reads them asks the model only
    for the ``model`` parts (``zerolayer.core.blocks.parts``). ``warnings`` says what the block
    syntax layer noticed (deprecated syntax, markers read as text).

    ``routed`` is set when the answer comes from the intent router's proposal.
    """

    route: Route
    output: str | None = None
    plan: str | None = None
    reason: str | None = None
    detail: str | None = None
    error: ZeroLayerError | None = None
    timings: dict[str, float] = field(default_factory=dict)  # stage name → seconds
    parts: tuple[Part, ...] = ()
    warnings: tuple[str, ...] = ()
    # The canonical instruction the intent router proposed for a paraphrase the grammar did
    # not parse (None when the grammar parsed the request itself).
    routed: str | None = None
    protocol: Protocol | None = None  # FALLBACK only: the structure the answer must have

    @property
    def active(self) -> bool:
        """True when the engine answered or rejected the request itself (not the fallback)."""
        return self.route is not Route.FALLBACK


@dataclass(frozen=True, slots=True)
class Conversation:
    """The context of an instruction: earlier turns, the system prompt, and the text of the
    current message around the instruction. Context ops take it as their input."""

    messages: tuple[Message, ...]  # earlier turns, oldest first (the current one excluded)
    system: str | None = None
    before: str = ""  # text of the current message before the instruction
    current: str = ""  # the whole current message
    after: str = ""  # text of the current message after the instruction ("… of the text below:")
    instruction: str = ""  # the instruction as written (not normalised)
