"""Service routes: cache warm-up, plugins, health, readiness and Prometheus metrics."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.concurrency import run_in_threadpool

from zerolayer.rules_api.api_errors import ApiError
from zerolayer.rules_api.credentials import key_from_headers
from zerolayer.rules_api.encoding import SafeJSONResponse as JSONResponse
from zerolayer.rules_api.schemas import WarmupRequest
from zerolayer.rules_api.service import AnswerService

LOOPBACK = ("127.", "::1", "::ffff:127.")


def is_loopback(request: Request) -> bool:
    """True when the request comes from this host (a loopback address)."""
    host = request.client.host if request.client is not None else ""
    return host == "localhost" or host.startswith(LOOPBACK)


def check_admin(service: AnswerService, request: Request) -> None:
    """Guard a costly service route. With ``ZEROLAYER_ADMIN_TOKEN`` set, the request must
    present it (``x-api-key``, else ``Authorization: Bearer``: the key read first) or it is
    401. Without one, only loopback clients are served; others get 403."""
    token = service.settings.admin_token
    if not token:
        if is_loopback(request):
            return
        raise ApiError(
            403,
            "this route is served to loopback clients only until ZEROLAYER_ADMIN_TOKEN is set",
            kind="permission_error",
        )
    given = key_from_headers(request.headers)
    if not secrets.compare_digest(given.encode(), token.encode()):
        raise ApiError(401, "this route needs the admin token", kind="authentication_error")


def admin_router(service: AnswerService) -> APIRouter:
    """The service routes."""
    router = APIRouter(tags=["service"])

    @router.post("/v1/cache/warmup", summary="Answer Anthropic-style requests and cache them")
    async def warmup(
        body: WarmupRequest | list[dict[str, Any]], request: Request
    ) -> dict[str, Any]:
        check_admin(service, request)
        bodies = body.requests if isinstance(body, WarmupRequest) else body
        return await service.warmup(bodies)

    @router.get("/v1/plugins", summary="Installed plugins, their ops and grammar fragments")
    async def plugins() -> dict[str, Any]:
        info = await run_in_threadpool(service.engine.plugin_info)
        return {"rule_set_version": service.engine.rule_set_version, "plugins": info}

    @router.get("/health", summary="Liveness")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @router.get("/health/ready", summary="Readiness: the engine is loaded, the fallback is up")
    async def ready() -> JSONResponse:
        def probe() -> dict[str, Any]:
            """ready; degraded while the fallback's circuit breaker is open (503 unless
            ZEROLAYER_READY_WHEN_DEGRADED); not_ready when the engine cannot answer."""
            out: dict[str, Any] = {"status": "ready"}
            try:
                out["rule_set_version"] = service.engine.rule_set_version
                out["plugins"] = len(service.engine.plugin_info())
            except Exception as exc:  # not ready: say why, do not crash
                return {"status": "not_ready", "error": f"engine: {exc}"}
            out["cache"] = service.cache.stats()
            if service.fast is not None:
                out["fast_path"] = service.fast.answers.stats()
            out["fallback"] = getattr(service.fallback, "name", None)
            breaker = getattr(service.fallback, "breaker", None)
            if breaker is not None:
                out["fallback_breaker"] = breaker.state
                if breaker.state == "open":
                    out["status"] = "degraded"
                    out["retry_after_s"] = round(breaker.retry_in(), 1)
            return out

        result = await run_in_threadpool(probe)
        up = result["status"] == "ready" or (
            result["status"] == "degraded" and service.settings.ready_when_degraded
        )
        return JSONResponse(result, status_code=200 if up else 503)

    @router.get("/metrics", summary="Prometheus metrics")
    async def metrics() -> Response:
        return Response(service.metrics.render(), media_type=CONTENT_TYPE_LATEST)

    return router
