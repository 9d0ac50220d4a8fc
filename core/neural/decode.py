"""The token loop of the local model: one forward pass per token, greedy or sampled.

A manual loop over a KV cache (instead of ``model.generate``) lets every forward pass take
the queue's step lock, so concurrent generations interleave token by token, and lets the
caller stop at any token (stop sequences, max_tokens, a client that went away). On this
CPU it also runs far faster than ``generate`` of transformers 5.x (about 30 against 1 token/s
for SmolLM2-135M).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import Any


def new_cache(model: Any) -> Any:
    """An empty KV cache for ``model``."""
    from transformers import DynamicCache

    try:
        return DynamicCache(config=model.config)
    except TypeError:  # older transformers: no config argument
        return DynamicCache()


def pick_token(logits: Any, temperature: float, top_p: float, generator: Any) -> int:
    """The next token from one row of logits: argmax at temperature 0, else a sample from the
    temperature-scaled distribution cut to its ``top_p`` nucleus."""
    import torch

    if temperature <= 0:
        return int(torch.argmax(logits).item())
    probs = torch.softmax(logits.float().cpu() / temperature, dim=-1)
    if top_p < 1:
        sorted_probs, order = torch.sort(probs, descending=True)
        keep = torch.cumsum(sorted_probs, dim=-1) - sorted_probs < top_p
        keep[0] = True
        probs = torch.zeros_like(probs).scatter(0, order[keep], sorted_probs[keep])
    return int(torch.multinomial(probs, 1, generator=generator).item())


def tokens(
    model: Any,
    prompt_ids: Any,
    *,
    temperature: float = 0.0,
    top_p: float = 1.0,
    seed: int | None = None,
    step_lock: AbstractContextManager[Any] | None = None,
) -> Iterator[int]:
    """Generated token ids, one per forward pass, for as long as the caller reads.

    ``prompt_ids`` is a (1, n) tensor on the model's device; ``step_lock`` (entered around
    each forward pass) serialises passes between threads.
    """
    import torch

    generator = torch.Generator()
    if seed is not None:
        generator.manual_seed(seed)
    else:
        generator.seed()
    cache = new_cache(model)
    x = prompt_ids
    while True:
        with torch.inference_mode(), step_lock or nullcontext():
            out = model(input_ids=x, cache=cache, use_cache=True, logits_to_keep=1)
        token = pick_token(out.logits[0, -1], temperature, top_p, generator)
        yield token
        x = torch.tensor([[token]], device=prompt_ids.device)


class Detokenizer:
    """Token ids in, text pieces out, never splitting a multi-byte character."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.ids: list[int] = []
        self.emitted = 0  # characters of the decoded text already returned

    def add(self, token: int) -> str:
        """The new text that ``token`` completes ('' while a character is unfinished)."""
        self.ids.append(token)
        text = self.tokenizer.decode(self.ids, skip_special_tokens=True)
        if text.endswith("\ufffd"):
            return ""
        piece, self.emitted = text[self.emitted :], len(text)
        return piece

    def flush(self) -> str:
        """Whatever is left undecoded at the end."""
        text = self.tokenizer.decode(self.ids, skip_special_tokens=True)
        piece, self.emitted = text[self.emitted :], len(text)
        return piece
