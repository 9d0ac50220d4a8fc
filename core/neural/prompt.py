"""Turning an ``EngineRequest`` into the chat messages and token ids a model reads."""

from __future__ import annotations

from typing import Any

from zerolayer.core.messages import EngineRequest


def chat_messages(request: EngineRequest) -> list[dict[str, str]]:
    """The request as chat-template messages: the system prompt first, then every turn."""
    messages = [{"role": "system", "content": request.system}] if request.system else []
    messages += [{"role": m.role, "content": m.content} for m in request.messages]
    return messages


def plain_prompt(messages: list[dict[str, str]]) -> str:
    """A prompt for tokenizers without a chat template: ``role: content`` lines."""
    lines = [f"{m['role']}: {m['content']}" for m in messages]
    return "\n".join([*lines, "assistant:"])


def prompt_ids(tokenizer: Any, request: EngineRequest) -> list[int]:
    """The token ids of the request, through the tokenizer's chat template when it has one."""
    messages = chat_messages(request)
    if getattr(tokenizer, "chat_template", None):
        encoded = tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=True, return_dict=True
        )
        return list(encoded["input_ids"])
    return list(tokenizer(plain_prompt(messages))["input_ids"])
