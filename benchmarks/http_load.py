"""Load benchmark of the HTTP service on loopback: throughput and p50/p99 latency.

Scenarios, each HTTP one at every ``--concurrency`` (default 1 and 64 connections):

- ``engine``: the in-process ``engine.run`` call alone (no HTTP, one caller), the floor of
  the others, measured in the same run;
- ``app-miss`` and ``app-hit``: the ASGI application called in process (no server, no
  sockets, one caller) with the requests of ``http-miss`` and ``http-hit``: what the
  application itself costs, apart from uvicorn and the network;
- ``http-miss``: deterministic requests that are all different (every one runs the engine);
- ``http-hit``: one deterministic request repeated (answered from the cache: after two
  warm-up requests, by the fast path of cached answers).

The server runs in a child process (``python -m zerolayer.rules_api``, uvicorn with uvloop and
httptools when installed), so that client and server do not share one interpreter lock. The
client is a small keep-alive HTTP/1.1 client on raw asyncio streams (uvloop when installed):
one connection per simulated user, requests prebuilt as bytes, so that it spends far less
CPU per request than the server does. Each row reports how many cores the client and the
server used on average during the scenario (CPU seconds / wall seconds), which shows how
the machine's cores were shared.

Every scenario is bounded by ``--requests`` and ``--duration``. The engine is built from
``--engine module:callable`` (default: the test double ``FakeEngine``; use
``zerolayer.core.engine:Engine`` for the real one) and requests come from ``--template``
(``{i}`` is replaced by the request number). Nothing leaves 127.0.0.1.

    PYTHONPATH=.dev python benchmarks/http_load.py --engine zerolayer.core.engine:Engine \\
        --requests 50000 --duration 10 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, TypeVar

from zerolayer.core.messages import EngineRequest, Message
from zerolayer.rules_api.app import create_app
from zerolayer.rules_api.server import build, load_object

FAKE_TEMPLATE = "ECHO-UPPER: benchmark payload number {i} with a few words in it"
REAL_TEMPLATE = (
    'Convert the following JSON to YAML:\n\n{{"id": {i}, "name": "item {i}", "ok": true}}'
)
PATH = "/v1/messages"
WARM_UP = 2  # the first request fills the response cache, the second the fast path

T = TypeVar("T")


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
    client_cores: float | None = None  # client CPU seconds / wall seconds
    server_cores: float | None = None  # server CPU seconds (all workers) / wall seconds
    server_us_per_request: float | None = None  # server CPU microseconds per request


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


def raw_request(host: str, port: int, text: str) -> bytes:
    """The whole HTTP/1.1 request of one text, as the client sends it."""
    data = json.dumps(body(text)).encode()
    head = (
        f"POST {PATH} HTTP/1.1\r\nhost: {host}:{port}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(data)}\r\n\r\n"
    )
    return head.encode() + data


def run_async(factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine on uvloop when it is installed, else on asyncio's own loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(factory())
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(factory())


def bench_engine(engine: Any, template: str, n: int, duration: float) -> Figures:
    """The engine alone, called in process (one caller)."""
    lat: list[float] = []
    active = 0
    cpu0 = time.process_time()
    start = time.perf_counter()
    for i in range(n):
        request = EngineRequest(messages=(Message("user", template.format(i=i)),), temperature=0.0)
        t0 = time.perf_counter()
        result = engine.run(request)
        lat.append(time.perf_counter() - t0)
        active += result.route.value == "deterministic"
        if time.perf_counter() - start > duration:
            break
    secs = time.perf_counter() - start
    out = figures("engine", 1, lat, 0, active, 0, secs)
    out.client_cores = round((time.process_time() - cpu0) / secs, 2)
    return out


async def call_app(app: Any, raw: bytes) -> tuple[int, dict[bytes, bytes]]:
    """One request through the ASGI app in process: status and response headers."""
    head, _, data = raw.partition(b"\r\n\r\n")
    headers = [tuple(line.split(b": ", 1)) for line in head.split(b"\r\n")[1:]]
    messages = [{"type": "http.request", "body": data, "more_body": False}]
    started: dict[str, Any] = {}

    async def receive() -> dict[str, Any]:
        return messages.pop() if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            started.update(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": PATH, "raw_path": PATH.encode(),
             "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 2), "state": {}}  # fmt: skip
    await app(scope, receive, send)
    return started["status"], dict(started["headers"])


async def bench_app(app: Any, name: str, requests: list[bytes], duration: float) -> Figures:
    """The requests through the ASGI app in process, one after another."""
    lat: list[float] = []
    errors = active = hits = 0
    cpu0 = time.process_time()
    start = time.perf_counter()
    for raw in requests:
        t0 = time.perf_counter()
        status, headers = await call_app(app, raw)
        lat.append(time.perf_counter() - t0)
        errors += status != 200
        active += headers.get(b"x-zero-layer-status") == b"active"
        hits += headers.get(b"x-zero-layer-cache-hit") == b"true"
        if time.perf_counter() - start > duration:
            break
    secs = time.perf_counter() - start
    out = figures(name, 1, lat, errors, active, hits, secs)
    out.client_cores = round((time.process_time() - cpu0) / secs, 2)
    return out


async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict[bytes, bytes]]:
    """Status and headers (lower-case names) of one response; its body is read and dropped."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    headers: dict[bytes, bytes] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
    await reader.readexactly(int(headers.get(b"content-length", b"0")))
    return status, headers


