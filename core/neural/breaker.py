"""A circuit breaker: after repeated failures, refuse at once for a while instead of waiting.

Closed: calls go through; ``threshold`` failures in a row open it. Open: ``allow`` is false
(the caller answers 503 in microseconds) until ``cooldown_s`` has passed; then one trial call
goes through (half-open) and its outcome closes or re-opens the breaker.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class CircuitBreaker:
    """Consecutive-failure breaker with a cool-down and a single half-open trial."""

    def __init__(
        self,
        threshold: int = 3,
        cooldown_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if threshold < 1 or cooldown_s <= 0:
            raise ValueError("threshold >= 1 and cooldown_s > 0 are required")
        self.threshold = threshold
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._trial = False

    @property
    def state(self) -> str:
        """closed, open or half_open."""
        with self._lock:
            if self._opened_at is None:
                return "closed"
            if self._clock() - self._opened_at < self.cooldown_s:
                return "open"
            return "half_open"

    def retry_in(self) -> float:
        """Seconds until the next trial is allowed (0 when closed)."""
        with self._lock:
            if self._opened_at is None:
                return 0.0
            return max(0.0, self.cooldown_s - (self._clock() - self._opened_at))

    def allow(self) -> bool:
        """True when a call may go through now (closed, or the one half-open trial)."""
        with self._lock:
            if self._opened_at is None:
                return True
            if self._clock() - self._opened_at < self.cooldown_s or self._trial:
                return False
            self._trial = True
            return True

    def success(self) -> None:
        """A call succeeded: close the breaker."""
        with self._lock:
            self._failures, self._opened_at, self._trial = 0, None, False

    def failure(self) -> None:
        """A call failed: count it; open (or re-open) the breaker at the threshold."""
        with self._lock:
            self._failures += 1
            if self._trial or self._failures >= self.threshold:
                self._opened_at, self._trial = self._clock(), False
