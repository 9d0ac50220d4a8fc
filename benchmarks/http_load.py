"""Load benchmark of the HTTP service on loopback: throughput and p50/p99 latency.

Scenarios, each at 1 and 64 concurrent connections (``--concurrency``):

- ``engine``: the in-process ``engine.run`` call alone (no HTTP), the floor of the others;
  the server runs in a child process (``python -m zerolayer.rules_api``), so that
  client and server do not share one interpreter lock;
- ``http-miss``: deterministic requests that are all different (every one runs the engine);
- ``http-hit``: one deterministic request repeated (answered from the response cache).

Every scenario is bounded by ``--requests`` and ``--duration``. The engine is built from
``--engine module:callable`` (default: the test double ``FakeEngine``; use
``zerolayer.core.engine:Engine`` for the real one) and requests come from ``--template``
(``{i}`` is replaced by the request number). Nothing leaves 127.0.0.1.

    PYTHONPATH=.dev python benchmarks/http_load.py --requests 2000 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass
from typing import Any

import httpx

from zerolayer.core.messages import EngineRequest, Message
from zerolayer.rules_api.server import build, load_object

FAKE_TEMPLATE = "ECHO-UPPER: benchmark payload number {i} with a few words in it"
REAL_TEMPLATE = (
    'Convert the following JSON to YAML:\n\n{{"id": {i}, "name": "item {i}", "ok": true}}'
)


@dataclass
class Figures:
    """The result of one scenario at one concurrency."""

    scenario: str
    concurrency: int
    requests: int
    errors: int
    active: int
    cache_hits: int
    seconds: float
    throughput_rps: float
    p50_ms: float
    p99_ms: float


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def figures(
    name: str, conc: int, lat: list[float], errors: int, active: int, hits: int, secs: float
) -> Figures:
    """Summarise latencies (seconds) of one scenario."""
    return Figures(
        name, conc, len(lat), errors, active, hits, round(secs, 3),
        round(len(lat) / secs, 1) if secs else 0.0,
        round(percentile(lat, 50) * 1000, 3), round(percentile(lat, 99) * 1000, 3),
    )  # fmt: skip


def body(text: str) -> dict[str, Any]:
    """An Anthropic request body at temperature 0."""
    return {"model": "bench", "max_tokens": 4096, "temperature": 0,
            "messages": [{"role": "user", "content": text}]}  # fmt: skip


def bench_engine(engine: Any, template: str, n: int, duration: float) -> Figures:
    """The engine alone, called in process (one caller)."""
    lat: list[float] = []
    active = 0
    start = time.perf_counter()
    for i in range(n):
        request = EngineRequest(messages=(Message("user", template.format(i=i)),), temperature=0.0)
        t0 = time.perf_counter()
        result = engine.run(request)
        lat.append(time.perf_counter() - t0)
        active += result.route.value == "deterministic"
        if time.perf_counter() - start > duration:
            break
    return figures("engine", 1, lat, 0, active, 0, time.perf_counter() - start)


async def bench_http(
    url: str, name: str, texts: list[str], concurrency: int, duration: float
) -> Figures:
    """Send the texts with ``concurrency`` connections; stop early after ``duration`` s."""
    lat: list[float] = []
    errors = active = hits = 0
    queue: asyncio.Queue[str] = asyncio.Queue()
    for text in texts:
        queue.put_nowait(text)
    start = time.perf_counter()

    async def worker() -> None:
        # One client (one keep-alive connection) per worker: a shared pool of 64 connections
        # costs httpx more than the server spends on a request.
        nonlocal errors, active, hits
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            while not queue.empty() and time.perf_counter() - start < duration:
                text = queue.get_nowait()
                t0 = time.perf_counter()
                try:
                    response = await client.post("/v1/messages", json=body(text))
                except httpx.HTTPError:
                    errors += 1
                    continue
                lat.append(time.perf_counter() - t0)
                errors += response.status_code != 200
                active += response.headers.get("x-zero-layer-status") == "active"
                hits += response.headers.get("x-zero-layer-cache-hit") == "true"

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return figures(name, concurrency, lat, errors, active, hits, time.perf_counter() - start)


@contextmanager
def server(engine_spec: str, workers: int) -> Iterator[str]:
    """uvicorn in a child process (its own GIL) on a free loopback port; yields the URL."""
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {
        **os.environ,
        "ZEROLAYER_ENGINE": engine_spec,
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),  # what this process imports
    }
    cmd = [sys.executable, "-m", "zerolayer.rules_api", "--port", str(port),
           "--workers", str(workers), "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/health/ready", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(30)


def run(args: argparse.Namespace) -> list[Figures]:
    """All scenarios; the server runs in a child process on a free loopback port."""
    engine = build(load_object(args.engine))
    fake = args.engine.endswith("FakeEngine")
    template = args.template or (FAKE_TEMPLATE if fake else REAL_TEMPLATE)
    results = [bench_engine(engine, template, args.requests, args.duration)]
    with server(args.engine, args.workers) as url:
        offset = 0
        for conc in args.concurrency:
            texts = [template.format(i=offset + i) for i in range(args.requests)]
            offset += args.requests
            results.append(asyncio.run(bench_http(url, "http-miss", texts, conc, args.duration)))
            hot = [template.format(i=-1)] * args.requests
            asyncio.run(bench_http(url, "warm", hot[:1], 1, args.duration))
            results.append(asyncio.run(bench_http(url, "http-hit", hot, conc, args.duration)))
    return results


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, run, print a table (and write JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="zerolayer.rules_api.testing:FakeEngine")
    parser.add_argument("--template", default=None, help="request text; {i} = request number")
    parser.add_argument("--requests", type=int, default=1000, help="per scenario (bound)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per scenario (bound)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 64])
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers of the server")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args(argv)
    results = run(args)
    columns = (
        "scenario",
        "conc",
        "requests",
        "errors",
        "active",
        "hits",
        "req/s",
        "p50 ms",
        "p99 ms",
    )
    print("  ".join(f"{c:>9}" for c in columns))
    for r in results:
        row = (r.scenario, r.concurrency, r.requests, r.errors, r.active, r.cache_hits,
               f"{r.throughput_rps:.1f}", f"{r.p50_ms:.3f}", f"{r.p99_ms:.3f}")  # fmt: skip
        print("  ".join(f"{v:>9}" for v in row))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump([asdict(r) for r in results], fh, indent=2)


if __name__ == "__main__":
    main()
