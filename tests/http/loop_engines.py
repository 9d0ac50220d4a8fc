"""Engines for the live-server tests of runs on the event loop's thread
(tests/http/test_loop_runs.py), importable by the server process (``ZEROLAYER_ENGINE``)."""

from __future__ import annotations

import threading
import time

from zerolayer.core.messages import EngineRequest, EngineResult, Route
from zerolayer.rules_api.testing import FakeEngine

WHERE = "WHERE"  # answered with the name of the thread that ran it
SPIN = "SPIN"  # "SPIN 0.5": computes in pure Python for 0.5 s of CPU, then says where


class LocalEngine(FakeEngine):
    """The fake engine, saying its runs read nothing but memory."""

    def runs_locally(self, request: EngineRequest) -> bool:
        return True

    def run(self, request: EngineRequest) -> EngineResult:
        text = request.messages[-1].content
        if text.startswith(SPIN):
            end = time.thread_time() + float(text.split()[1])
            while time.thread_time() < end:
                sum(range(1000))
        if text.startswith((WHERE, SPIN)):
            where = threading.current_thread().name
            return EngineResult(Route.DETERMINISTIC, output=where, plan="text.read")
        return super().run(request)
