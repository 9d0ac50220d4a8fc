"""A fast OpenAI-compatible model server for the gateway benchmark: ``python
gateway_upstream.py PORT [--tokens N]``.

``POST /v1/chat/completions`` answers at once with the same ``N``-token answer
(``"tok0 tok1 …"``): as one ``chat.completion`` object, or with ``"stream": true`` as
server-sent events (a role chunk, one chunk per token, a finish chunk, a usage chunk when
``stream_options.include_usage`` asks for it, ``[DONE]``), chunked, each event its own
write as a model server sends them. ``GET /health`` answers 200; anything else 404.

It is a raw asyncio protocol (uvloop when installed) with the answers prebuilt as bytes, so
that it spends far less CPU per request than the gateways measured in front of it.
HTTP/1.1 keep-alive; loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

MODEL = "bench-model"


def answer_tokens(tokens: int) -> list[str]:
    """The answer's tokens, each with the space that follows it (but the last)."""
    words = [f"tok{i}" for i in range(tokens)]
    return [w + " " for w in words[:-1]] + words[-1:]


def usage(tokens: int) -> dict[str, int]:
    return {"prompt_tokens": 12, "completion_tokens": tokens, "total_tokens": 12 + tokens}


def whole_answer(tokens: int, model: str) -> bytes:
    """The body of the non-streaming answer."""
    return json.dumps(
        {
            "id": "chatcmpl-upstream",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "".join(answer_tokens(tokens))},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": usage(tokens),
        }
    ).encode()


def stream_events(tokens: int, model: str, include_usage: bool) -> list[bytes]:
    """The server-sent events of the streaming answer, each framed as one HTTP chunk."""

    def chunk(choices: list[dict[str, Any]], **extra: Any) -> bytes:
        data = {"id": "chatcmpl-upstream", "object": "chat.completion.chunk",
                "created": 1_700_000_000, "model": model, "choices": choices, **extra}  # fmt: skip
        return b"data: " + json.dumps(data).encode() + b"\n\n"

    def choice(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}

    events = [chunk([choice({"role": "assistant", "content": ""})])]
    events += [chunk([choice({"content": t})]) for t in answer_tokens(tokens)]
    events.append(chunk([choice({}, "stop")]))
    if include_usage:
        events.append(chunk([], usage=usage(tokens)))
    events.append(b"data: [DONE]\n\n")
    return [b"%x\r\n%s\r\n" % (len(e), e) for e in events] + [b"0\r\n\r\n"]


class Answers:
    """Prebuilt answers by (model, stream, include_usage)."""

    def __init__(self, tokens: int) -> None:
        self.tokens = tokens
        self.built: dict[tuple[str, bool, bool], list[bytes]] = {}

    def of(self, body: dict[str, Any]) -> list[bytes]:
        model = str(body.get("model") or MODEL)
        stream = bool(body.get("stream"))
        include = bool((body.get("stream_options") or {}).get("include_usage"))
        key = (model, stream, include)
        found = self.built.get(key)
        if found is None:
            if stream:
                head = (
                    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                    b"cache-control: no-cache\r\ntransfer-encoding: chunked\r\n\r\n"
                )
                found = [head, *stream_events(self.tokens, model, include)]
            else:
                data = whole_answer(self.tokens, model)
                found = [
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                    b"content-length: %d\r\n\r\n%s" % (len(data), data)
                ]
            self.built[key] = found
        return found


NOT_FOUND = (
    b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
)
HEALTH = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"


class Protocol(asyncio.Protocol):
    """One keep-alive connection: requests read from the buffer, answered in order."""

    def __init__(self, answers: Answers) -> None:
        self.answers = answers
        self.buffer = b""
        self.transport: Any = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end].decode("latin-1")
            lines = head.split("\r\n")
            length = 0
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if len(self.buffer) < end + 4 + length:
                return
            body = self.buffer[end + 4 : end + 4 + length]
            self.buffer = self.buffer[end + 4 + length :]
            self.answer(lines[0], body)

    def answer(self, request_line: str, body: bytes) -> None:
        assert self.transport is not None
        method, path, _ = request_line.split(" ", 2)
        if method == "GET" and path == "/health":
            self.transport.write(HEALTH)
            return
        if method != "POST" or path.rstrip("/") not in (
            "/v1/chat/completions",
            "/chat/completions",
        ):
            self.transport.write(NOT_FOUND)
            return
        for part in self.answers.of(json.loads(body or b"{}")):
            self.transport.write(part)


async def serve(port: int, tokens: int) -> None:
    answers = Answers(tokens)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: Protocol(answers), "127.0.0.1", port, backlog=1024)
    async with server:
        await server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", type=int)
    parser.add_argument("--tokens", type=int, default=16, help="tokens of every answer")
    args = parser.parse_args(argv)
    try:
        import uvloop
    except ImportError:
        asyncio.run(serve(args.port, args.tokens))
        return
    uvloop.run(serve(args.port, args.tokens))


if __name__ == "__main__":
    main()
