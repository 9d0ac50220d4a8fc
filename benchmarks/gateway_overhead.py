"""The model path's overhead, beside LiteLLM's proxy, against one local upstream in one run.

One OpenAI-compatible upstream process (``gateway_upstream.py``: answers at once, the same
``--tokens``-token answer, whole or streamed) is called three ways, with the same Chat
Completions requests (a creative ask the engine hands to its fallback, no sampling
parameters, ``max_tokens`` 64; streamed ones with ``stream_options.include_usage``):

- ``direct``: the upstream itself;
- ``zerolayer``: ``python -m zerolayer.rules_api`` (one uvicorn worker, the real engine
  unless ``--engine`` names another, rules off) with
  ``ZEROLAYER_FALLBACK=upstream:<the upstream>``: every request is judged by the engine,
  falls back and is forwarded (the model path);
- ``baseline`` (with ``--baseline DIR``): the same, with the ``zerolayer`` package of ``DIR``
  first on the path (``git worktree add DIR/zerolayer <commit>``), so that two builds are
  compared in one run;
- ``litellm``: LiteLLM's proxy (``litellm --config``, one worker) with one model whose
  ``api_base`` is the upstream, when ``--litellm`` names a ``litellm`` executable (LiteLLM
  is installed only in the benchmark's own virtual environment, never with zerolayer:
  ``python3 -m venv .dev/litellm-venv && .dev/litellm-venv/bin/pip install
  'litellm[proxy]'``).

Two phases, each run in rounds that go over every target and mode in turn (rotating their
order), so that load from other work on the machine falls on all of them alike:

1. latency at one connection: ``--latency-requests`` requests one after another per round,
   target and mode; p50/p90/p99 of the time to the whole answer (the last byte of a
   stream), and the overhead a gateway adds: its percentile minus the upstream's;
2. throughput at ``--concurrency`` connections for ``--duration`` seconds per round, target
   and mode: requests per second and CPU per request of the gateway's process (user +
   system seconds from /proc over requests answered) and of the upstream's.

``--api`` says which API the gateways are called with: ``openai`` (Chat Completions, modes
``whole`` and ``stream``), ``anthropic`` (Anthropic Messages, ``POST /v1/messages`` with the
same ask and ``max_tokens``: modes ``messages/whole`` and ``messages/stream``, which the
gateway answers from the OpenAI-compatible upstream, translating its answer and its events)
or ``both``. The upstream itself is always called with Chat Completions (modes ``whole`` and
``stream``): a Messages mode's overhead is taken over the upstream's answer of the same
kind, whole or streamed.

The CPU per request is also taken in the one-connection phase. zerolayer's streaming CPU
per request over its non-streaming one is reported from both phases, for each API. Each
target's first answer of every block is checked (the upstream's text, whole or streamed);
any other status than 200 counts as an error. Nothing leaves 127.0.0.1.

    python benchmarks/gateway_overhead.py --litellm .dev/litellm-venv/bin/litellm \\
        --json gateway.json
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
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gateway_upstream import MODEL, answer_tokens
from http_load import percentile, process, process_tree_cpu, run_async

HERE = Path(__file__).resolve().parent
HOST = "127.0.0.1"
PATH = "/v1/chat/completions"
MESSAGES_PATH = "/v1/messages"
KEY = "sk-bench-" + "5a" * 32  # LiteLLM's master key; the others ignore it
TEXT = "Write a short poem about the sea and lighthouse number {i}"
MODES = ("whole", "stream")
MESSAGES = "messages/"  # the prefix of the Anthropic Messages modes
API_MODES = {
    "openai": MODES,
    "anthropic": tuple(MESSAGES + m for m in MODES),
    "both": (*MODES, *(MESSAGES + m for m in MODES)),
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def raw_request(port: int, text: str, stream: bool, messages: bool = False) -> bytes:
    """One Chat Completions request (an Anthropic Messages one with ``messages``) as the
    client sends it (HTTP/1.1, keep-alive)."""
    body: dict[str, Any] = {"model": MODEL, "max_tokens": 64, "stream": stream,
                            "messages": [{"role": "user", "content": text}]}  # fmt: skip
    if stream and not messages:
        body["stream_options"] = {"include_usage": True}
    data = json.dumps(body).encode()
    path, auth = (
        (MESSAGES_PATH, f"x-api-key: {KEY}\r\nanthropic-version: 2023-06-01")
        if messages
        else (PATH, f"authorization: Bearer {KEY}")
    )
    head = (
        f"POST {path} HTTP/1.1\r\nhost: {HOST}:{port}\r\ncontent-type: application/json\r\n"
        f"{auth}\r\ncontent-length: {len(data)}\r\n\r\n"
    )
    return head.encode() + data


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, bytes, bool]:
    """Status, body (chunked bodies joined) and whether the server closes the connection."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    headers: dict[bytes, bytes] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip().lower()
    close = headers.get(b"connection") == b"close"
    if headers.get(b"transfer-encoding") == b"chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            data = await reader.readexactly(size + 2)
            if size == 0:
                return status, b"".join(parts), close
            parts.append(data[:-2])
    if b"content-length" in headers:
        return status, await reader.readexactly(int(headers[b"content-length"])), close
    return status, await reader.read(), True


