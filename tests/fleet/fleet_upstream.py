"""A small OpenAI-compatible model server for the fleet tests: ``python fleet_upstream.py PORT``.

``POST /v1/chat/completions`` answers ``upstream heard: <the last user message>`` word by
word; with ``"stream": true`` as server-sent events, one word per event. A message that
contains ``slowly`` is streamed with a pause of ``PAUSE_S`` between events, so that a test
can act while a stream is in flight. ``GET /health`` answers 200. Loopback only.
"""

from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PAUSE_S = 0.1


def last_user_text(body: dict[str, Any]) -> str:
    """The text of the last user message of a Chat Completions body."""
    for message in reversed(body.get("messages") or []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, list):
            return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        return str(content or "")
    return ""


def answer_words(body: dict[str, Any]) -> list[str]:
    """The words of the answer, each with the space that follows it (but the last)."""
    words = ["upstream", "heard:", *last_user_text(body).split()]
    return [w + " " for w in words[:-1]] + [words[-1]]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._json(200 if self.path == "/health" else 404, {"ok": self.path == "/health"})

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.path != "/v1/chat/completions":
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        words = answer_words(body)
        usage = {
            "prompt_tokens": 5,
            "completion_tokens": len(words),
            "total_tokens": 5 + len(words),
        }
        if not body.get("stream"):
            self._json(
                200,
                {
                    "id": "up-1",
                    "object": "chat.completion",
                    "model": body.get("model", "default"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": "".join(words)},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": usage,
                },
            )
            return
        pause = PAUSE_S if "slowly" in last_user_text(body) else 0.0
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        for word in words:
            self._event({"choices": [{"index": 0, "delta": {"content": word}}]})
            time.sleep(pause)
        self._event({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        self._event({"choices": [], "usage": usage})
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True

    def _event(self, data: dict[str, Any]) -> None:
        self.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()

    def _json(self, status: int, data: dict[str, Any]) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


class Server(ThreadingHTTPServer):
    request_queue_size = 256  # a load test opens many connections at once
    daemon_threads = True


def main(port: int) -> None:
    with Server(("127.0.0.1", port), Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main(int(sys.argv[1]))
