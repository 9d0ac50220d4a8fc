"""The load benchmark runs end to end (tiny sizes) and reports every scenario."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests

ROOT = Path(__file__).resolve().parents[2]


def test_http_load_benchmark_reports_all_scenarios(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    cmd = [sys.executable, str(ROOT / "benchmarks" / "http_load.py"), "--requests", "20",
           "--duration", "10", "--concurrency", "1", "4", "--json", str(out)]  # fmt: skip
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text("utf-8"))
    assert [(r["scenario"], r["concurrency"]) for r in rows] == [
        ("engine", 1),
        ("app-miss", 1),
        ("app-hit", 1),
        ("http-miss", 1),
        ("http-hit", 1),
        ("http-miss", 4),
        ("http-hit", 4),
    ]
    for row in rows:
        assert row["requests"] == 20
        assert row["errors"] == 0
        assert row["active"] == 20
        assert row["p99_ms"] >= row["p50_ms"] > 0
        assert row["cache_hits"] == (20 if row["scenario"].endswith("-hit") else 0)
    assert "p99 ms" in done.stdout


def test_gateway_overhead_benchmark_reports_every_target_and_mode(tmp_path: Path) -> None:
    """Upstream and zerolayer's model path (LiteLLM only where its venv is named), small sizes
    (60 requests a mode at one connection: enough for the CPU clock's 10 ms ticks to read
    the gateway's work): every answer is the upstream's text, and the ratios the docs quote
    are computed."""
    out = tmp_path / "gateway.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    cmd = [sys.executable, str(ROOT / "benchmarks" / "gateway_overhead.py"), "--rounds", "1",
           "--latency-requests", "60", "--concurrency", "2", "--duration", "0.5",
           "--tokens", "4", "--json", str(out)]  # fmt: skip
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text("utf-8"))
    for phase, connections in (("latency", 1), ("throughput", 2)):
        rows = result["rows"][phase]
        assert [(r["target"], r["mode"]) for r in rows] == [
            ("direct", "whole"), ("direct", "stream"),
            ("zerolayer", "whole"), ("zerolayer", "stream"),
        ]  # fmt: skip
        for row in rows:
            assert row["connections"] == connections
            assert row["requests"] > 0
            assert row["errors"] == 0 and row["wrong"] == 0
            assert row["p99_ms"] >= row["p50_ms"] > 0
        assert all(r["gateway_us_per_request"] > 0 for r in rows if r["target"] == "zerolayer")
    assert set(result["overhead_1_connection"]) == {"zerolayer/whole", "zerolayer/stream"}
    assert result["ratios"]["zerolayer_stream_over_whole_cpu_1_connection"] > 0
    assert "ratios:" in done.stdout


def test_gateway_overhead_benchmark_measures_the_messages_route(tmp_path: Path) -> None:
    """``--api anthropic``: zerolayer is called with Anthropic Messages requests over the
    OpenAI-compatible upstream (which is called with Chat Completions), whole and streamed;
    every answer is the upstream's text and the Messages stream / whole ratio is computed."""
    out = tmp_path / "gateway.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    cmd = [sys.executable, str(ROOT / "benchmarks" / "gateway_overhead.py"), "--rounds", "1",
           "--latency-requests", "60", "--concurrency", "2", "--duration", "0.5",
           "--tokens", "4", "--api", "anthropic", "--json", str(out)]  # fmt: skip
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text("utf-8"))
    for phase in ("latency", "throughput"):
        rows = result["rows"][phase]
        assert [(r["target"], r["mode"]) for r in rows] == [
            ("direct", "whole"), ("direct", "stream"),
            ("zerolayer", "messages/whole"), ("zerolayer", "messages/stream"),
        ]  # fmt: skip
        assert all(r["requests"] > 0 and r["errors"] == 0 and r["wrong"] == 0 for r in rows)
    assert set(result["overhead_1_connection"]) == {
        "zerolayer/messages/whole", "zerolayer/messages/stream"
    }  # fmt: skip
    assert result["ratios"]["zerolayer_messages_stream_over_whole_cpu_1_connection"] > 0
