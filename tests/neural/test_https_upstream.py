"""The model path to an ``https://`` upstream, against hypercorn on loopback with a certificate
from a CA made for the test: HTTP/2 is negotiated by ALPN where the upstream offers it (whole
and streamed answers, on the event loop and from worker threads, concurrent requests
multiplexed on one connection), HTTP/1.1 where it offers only that; the certificate is trusted
through ``ZEROLAYER_UPSTREAM_CA_FILE`` and refused without it; a CA file that cannot be read
stops the start (both HTTP backends)."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import json
import os
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from hypercorn.asyncio import serve
from hypercorn.config import Config

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import Completion, FallbackUnavailable
from zerolayer.core.messages import EngineRequest, Message
from zerolayer.core.neural import transport
from zerolayer.core.neural.anthropic import AnthropicBackend
from zerolayer.core.neural.upstream import UpstreamBackend

REQUEST = EngineRequest((Message("user", "Say hello."),), temperature=0.0)
# a wrong certificate must fail at once, not after retries
SETTINGS = {"ZEROLAYER_UPSTREAM_RETRIES": "0", "ZEROLAYER_UPSTREAM_CONNECT_TIMEOUT_S": "10"}

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


# -- a certificate authority and the upstream's certificate ----------------------------------


@dataclass(frozen=True)
class Certificates:
    ca: Path  # the CA's certificate: what the client trusts
    cert: Path  # the upstream's certificate (for 127.0.0.1 and localhost), signed by the CA
    key: Path


CA_KEY_USAGE = x509.KeyUsage(
    digital_signature=True, content_commitment=False, key_encipherment=False,
    data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
    encipher_only=False, decipher_only=False,
)  # fmt: skip


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_certificates(folder: Path) -> Certificates:
    now = datetime.datetime.now(datetime.UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("zerolayer test CA"))
        .issuer_name(_name("zerolayer test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(CA_KEY_USAGE, critical=True)
        .add_extension(ca_ski, critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    leaf = (
        x509.CertificateBuilder()
        .subject_name(_name("127.0.0.1"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    out = Certificates(folder / "ca.pem", folder / "upstream.pem", folder / "upstream.key")
    out.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    out.cert.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    out.key.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return out


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    return make_certificates(tmp_path_factory.mktemp("tls"))


# -- the upstream: an OpenAI-compatible ASGI app that says which HTTP version it was asked in --


@dataclass
class Seen:
    """What the upstream saw of each answer request: HTTP version, client (address, port)."""

    versions: list[str] = field(default_factory=list)
    clients: list[tuple[str, int]] = field(default_factory=list)


def chat_app(seen: Seen) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """``POST /v1/chat/completions``: ``over HTTP/<version>``, whole or as an event stream."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        assert scope["type"] == "http" and scope["path"] == "/v1/chat/completions"
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        request = json.loads(body)
        seen.versions.append(scope["http_version"])
        seen.clients.append(tuple(scope["client"]))
        words = ["over", " HTTP/", scope["http_version"]]
        usage = {"prompt_tokens": 3, "completion_tokens": len(words), "total_tokens": 6}
        if not request.get("stream"):
            answer = {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "model": request["model"],
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "".join(words)},
                        "finish_reason": "stop",
                    }
                ],
                "usage": usage,
            }
            await respond(send, "application/json", [json.dumps(answer).encode()])
            return
        chunks = [{"choices": [{"index": 0, "delta": {"content": w}}]} for w in words]
        chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        chunks.append({"choices": [], "usage": usage})
        events = [b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks]
        await respond(send, "text/event-stream", [*events, b"data: [DONE]\n\n"])

    return app


async def respond(send: Send, kind: str, parts: list[bytes]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", kind.encode())],
        }
    )
    for i, part in enumerate(parts):
        await send({"type": "http.response.body", "body": part, "more_body": i < len(parts) - 1})


