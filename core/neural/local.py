"""The local backend: a transformers causal LM on the GPU when there is one, else the CPU.

Greedy at temperature 0 (the same text on every run), sampled otherwise; stops at the
model's end-of-turn token, a stop sequence or ``max_tokens``; streams text as it decodes.
Requests share the model through a ``ModelQueue`` (bounded, first come first served).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import (
    Completion,
    FallbackUnavailable,
    StopReason,
    check_sampling,
    final_completion,
)
from zerolayer.core.messages import EngineRequest
from zerolayer.core.neural.decode import Detokenizer, tokens
from zerolayer.core.neural.prompt import prompt_ids
from zerolayer.core.neural.queue import ModelQueue
from zerolayer.core.neural.stops import StopScanner
from zerolayer.core.neural.weights import LoadedModel, load_model, resolve_source


def end_token_ids(model: Any, tokenizer: Any) -> frozenset[int]:
    """Token ids that end the assistant's turn (EOS of the tokenizer and generation config)."""
    ids: set[int] = set()
    for value in (
        getattr(tokenizer, "eos_token_id", None),
        getattr(getattr(model, "generation_config", None), "eos_token_id", None),
    ):
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, list | tuple):
            ids.update(v for v in value if isinstance(v, int))
    for marker in ("<|im_end|>", "<|eot_id|>", "<|end|>"):
        token = tokenizer.convert_tokens_to_ids(marker) if marker in tokenizer.get_vocab() else None
        if isinstance(token, int):
            ids.add(token)
    return frozenset(ids)


def context_length(model: Any) -> int:
    """The longest sequence the model's positions allow."""
    return int(getattr(model.config, "max_position_embeddings", 2048) or 2048)


class LocalBackend:
    """A ``FallbackBackend`` over a loaded model (see the module docstring)."""

    name = "local"

    def __init__(
        self,
        loaded: LoadedModel,
        *,
        queue: ModelQueue | None = None,
        default_temperature: float = 0.0,
        seed: int | None = None,
    ) -> None:
        self.loaded = loaded
        self.queue = queue or ModelQueue()
        self.default_temperature = default_temperature
        self.seed = seed
        self.end_ids = end_token_ids(loaded.model, loaded.tokenizer)
        self.context = context_length(loaded.model)

    @classmethod
    def from_spec(cls, argument: str, env: Mapping[str, str] | None = None) -> LocalBackend:
        """The backend of ``ZEROLAYER_FALLBACK=local[:PATH]``: the embedded SmolLM2 or the
        weights at PATH; ``ZEROLAYER_LOCAL_SLOTS``/``_QUEUE``/``_WAIT_S`` size the queue."""
        env = os.environ if env is None else env
        try:
            queue = ModelQueue(
                slots=int(env.get("ZEROLAYER_LOCAL_SLOTS", 4)),
                max_waiting=int(env.get("ZEROLAYER_LOCAL_QUEUE", 64)),
                wait_s=float(env.get("ZEROLAYER_LOCAL_WAIT_S", 120)),
            )
            temperature = float(env.get("ZEROLAYER_LOCAL_TEMPERATURE", 0))
        except ValueError as exc:
            raise StartupError(f"bad local backend setting: {exc}") from exc
        loaded = load_model(resolve_source(argument), env=env)
        return cls(loaded, queue=queue, default_temperature=temperature)

    @property
    def device(self) -> str:
        return self.loaded.device

    def warm(self) -> None:
        """Run one short greedy generation so the first request does not pay for warm-up."""
        from zerolayer.core.messages import Message

        request = EngineRequest((Message("user", "Hello, " * 32),), temperature=0.0)
        self.generate(request, max_tokens=8)

    def temperature(self, request: EngineRequest) -> float:
        """The temperature a request is decoded at (the backend's default when unsent)."""
        return self.default_temperature if request.temperature is None else request.temperature

    def check_options(self, request: EngineRequest) -> None:
        """``seed`` is honoured; ``n`` > 1 and ``top_k`` only when decoding is greedy (the
        ``n`` answers are then the same text); penalties and ``logit_bias`` are not."""
        check_sampling(request, "local", honoured=("seed",), greedy=self.temperature(request) == 0)

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """The whole answer (the stream, collected)."""
        return final_completion(self.stream(request, max_tokens=max_tokens, stop=stop))

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | Completion]:
        """Text pieces as they decode, then the ``Completion``; FallbackUnavailable when the
        queue is full or the conversation does not fit the model's context."""
        with self.queue.admit():
            yield from self._generate(request, max_tokens, stop)

    def _generate(
        self, request: EngineRequest, max_tokens: int, stop: Sequence[str]
    ) -> Iterator[str | Completion]:
        import torch

        model, tokenizer = self.loaded.model, self.loaded.tokenizer
        ids = prompt_ids(tokenizer, request)
        room = self.context - len(ids)
        if room <= 0:
            raise FallbackUnavailable(
                f"the conversation ({len(ids)} tokens) does not fit the local model's "
                f"context of {self.context} tokens"
            )
        limit = min(max_tokens, room)
        temperature = self.temperature(request)
        seed = request.option("seed", self.seed)
        top_p = 1.0 if request.top_p is None else request.top_p
        scanner = StopScanner(tuple(s for s in stop if s))
        detok = Detokenizer(tokenizer)
        parts: list[str] = []
        count, reason = 0, "max_tokens"
        prompt = torch.tensor([ids], device=self.loaded.device)
        stream = tokens(model, prompt, temperature=temperature, top_p=top_p, seed=seed,
                        step_lock=self.queue.step_lock)  # fmt: skip
        if limit <= 0:
            stream = iter(())
        for token in stream:
            if token in self.end_ids:
                reason = "end_turn"
                break
            count += 1
            piece = scanner.feed(detok.add(token))
            if piece:
                parts.append(piece)
                yield piece
            if scanner.stopped is not None:
                reason = "stop_sequence"
                break
            if count >= limit:
                break
        tail = scanner.feed(detok.flush()) + scanner.flush() if scanner.stopped is None else ""
        if tail:
            parts.append(tail)
            yield tail
        if scanner.stopped is not None:
            reason = "stop_sequence"
        stop_reason: StopReason = (
            "stop_sequence" if reason == "stop_sequence" else "end_turn" if reason == "end_turn"
            else "max_tokens"
        )  # fmt: skip
        yield Completion(
            "".join(parts),
            stop_reason=stop_reason,
            stop_sequence=scanner.stopped,
            input_tokens=len(ids),
            output_tokens=count,
        )
