"""Protocol templates: meta-instructions become a skeleton whose slots a model fills.

``recognise`` finds the structure a request asks for ("answer in exactly 5 bullet points",
"按'问题-影响-方案-风险'四段式输出"); the engine returns it on ``EngineResult.protocol``
(route ``FALLBACK``, reason ``protocol.recognised``); ``answer_protocol`` /
``stream_protocol`` have a ``FallbackBackend`` write each slot and render the Markdown, whose
structure is then exactly the one asked for. See docs/protocols.md.
"""

from zerolayer.core.protocol.fill import FillLimits, answer_protocol, stream_protocol
from zerolayer.core.protocol.markdown import read_structure, render
from zerolayer.core.protocol.model import PROTOCOL_REASON, Kind, Protocol, Slot
from zerolayer.core.protocol.recogniser import recognise, recognise_request

__all__ = [
    "PROTOCOL_REASON",
    "FillLimits",
    "Kind",
    "Protocol",
    "Slot",
    "answer_protocol",
    "read_structure",
    "recognise",
    "recognise_request",
    "render",
    "stream_protocol",
]