@contextmanager
def serving(certs: Certificates, alpn: list[str]) -> Iterator[tuple[str, Seen]]:
    """The base URL of hypercorn serving ``chat_app`` over TLS on a loopback port, offering
    the ALPN protocols ``alpn``, and what it saw; stopped at the end. The socket listens before
    hypercorn starts: a connection made before it serves waits in the backlog."""
    seen = Seen()
    listener = socket.create_server(("127.0.0.1", 0))
    config = Config()
    config.bind = [f"fd://{os.dup(listener.fileno())}"]  # hypercorn closes its copy
    config.certfile, config.keyfile = str(certs.cert), str(certs.key)
    config.alpn_protocols = alpn
    config.graceful_timeout = 1.0
    config.loglevel = "WARNING"
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            loop.run_until_complete(serve(chat_app(seen), config, shutdown_trigger=stop.wait))
        except BaseException as exc:
            failures.append(exc)

    thread = threading.Thread(target=run, name="https-upstream", daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{listener.getsockname()[1]}", seen
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
        assert not thread.is_alive(), "the upstream did not stop"
        loop.close()
        listener.close()
    if failures:
        raise failures[0]


# -- the calls -------------------------------------------------------------------------------


@dataclass
class Exchange:
    wholes: list[Completion]  # concurrent whole answers
    streamed: str  # the text deltas of one streamed answer
    final: Completion  # its last item
    version: str  # the HTTP version of an answer to the transport's pooled client


def exchange(backend: UpstreamBackend, concurrent: int) -> Exchange:
    """``concurrent`` whole answers at once, then a streamed one, then one request on the
    transport's pooled client to read the answer's HTTP version; the connections closed."""

    async def main() -> Exchange:
        try:
            wholes = await asyncio.gather(
                *(backend.agenerate(REQUEST, max_tokens=8) for _ in range(concurrent))
            )
            items = [item async for item in backend.astream(REQUEST, max_tokens=8)]
            final = items.pop()
            assert isinstance(final, Completion) and all(isinstance(i, str) for i in items)
            body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
            response = await backend.transport.aclient.post("/chat/completions", json=body)
            return Exchange(list(wholes), "".join(map(str, items)), final, response.http_version)
        finally:
            await backend.aclose()

    return asyncio.run(main())


def blocking_calls(backend: UpstreamBackend, threads: int) -> list[str]:
    """The blocking client (mixed and protocol requests, in worker threads): ``threads``
    whole answers at once, then a streamed one; its texts. The connections closed."""
    try:
        with ThreadPoolExecutor(threads) as pool:
            calls = [pool.submit(backend.generate, REQUEST, max_tokens=8) for _ in range(threads)]
            texts = [call.result().text for call in calls]
        items = list(backend.stream(REQUEST, max_tokens=8))
        final = items.pop()
        assert isinstance(final, Completion) and final.text == "".join(map(str, items))
        return [*texts, final.text]
    finally:
        backend.close()


def backend_for(url: str, ca: Path | None) -> UpstreamBackend:
    env = dict(SETTINGS)
    if ca is not None:
        env["ZEROLAYER_UPSTREAM_CA_FILE"] = str(ca)
    return UpstreamBackend.from_spec(url + "/v1", env)


# -- the tests -------------------------------------------------------------------------------


@pytest.mark.slow
def test_an_upstream_that_offers_http2_is_called_over_http2(certificates: Certificates) -> None:
    assert transport.HTTP2, "h2 is a dependency of the service: pip install -e '.[server]'"
    with serving(certificates, ["h2", "http/1.1"]) as (url, seen):
        called = exchange(backend_for(url, certificates.ca), concurrent=8)
        blocking = blocking_calls(backend_for(url, certificates.ca), threads=4)
    assert [w.text for w in called.wholes] == ["over HTTP/2"] * 8
    assert called.streamed == called.final.text == "over HTTP/2"
    assert called.final.output_tokens == 3 and called.final.stop_reason == "end_turn"
    assert called.version == "HTTP/2"
    assert blocking == ["over HTTP/2"] * 5
    assert seen.versions == ["2"] * 15
    # on the event loop: the eight concurrent requests, the stream and the last call shared
    # one connection; the blocking client's threads another
    assert len(set(seen.clients[:10])) == 1
    assert len(set(seen.clients[10:])) == 1 and seen.clients[10] != seen.clients[0]


@pytest.mark.slow
def test_an_upstream_that_offers_only_http1_is_called_over_http1(
    certificates: Certificates,
) -> None:
    with serving(certificates, ["http/1.1"]) as (url, seen):
        called = exchange(backend_for(url, certificates.ca), concurrent=4)
        blocking = blocking_calls(backend_for(url, certificates.ca), threads=2)
    assert [w.text for w in called.wholes] == ["over HTTP/1.1"] * 4
    assert called.streamed == called.final.text == "over HTTP/1.1"
    assert called.version == "HTTP/1.1"
    assert blocking == ["over HTTP/1.1"] * 3
    assert seen.versions == ["1.1"] * 9


@pytest.mark.slow
def test_without_the_ca_file_the_upstreams_certificate_is_refused(
    certificates: Certificates, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)  # httpx's default bundle, nothing else
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    with serving(certificates, ["h2", "http/1.1"]) as (url, seen):
        backend = backend_for(url, None)

        async def call() -> None:
            try:
                await backend.agenerate(REQUEST, max_tokens=8)
            finally:
                await backend.aclose()

        with pytest.raises(FallbackUnavailable, match="CERTIFICATE_VERIFY_FAILED"):
            asyncio.run(call())
    assert seen.versions == []


@pytest.mark.parametrize(
    ("backend", "prefix"),
    [(UpstreamBackend, "ZEROLAYER_UPSTREAM"), (AnthropicBackend, "ZEROLAYER_ANTHROPIC")],
)
def test_the_ca_file_setting_is_read_and_a_bad_one_stops_the_start(
    backend: type[UpstreamBackend | AnthropicBackend], prefix: str, tmp_path: Path
) -> None:
    ca = make_certificates(tmp_path).ca
    built = backend.from_spec("https://127.0.0.1:9/v1", {f"{prefix}_CA_FILE": str(ca)})
    assert built.transport.settings.ca_file == str(ca)
    assert backend.from_spec("https://127.0.0.1:9/v1", {}).transport.settings.ca_file is None
    not_pem = tmp_path / "not.pem"
    not_pem.write_text("not a certificate\n")
    for path in (tmp_path / "missing.pem", not_pem, tmp_path):
        with pytest.raises(StartupError, match="cannot read the CA file"):
            backend.from_spec("https://127.0.0.1:9/v1", {f"{prefix}_CA_FILE": str(path)})
