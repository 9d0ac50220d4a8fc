"""The lean path: POSTs to the answer routes served without FastAPI's layers around them.

On the full path a request to ``/v1/messages`` or ``/v1/chat/completions`` goes through
Starlette's and FastAPI's middleware (server errors, telemetry, body limit, exception
handlers, exit stacks), the router and FastAPI's request handler (body read, content type,
``json.loads``, the request model's validation, the syntax header) before the endpoint runs.
At one connection those layers cost a large part of the CPU of a request that the engine
hands to the fallback (docs/performance.md). The lean path does the same steps the same way
and leaves out the layers:

- the body is read once (``Content-Length`` at most the body limit);
- a content type ``application/json`` (parameters allowed), the body read by ``json.loads``
  and validated by the request model's ``model_validate(…, from_attributes=True)``, as
  FastAPI does;
- the endpoint is the route's own function (``answer_message``, ``answer_chat_completion``)
  with the syntax header as FastAPI reads it (the first one);
- an exception it raises is answered by the app's own exception handlers, looked up as
  Starlette does, under ``GuardMiddleware``'s body limit and catch-all answer.

Whatever it would not do exactly as the full path goes to the full path, the body replayed:
a body that is not JSON or not valid (the full path answers the 400 in the API's shape), any
other content type, a chunked or oversized body, a request with a zerolayer key (the tenant
middleware looks it up), and every request of an app given middleware beyond
``create_app``'s. ``ZeroLayerApp`` sends a request here only when the fast path of cached
answers (``fast_path.py``) may also see it: no root path, FastAPI's telemetry off.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from zerolayer.rules_api.fast_path import Service, read_body, replaying
from zerolayer.rules_api.guard import GuardMiddleware
from zerolayer.rules_api.headers import SYNTAX

Endpoint = Callable[[Any, Any, Request, str | None], Awaitable[Response]]
Handler = Callable[[Request, Exception], Any]

_JSON = b"application/json"
STARTED = "Caught handled exception, but response already started."  # Starlette's words


@dataclass(frozen=True, slots=True)
class LeanRoute:
    """An answer route as the lean path calls it: its request model and its endpoint
    function, ``endpoint(service, body, request, syntax)``."""

    model: type[BaseModel]
    endpoint: Endpoint


def json_content_type(value: bytes | None) -> bool:
    """True for ``application/json``, with parameters or not (FastAPI reads such a body
    with ``json.loads``); any other type takes the full path."""
    if value is None:
        return False
    value = value.strip().lower()
    return value == _JSON or (value.startswith(_JSON) and value[len(_JSON) :].lstrip()[:1] == b";")


def parse_body(model: type[BaseModel], body: bytes) -> BaseModel | None:
    """The request model from ``body`` as FastAPI makes it (``json.loads``, then the model's
    validation in Python mode with ``from_attributes``), or None when either fails: the full
    path then answers the error."""
    if not body:
        return None
    try:
        data = json.loads(body)
        return model.model_validate(data, from_attributes=True)
    except Exception:  # a malformed or invalid body: the full path's 400, word for word
        return None


def exception_handler(handlers: Mapping[Any, Handler], exc: Exception) -> Handler | None:
    """The app's handler of ``exc``, found as Starlette's ``ExceptionMiddleware`` finds it:
    an ``HTTPException``'s status first, then the exception's classes in method order. The
    handlers of 500 and ``Exception`` are not among them (Starlette gives those to its
    outermost middleware, which ``GuardMiddleware``'s catch-all answer comes before)."""
    if isinstance(exc, HTTPException) and exc.status_code != 500 and exc.status_code in handlers:
        return handlers[exc.status_code]
    for cls in type(exc).__mro__:
        if cls is not Exception and cls in handlers:
            return handlers[cls]
    return None


class LeanPath:
    """Serves POSTs to the answer routes without the layers around them (module docs)."""

    def __init__(
        self,
        app: FastAPI,
        service: Service,
        routes: Mapping[str, LeanRoute],
        guard: GuardMiddleware,
    ) -> None:
        self.app = app
        self.service = service
        self.routes = dict(routes)
        self.guard = guard
        self.max_body_bytes = guard.max_body_bytes
        self.middleware = len(app.user_middleware)  # create_app's; any more: the full path
        self.served = 0  # requests this path has answered

    def takes(self, scope: Scope) -> LeanRoute | None:
        """The lean route of a request the lean path may serve, judged by its path, its
        headers and the app's middleware (its body is judged once read)."""
        route = self.routes.get(scope["path"])
        if route is None or len(self.app.user_middleware) != self.middleware:
            return None
        length = content_type = None
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value if length is None else length
            elif name == b"content-type":
                content_type = value if content_type is None else content_type
            elif name == b"transfer-encoding":
                return None
        if length is None or not length.isdigit() or int(length) > self.max_body_bytes:
            return None
        if not json_content_type(content_type):
            return None
        tenancy = self.service.tenancy
        if tenancy is not None and tenancy.has_tenant(Headers(scope=scope)):
            return None
        return route

    async def handle(self, scope: Scope, receive: Receive, send: Send, app: ASGIApp) -> None:
        """Serve the request, or pass it on to ``app`` (the full path) as it came."""
        route = self.takes(scope)
        if route is None:
            await app(scope, receive, send)
            return
        messages, body = await read_body(receive)
        replay = replaying(messages, receive)
        parsed = parse_body(route.model, body) if body is not None else None
        if parsed is None:
            await app(scope, replay, send)
            return
        scope["app"] = self.app
        self.served += 1

        async def endpoint(scope: Scope, receive: Receive, send: Send) -> None:
            await self._answer(route, parsed, scope, receive, send)

        await self.guard.guarded(scope, replay, send, endpoint)

    async def _answer(
        self, route: LeanRoute, body: BaseModel, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """The endpoint's answer sent, an exception answered by the app's handlers, as
        Starlette's ``wrap_app_handling_exceptions`` does around a route."""
        request = Request(scope, receive)
        started = False

        async def sender(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            syntax = request.headers.get(SYNTAX)
            response = await route.endpoint(self.service, body, request, syntax)
            await response(scope, receive, sender)
        except Exception as exc:
            handler = exception_handler(self.app.exception_handlers, exc)
            if handler is None:
                raise
            if started:
                raise RuntimeError(STARTED) from exc
            answer = handler(request, exc)
            if inspect.isawaitable(answer):
                answer = await answer
            if answer is not None:
                await answer(scope, receive, sender)
