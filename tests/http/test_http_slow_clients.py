"""Slow clients are cut off: header and body read timeouts, keep-alive bound and connection cap,
measured with real sockets against uvicorn on loopback (the configuration ``serve`` uses)."""

from __future__ import annotations

import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
import pytest

from zerolayer.rules_api import ServiceSettings, create_app
from zerolayer.rules_api.connections import TimedHttpToolsProtocol
from zerolayer.rules_api.server import uvicorn_config
from zerolayer.rules_api.testing import FakeEngine, anthropic_body, free_socket

pytestmark = pytest.mark.slow  # starts servers

LIMITS = ServiceSettings(header_timeout_s=0.5, body_timeout_s=0.5, keep_alive_s=1)


@contextmanager
def served(limits: ServiceSettings) -> Iterator[tuple[str, int]]:
    """``serve``'s uvicorn configuration in a thread on a free loopback port."""
    import uvicorn

    sock = free_socket()
    port = sock.getsockname()[1]
    config = uvicorn_config(create_app(FakeEngine()), "127.0.0.1", port, limits,
                            log_level="warning", access_log=False)  # fmt: skip
    config.lifespan = "off"
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield "127.0.0.1", port
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def closed_after(conn: socket.socket, limit: float = 5.0) -> float:
    """Seconds until the server closes ``conn`` (reads what it sends meanwhile)."""
    start = time.monotonic()
    conn.settimeout(limit)
    try:
        while conn.recv(65536):
            pass
    except TimeoutError:
        return float("inf")
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def closed_now(conn: socket.socket) -> bool:
    """True when the server has closed ``conn`` (what it sent before is read and dropped)."""
    conn.setblocking(False)
    try:
        while conn.recv(65536):
            pass
    except BlockingIOError:
        return False
    except ConnectionResetError:
        pass
    return True


def connect(address: tuple[str, int]) -> socket.socket:
    return socket.create_connection(address, timeout=5)


BODY = b'{"model": "m", "max_tokens": 5, "messages": []}'
STALLS: dict[str, Callable[[socket.socket], None]] = {
    "nothing sent": lambda s: None,
    "part of the request line": lambda s: s.sendall(b"POST /v1/mes"),
    "part of the headers": lambda s: s.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\n"),
    "headers, then part of the body": lambda s: s.sendall(
        b"POST /v1/messages HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n%s" % (len(BODY), BODY[:10])
    ),
}


def test_uvicorn_uses_the_timed_protocol() -> None:
    config = uvicorn_config(lambda *_: None, "127.0.0.1", 0, LIMITS)
    assert config.http is TimedHttpToolsProtocol
    assert config.timeout_keep_alive == 1
    assert config.limit_concurrency == LIMITS.max_connections


@pytest.mark.parametrize("stall", STALLS)
def test_a_stalled_client_is_closed_within_its_timeout(stall: str) -> None:
    with served(LIMITS) as address, connect(address) as conn:
        STALLS[stall](conn)
        waited = closed_after(conn)
    assert 0.3 <= waited <= 1.5, f"{stall}: closed after {waited:.2f} s"


def test_a_client_dripping_its_headers_is_closed_at_the_header_deadline() -> None:
    with served(LIMITS) as address, connect(address) as conn:
        start = time.monotonic()
        closed = False
        for piece in [b"GET /health HTTP/1.1\r\n", *(b"x-a: b\r\n" for _ in range(20))]:
            try:
                conn.sendall(piece)
            except OSError:
                closed = True
                break
            time.sleep(0.1)
        waited = time.monotonic() - start if closed else closed_after(conn) + 2.1
    assert waited <= 1.5  # absolute: each byte does not restart the clock


def test_an_idle_keep_alive_connection_is_closed() -> None:
    with served(LIMITS) as address, connect(address) as conn:
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b"200 OK" in conn.recv(65536)
        waited = closed_after(conn)
    assert 0.8 <= waited <= 2.0


def test_a_slow_but_steady_body_and_normal_requests_are_served() -> None:
    body = httpx.Request("POST", "http://x/v1/messages", json=anthropic_body("ECHO-UPPER: ok"))
    raw = body.read()
    with served(LIMITS) as address:
        with connect(address) as conn:  # the body in pieces, each well inside the timeout
            conn.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\ncontent-type: "
                         b"application/json\r\ncontent-length: %d\r\n\r\n" % len(raw))  # fmt: skip
            for i in range(0, len(raw), 20):
                conn.sendall(raw[i : i + 20])
                time.sleep(0.05)
            assert b"200 OK" in conn.recv(65536)
        url = f"http://{address[0]}:{address[1]}"
        stalled = [connect(address) for _ in range(50)]  # held open, sending nothing
        try:
            times = []
            with httpx.Client(base_url=url) as client:
                for _ in range(20):
                    start = time.perf_counter()
                    assert client.get("/health").status_code == 200
                    times.append(time.perf_counter() - start)
            assert max(times) < 0.1
            assert all(closed_after(s) < 1.5 for s in stalled)  # and all of them cut off
        finally:
            for s in stalled:
                s.close()


def test_connections_over_the_cap_get_503() -> None:
    limits = ServiceSettings(header_timeout_s=2, body_timeout_s=2, max_connections=4)
    with served(limits) as address:
        held = [connect(address) for _ in range(4)]
        try:
            time.sleep(0.2)
            with connect(address) as extra:
                extra.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                assert b"503" in extra.recv(65536).split(b"\r\n")[0]
        finally:
            for s in held:
                s.close()


def test_a_thousand_stalled_connections_do_not_slow_normal_requests() -> None:
    # The default connection cap (2048) holds 1,000 stalled clients: half send nothing, half
    # part of their headers. /health is timed on its own connection before and while they
    # are held; every stalled one is closed at the header timeout.
    limits = ServiceSettings(header_timeout_s=3, body_timeout_s=3, keep_alive_s=5)
    with served(limits) as address:
        url = f"http://{address[0]}:{address[1]}"
        with httpx.Client(base_url=url) as client:

            def health_times(n: int) -> list[float]:
                times = []
                for _ in range(n):
                    start = time.perf_counter()
                    assert client.get("/health").status_code == 200
                    times.append(time.perf_counter() - start)
                return sorted(times)

            before = health_times(50)
            stalled: list[socket.socket] = []
            try:
                opened = time.monotonic()
                for i in range(1000):
                    conn = connect(address)
                    stalled.append(conn)
                    if i % 2:
                        conn.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nx-a: ")
                time.sleep(0.2)
                during = health_times(50)
                assert time.monotonic() - opened < 2.5  # still held while /health was timed
                assert statistics.median(during) < max(0.01, 3 * statistics.median(before))
                assert during[-1] < 0.1
                time.sleep(max(0.0, opened + 3.5 - time.monotonic()))
                still_open = [s for s in stalled if not closed_now(s)]
                assert not still_open, f"{len(still_open)} stalled connections still open"
            finally:
                for conn in stalled:
                    conn.close()