async def bench_http(
    host: str, port: int, name: str, requests: list[bytes], concurrency: int, duration: float
) -> Figures:
    """Send the requests over ``concurrency`` keep-alive connections; stop after ``duration``."""
    lat: list[float] = []
    errors = active = hits = 0
    todo = iter(requests)
    start = time.perf_counter()

    async def worker() -> None:
        nonlocal errors, active, hits
        reader, writer = await asyncio.open_connection(host, port)
        try:
            for raw in todo:
                if time.perf_counter() - start > duration:
                    break
                t0 = time.perf_counter()
                writer.write(raw)
                try:
                    status, headers = await read_response(reader)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    errors += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection(host, port)
                    continue
                lat.append(time.perf_counter() - t0)
                errors += status != 200
                active += headers.get(b"x-zero-layer-status") == b"active"
                hits += headers.get(b"x-zero-layer-cache-hit") == b"true"
                if headers.get(b"connection") == b"close":
                    writer.close()
                    reader, writer = await asyncio.open_connection(host, port)
        finally:
            writer.close()

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return figures(name, concurrency, lat, errors, active, hits, time.perf_counter() - start)


def process_tree_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by ``pid`` and its descendants (Linux /proc),
    or None where /proc is not there."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        stats: dict[int, tuple[int, float]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    text = fh.read()
            except OSError:
                continue
            fields = text[text.rindex(b")") + 2 :].split()
            stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
    except (OSError, ValueError, AttributeError):
        return None
    tree, total, grew = {pid}, 0.0, True
    while grew:
        grew = False
        for p, (ppid, _) in stats.items():
            if ppid in tree and p not in tree:
                tree.add(p)
                grew = True
    for p in tree:
        total += stats.get(p, (0, 0.0))[1]
    return total


def measured(server_pid: int, factory: Callable[[], Coroutine[Any, Any, Figures]]) -> Figures:
    """Run one HTTP scenario and add how many cores client and server used meanwhile."""
    server0 = process_tree_cpu(server_pid)
    client0 = time.process_time()
    wall0 = time.perf_counter()
    out = run_async(factory)
    wall = time.perf_counter() - wall0
    out.client_cores = round((time.process_time() - client0) / wall, 2)
    server1 = process_tree_cpu(server_pid)
    if server0 is not None and server1 is not None:
        out.server_cores = round((server1 - server0) / wall, 2)
        if out.requests:
            out.server_us_per_request = round((server1 - server0) / out.requests * 1e6, 1)
    return out


