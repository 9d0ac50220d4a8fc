"""The fast path of cached answers: repeated small requests answered before the framework.

A deterministic answer that the response cache has served (a cache hit on the full path) is
remembered here as prebuilt response bytes, under an exact key made of

- the route and the query string,
- the request body, byte for byte,
- the request headers that can change an answer: ``content-type`` (how the body is read),
  ``x-zero-layer`` (``disable``) and ``x-zero-layer-syntax`` (the block syntax version),
- the engine's rule-set version.

The next request with the same key is answered at the ASGI level: no routing, no validation,
no JSON encoding, only fresh ids. Everything else goes on to the application unchanged, its
body replayed: streaming requests (their body says ``"stream": true``, and only whole answers
are remembered), bodies without ``Content-Length`` or over ``ZEROLAYER_FAST_PATH_MAX_BYTES``,
and any request with a zerolayer client key (its key is looked up in the rules store on
every request, on the full path, so a revoked key is refused at once). The fast path never
reads the store, so an answer never crosses tenants and never outlives a rule activation.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from random import getrandbits
from typing import Any, Protocol

from starlette.types import Message, Receive, Scope, Send

from zerolayer.rules_api.metrics import AnswerRecorder, ServiceMetrics

log = logging.getLogger("zerolayer.rules_api")

ROUTES = {"/v1/messages": "anthropic", "/v1/chat/completions": "openai"}
SCOPE_KEY = "zerolayer.fast_key"  # the key of a request that may be remembered
ENTRY_OVERHEAD = 256  # bytes counted per entry on top of key and response bytes

# Slots of a template, filled for every answer.
ID = "id"  # 24 random hex digits
CREATED = "created"  # Unix time in seconds

# Request headers the key or the framing depend on (names as ASGI gives them: lower case).
_WANTED = frozenset(
    (
        b"content-type",
        b"content-length",
        b"transfer-encoding",
        b"x-zero-layer",
        b"x-zero-layer-syntax",
        b"x-api-key",
        b"authorization",
    )
)


def new_hex() -> bytes:
    """24 random hex digits: the unique part of message, completion and request ids.

    Ids need to be unique, not secret: the Mersenne Twister of ``random`` (seeded from the
    system, and again in a forked child) costs a fraction of a system call per id."""
    return b"%024x" % getrandbits(96)


@dataclass(frozen=True, slots=True)
class Template:
    """Response bytes with slots: ``parts[0] slot parts[1] slot … parts[-1]``."""

    parts: tuple[bytes, ...]
    slots: tuple[str, ...]

    def render(self, values: Mapping[str, bytes]) -> bytes:
        """The bytes with every slot filled from ``values``."""
        out = [self.parts[0]]
        for slot, part in zip(self.slots, self.parts[1:], strict=True):
            out.append(values[slot])
            out.append(part)
        return b"".join(out)


def slot_values() -> dict[str, bytes]:
    """Fresh values for the slots of one answer."""
    return {ID: new_hex(), CREATED: str(int(time.time())).encode()}


class Tenancy(Protocol):
    """Tenants as the fast path sees them (``rules/tenant_engine.py``: ``RulesTenancy``)."""

    def has_tenant(self, headers: Mapping[str, str]) -> bool:
        """True when the request's key names a tenant: its key is looked up in the rules store
        on every request, so the request takes the full path."""
        ...


@dataclass(slots=True)
class FastEntry:
    """One remembered answer."""

    body: Template
    headers: tuple[tuple[bytes, bytes], ...]  # the x-zero-layer headers, in order
    request_id: bool  # add a ``request-id: req_<hex>`` header (Anthropic)
    recorder: AnswerRecorder
    saved_tokens: int
    size: int
    expires: float | None


class FastAnswers:
    """The remembered answers: an LRU bounded in bytes, with the cache's expiry if any."""

    def __init__(self, max_bytes: int, ttl_s: float | None = None) -> None:
        self.max_bytes = max_bytes
        self.ttl_s = ttl_s
        self._entries: OrderedDict[tuple[Any, ...], FastEntry] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.remembered = 0

    def get(self, key: tuple[Any, ...]) -> FastEntry | None:
        """The entry under ``key`` (now the most recently used), or None (also when expired)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry.expires is not None and time.monotonic() >= entry.expires:
                del self._entries[key]
                self._bytes -= entry.size
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry

    def put(self, key: tuple[Any, ...], entry: FastEntry) -> None:
        """Remember ``entry``, evicting the least recently used to stay within the budget."""
        if entry.size > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old.size
            while self._entries and self._bytes + entry.size > self.max_bytes:
                _, evicted = self._entries.popitem(last=False)
                self._bytes -= evicted.size
            self._entries[key] = entry
            self._bytes += entry.size
            self.remembered += 1

    def clear(self) -> None:
        """Forget every answer."""
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._entries)

    def stats(self) -> dict[str, Any]:
        """Entries, bytes, budget, hits and answers remembered so far."""
        with self._lock:
            return {
                "entries": len(self._entries),
                "bytes": self._bytes,
                "max_bytes": self.max_bytes,
                "hits": self.hits,
                "remembered": self.remembered,
            }


class Service(Protocol):
    """What the fast path reads of ``AnswerService`` (kept apart to avoid an import cycle)."""

    engine: Any
    tenancy: Tenancy | None
    metrics: ServiceMetrics


class FastPath:
    """Answers remembered requests at the ASGI level; see the module docstring."""

    def __init__(self, service: Service, answers: FastAnswers, *, max_body_bytes: int) -> None:
        self.service = service
        self.answers = answers
        self.max_body_bytes = max_body_bytes

    async def handle(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
    ) -> None:
        """Answer a POST to an answer route from memory, or pass it on to ``app``."""
        started = time.perf_counter()
        headers: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            if name in _WANTED and name not in headers:  # the first one counts, as in Starlette
                headers[name] = value
        length = headers.get(b"content-length", b"")
        if (
            b"transfer-encoding" in headers
            or not length.isdigit()
            or int(length) > self.max_body_bytes
        ):
            await app(scope, receive, send)
            return
        messages, body = await read_body(receive)
        replay = replaying(messages, receive)
        if body is None:
            await app(scope, replay, send)
            return
        try:
            key = self.key(scope, headers, body)
        except Exception:  # the fast path must never fail a request the full path can answer
            log.exception("fast path key failed")
            key = None
        if key is not None:
            entry = self.answers.get(key)
            if entry is not None:
                await self._answer(entry, send, started)
                return
            scope[SCOPE_KEY] = key
        await app(scope, replay, send)

    def key(
        self, scope: Scope, headers: Mapping[bytes, bytes], body: bytes
    ) -> tuple[Any, ...] | None:
        """The exact key of a request, or None when it names a tenant (the full path looks its
        key up in the rules store)."""
        tenancy = self.service.tenancy
        if tenancy is not None:
            names = (b"authorization", b"x-api-key")
            given = {n.decode(): headers[n].decode("latin-1") for n in names if n in headers}
            if given and tenancy.has_tenant(given):
                return None
        return (
            scope["path"],
            scope.get("query_string", b""),
            headers.get(b"content-type"),
            headers.get(b"x-zero-layer"),
            headers.get(b"x-zero-layer-syntax"),  # the block syntax version
            self.service.engine.rule_set_version,
            body,
        )

    def remember(
        self,
        scope: Scope,
        body: Template,
        headers: Mapping[str, str],
        *,
        request_id: bool,
        recorder: AnswerRecorder,
        saved_tokens: int,
    ) -> None:
        """Remember the answer the full path just gave to a cache hit (``headers``: its
        x-zero-layer headers), if the request had a key and the engine's rule-set version is
        still the one it was made with."""
        key = scope.get(SCOPE_KEY)
        if key is None or self.service.engine.rule_set_version != key[-2]:
            return
        raw = tuple((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items())
        size = (
            ENTRY_OVERHEAD
            + len(key[-1])
            + sum(len(p) for p in body.parts)
            + sum(len(k) + len(v) for k, v in raw)
        )
        ttl = self.answers.ttl_s
        expires = time.monotonic() + ttl if ttl else None
        entry = FastEntry(body, raw, request_id, recorder, saved_tokens, size, expires)
        self.answers.put(key, entry)

    async def _answer(self, entry: FastEntry, send: Send, started: float) -> None:
        values = slot_values()
        body = entry.body.render(values)
        headers = list(entry.headers)
        if entry.request_id:
            headers.append((b"request-id", b"req_" + new_hex()))
        headers.append((b"content-length", str(len(body)).encode()))
        headers.append((b"content-type", b"application/json"))
        metrics = self.service.metrics
        metrics.cache_hit.inc()
        entry.recorder.record(
            time.perf_counter() - started, failed=False, saved_tokens=entry.saved_tokens
        )
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def read_body(receive: Receive) -> tuple[list[Message], bytes | None]:
    """Read a request's body: the messages received (to replay them) and the body, None when
    the client went away first (``http.disconnect``: the application sees it as it would
    have)."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return messages, chunks[0] if len(chunks) == 1 else b"".join(chunks)


def replaying(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` again, then goes on with ``receive``."""

    async def replay() -> Message:
        if messages:
            return messages.pop(0)
        return await receive()

    return replay


def fast_route(scope: Scope) -> bool:
    """True for a request the fast path may answer: an HTTP POST to an answer route."""
    return (
        scope["type"] == "http"
        and scope["method"] == "POST"
        and scope["path"] in ROUTES
        and not scope.get("root_path")
    )
