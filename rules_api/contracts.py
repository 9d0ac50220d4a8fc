"""What the HTTP service needs from the engine: the ``EngineLike`` protocol.

The service is written against this protocol only, so that it can be tested with a small
test double (:mod:`zerolayer.rules_api.testing`) and run with the real
``zerolayer.core.engine.Engine``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from zerolayer.core.messages import EngineRequest, EngineResult


@runtime_checkable
class EngineLike(Protocol):
    """The engine as the HTTP service sees it. An engine may also have
    ``runs_locally(request) -> bool``: True when answering the request reads nothing but
    memory, so that a short one may run on the event loop's thread (rules_api/loop_runs.py);
    without it every run goes to a worker thread."""

    rule_set_version: str

    def run(self, request: EngineRequest) -> EngineResult:
        """Answer one request: deterministic output, a fallback reason, or a typed error."""
        ...

    def fingerprint(self, request: EngineRequest) -> str | None:
        """Exact cache key of a request that could be answered deterministically, else None."""
        ...

    def plugin_info(self) -> list[dict[str, Any]]:
        """Installed plugins: name, version, ops and grammar fragments."""
        ...
