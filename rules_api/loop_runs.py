"""Short engine runs on the event loop's own thread, stopped by an interval timer.

Handing an engine run to a worker thread and its answer back to the loop costs two thread
wake-ups (60-130 µs of latency at idle on a two-core machine, more when the cores are busy),
several times what the engine takes to decide a short request. A request whose messages hold
at most ``ZEROLAYER_LOOP_RUN_CHARS`` characters is therefore run on the loop's thread under
a ``SIGALRM`` interval timer of ``ZEROLAYER_LOOP_RUN_MS``: a run still going when the timer
fires is stopped (``LoopOverrun`` is raised in it at its next bytecode) and started again in
a worker thread with the rest of its time budget, so no run holds the loop longer than that.
A run is never stopped inside a module being imported (its import would be left half done):
the timer then fires again a moment later.

Used only where it is safe to: the loop runs in the process's main thread (where Python runs
signal handlers), the platform has ``setitimer``, and nothing else in the process handles
``SIGALRM``. Elsewhere (an app served from a thread, Windows, an embedding that uses the
signal) every run goes to the worker threads, as it does with ``ZEROLAYER_LOOP_RUN_CHARS=0``.
"""

from __future__ import annotations

import contextvars
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

from zerolayer.core.messages import EngineRequest

T = TypeVar("T")

RETRY_S = 0.001  # the timer's next try when it fired inside an import


class LoopOverrun(BaseException):
    """Raised inside a run on the loop's thread when its time is up; a BaseException, so that
    the engine's own ``except Exception`` guards let it through to ``LoopRuns.run``'s caller."""


class _Running:
    """The run in progress on the main thread: the frame it started from (None: no run)."""

    entry: FrameType | None = None


def _importing(frame: FrameType | None, entry: FrameType) -> bool:
    """True when a module body or the import system stands between ``frame`` and ``entry``."""
    while frame is not None and frame is not entry:
        code = frame.f_code
        if code.co_name == "<module>" or code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    entry = _Running.entry
    if entry is None:  # the run ended as the timer fired
        return
    if _importing(frame, entry):
        signal.setitimer(signal.ITIMER_REAL, RETRY_S)
        return
    _Running.entry = None
    raise LoopOverrun


def _handler_installed() -> bool:
    """Install ``_on_alarm`` for SIGALRM unless another handler is there; True when it is."""
    current = signal.getsignal(signal.SIGALRM)
    if current is _on_alarm:
        return True
    if current not in (signal.SIG_DFL, None):
        return False
    signal.signal(signal.SIGALRM, _on_alarm)
    return True


def message_chars(request: EngineRequest) -> int:
    """Characters of everything the engine reads of ``request``: messages, system prompt and
    payloads given apart."""
    return (
        sum(len(m.content) for m in request.messages)
        + len(request.system or "")
        + sum(len(p) for p in request.payloads)
    )


class LoopRuns:
    """Which runs go on the loop's thread, and running them there under the timer."""

    def __init__(self, max_chars: int, seconds: float) -> None:
        self.max_chars = max_chars
        self.seconds = seconds
        self._usable: bool | None = None

    def takes(self, request: EngineRequest) -> bool:
        """True when ``request`` is short enough, and this thread can run it under the timer."""
        return self.max_chars > 0 and message_chars(request) <= self.max_chars and self.usable()

    def usable(self) -> bool:
        """True on the process's main thread of a platform with ``setitimer``, when SIGALRM
        is this module's to handle (checked once; the handler is installed then)."""
        if threading.current_thread() is not threading.main_thread():
            return False
        if self._usable is None:
            self._usable = hasattr(signal, "setitimer") and _handler_installed()
        return self._usable

    def run(self, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` here, in a copy of the caller's context; LoopOverrun when it ran
        past ``seconds`` (it was stopped where it stood)."""
        _Running.entry = sys._getframe()
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        try:
            return contextvars.copy_context().run(func, *args)
        finally:
            _Running.entry = None
            signal.setitimer(signal.ITIMER_REAL, 0)
