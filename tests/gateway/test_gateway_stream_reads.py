"""An Anthropic Messages stream over an OpenAI-compatible upstream, made a read at a time
(``StreamReader``, ``read_stream``), is the parsed path's (``answer_deltas``, ``event_stream``)
byte for byte, however the upstream's bytes are split into reads.

Two zerolayer servers with the same scripted upstream: one as shipped, one whose backend
cannot give its stream a read at a time (so the Anthropic route reads it event by event, as
it did before). The scripted upstream answers each request with an event stream chosen by
the request's words (``script=NAME split=N``: the body cut into reads of N bytes, 0 for one
read): answers with usage and ``[DONE]``, events split across reads or many in one read,
``[DONE]``, an error event, bad data or a usage chunk in the middle of a read, cut streams,
a connection that breaks, a body that is not an event stream. Both servers must answer the
same status, headers and bytes (fresh ids and the date aside), and count the same metrics."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from zerolayer.core.neural.transport import Transport
from zerolayer.core.neural.upstream import UpstreamBackend
from zerolayer.rules_api import anthropic_api, create_app
from zerolayer.rules_api.anthropic_api import read_stream
from zerolayer.rules_api.testing import FakeEngine, serve_app
from zerolayer.rules_api.testing import chunk_delta as delta
from zerolayer.rules_api.testing import chunk_event as event

pytestmark = pytest.mark.slow  # live servers

IDS = re.compile(rb"(msg_|req_)[0-9a-f]{24}")
VARYING = {"date", "request-id", "x-zero-layer-time-ms"}


ROLE = event([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}])
USAGE = event([], usage={"prompt_tokens": 31, "completion_tokens": 7, "total_tokens": 38})
DONE = b"data: [DONE]\n\n"
ERROR = b'data: {"error": {"message": "the model server lost its GPU"}}\n\n'
LONE = (
    b'data: {"choices": [{"index": 0, "delta": {"content": "\\ud800 lone"}, '
    b'"finish_reason": "stop"}]}\n\n'
)  # a lone surrogate: its JSON is ASCII escapes
TOKENS = b"".join(delta(f"tok{i} ") for i in range(12))

SCRIPTS: dict[str, list[bytes | BaseException]] = {
    "whole": [ROLE + TOKENS + delta("end", "stop") + USAGE + DONE],
    "no-usage": [ROLE + TOKENS + delta("end", "length") + DONE],
    "unicode": [ROLE + delta("é ✓ ") + delta('"quoted" \\ ') + LONE + USAGE + DONE],
    "empty": [ROLE + delta("", "stop") + USAGE + DONE],
    "after-done": [ROLE + delta("a", "stop") + DONE + b"data: {bad\n\n" + delta("ignored")],
    "no-done": [ROLE + TOKENS + delta("end", "stop") + USAGE],
    "cut": [ROLE + TOKENS],
    "cut-at-once": [ROLE],
    "error-mid": [ROLE + TOKENS + ERROR + delta("never", "stop") + DONE],
    "error-first": [ROLE + ERROR + TOKENS],
    "bad-mid": [ROLE + TOKENS + b"data: {bad\n\n" + DONE],
    "usage-mid": [ROLE + delta("a ") + USAGE + delta("b", "stop") + DONE],
    "choices": [ROLE + delta("a ") + delta("x", index=1) + delta("b", "stop") + USAGE + DONE],
    "crlf": [(ROLE + TOKENS + delta("end", "stop") + USAGE + DONE).replace(b"\n", b"\r\n")],
    "break-mid": [ROLE + TOKENS, httpx.RemoteProtocolError("the upstream closed the connection")],
    "break-first": [ROLE, httpx.ReadTimeout("no answer from the upstream in 5 s")],
    "break-after-done": [ROLE + delta("a", "stop") + DONE, httpx.RemoteProtocolError("gone")],
}
NOT_A_STREAM = b'{"choices": []}'


HANG = "hang"  # a script part: the upstream sends nothing more for an hour
CLOSED: dict[str, int] = {}  # answers closed before their end, by script name


class ScriptedResponse:
    """An upstream's answer being read: the script's pieces, then its end or its error."""

    def __init__(
        self, parts: list[bytes | BaseException | str], stream: bool = True, name: str = ""
    ) -> None:
        self.status_code = 200
        self.headers = {"content-type": "text/event-stream" if stream else "application/json"}
        self.parts = parts
        self.name = name
        self.ended = False
        self.text = NOT_A_STREAM.decode()

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        for part in self.parts:
            if isinstance(part, BaseException):
                raise part
            if part == HANG:
                await asyncio.sleep(3600)
                continue
            assert isinstance(part, bytes)
            yield part
        self.ended = True

    async def aread(self) -> bytes:
        return NOT_A_STREAM

    async def aclose(self) -> None:
        if not self.ended:
            CLOSED[self.name] = CLOSED.get(self.name, 0) + 1


def split(parts: list[bytes | BaseException], size: int) -> list[bytes | BaseException]:
    """The script's bytes as reads of ``size`` bytes (0: as written)."""
    if not size:
        return parts
    out: list[bytes | BaseException] = []
    for part in parts:
        if isinstance(part, BaseException):
            out.append(part)
        else:
            out += [part[i : i + size] for i in range(0, len(part), size)]
    return out


