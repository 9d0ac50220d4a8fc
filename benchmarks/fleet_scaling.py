"""Throughput of 1, 2 and 4 ``zerolayer serve`` replicas on one machine, sharing one Redis.

Traffic kinds, each for ``--duration`` seconds (bounded by ``--requests``) over
``--concurrency`` keep-alive connections spread evenly over the replicas:

- ``cached``: one deterministic request repeated (after warm-up, answered from the cache);
- ``uncached``: deterministic requests that all differ (every one runs the engine, and
  writes its answer to Redis);
- ``fallback``: requests no grammar recognises, forwarded to a local OpenAI-compatible
  upstream (``tests/fleet/fleet_upstream.py``, which answers at once: the figure is
  zerolayer's own cost of a fallback request).

Each row states the CPU cores the replicas used together (CPU seconds / wall seconds), and
the machine's core count: on a machine with fewer free cores than replicas, adding replicas
cannot add throughput. Rules are off (no PostgreSQL needed). Nothing leaves 127.0.0.1.

    python benchmarks/fleet_scaling.py --replicas 1 2 4 --duration 5 --json fleet.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx
from http_load import (
    Figures,
    figures,
    process_tree_cpu,
    raw_request,
    read_response,
    run_async,
)

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = ROOT / "tests" / "fleet" / "fleet_upstream.py"
HOST = "127.0.0.1"
CACHED = 'Convert this JSON to YAML: {"fleet": {"replicas": 4}}'
UNCACHED = 'Convert this JSON to YAML: {"id": {i}, "name": "item {i}", "tags": ["a", "b"]}'
FALLBACK = "Write a short note about request number {i} and the weather"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def wait_http(url: str, timeout_s: float) -> None:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout_s} s")


@contextmanager
def process(
    args: list[str], env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@contextmanager
def fleet(count: int, env: dict[str, str]) -> Iterator[list[tuple[int, int]]]:
    """``count`` replicas; yields (port, pid) of each once all are ready."""
    procs: list[tuple[int, subprocess.Popen[bytes]]] = []
    try:
        for _ in range(count):
            port = free_port()
            cmd = [sys.executable, "-m", "zerolayer.cli", "serve", "--port", str(port),
                   "--log-level", "warning", "--no-access-log"]  # fmt: skip
            procs.append((port, subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL)))  # fmt: skip
        for port, _ in procs:
            wait_http(f"http://{HOST}:{port}/health/ready", 120)
        yield [(port, p.pid) for port, p in procs]
    finally:
        for _, p in procs:
            p.terminate()
        for _, p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(10)


async def load(
    ports: list[int],
    name: str,
    template: str,
    concurrency: int,
    n: int,
    duration: float,
    first: int = 0,
) -> Figures:
    """``template`` requests over ``concurrency`` connections, connection i to replica i % N."""
    lat: list[float] = []
    errors = active = hits = 0
    counter = iter(range(first, first + n))
    start = time.perf_counter()

    async def worker(port: int) -> None:
        nonlocal errors, active, hits
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            for i in counter:
                if time.perf_counter() - start > duration:
                    break
                t0 = time.perf_counter()
                writer.write(raw_request(HOST, port, template.replace("{i}", str(i))))
                status, headers = await read_response(reader)
                lat.append(time.perf_counter() - t0)
                errors += status != 200
                active += headers.get(b"x-zero-layer-status") == b"active"
                hits += headers.get(b"x-zero-layer-cache-hit") == b"true"
        finally:
            writer.close()

    await asyncio.gather(*(worker(ports[i % len(ports)]) for i in range(concurrency)))
    return figures(name, concurrency, lat, errors, active, hits, time.perf_counter() - start)


def measure(
    ports: list[int], pids: list[int], kind: str, text: str, args: argparse.Namespace
) -> dict[str, Any]:
    """One row: a short warm-up, then the measured load and the replicas' CPU meanwhile."""
    count = len(ports)
    run_async(lambda: load(ports, "warm-up", text, count, count * 4, 5, first=10**8))
    cpu0 = sum(process_tree_cpu(p) or 0.0 for p in pids)
    wall0 = time.perf_counter()
    out = run_async(lambda: load(ports, kind, text, args.concurrency, args.requests, args.duration))
    wall = time.perf_counter() - wall0
    cpu = sum(process_tree_cpu(p) or 0.0 for p in pids) - cpu0
    row = {"replicas": count, "traffic": kind, **asdict(out),
           "server_cores": round(cpu / wall, 2), "machine_cores": os.cpu_count(),
           "load_average": round(os.getloadavg()[0], 2)}  # fmt: skip
    print(
        f"{count} replica(s) {kind:9} {out.throughput_rps:8.1f} req/s  "
        f"p50 {out.p50_ms:7.2f} ms  p99 {out.p99_ms:7.2f} ms  errors {out.errors}  "
        f"hits {out.cache_hits}/{out.requests}  server cores {row['server_cores']}  "
        f"load {row['load_average']}",
        flush=True,
    )
    return row


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        raise SystemExit("redis-server is needed (apt-get install redis-server)")
    rows: list[dict[str, Any]] = []
    redis_port, upstream_port = free_port(), free_port()
    with (
        process([redis_server, "--port", str(redis_port), "--bind", HOST, "--save", "",
                 "--appendonly", "no"]),
        process([sys.executable, str(UPSTREAM), str(upstream_port)]),
    ):  # fmt: skip
        wait_http(f"http://{HOST}:{upstream_port}/health", 10)
        env = {
            **os.environ,
            "ZEROLAYER_REDIS_URL": f"redis://{HOST}:{redis_port}/0",
            "ZEROLAYER_FALLBACK": f"upstream:http://{HOST}:{upstream_port}/v1",
            "ZEROLAYER_UPSTREAM_RETRIES": "0",
            "ZEROLAYER_RULES": "off",
            "ZEROLAYER_ROUTER": "off",
        }
        for count in args.replicas:
            with fleet(count, env) as started:
                ports = [port for port, _ in started]
                pids = [pid for _, pid in started]
                offset = count * 1_000_000  # new uncached payloads for every fleet size
                for kind, template in (("cached", CACHED), ("uncached", UNCACHED),
                                       ("fallback", FALLBACK)):  # fmt: skip
                    text = template.replace("{i}", f"{offset}{{i}}")
                    rows.append(measure(ports, pids, kind, text, args))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--requests", type=int, default=500_000, help="per row (bound)")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per row (bound)")
    parser.add_argument("--json", default=None, help="write the rows to this file")
    args = parser.parse_args(argv)
    rows = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