def answer_text(body: bytes, stream: bool, messages: bool = False) -> str | None:
    """The answer's text (joined deltas of a stream), or None when it cannot be read."""
    try:
        if messages:
            return messages_text(body, stream)
        if not stream:
            return str(json.loads(body)["choices"][0]["message"]["content"])
        texts = []
        for line in body.split(b"\n"):
            if line.startswith(b"data: ") and line[6:].strip() != b"[DONE]":
                for choice in json.loads(line[6:]).get("choices") or []:
                    texts.append((choice.get("delta") or {}).get("content") or "")
        return "".join(texts)
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def messages_text(body: bytes, stream: bool) -> str:
    """The text of an Anthropic Messages answer (its ``text_delta`` events, streamed)."""
    if not stream:
        return "".join(block["text"] for block in json.loads(body)["content"])
    texts = []
    for line in body.split(b"\n"):
        if line.startswith(b"data: "):
            event = json.loads(line[6:])
            if event["type"] == "content_block_delta":
                texts.append(event["delta"]["text"])
            elif event["type"] == "error":
                raise ValueError(event["error"])
    return "".join(texts)


@dataclass
class Block:
    """What one round of one target and mode measured."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    wrong: int = 0  # checked answers whose text is not the upstream's
    seconds: float = 0.0
    gateway_cpu_s: float = 0.0
    upstream_cpu_s: float = 0.0


async def run_block(
    port: int, requests: Iterator[bytes], stream: bool, connections: int, duration: float,
    expected: str, messages: bool = False,
) -> Block:  # fmt: skip
    """Send ``requests`` over ``connections`` keep-alive connections (each one's first
    request untimed and checked); stop after ``duration`` seconds."""
    block = Block()
    todo = iter(requests)
    start = time.perf_counter()

    async def connection() -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            first = next(todo, None)
            if first is None:
                return
            writer.write(first)
            status, body, close = await read_answer(reader)
            block.errors += status != 200
            block.wrong += answer_text(body, stream, messages) != expected
            for raw in todo:
                if close:
                    writer.close()
                    reader, writer = await asyncio.open_connection(HOST, port)
                if time.perf_counter() - start > duration:
                    break
                t0 = time.perf_counter()
                writer.write(raw)
                status, _, close = await read_answer(reader)
                block.latencies.append(time.perf_counter() - t0)
                block.errors += status != 200
        finally:
            writer.close()

    await asyncio.gather(*(connection() for _ in range(connections)))
    block.seconds = time.perf_counter() - start
    return block


@dataclass
class Target:
    name: str
    port: int
    pid: int | None  # the gateway's process (None: the upstream itself)


@dataclass
class Row:
    """One target and mode over all rounds of one phase."""

    target: str
    mode: str
    connections: int
    requests: int = 0
    errors: int = 0
    wrong: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list, repr=False)
    gateway_cpu_s: float = 0.0
    upstream_cpu_s: float = 0.0

    def add(self, block: Block) -> None:
        self.requests += len(block.latencies)
        self.errors += block.errors
        self.wrong += block.wrong
        self.seconds += block.seconds
        self.latencies += block.latencies
        self.gateway_cpu_s += block.gateway_cpu_s
        self.upstream_cpu_s += block.upstream_cpu_s

    def summary(self) -> dict[str, Any]:
        n = max(self.requests, 1)
        return {
            "target": self.target,
            "mode": self.mode,
            "connections": self.connections,
            "requests": self.requests,
            "errors": self.errors,
            "wrong": self.wrong,
            "rps": round(self.requests / self.seconds, 1) if self.seconds else 0.0,
            **{f"p{q}_ms": round(percentile(self.latencies, q) * 1e3, 3) for q in (50, 90, 99)},
            "gateway_us_per_request": round(self.gateway_cpu_s / n * 1e6, 1),
            "upstream_us_per_request": round(self.upstream_cpu_s / n * 1e6, 1),
        }


def measure(
    target: Target, upstream_pid: int, requests: Iterator[bytes], stream: bool, connections: int,
    duration: float, expected: str, messages: bool = False,
) -> Block:  # fmt: skip
    """One block, with the CPU the gateway and the upstream spent on it."""
    gateway0 = process_tree_cpu(target.pid) if target.pid else 0.0
    upstream0 = process_tree_cpu(upstream_pid)
    block = run_async(
        lambda: run_block(target.port, requests, stream, connections, duration, expected, messages)
    )
    if target.pid:
        block.gateway_cpu_s = (process_tree_cpu(target.pid) or 0.0) - (gateway0 or 0.0)
    block.upstream_cpu_s = (process_tree_cpu(upstream_pid) or 0.0) - (upstream0 or 0.0)
    return block


def litellm_config(folder: str, upstream_port: int) -> str:
    """A LiteLLM proxy config with one model on the upstream (JSON is YAML)."""
    config = {
        "model_list": [{"model_name": MODEL, "litellm_params": {
            "model": f"openai/{MODEL}", "api_base": f"http://{HOST}:{upstream_port}/v1",
            "api_key": "sk-bench"}}],
        "litellm_settings": {"telemetry": False, "set_verbose": False},
        "general_settings": {"master_key": KEY},
    }  # fmt: skip
    path = os.path.join(folder, "litellm.yaml")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(config, fh)
    return path


def versions(litellm: str | None) -> dict[str, str]:
    """The software the figures depend on."""
    out = {"python": platform.python_version(), "cpus": str(os.cpu_count())}
    for module in ("uvicorn", "uvloop", "httptools", "httpx", "fastapi"):
        try:
            out[module] = getattr(__import__(module), "__version__", "?")
        except ImportError:
            out[module] = "not installed"
    if litellm:
        python = str(Path(litellm).with_name("python"))
        code = ("import importlib.metadata as m; print(m.version('litellm'), "
                "m.version('uvicorn'), m.version('httpx'))")  # fmt: skip
        found = subprocess.run([python, "-c", code], capture_output=True, text=True, check=False)
        out["litellm (its venv: litellm uvicorn httpx)"] = found.stdout.strip() or "?"
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    expected = "".join(answer_tokens(args.tokens))
    up_port, zl_port = free_port(), free_port()
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ZEROLAYER_", "LITELLM"))}
    base["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    with ExitStack() as stack, tempfile.TemporaryDirectory() as folder:
        up_pid = stack.enter_context(process(
            [sys.executable, str(HERE / "gateway_upstream.py"), str(up_port),
             "--tokens", str(args.tokens)],
            base, f"http://{HOST}:{up_port}/health", "the upstream"))  # fmt: skip
        targets = [Target("direct", up_port, None)]
        zl_env = {**base, "ZEROLAYER_ENGINE": args.engine,
                  "ZEROLAYER_FALLBACK": f"upstream:http://{HOST}:{up_port}/v1",
                  "ZEROLAYER_UPSTREAM_MODEL": MODEL, "ZEROLAYER_RULES": "off",
                  "ZEROLAYER_DATA_DIR": folder}  # fmt: skip
        zl_pid = stack.enter_context(process(
            [sys.executable, "-m", "zerolayer.rules_api", "--port", str(zl_port),
             "--workers", "1", "--log-level", "warning"],
            zl_env, f"http://{HOST}:{zl_port}/health/ready", "zerolayer"))  # fmt: skip
        targets.append(Target("zerolayer", zl_port, zl_pid))
        if args.baseline:  # another build of zerolayer, first on its path
            bl_port = free_port()
            bl_env = {**zl_env, "PYTHONPATH": os.pathsep.join([args.baseline, base["PYTHONPATH"]])}
            bl_pid = stack.enter_context(process(
                [sys.executable, "-m", "zerolayer.rules_api", "--port", str(bl_port),
                 "--workers", "1", "--log-level", "warning"],
                bl_env, f"http://{HOST}:{bl_port}/health/ready", "the baseline"))  # fmt: skip
            targets.append(Target("baseline", bl_port, bl_pid))
        if args.litellm:
            ll_port = free_port()
            ll_env = {**base, "LITELLM_LOG": "ERROR", "LITELLM_LOCAL_MODEL_COST_MAP": "True",
                      "LITELLM_TELEMETRY": "False", "PYTHONPATH": ""}  # fmt: skip
            ll_pid = stack.enter_context(process(
                [args.litellm, "--config", litellm_config(folder, up_port), "--host", HOST,
                 "--port", str(ll_port), "--num_workers", "1"],
                ll_env, f"http://{HOST}:{ll_port}/health/liveliness", "LiteLLM"))  # fmt: skip
            targets.append(Target("litellm", ll_port, ll_pid))
        counter = iter(range(10**9))

        def requests(target: Target, stream: bool, messages: bool, count: int) -> Iterator[bytes]:
            for _ in range(count):
                yield raw_request(target.port, TEXT.format(i=next(counter)), stream, messages)

        def modes(target: Target) -> tuple[str, ...]:  # the upstream speaks Chat Completions
            return MODES if target.pid is None else API_MODES[args.api]

        phases: dict[str, dict[tuple[str, str], Row]] = {}
        plan = [("warm-up", 1, 1, args.latency_requests // 4 or 1, 30.0),
                ("latency", args.rounds, 1, args.latency_requests, 60.0),
                ("throughput", args.rounds, args.concurrency, 10**6, args.duration)]  # fmt: skip
        for phase, rounds, conns, count, duration in plan:
            rows = phases.setdefault(phase, {})
            for r in range(rounds):
                order = targets[r % len(targets) :] + targets[: r % len(targets)]
                for target in order:
                    for mode in modes(target):
                        stream = mode.endswith("stream")
                        messages = mode.startswith(MESSAGES)
                        block = measure(target, up_pid, requests(target, stream, messages, count),
                                        stream, conns, duration, expected, messages)  # fmt: skip
                        row = rows.setdefault((target.name, mode), Row(target.name, mode, conns))
                        row.add(block)
                print(f"{phase}: round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
        del phases["warm-up"]
    return report(phases, [t.name for t in targets], args, versions(args.litellm))


def report(
    phases: dict[str, dict[tuple[str, str], Row]], names: list[str], args: argparse.Namespace,
    software: dict[str, str],
) -> dict[str, Any]:  # fmt: skip
    """Rows, overheads over the upstream, and the ratios the figures are quoted by."""
    out: dict[str, Any] = {
        "software": software,
        "settings": {
            "tokens": args.tokens,
            "rounds": args.rounds,
            "latency_requests": args.latency_requests,
            "concurrency": args.concurrency,
            "duration_s": args.duration,
            "engine": args.engine,
            "api": args.api,
        },
        "load_average": os.getloadavg(),
        "rows": {phase: [r.summary() for r in rows.values()] for phase, rows in phases.items()},
    }
    lat = {k: v.summary() for k, v in phases["latency"].items()}
    thr = {k: v.summary() for k, v in phases["throughput"].items()}
    modes = API_MODES[args.api]
    overhead: dict[str, Any] = {}
    for name in names[1:]:
        for mode in modes:
            direct = lat["direct", mode.removeprefix(MESSAGES)]
            overhead[f"{name}/{mode}"] = {
                f"p{q}_ms": round(lat[name, mode][f"p{q}_ms"] - direct[f"p{q}_ms"], 3)
                for q in (50, 90, 99)
            }
    out["overhead_1_connection"] = overhead
    ratios: dict[str, Any] = {}
    apis = [p for p in ("", MESSAGES) if p + "whole" in modes]
    for phase, rows in (("1_connection", lat), (f"{args.concurrency}_connections", thr)):
        for name in ("zerolayer", "baseline"):
            for prefix in apis if name in names else ():
                z_whole = rows[name, prefix + "whole"]["gateway_us_per_request"]
                z_stream = rows[name, prefix + "stream"]["gateway_us_per_request"]
                key = f"{name}_{prefix.replace('/', '_')}stream_over_whole_cpu_{phase}"
                ratios[key] = _ratio(z_stream, z_whole)
        for other in ("baseline", "litellm"):
            for mode in modes if other in names else ():
                key = f"{other}_over_zerolayer_cpu_{mode.replace('/', '_')}_{phase}"
                ratios[key] = _ratio(rows[other, mode]["gateway_us_per_request"],
                                     rows["zerolayer", mode]["gateway_us_per_request"])  # fmt: skip
    if "litellm" in names:
        for mode in modes:
            for q in (50, 90, 99):
                z = overhead[f"zerolayer/{mode}"][f"p{q}_ms"]
                ll = overhead[f"litellm/{mode}"][f"p{q}_ms"]
                ratios[f"litellm_over_zerolayer_overhead_{mode.replace('/', '_')}_p{q}"] = (
                    round(ll / z, 1) if z > 0 else None
                )
    out["ratios"] = ratios
    return out


def _ratio(over: float, under: float) -> float | None:
    """``over / under`` to two places; None where ``under`` read no CPU at all (a phase too
    short for the clock's ticks: the smoke test's dozen requests)."""
    return round(over / under, 2) if under > 0 else None


def print_report(result: dict[str, Any]) -> None:
    print(", ".join(f"{k} {v}" for k, v in result["software"].items()))
    print(f"settings: {result['settings']}; load average at the end: {result['load_average']}")
    cols = ("target", "mode", "conns", "requests", "errors", "wrong", "req/s", "p50 ms",
            "p90 ms", "p99 ms", "gateway µs/req", "upstream µs/req")  # fmt: skip
    print("  ".join(f"{c:>10}" for c in cols))
    for rows in result["rows"].values():
        for r in rows:
            values = (r["target"], r["mode"], r["connections"], r["requests"], r["errors"],
                      r["wrong"], r["rps"], r["p50_ms"], r["p90_ms"], r["p99_ms"],
                      r["gateway_us_per_request"], r["upstream_us_per_request"])  # fmt: skip
            print("  ".join(f"{v!s:>10}" for v in values))
    print("overhead over the upstream at 1 connection (ms):")
    for key, value in result["overhead_1_connection"].items():
        print(f"  {key:<27} " + "  ".join(f"{q} {v:.3f}" for q, v in value.items()))
    print("ratios:")
    for key, value in result["ratios"].items():
        print(f"  {key}: {value}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--litellm", default=None, help="the litellm executable (its own venv)")
    parser.add_argument("--engine", default="zerolayer.core.engine:Engine")
    parser.add_argument("--tokens", type=int, default=16, help="tokens of the upstream's answer")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--latency-requests", type=int, default=250, help="per round and mode")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per round and mode")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    parser.add_argument(
        "--api", choices=sorted(API_MODES), default="openai",
        help="the API the gateways are called with (anthropic: Messages, over the same "
        "OpenAI-compatible upstream)",
    )  # fmt: skip
    parser.add_argument(
        "--baseline", default=None, metavar="DIR",
        help="also measure the zerolayer package in DIR (DIR/zerolayer: a checkout of another "
        "commit) as target 'baseline'",
    )  # fmt: skip
    args = parser.parse_args(argv)
    result = run(args)
    print_report(result)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)


if __name__ == "__main__":
    main()