class ScriptedTransport(Transport):
    @asynccontextmanager
    async def _asend(
        self, path: str, body: dict[str, Any], headers: Any
    ) -> AsyncIterator[ScriptedResponse]:
        text = body["messages"][-1]["content"]
        name = re.search(r"script=(\S+)", text).group(1)  # type: ignore[union-attr]
        size = int(re.search(r"split=(\d+)", text).group(1))  # type: ignore[union-attr]
        if name == "not-a-stream":
            yield ScriptedResponse([NOT_A_STREAM], stream=False)
            return
        if name.startswith(HANG):
            response = ScriptedResponse([ROLE + delta("a "), HANG], name=name)
            try:
                yield response
            finally:
                await response.aclose()
            return
        yield ScriptedResponse(split(SCRIPTS[name], size))  # type: ignore[arg-type]


class EventByEvent(UpstreamBackend):
    """The backend without ``stream_reader``: its stream is read item by item (``astream``)."""

    @property
    def stream_reader(self) -> Any:  # type: ignore[override]
        raise AttributeError("stream_reader")


def backend(cls: type[UpstreamBackend]) -> UpstreamBackend:
    made = cls("http://up.test/v1", model="up-model")
    made.transport = ScriptedTransport("http://up.test/v1")
    return made


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[str, str]]:
    reads = create_app(FakeEngine(), fallback=backend(UpstreamBackend))
    events = create_app(FakeEngine(), fallback=backend(EventByEvent))
    with serve_app(reads) as a, serve_app(events) as b:
        yield a, b


def ask(base: str, text: str) -> httpx.Response:
    body = {"model": "m", "max_tokens": 50, "stream": True,
            "messages": [{"role": "user", "content": text}]}  # fmt: skip
    with httpx.Client(timeout=10) as client:
        return client.post(base + "/v1/messages", json=body, headers={"x-api-key": "k"})


def counters(base: str) -> list[str]:
    """The metrics' counter lines (not times)."""
    with httpx.Client(timeout=10) as client:
        text = client.get(base + "/metrics").text
    return sorted(line for line in text.splitlines()
                  if "_total" in line and "seconds" not in line and not line.startswith("#"))  # fmt: skip


@pytest.mark.parametrize("size", [0, 1, 9, 200])
@pytest.mark.parametrize("script", [*SCRIPTS, "not-a-stream"])
def test_a_stream_read_a_read_at_a_time_is_the_parsed_paths(
    servers: tuple[str, str], script: str, size: int
) -> None:
    reads, events = servers
    text = f"a story script={script} split={size}"
    a, b = ask(reads, text), ask(events, text)
    assert a.status_code == b.status_code, (a.text, b.text)
    assert [k for k, _ in a.headers.raw] == [k for k, _ in b.headers.raw]
    for (name, x), (_, y) in zip(a.headers.raw, b.headers.raw, strict=True):
        if name.decode().lower() not in VARYING:
            assert x == y, name
    assert IDS.sub(rb"\1ID", a.content) == IDS.sub(rb"\1ID", b.content)
    assert counters(reads) == counters(events)


