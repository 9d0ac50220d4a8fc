"""What a protocol is: an ordered list of slots the model fills, and the task they are about.

A protocol is the shape a meta-instruction asks the answer to have ("answer in exactly 5
bullet points", "give me 3 pros and 3 cons", "按'问题-影响-方案-风险'四段式输出"). The engine
renders the shape; the model only writes the text of each slot.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass

#: The fallback reason of a request whose answer follows a protocol.
PROTOCOL_REASON = "protocol.recognised"

#: Most items one slot may ask for, and most model calls one protocol may take.
MAX_ITEMS_PER_SLOT = 20
MAX_FILLS = 40


class Kind(enum.StrEnum):
    """What one slot holds; it chooses the Markdown and what the model is asked to write."""

    QUESTION = "question"  # numbered list of questions
    OPTION = "option"  # numbered list of options
    BULLET = "bullet"  # "-" list
    ITEM = "item"  # numbered list of points, reasons, ideas, pros, risks …
    STEP = "step"  # numbered list of steps
    PARAGRAPH = "paragraph"  # plain paragraphs

    @property
    def listed(self) -> bool:
        """True when the slot is a Markdown list (every kind but paragraphs)."""
        return self is not Kind.PARAGRAPH

    @property
    def ordered(self) -> bool:
        """True for numbered lists ("1."), False for "-" lists and paragraphs."""
        return self.listed and self is not Kind.BULLET


@dataclass(frozen=True, slots=True)
class Slot:
    """``count`` items of one ``kind``, under a heading when ``title`` is set.

    ``noun`` is the request's own words for the items ("challenging questions", "pros",
    "要点") and ``about`` the words that follow them ("about learning to code"); they tell
    the model what to write.
    """

    kind: Kind
    count: int = 1
    title: str | None = None
    noun: str = ""
    about: str = ""

    def describe(self) -> str:
        """``question*3``, ``"Pros": bullet*3``, ``"问题": paragraph``."""
        shape = self.kind.value
        if self.kind.listed or self.count != 1:
            shape += f"*{self.count}"
        if self.title is None:
            return shape
        return f"{json.dumps(self.title, ensure_ascii=False)}: {shape}"


@dataclass(frozen=True, slots=True)
class Protocol:
    """A recognised meta-instruction.

    ``slots`` in answer order; ``task`` is the request without the meta-instruction (what
    the slots are about; may be empty when earlier turns carry it); ``phrase`` is the
    meta-instruction as recognised (normalised text); ``language`` (``en``/``zh``) chooses
    default titles and the language the model is asked to answer in.
    """

    slots: tuple[Slot, ...]
    task: str = ""
    phrase: str = ""
    language: str = "en"

    def __post_init__(self) -> None:
        if not self.slots or any(s.count < 1 for s in self.slots):
            raise ValueError("a protocol has at least one slot, each of at least one item")
        if len(self.slots) > 1 and any(s.title is None for s in self.slots):
            # untitled neighbours would merge into one list or run into each other
            raise ValueError("every slot of a protocol with several slots has a title")

    @property
    def fills(self) -> int:
        """How many pieces of text the model writes (one per item or paragraph)."""
        return sum(slot.count for slot in self.slots)

    def describe(self) -> str:
        """One line naming the slots in order, e.g. ``"Pros": bullet*3 | "Cons": bullet*3``.

        This is the value of the ``x-zero-layer-protocol`` response header.
        """
        return " | ".join(slot.describe() for slot in self.slots)
