"""The lean HTTP/1.1 client of the model path (``zerolayer.core.neural.http1``) against a
scripted local server: bodies by length, chunked and ended by the close; connections kept
and reused; an idle connection the server closed replaced; httpx's exceptions for a read
timeout, a cut body, a refused connection and a header that would split the request."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable

import httpx
import pytest

from zerolayer.core.neural import http1

pytestmark = pytest.mark.skipif(not http1.available("http://x"), reason="httptools missing")

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return head + await reader.readexactly(length)


def run(handler: Handler, client: Callable[[http1.Http1Pool], Awaitable[object]]) -> object:
    tasks: list[asyncio.Task[None]] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        tasks.append(asyncio.current_task())  # type: ignore[arg-type]
        try:
            await handler(reader, writer)
        finally:
            writer.close()

    async def main() -> object:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        pool = http1.Http1Pool(f"http://127.0.0.1:{port}/v1", connect_timeout=2.0, read_timeout=0.5)
        try:
            return await client(pool)
        finally:
            pool.close()
            server.close()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await asyncio.sleep(0.01)  # the closed transports let go of their sockets

    return asyncio.run(main())


def test_chunked_and_sized_answers_reuse_one_connection() -> None:
    connections: list[int] = []
    seen: list[bytes] = []

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        for i in range(3):
            seen.append(await read_request(reader))
            if i % 2:
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 7\r\nX-A: 1\r\nx-a: 2\r\n\r\n")
                writer.write(b'{"a":1}')
            else:
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                             b"transfer-encoding: chunked\r\n\r\n")  # fmt: skip
                for part in (b"data: 1\n\n", b"data: [DONE]\n\n"):
                    writer.write(b"%x\r\n%s\r\n" % (len(part), part))
                    await writer.drain()
                writer.write(b"0\r\n\r\n")
            await writer.drain()
        writer.close()

    async def client(pool: http1.Http1Pool) -> list[object]:
        out: list[object] = []
        for i in range(3):
            answer = await pool.post("/chat", b'{"q":1}', {"authorization": "Bearer k"})
            if i % 2:
                await answer.aread()
                out.append((answer.headers["x-a"], answer.json()))
            else:
                out.append(b"".join([part async for part in answer.aiter_bytes()]))
        return out

    out = run(handler, client)
    assert out == [b"data: 1\n\ndata: [DONE]\n\n", ("1, 2", {"a": 1}),
                   b"data: 1\n\ndata: [DONE]\n\n"]  # fmt: skip
    assert len(connections) == 1
    assert seen[0].startswith(b"POST /v1/chat HTTP/1.1\r\n")
    assert b"authorization: Bearer k\r\n" in seen[0] and seen[0].endswith(b'\r\n\r\n{"q":1}')


def test_a_body_ended_by_the_close_and_a_stale_idle_connection() -> None:
    connections: list[int] = []

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        await read_request(reader)
        if len(connections) == 1:  # keep-alive answer, then the server drops the connection
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
            await writer.drain()
            await asyncio.sleep(0.05)
        else:
            writer.write(b"HTTP/1.1 200 OK\r\n\r\nuntil the close")
            await writer.drain()
        writer.close()

    async def client(pool: http1.Http1Pool) -> list[bytes]:
        first = await pool.post("/a", b"{}", {})
        await first.aread()
        await asyncio.sleep(0.2)  # the server closed the idle connection meanwhile
        second = await pool.post("/a", b"{}", {})
        return [first.content, await second.aread()]

    assert run(handler, client) == [b"ok", b"until the close"]
    assert len(connections) == 2


def test_a_silent_server_is_a_read_timeout_and_a_cut_body_a_protocol_error() -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        body = await read_request(reader)
        if body.endswith(b"cut"):
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npart")
            await writer.drain()
            writer.close()
            return
        await asyncio.sleep(1.0)
        writer.close()

    async def client(pool: http1.Http1Pool) -> list[str]:
        out = []
        with pytest.raises(httpx.ReadTimeout):
            await pool.post("/a", b"silent", {})
        answer = await pool.post("/a", b"cut", {})
        with pytest.raises(httpx.RemoteProtocolError):
            await answer.aread()
        out.append("ok")
        with pytest.raises(httpx.LocalProtocolError):
            await pool.post("/a", b"{}", {"x-a": "1\r\nx-b: 2"})
        return out

    assert run(handler, client) == ["ok"]


def test_a_refused_connection_is_a_connect_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]

    async def main() -> None:
        pool = http1.Http1Pool(f"http://127.0.0.1:{port}", connect_timeout=1.0, read_timeout=1.0)
        with pytest.raises(httpx.ConnectError):
            await pool.post("/a", b"{}", {})

    asyncio.run(main())
