"""``create_app``: the FastAPI application of zerolayer's HTTP service."""

from __future__ import annotations

from fastapi import FastAPI, Request

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import FallbackBackend
from zerolayer.rules_api.admin_api import admin_router
from zerolayer.rules_api.anthropic_api import anthropic_router
from zerolayer.rules_api.api_errors import flavour_of, install_error_handlers
from zerolayer.rules_api.cache import ResponseCache, build_cache
from zerolayer.rules_api.contracts import EngineLike
from zerolayer.rules_api.encoding import SafeJSONResponse
from zerolayer.rules_api.guard import GuardMiddleware
from zerolayer.rules_api.lint_api import lint_router
from zerolayer.rules_api.metrics import ServiceMetrics
from zerolayer.rules_api.openai_api import openai_router
from zerolayer.rules_api.service import AnswerService
from zerolayer.rules_api.settings import ServiceSettings
from zerolayer.rules_api.status_api import status_router

DESCRIPTION = """zerolayer answers deterministic requests (format conversions, queries, code
translation) without a model and hands the rest to a neural fallback. It speaks the Anthropic
Messages API and the OpenAI Chat Completions API; see docs/http.md."""


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
    metrics = metrics or ServiceMetrics(settings.metrics_window_s, settings.metrics_window_max)
    service = AnswerService(
        engine,
        fallback=fallback,
        cache=cache if cache is not None else build_cache(settings),
        metrics=metrics,
        settings=settings,
    )
    app = FastAPI(
        title="zerolayer",
        version="0.1.0",
        description=DESCRIPTION,
        default_response_class=SafeJSONResponse,
    )
    app.state.service = service

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
    app.add_middleware(
        GuardMiddleware, max_body_bytes=settings.max_body_bytes, on_reject=on_guard_reject
    )
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
