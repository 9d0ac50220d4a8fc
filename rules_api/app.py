"""``create_app``: the FastAPI application of zerolayer's HTTP service."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import FallbackBackend
from zerolayer.rules_api.admin_api import admin_router
from zerolayer.rules_api.anthropic_api import answer_message, anthropic_router
from zerolayer.rules_api.api_errors import flavour_of, install_error_handlers
from zerolayer.rules_api.cache import RedisCache, ResponseCache, build_cache
from zerolayer.rules_api.contracts import EngineLike
from zerolayer.rules_api.encoding import SafeJSONResponse
from zerolayer.rules_api.fast_path import FastAnswers, FastPath, fast_route
from zerolayer.rules_api.guard import GuardMiddleware
from zerolayer.rules_api.lean_path import LeanPath, LeanRoute
from zerolayer.rules_api.lint_api import lint_router
from zerolayer.rules_api.metrics import ServiceMetrics
from zerolayer.rules_api.openai_api import answer_chat_completion, openai_router
from zerolayer.rules_api.openapi_doc import install_contract
from zerolayer.rules_api.schemas import ChatCompletionRequest, MessagesRequest
from zerolayer.rules_api.service import AnswerService
from zerolayer.rules_api.settings import ServiceSettings
from zerolayer.rules_api.status_api import status_router

DESCRIPTION = """zerolayer answers deterministic requests (format conversions, queries, code
translation) without a model and hands the rest to a neural fallback. It speaks the Anthropic
Messages API and the OpenAI Chat Completions API; see docs/http.md."""


TRACING_CHECK_S = 1.0


class ZeroLayerApp(FastAPI):
    """The FastAPI app with the fast path of cached answers (``fast_path.py``) and the lean
    path of the answer routes (``lean_path.py``) in front."""

    fast_path: FastPath | None = None
    lean_path: LeanPath | None = None
    _traced_at: float = -math.inf
    _traced_now: bool = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not fast_route(scope) or self.root_path or self._traced():
            await super().__call__(scope, receive, send)
            return
        full = super().__call__
        lean, fast = self.lean_path, self.fast_path
        if lean is None:
            after: ASGIApp = full
        else:

            async def after(scope: Scope, receive: Receive, send: Send) -> None:
                await lean.handle(scope, receive, send, full)

        if fast is None:
            await after(scope, receive, send)
        else:
            await fast.handle(scope, receive, send, after)

    def _traced(self) -> bool:
        """True when FastAPI's own OpenTelemetry tracing or metrics are on (checked at most
        once a second): every request then takes the full path, so that none goes unseen."""
        now = time.monotonic()
        if now - self._traced_at >= TRACING_CHECK_S:
            telemetry: Any = getattr(self, "_native_telemetry", None)
            self._traced_now = bool(telemetry is not None and telemetry.enabled())
            self._traced_at = now
        return self._traced_now


def create_app(
    engine: EngineLike,
    *,
    fallback: FallbackBackend | None = None,
    cache: ResponseCache | None = None,
    settings: ServiceSettings | None = None,
    metrics: ServiceMetrics | None = None,
) -> FastAPI:
    """The HTTP app around ``engine``; the cache defaults to what ``settings`` asks for.

    StartupError when ``engine`` lacks part of the ``EngineLike`` protocol or a setting is bad.
    """
    if not isinstance(engine, EngineLike):
        raise StartupError(
            f"{type(engine).__name__} is not an engine: it needs run, fingerprint, "
            "plugin_info and rule_set_version"
        )
    settings = settings or ServiceSettings()
    settings.check()
    if settings.switch_interval_ms > 0:  # an engine thread yields the GIL to the loop sooner
        sys.setswitchinterval(settings.switch_interval_ms / 1000)
    metrics = metrics or ServiceMetrics(settings.metrics_window_s, settings.metrics_window_max)
    service = AnswerService(
        engine,
        fallback=fallback,
        cache=cache if cache is not None else build_cache(settings),
        metrics=metrics,
        settings=settings,
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        aclose = getattr(fallback, "aclose", None)
        if callable(aclose):  # the pooled upstream connections of this worker's event loop
            await aclose()

    app = ZeroLayerApp(
        lifespan=lifespan,
        title="zerolayer",
        version="0.1.0",
        description=DESCRIPTION,
        default_response_class=SafeJSONResponse,
    )
    app.state.service = service
    transport = getattr(fallback, "transport", None)
    if transport is not None and hasattr(transport, "stats"):
        metrics.watch_upstream(transport)
    if isinstance(service.cache, RedisCache):  # a store that can fail
        metrics.watch_cache(service.cache)

    def on_reject(request: Request, status: int) -> None:
        metrics.reject(flavour_of(request.url.path, request.headers), status)

    def on_guard_reject(path: str, status: int) -> None:
        metrics.reject(flavour_of(path), status)

    install_error_handlers(app, on_reject)
    app.include_router(anthropic_router(service))
    app.include_router(openai_router(service))
    app.include_router(admin_router(service))
    app.include_router(lint_router(service))
    app.include_router(status_router())
    _install_rules(app, service)
    install_contract(app)
    app.add_middleware(
        GuardMiddleware, max_body_bytes=settings.max_body_bytes, on_reject=on_guard_reject
    )
    routes = {
        "/v1/messages": LeanRoute(MessagesRequest, answer_message),
        "/v1/chat/completions": LeanRoute(ChatCompletionRequest, answer_chat_completion),
    }
    guard = GuardMiddleware(app, max_body_bytes=settings.max_body_bytes, on_reject=on_guard_reject)
    app.lean_path = LeanPath(app, service, routes, guard)
    fast_max = min(settings.fast_path_max_bytes, settings.max_body_bytes)
    if fast_max > 0 and settings.fast_path_cache_bytes > 0 and service.cache.kind != "none":
        answers = FastAnswers(settings.fast_path_cache_bytes, settings.cache_ttl_s)
        service.fast = FastPath(service, answers, max_body_bytes=fast_max)
        app.fast_path = service.fast
    return app


def _install_rules(app: FastAPI, service: AnswerService) -> None:
    """Tenant rules (/v1/zero-rules, docs/rules.md), unless their dependencies are missing."""
    try:
        from zerolayer.rules_api.rules.install import install_rules
    except ImportError as exc:  # sqlalchemy or jinja2 not installed: no rules API
        import logging

        logging.getLogger("zerolayer.rules").warning("rules API disabled: %s", exc)
        return
    install_rules(app, service)
