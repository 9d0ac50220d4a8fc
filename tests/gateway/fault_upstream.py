"""A model server with programmable faults, for the gateway conformance tests.

Run as a process: ``python fault_upstream.py PORT``. It serves the OpenAI Chat Completions
API (``/v1/chat/completions``) and the Anthropic Messages API (``/v1/messages``), streaming
or not. The last user message chooses the behaviour with ``fault=NAME`` words:

- none: the answer ``You said: <the message>``; with ``n`` > 1, choice ``i`` ends ``(i)``;
  usage counts words (prompt: every message's words + 10, so it differs from zerolayer's)
- ``fault=400``, ``fault=429``, ``fault=500``: that HTTP error with the API's error body
  (429 with ``retry-after: 1``); ``fault=500once:KEY``: 500 the first time KEY is seen
- ``fault=badstream``: a streaming request is answered 200 with a JSON body
- ``fault=slow``: 0.4 s before the first byte
- ``fault=cut``: the stream stops after two deltas, the connection closed mid-body
- ``fault=errevent``: the stream carries the API's error event after one delta
- ``fault=hang``: the stream sends one delta, then nothing for an hour

``GET /calls`` says how many answer requests came in (retries count).
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

SEEN: set[str] = set()
CALLS = {"count": 0}
MESSAGES = {
    400: (
        "invalid_request_error",
        "max_tokens: 99999999 is more than this model allows",
        "max_tokens",
    ),
    429: ("rate_limit_error", "Rate limit reached for requests: try again in 1s", None),
    500: ("api_error", "The model server had an error while processing your request", None),
}
OPENAI_TYPE = {"invalid_request_error": "invalid_request_error", "rate_limit_error": "requests",
               "api_error": "server_error"}  # fmt: skip


def fault_of(text: str) -> str | None:
    """The ``fault=NAME`` of a message, if any; ``500once:KEY`` is 500 only once per KEY."""
    found = re.search(r"fault=(\S+)", text)
    if not found:
        return None
    name = found.group(1)
    if name.startswith("500once:"):
        if name in SEEN:
            return None
        SEEN.add(name)
        return "500"
    return name


def last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(b.get("text", "") for b in content if isinstance(b, dict))
            return str(content or "")
    return ""


def prompt_tokens(body: dict[str, Any]) -> int:
    words = 0
    for message in body.get("messages") or []:
        content = message.get("content")
        words += len(str(content).split())
    return words + 10


def error_answer(status: int, anthropic: bool) -> Response:
    kind, message, param = MESSAGES[status]
    headers = {"retry-after": "1"} if status == 429 else {}
    if anthropic:
        body: dict[str, Any] = {"type": "error", "error": {"type": kind, "message": message}}
    else:
        body = {"error": {"message": message, "type": OPENAI_TYPE[kind], "param": param,
                          "code": "rate_limit_exceeded" if status == 429 else None}}  # fmt: skip
    return JSONResponse(body, status_code=status, headers=headers)


def sse(data: dict[str, Any], event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return (head + "data: " + json.dumps(data) + "\n\n").encode()


class Cut(Exception):
    """Raised inside a streaming body: uvicorn closes the connection mid-body."""


async def chat(request: Request) -> Response:
    CALLS["count"] += 1
    body = await request.json()
    text = last_user_text(body)
    fault = fault_of(text)
    if fault in ("400", "429", "500"):
        return error_answer(int(fault), anthropic=False)
    if fault == "slow":
        await asyncio.sleep(0.4)
    n = int(body.get("n") or 1)
    answers = [f"You said: {text}" + (f" ({i})" if i else "") for i in range(n)]
    limit = int(body.get("max_tokens") or 1000)
    answers = [" ".join(a.split(" ")[:limit]) for a in answers]
    finish = "length" if any(len(a.split(" ")) >= limit for a in answers) else "stop"
    used = {"prompt_tokens": prompt_tokens(body),
            "completion_tokens": sum(len(a.split(" ")) for a in answers)}  # fmt: skip
    used["total_tokens"] = used["prompt_tokens"] + used["completion_tokens"]
    base = {"id": "chatcmpl-up", "created": 1, "model": body.get("model", "m")}
    if not body.get("stream") or fault == "badstream":
        choices = [{"index": i, "message": {"role": "assistant", "content": a},
                    "finish_reason": finish} for i, a in enumerate(answers)]  # fmt: skip
        return JSONResponse({**base, "object": "chat.completion", "choices": choices,
                             "usage": used})  # fmt: skip

    async def events() -> AsyncIterator[bytes]:
        chunk = {**base, "object": "chat.completion.chunk"}
        sent = 0
        for i in range(n):
            yield sse({**chunk, "choices": [{"index": i, "delta": {"role": "assistant",
                                                                   "content": ""}}]})  # fmt: skip
        for i, answer in enumerate(answers):
            for word in re.findall(r"\S+\s*", answer):
                if fault == "cut" and sent == 2:
                    raise Cut("cut mid-stream on purpose")
                if fault == "hang" and sent == 1:
                    await asyncio.sleep(3600)
                if fault == "errevent" and sent == 1:
                    yield sse(
                        {
                            "error": {
                                "message": "the model server lost its GPU",
                                "type": "server_error",
                                "param": None,
                                "code": None,
                            }
                        }
                    )
                    return
                sent += 1
                yield sse({**chunk, "choices": [{"index": i, "delta": {"content": word}}]})
        yield sse({**chunk, "choices": [{"index": i, "delta": {}, "finish_reason": finish}
                                        for i in range(n)]})  # fmt: skip
        if (body.get("stream_options") or {}).get("include_usage"):
            yield sse({**chunk, "choices": [], "usage": used})
        yield b"data: [DONE]\n\n"

    return StreamingResponse(events(), media_type="text/event-stream")


async def messages(request: Request) -> Response:
    CALLS["count"] += 1
    body = await request.json()
    text = last_user_text(body)
    fault = fault_of(text)
    if fault in ("400", "429", "500"):
        return error_answer(int(fault), anthropic=True)
    if fault == "slow":
        await asyncio.sleep(0.4)
    answer = f"You said: {text}"
    limit = int(body.get("max_tokens") or 1000)
    words = answer.split(" ")[:limit]
    answer = " ".join(words)
    reason = "max_tokens" if len(words) >= limit else "end_turn"
    tokens_in, tokens_out = prompt_tokens(body), len(words)
    message = {"id": "msg_up", "type": "message", "role": "assistant", "model": body["model"],
               "stop_sequence": None}  # fmt: skip
    if not body.get("stream") or fault == "badstream":
        return JSONResponse(
            {
                **message,
                "content": [{"type": "text", "text": answer}],
                "stop_reason": reason,
                "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
            }
        )

    async def events() -> AsyncIterator[bytes]:
        start = {**message, "content": [], "stop_reason": None,
                 "usage": {"input_tokens": tokens_in, "output_tokens": 1}}  # fmt: skip
        yield sse({"type": "message_start", "message": start}, "message_start")
        yield sse(
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
            "content_block_start",
        )
        for sent, word in enumerate(re.findall(r"\S+\s*", answer)):
            if fault == "cut" and sent == 2:
                raise Cut("cut mid-stream on purpose")
            if fault == "errevent" and sent == 1:
                error = {"type": "overloaded_error", "message": "the model server is overloaded"}
                yield sse({"type": "error", "error": error}, "error")
                return
            yield sse(
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": word},
                },
                "content_block_delta",
            )
        yield sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
        yield sse({"type": "message_delta", "delta": {"stop_reason": reason,
                   "stop_sequence": None}, "usage": {"output_tokens": tokens_out}},
                  "message_delta")  # fmt: skip
        yield sse({"type": "message_stop"}, "message_stop")

    return StreamingResponse(events(), media_type="text/event-stream")


async def calls(request: Request) -> Response:
    return JSONResponse(CALLS)


async def health(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


app = Starlette(
    routes=[
        Route("/v1/chat/completions", chat, methods=["POST"]),
        Route("/v1/messages", messages, methods=["POST"]),
        Route("/calls", calls),
        Route("/health", health),
    ]
)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="critical")
