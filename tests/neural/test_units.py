"""Stop sequences, the FIFO queue and the circuit breaker: pure logic, no model."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.fallback import FallbackUnavailable
from zerolayer.core.neural.breaker import CircuitBreaker
from zerolayer.core.neural.queue import FifoLock, ModelQueue
from zerolayer.core.neural.stops import StopScanner

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "stops.yaml").read_text("utf-8"))


def run_scanner(stops: list[str], pieces: list[str]) -> tuple[str, str | None]:
    scanner = StopScanner(tuple(stops))
    out = "".join(scanner.feed(p) for p in pieces) + scanner.flush()
    return out, scanner.stopped


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_stop_cases(case: dict) -> None:
    assert run_scanner(case["stops"], case["pieces"]) == (case["emitted"], case["stopped"])


@given(
    text=st.text(alphabet="abc\n", max_size=40),
    cuts=st.lists(st.integers(0, 40), max_size=6),
    stops=st.lists(st.text(alphabet="abc\n", min_size=1, max_size=4), max_size=3),
)
def test_stream_cut_equals_whole_text_cut(text: str, cuts: list[int], stops: list[str]) -> None:
    bounds = sorted({0, len(text), *(min(c, len(text)) for c in cuts)})
    pieces = [text[a:b] for a, b in itertools.pairwise(bounds)]
    hits = [text.find(s) for s in stops if s in text]
    expected = text[: min(hits)] if hits else text
    out, stopped = run_scanner(stops, pieces)
    assert out == expected
    assert (stopped is not None) == bool(hits)
    if stopped is not None:
        assert text.find(stopped) == min(hits)


def test_fifo_lock_serves_in_arrival_order() -> None:
    lock, order = FifoLock(), []
    lock.acquire()
    threads = []
    for i in range(5):
        t = threading.Thread(target=lambda i=i: (lock.acquire(), order.append(i), lock.release()))
        t.start()
        threads.append(t)
        time.sleep(0.05)  # each waiter arrives after the previous one
    lock.release()
    for t in threads:
        t.join(5)
    assert order == [0, 1, 2, 3, 4]


def test_queue_refuses_when_slots_and_waiting_room_are_full() -> None:
    queue = ModelQueue(slots=1, max_waiting=0)
    with queue.admit():
        assert queue.active == 1
        with pytest.raises(FallbackUnavailable, match="busy"), queue.admit():
            pass
    with queue.admit():  # released: admitted again
        assert queue.active == 1


def test_queue_waits_then_times_out() -> None:
    queue = ModelQueue(slots=1, max_waiting=1, wait_s=0.1)
    with queue.admit():
        started = time.perf_counter()
        with pytest.raises(FallbackUnavailable, match="stayed busy"), queue.admit():
            pass
        assert 0.09 <= time.perf_counter() - started < 2


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_breaker_opens_after_threshold_and_half_opens_after_cooldown() -> None:
    clock = Clock()
    breaker = CircuitBreaker(threshold=2, cooldown_s=10, clock=clock)
    assert breaker.allow()
    breaker.failure()
    assert breaker.state == "closed" and breaker.allow()
    breaker.failure()
    assert breaker.state == "open" and not breaker.allow()
    assert breaker.retry_in() == 10
    clock.now += 10
    assert breaker.state == "half_open"
    assert breaker.allow()  # the one trial
    assert not breaker.allow()  # nobody else while it runs
    breaker.failure()  # the trial failed: open again for a whole cool-down
    assert breaker.state == "open"
    clock.now += 10
    assert breaker.allow()
    breaker.success()
    assert breaker.state == "closed" and breaker.allow()