def test_the_scripts_cover_the_ends_that_matter(
    servers: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answers the comparison rests on are what their names say (not all one error),
    and the first server's come from ``read_stream``, the second's do not."""
    reads, events = servers
    made = []

    def counted(*args: Any) -> Any:
        made.append(args)
        return read_stream(*args)

    monkeypatch.setattr(anthropic_api, "read_stream", counted)
    whole = ask(reads, "script=whole split=0").text
    assert whole.count("event: content_block_delta") == 13 and "message_stop" in whole
    assert len(made) == 1
    ask(events, "script=whole split=0")
    assert len(made) == 1
    assert '"input_tokens": 31, "output_tokens": 7' in whole
    assert "event: error" in ask(reads, "script=error-mid split=9").text
    assert "ended before it finished" in ask(reads, "script=cut split=1").text
    assert ask(reads, "script=error-first split=0").status_code == 502
    assert ask(reads, "script=not-a-stream split=0").status_code == 502
    broke = ask(reads, "script=break-mid split=5").text
    assert "tok11" in broke and "the upstream connection broke" in broke


@pytest.mark.parametrize("which", [0, 1])
def test_a_client_that_goes_away_stops_the_stream_and_closes_the_upstreams_answer(
    servers: tuple[str, str], which: int
) -> None:
    """Both servers (made a read at a time, and event by event as Starlette's stream did)
    stop reading the upstream when the client leaves in the middle of a stream, and close
    its answer, instead of waiting on an upstream that sends nothing more."""
    name = f"{HANG}-{which}"
    assert _closed_after_leaving(servers[which], "/v1/messages", name, b"text_delta")


@pytest.fixture(scope="module")
def openai_servers() -> Iterator[tuple[str, str]]:
    """Two servers of an OpenAI-compatible upstream's relayed stream: the lean path's and
    the full path's (every request through FastAPI's stack)."""
    lean = create_app(FakeEngine(), fallback=backend(UpstreamBackend))
    full = create_app(FakeEngine(), fallback=backend(UpstreamBackend))
    full.lean_path = None  # type: ignore[attr-defined]
    with serve_app(lean) as a, serve_app(full) as b:
        yield a, b


@pytest.mark.parametrize("which", [0, 1])
def test_a_client_that_leaves_an_openai_stream_stops_the_relay_and_closes_the_upstreams_answer(
    openai_servers: tuple[str, str], which: int
) -> None:
    """The relay of an OpenAI-compatible upstream's stream stops reading the upstream when
    the client leaves in the middle, and closes its answer, on the lean path and the full
    path, instead of waiting on an upstream that sends nothing more."""
    name = f"{HANG}-openai-{which}"
    assert _closed_after_leaving(
        openai_servers[which], "/v1/chat/completions", name, b'"content": "a "'
    )


def _closed_after_leaving(url: str, path: str, name: str, marker: bytes) -> bool:
    """Whether the upstream's answer to script ``name`` is closed (within 5 s) after a client
    that streamed it from ``path`` leaves once ``marker`` has arrived."""
    host, port = url.removeprefix("http://").split(":")
    body = json.dumps({"model": "m", "max_tokens": 50, "stream": True,
                       "messages": [{"role": "user", "content": f"script={name} split=0"}]})  # fmt: skip
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(
            b"POST %s HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\n\r\n%s" % (path.encode(), len(body), body.encode())
        )
        seen = b""
        while marker not in seen:
            seen += sock.recv(65536)
    deadline = time.monotonic() + 5
    while CLOSED.get(name, 0) < 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    return CLOSED.get(name) == 1
