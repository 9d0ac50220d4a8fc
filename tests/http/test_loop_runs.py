"""Short engine runs on the event loop's thread (rules_api/loop_runs.py): where they run,
that a run past the loop's share of time is stopped there and finished in a worker thread,
that an import is never cut, and where the loop's thread is not used."""

from __future__ import annotations

import contextlib
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_process import free_port, start_server

from zerolayer.core.messages import EngineRequest, Message
from zerolayer.rules_api.loop_runs import LoopOverrun, LoopRuns, message_chars
from zerolayer.rules_api.testing import anthropic_body

HERE = Path(__file__).parent


def _spin(seconds: float) -> int:
    """Pure Python for ``seconds`` of wall time, swallowing every Exception as engine guards
    do (the stop must get through them)."""
    end, total = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        with contextlib.suppress(Exception):
            total += sum(range(100))
    return total


def _request(text: str) -> EngineRequest:
    return EngineRequest(messages=(Message("user", text),))


def test_a_run_within_its_time_returns_its_answer_and_leaves_no_timer() -> None:
    runs = LoopRuns(2048, 0.05)
    assert runs.usable()
    assert runs.run(lambda a, b: a + b, 2, 3) == 5
    _spin(0.1)  # a timer left armed would fire here
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_run_past_its_time_is_stopped_where_it_stands() -> None:
    runs = LoopRuns(2048, 0.02)
    start = time.monotonic()
    with pytest.raises(LoopOverrun):
        runs.run(_spin, 5.0)
    assert time.monotonic() - start < 1.0  # stopped at 20 ms (a loaded machine: well under 1 s)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert runs.run(len, "abc") == 3  # and the next run is unaffected


def test_a_module_being_imported_is_never_cut(tmp_path: Path) -> None:
    (tmp_path / "slow_module_for_loop_runs.py").write_text(
        "import time\n"
        "_end = time.monotonic() + 0.15\n"
        "while time.monotonic() < _end:\n"
        "    sum(range(100))\n"
        "DONE = True\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:

        def work() -> None:
            import slow_module_for_loop_runs  # noqa: F401 - imported for its body's time

            _spin(5.0)

        with pytest.raises(LoopOverrun):
            LoopRuns(2048, 0.02).run(work)
        module = sys.modules["slow_module_for_loop_runs"]
        assert module.DONE is True  # the body ran to its end, then the run was stopped
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("slow_module_for_loop_runs", None)


def test_which_requests_are_taken() -> None:
    runs = LoopRuns(100, 0.01)
    assert runs.takes(_request("x" * 100))
    assert not runs.takes(_request("x" * 101))
    assert message_chars(EngineRequest(messages=(Message("user", "ab"),), system="c",
                                       payloads=("de",))) == 5  # fmt: skip
    assert not LoopRuns(0, 0.01).takes(_request("x"))
    off_main: list[bool] = []
    thread = threading.Thread(target=lambda: off_main.append(runs.takes(_request("x"))))
    thread.start()
    thread.join()
    assert off_main == [False]  # Python runs signal handlers in the main thread only


def test_a_process_whose_sigalrm_is_taken_runs_nothing_on_the_loop() -> None:
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: None)
    try:
        assert not LoopRuns(2048, 0.01).usable()
    finally:
        signal.signal(signal.SIGALRM, previous)


# A live server: the loop runs in the process's main thread, as under `zerolayer serve`.


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(HERE), *sys.path]),
        "ZEROLAYER_ENGINE": "loop_engines:LocalEngine",
        "ZEROLAYER_RULES": "off",
        "ZEROLAYER_DATA_DIR": str(tmp_path_factory.mktemp("data")),
        "ZEROLAYER_LOOP_RUN_MS": "20",
        "ZEROLAYER_CACHE_MAX_BYTES": "0",
    }
    proc = start_server(port, env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _answer(url: str, text: str) -> str:
    response = httpx.post(url + "/v1/messages", json=anthropic_body(text), timeout=30)
    assert response.status_code == 200, response.text
    return str(response.json()["content"][0]["text"])


@pytest.mark.slow
def test_a_short_request_is_decided_on_the_loop_and_a_long_one_in_a_worker(server: str) -> None:
    assert _answer(server, "WHERE") == "MainThread"
    assert _answer(server, "WHERE " + "x" * 3000).startswith("zerolayer-engine")


@pytest.mark.slow
def test_a_long_run_leaves_the_loop_and_is_answered_from_a_worker(server: str) -> None:
    done: list[str] = []
    worker = threading.Thread(target=lambda: done.append(_answer(server, "SPIN 1.0")))
    times: list[float] = []
    with httpx.Client(base_url=server, timeout=10) as client:
        client.get("/health")
        worker.start()
        while worker.is_alive() and len(times) < 200:
            start = time.perf_counter()
            assert client.get("/health").status_code == 200
            times.append(time.perf_counter() - start)
        worker.join(30)
    assert done and done[0].startswith("zerolayer-engine")  # run again in a worker thread
    assert len(times) >= 3
    assert statistics.median(times) < 0.05
    assert max(times) < 0.25  # the loop was held 20 ms, never the second the run took
    metrics = httpx.get(server + "/metrics").text
    assert "zerolayer_loop_overruns_total 1.0" in metrics
