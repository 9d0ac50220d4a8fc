"""ASGI middleware around the whole app: the request body limit and the last-resort handler.

- A body whose ``Content-Length`` is over the limit is answered 413 before it is read; a body
  sent without a length (chunked) is counted while it is read and stops at the limit.
- An exception that nothing else handled becomes a 500 in the API's error shape (logged),
  instead of a bare text answer; no input a client sends should get there.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zerolayer.rules_api.api_errors import (
    KIND_OF_STATUS,
    BodyTooLarge,
    error_body,
    flavour_of,
    rejection_headers,
)

log = logging.getLogger("zerolayer.rules_api")


class GuardMiddleware:
    """Body size limit and catch-all error answer (see the module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        on_reject: Callable[[str, int], Any] | None = None,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.on_reject = on_reject

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.guarded(scope, receive, send, self.app)

    async def guarded(self, scope: Scope, receive: Receive, send: Send, app: ASGIApp) -> None:
        """``app`` called for an HTTP request under the body limit and the catch-all answer
        (also the lean path's, ``lean_path.py``, which goes around the middleware stack)."""
        headers = Headers(scope=scope)
        path: str = scope.get("path", "")
        length = headers.get("content-length")
        if length is not None and length.strip().isdigit() and int(length) > self.max_body_bytes:
            message = str(BodyTooLarge(self.max_body_bytes).detail)
            await self._answer(send, path, headers, 413, message)
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body_bytes:
                    raise BodyTooLarge(self.max_body_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await app(scope, limited_receive, tracking_send)
        except BodyTooLarge as exc:
            if started:
                raise
            await self._answer(send, path, headers, 413, str(exc.detail))
        except Exception:
            log.exception("unhandled error on %s %s", scope.get("method"), path)
            if started:
                raise
            message = "internal error in zerolayer; it has been logged"
            await self._answer(send, path, headers, 500, message)

    async def _answer(self, send: Send, path: str, headers: Headers, status: int, msg: str) -> None:
        if self.on_reject is not None:
            self.on_reject(path, status)
        kind = KIND_OF_STATUS.get(status, "api_error")
        body = json.dumps(error_body(flavour_of(path, headers), kind, msg)).encode()
        extra = rejection_headers(path, "request.too_large") if status == 413 else {}
        raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        raw += [(k.encode(), v.encode()) for k, v in extra.items()]
        if status == 413:
            raw.append((b"connection", b"close"))  # the rest of the body is not read
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": body})