@contextmanager
def server(engine_spec: str, workers: int) -> Iterator[tuple[str, int, int]]:
    """uvicorn in a child process (its own GIL) on a free loopback port; yields host, port and
    the child's pid."""
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
    with process(cmd, env, f"http://127.0.0.1:{port}/health/ready", "the server") as pid:
        yield "127.0.0.1", port, pid


@contextmanager
def process(cmd: list[str], env: dict[str, str], ready: str, what: str) -> Iterator[int]:
    """A child process, once ``ready`` answers 200 (60 s at most); yields its pid."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(ready, timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"{what} did not start")
            time.sleep(0.2)
        yield proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def run(args: argparse.Namespace) -> list[Figures]:
    """All scenarios; the server runs in a child process on a free loopback port."""
    engine = build(load_object(args.engine))
    fake = args.engine.endswith("FakeEngine")
    template = args.template or (FAKE_TEMPLATE if fake else REAL_TEMPLATE)
    results = [bench_engine(engine, template, args.requests, args.duration)]
    app = create_app(engine)
    offset = 10 * args.requests  # texts no other scenario sends
    miss = [raw_request("app", 0, template.format(i=offset + i)) for i in range(args.requests)]
    hot = [raw_request("app", 0, template.format(i=-2))] * args.requests
    results.append(run_async(partial(bench_app, app, "app-miss", miss, args.duration)))
    run_async(partial(bench_app, app, "warm", hot[:WARM_UP], args.duration))
    results.append(run_async(partial(bench_app, app, "app-hit", hot, args.duration)))
    with server(args.engine, args.workers) as (host, port, pid):
        offset = 0
        for conc in args.concurrency:
            miss = [raw_request(host, port, template.format(i=offset + i))
                    for i in range(args.requests)]  # fmt: skip
            offset += args.requests
            results.append(
                measured(
                    pid, partial(bench_http, host, port, "http-miss", miss, conc, args.duration)
                )
            )
            hot = [raw_request(host, port, template.format(i=-1))] * args.requests
            # Every worker has its own fast path: warm it over several connections.
            spread = 1 if args.workers == 1 else min(64, 8 * args.workers)
            warm = hot[: WARM_UP * spread]
            run_async(partial(bench_http, host, port, "warm", warm, spread, args.duration))
            results.append(
                measured(pid, partial(bench_http, host, port, "http-hit", hot, conc, args.duration))
            )
    return results


def describe() -> str:
    """The software the figures depend on."""
    parts = [f"Python {platform.python_version()}", f"{os.cpu_count()} CPUs"]
    for module in ("uvicorn", "uvloop", "httptools", "fastapi", "starlette", "pydantic"):
        try:
            version = getattr(__import__(module), "__version__", "?")
        except ImportError:
            version = "not installed"
        parts.append(f"{module} {version}")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, run, print a table (and write JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="zerolayer.rules_api.testing:FakeEngine")
    parser.add_argument("--template", default=None, help="request text; {i} = request number")
    parser.add_argument("--requests", type=int, default=20000, help="per scenario (bound)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per scenario (bound)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 64])
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers of the server")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args(argv)
    print(describe())
    results = run(args)
    columns = ("scenario", "conc", "requests", "errors", "active", "hits", "req/s", "p50 ms",
               "p99 ms", "client cores", "server cores", "server µs/req")  # fmt: skip
    print("  ".join(f"{c:>9}" for c in columns))
    for r in results:
        row = (r.scenario, r.concurrency, r.requests, r.errors, r.active, r.cache_hits,
               f"{r.throughput_rps:.1f}", f"{r.p50_ms:.3f}", f"{r.p99_ms:.3f}",
               r.client_cores, r.server_cores, r.server_us_per_request)  # fmt: skip
        print("  ".join(f"{v!s:>9}" for v in row))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump([asdict(r) for r in results], fh, indent=2)


if __name__ == "__main__":
    main()
