"""Sharing one model between threads: bounded admission and a first-come, first-served lock.

A generation holds a slot for its whole length (its KV cache lives that long) and takes the
FIFO step lock for each forward pass, so concurrent generations advance in turns, one token
each: a long answer cannot starve a short one, and no two forward passes run at once. When
every slot is taken and too many callers already wait, or a wait lasts too long, the caller
gets ``FallbackUnavailable`` (HTTP 503) instead of an unbounded queue.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

from zerolayer.core.fallback import FallbackUnavailable


class FifoLock:
    """A mutex granted in arrival order (``threading.Lock`` promises no order).

    Use it as a context manager; it is not re-entrant."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._waiting: deque[object] = deque()
        self._held = False

    def acquire(self) -> None:
        """Wait until every earlier caller has had the lock, then take it."""
        me = object()
        with self._cond:
            self._waiting.append(me)
            while self._held or self._waiting[0] is not me:
                self._cond.wait()
            self._waiting.popleft()
            self._held = True

    def release(self) -> None:
        """Give the lock to the longest waiting caller."""
        with self._cond:
            self._held = False
            self._cond.notify_all()

    def __enter__(self) -> FifoLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class ModelQueue:
    """At most ``slots`` generations at once, at most ``max_waiting`` callers waiting."""

    def __init__(self, slots: int = 4, max_waiting: int = 64, wait_s: float = 120.0) -> None:
        if slots < 1 or max_waiting < 0 or wait_s <= 0:
            raise ValueError("slots >= 1, max_waiting >= 0 and wait_s > 0 are required")
        self.slots = slots
        self.max_waiting = max_waiting
        self.wait_s = wait_s
        self.step_lock = FifoLock()
        self._cond = threading.Condition(threading.Lock())
        self._active = 0
        self._waiting = 0

    @property
    def active(self) -> int:
        """Generations holding a slot now."""
        return self._active

    @contextmanager
    def admit(self) -> Iterator[None]:
        """Hold a generation slot for the ``with`` block; FallbackUnavailable when full."""
        with self._cond:
            if self._active >= self.slots:
                if self._waiting >= self.max_waiting:
                    raise FallbackUnavailable(
                        f"the local model is busy: {self._active} generations running and "
                        f"{self._waiting} waiting"
                    )
                self._waiting += 1
                try:
                    if not self._cond.wait_for(lambda: self._active < self.slots, self.wait_s):
                        raise FallbackUnavailable(
                            f"the local model stayed busy for {self.wait_s:g} s"
                        )
                finally:
                    self._waiting -= 1
            self._active += 1
        try:
            yield
        finally:
            with self._cond:
                self._active -= 1
                self._cond.notify()
