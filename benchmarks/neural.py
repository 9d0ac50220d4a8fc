"""Benchmark: the engine against the local model for the same deterministic requests.

    python3 benchmarks/neural.py [--model PATH] [--max-tokens N] [--device cpu|cuda] [--json]

In one run it reports

* the local model's load time: from the GGUF file (de-quantised and converted, with a fresh
  cache folder) and from the cached safetensors copy;
* for each deterministic request (instruction + payload): the engine's median latency
  (``Engine.run``, parse cache cleared), and the local model's time to first token and total
  time when asked the same request (greedy, ``--max-tokens``; the second of two runs, the
  first warms torch for that prompt length), then the headline ratios
  (model / engine);
* the local model's decode speed (tokens per second, after the first token).

It uses the embedded SmolLM2-135M-Instruct unless ``--model`` names other weights, and runs on
the GPU when torch sees one (``--device`` forces a device): the same script is the GPU check.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / ".dev"))

REQUESTS: list[tuple[str, str]] = [
    ("Convert this JSON to YAML", '{"name": "zerolayer", "version": 1, "tags": ["a", "b"]}'),
    ("Convert this YAML to JSON", "name: zerolayer\nversion: 1\ntags:\n  - a\n  - b\n"),
    ("Convert this Markdown to HTML", "# Title\n\nSome *emphasis* and a [link](https://x.y).\n"),
]


def engine_latency(engine: Any, instruction: str, payload: str, runs: int = 50) -> float:
    """Median seconds of one deterministic answer."""
    from zerolayer.core.messages import EngineRequest, Route

    request = EngineRequest.from_instruction(instruction, payload)
    assert engine.run(request).route is Route.DETERMINISTIC, instruction
    times = []
    for _ in range(runs):
        engine.forget_instructions()  # measure the parse, not the cache
        started = time.perf_counter()
        engine.run(request)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def model_latency(backend: Any, instruction: str, payload: str, max_tokens: int) -> dict:
    """Time to first token, total time and decode speed of the model on the same request."""
    from zerolayer.core.fallback import Completion
    from zerolayer.core.messages import EngineRequest, Message

    text = f"{instruction}:\n\n{payload}"
    request = EngineRequest((Message("user", text),), temperature=0.0)
    started = time.perf_counter()
    first: float | None = None
    final: Completion | None = None
    for item in backend.stream(request, max_tokens=max_tokens):
        if isinstance(item, Completion):
            final = item
        elif first is None:
            first = time.perf_counter() - started
    total = time.perf_counter() - started
    assert final is not None and first is not None
    decode_s = max(total - first, 1e-9)
    return {
        "ttft_s": first,
        "total_s": total,
        "output_tokens": final.output_tokens,
        "decode_tok_s": (final.output_tokens - 1) / decode_s if final.output_tokens > 1 else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="", help="weights (default: the embedded SmolLM2)")
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--device", default="")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import torch

    from zerolayer.core.engine import Engine
    from zerolayer.core.neural.local import LocalBackend

    env = dict(os.environ)
    if args.device:
        env["ZEROLAYER_DEVICE"] = args.device
    loads: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache:
        env["ZEROLAYER_CACHE_DIR"] = cache
        cold = LocalBackend.from_spec(args.model, env)
        loads["first_load_s"] = cold.loaded.load_s
        del cold
        backend = LocalBackend.from_spec(args.model, env)
        loads["cached_load_s"] = backend.loaded.load_s
    engine = Engine()
    rows = []
    for instruction, payload in REQUESTS:
        det = engine_latency(engine, instruction, payload)
        model_latency(backend, instruction, payload, args.max_tokens)  # warm this prompt size
        neural = model_latency(backend, instruction, payload, args.max_tokens)
        rows.append(
            {
                "instruction": instruction,
                "engine_s": det,
                **neural,
                "ratio_ttft": neural["ttft_s"] / det,
                "ratio_total": neural["total_s"] / det,
            }
        )
    import resource

    result = {
        "machine": platform.processor() or platform.machine(),
        "device": backend.device,
        "torch_threads": torch.get_num_threads(),
        "model": backend.loaded.source,
        **loads,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "requests": rows,
        "median_ratio_total": statistics.median(r["ratio_total"] for r in rows),
        "median_ratio_ttft": statistics.median(r["ratio_ttft"] for r in rows),
        "median_decode_tok_s": statistics.median(r["decode_tok_s"] for r in rows),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"device {result['device']} ({result['torch_threads']} threads), {result['model']}")
    print(f"load: first (GGUF → safetensors) {loads['first_load_s']:.1f} s, "
          f"cached {loads['cached_load_s']:.1f} s; peak RSS {result['rss_mb']:.0f} MB")  # fmt: skip
    for r in rows:
        print(
            f"{r['instruction']:<32} engine {r['engine_s'] * 1e3:7.3f} ms | model ttft "
            f"{r['ttft_s'] * 1e3:7.1f} ms, total {r['total_s']:6.2f} s "
            f"({r['output_tokens']} tok, {r['decode_tok_s']:.1f} tok/s) | "
            f"×{r['ratio_ttft']:,.0f} ttft, ×{r['ratio_total']:,.0f} total"
        )
    print(
        f"median: model/engine ×{result['median_ratio_total']:,.0f} total, "
        f"×{result['median_ratio_ttft']:,.0f} to first token; "
        f"decode {result['median_decode_tok_s']:.1f} tok/s"
    )


if __name__ == "__main__":
    main()
