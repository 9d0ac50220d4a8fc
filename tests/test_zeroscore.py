"""The black-box contract: zeroscore's development corpus against a live server.

The server runs as users run it (`zerolayer serve`, no fallback configured), and the harness
talks to it over HTTP only. The run fails on any false activation, and when activation
recall, output correctness (SER) or error handling fall below the floors below — raise them
as the engine improves (docs/benchmarks.md has the current figures).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_process import free_port, start_server

ZEROSCORE = Path(__file__).parents[2] / "shared" / "zeroscore"
FLOORS = {"recall": 0.95, "ser": 0.95, "errors_ok": 1.0}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = free_port()
    proc = start_server(port, {**os.environ, "ZEROLAYER_FALLBACK": ""}, quiet=False)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.slow
def test_dev_corpus_meets_the_floors(server: str, tmp_path: Path) -> None:
    if not (ZEROSCORE / "zeroscore.py").exists():
        pytest.skip("the zeroscore harness is not beside this checkout")
    run = subprocess.run(
        [
            sys.executable,
            str(ZEROSCORE / "zeroscore.py"),
            "--url",
            server,
            "--cases",
            str(ZEROSCORE / "dev.jsonl"),
            "--report",
            str(tmp_path / "report.json"),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    print(run.stdout[-4000:])
    line = re.search(r"^ZEROSCORE (.*)$", run.stdout, re.MULTILINE)
    assert line, run.stdout + run.stderr
    figures = dict(part.split("=") for part in line.group(1).split())
    assert figures["false_activations"] == "0"
    for name, floor in FLOORS.items():
        assert float(figures[name]) >= floor, f"{name} {figures[name]} is below {floor}"
