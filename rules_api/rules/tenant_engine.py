"""Tenant rules in front of the engine: ``TenantRulesEngine`` and ``TenantMiddleware``.

The middleware reads the client keys of a ``/v1/messages`` or ``/v1/chat/completions``
request (``x-api-key``, then ``Authorization: Bearer``: ``rules_api/credentials.py``); the
tenant of the first zerolayer key is set for the request (a context variable, so the API
modules need not know). Every zerolayer key presented is looked up, and one that is
malformed, unknown or revoked is answered 401 at once, whatever else the request carries
(keys are looked up on every request, so a revocation holds on every worker from the moment
it commits); other keys (an upstream provider's) are left alone, and a request without a
zerolayer key gets no tenant rules.
``TenantRulesEngine`` wraps the engine: the built-in grammar answers first, and only a request
the engine would hand to the fallback for not understanding it (never one refused by the
sampling gate) is offered to the tenant's active rules. The engine asks them itself, through
its ``not_understood`` hook, with the readings of the message it made: a tenant's message is
segmented once. A tenant rule therefore never shadows
a built-in instruction, and a request without a tenant never sees any rule. The cache key of
a tenant's request includes the tenant's rule-set version, so no stale answer survives an
activation. When the engine's intent router is on and no trigger matches, the router may
propose the instruction of one of the tenant's rule examples (``rule_router.py``); the
proposal must match a trigger before the rule runs.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import inspect
import logging
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from zerolayer.core.errors import Unsupported
from zerolayer.core.messages import EngineRequest, EngineResult, Route
from zerolayer.core.segment import Segmented
from zerolayer.rules_api.api_errors import error_body, flavour_of, rejection_headers
from zerolayer.rules_api.contracts import EngineLike
from zerolayer.rules_api.credentials import ANSWER_PATHS, KEY_CHECKED_PATHS, zerolayer_keys
from zerolayer.rules_api.rules.keys import resolve
from zerolayer.rules_api.rules.rule_router import RuleRouter
from zerolayer.rules_api.rules.workflow import RulesHub

log = logging.getLogger("zerolayer.rules")
current_tenant: ContextVar[str | None] = ContextVar("zerolayer_tenant", default=None)
_INVALID = object()  # a zerolayer key that is unknown or revoked
_UNCHECKED = object()  # a zerolayer key the store could not check (unreachable)


class TenantRulesEngine:
    """An ``EngineLike`` that adds the request tenant's active rules behind ``inner``."""

    def __init__(self, inner: EngineLike, hub: Callable[[], RulesHub | None]) -> None:
        self.inner = inner
        self._hub = hub
        router = getattr(inner, "router", None)
        self._rule_router = RuleRouter(inner) if router is not None else None
        try:
            params = inspect.signature(inner.run).parameters
        except (TypeError, ValueError):
            params = {}  # type: ignore[assignment]
        self._takes_hook = "not_understood" in params

    @property
    def rule_set_version(self) -> str:
        """The wrapped engine's rule-set version (tenant versions are added per request)."""
        return self.inner.rule_set_version

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # a transparent proxy: isinstance sees the wrapped engine
        return type(self.inner)

    def runs_locally(self, request: EngineRequest) -> bool:
        """True when ``request`` names no tenant (the rules store is not read) and the wrapped
        engine says its run reads nothing but memory."""
        if self._tenant(request) is not None:
            return False
        local = getattr(self.inner, "runs_locally", None)
        return bool(local(request)) if local is not None else False

    def _tenant(self, request: EngineRequest) -> str | None:
        return request.tenant or current_tenant.get()

    def run(self, request: EngineRequest) -> EngineResult:
        """The engine's answer; when it does not understand the request, the tenant's rules'.

        An engine that takes a ``not_understood`` hook asks the rules itself, after it found
        no instruction it knows, with the readings of the message it made (the message is read
        once); any other engine is asked first, and its fallback offered to the rules after.
        """
        tenant = self._tenant(request)
        if tenant is None:
            return self.inner.run(request)
        request = dataclasses.replace(request, tenant=tenant)
        if self._takes_hook:
            run: Callable[..., EngineResult] = self.inner.run
            return run(request, not_understood=self._not_understood)
        result = self.inner.run(request)
        if result.route is not Route.FALLBACK or result.parts:
            return result  # a mixed answer's engine parts stand; rules see whole requests only
        if (result.reason or "").startswith(("gate.", "blocks.")):
            return result
        return self._answer(request, result.reason or "", None) or result

    def _not_understood(
        self, request: EngineRequest, readings: tuple[Segmented, ...], failure: Unsupported
    ) -> EngineResult | None:
        return self._answer(request, failure.reason, readings)

    def _answer(
        self, request: EngineRequest, reason: str, readings: tuple[Segmented, ...] | None
    ) -> EngineResult | None:
        """The answer of the tenant's rules to a request the engine does not understand."""
        hub = self._hub()
        if hub is None or request.tenant is None:
            return None
        try:
            answer = _ask(hub, request.tenant, request, readings)
            if answer is None and reason == "parse.no_match":
                answer = self._routed(hub, request.tenant, request, readings)
        except Exception:  # the rules store failing must not fail the request
            log.exception("tenant rules failed")
            return None
        return answer

    def _routed(
        self,
        hub: RulesHub,
        tenant: str,
        request: EngineRequest,
        readings: tuple[Segmented, ...] | None,
    ) -> EngineResult | None:
        """The answer of the rule whose example the router proposes, when it is on."""
        if self._rule_router is None:
            return None
        version, active = hub.active(tenant)
        proposed = self._rule_router.propose(tenant, version, active, request, readings)
        if proposed is None:
            return None
        rewritten, text = proposed
        answer = hub.answer(tenant, rewritten)
        if answer is None or answer.route is not Route.DETERMINISTIC:
            return None
        answer.routed = text
        return answer

    def fingerprint(self, request: EngineRequest) -> str | None:
        """The engine's key, extended with the tenant's rule-set version."""
        tenant = self._tenant(request)
        if tenant is None:
            return self.inner.fingerprint(request)
        base = self.inner.fingerprint(dataclasses.replace(request, tenant=tenant))
        hub = self._hub()
        if base is None or hub is None:
            return base
        try:
            version, _ = hub.active(tenant)
        except Exception:
            log.exception("tenant rule-set version unavailable")
            return None  # not cacheable rather than possibly stale
        digest = hashlib.sha256(f"{base}\x00{tenant}\x00{version}".encode())
        return digest.hexdigest()

    def plugin_info(self) -> list[dict[str, Any]]:
        return self.inner.plugin_info()


@functools.cache
def _takes_readings(hub_type: type) -> bool:
    try:
        return "segmented" in inspect.signature(hub_type.answer).parameters
    except (AttributeError, TypeError, ValueError):
        return False


def _ask(
    hub: RulesHub, tenant: str, request: EngineRequest, readings: tuple[Segmented, ...] | None
) -> EngineResult | None:
    """``hub.answer``, with the engine's readings of the message where the hub takes them
    (a hub that does not, a test double, reads the message itself)."""
    if readings and _takes_readings(type(hub)):
        return hub.answer(tenant, request, segmented=readings)
    return hub.answer(tenant, request)


class TenantMiddleware:
    """Looks up every presented zerolayer key on the routes of ``KEY_CHECKED_PATHS`` (401 for
    one that is not valid, 503 when the store cannot say) and, on the answer routes, sets
    ``current_tenant`` from the first."""

    def __init__(self, app: ASGIApp, *, hub: Callable[[], RulesHub | None]) -> None:
        self.app = app
        self._hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "").rstrip("/") if scope["type"] == "http" else ""
        if path not in KEY_CHECKED_PATHS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        keys = zerolayer_keys(headers)
        if not keys:
            await self.app(scope, receive, send)
            return
        tenant = await run_in_threadpool(self._tenant_of_all, keys)
        if tenant is _INVALID:
            body = error_body(
                flavour_of(path, headers),
                "authentication_error",
                "the zerolayer API key is not valid (unknown or revoked)",
            )
            extra = rejection_headers(path, "request.invalid_key")
            await JSONResponse(body, status_code=401, headers=extra)(scope, receive, send)
            return
        if tenant is _UNCHECKED:
            body = error_body(
                flavour_of(path, headers),
                "overloaded_error",
                "the zerolayer API key cannot be checked now (the rules store cannot be "
                "reached): retry shortly",
            )
            extra = {**rejection_headers(path, "store.unavailable"), "retry-after": "1"}
            await JSONResponse(body, status_code=503, headers=extra)(scope, receive, send)
            return
        if path not in ANSWER_PATHS:  # a valid key: the route runs as it would without it
            await self.app(scope, receive, send)
            return
        token = current_tenant.set(tenant if isinstance(tenant, str) else None)
        try:
            await self.app(scope, receive, send)
        finally:
            current_tenant.reset(token)

    def _tenant_of_all(self, keys: tuple[str, ...]) -> str | object | None:
        """The first key's tenant; ``_INVALID`` when any key is invalid, else ``_UNCHECKED``
        when any cannot be checked."""
        tenants = [self._tenant_of(key) for key in keys]
        for verdict in (_INVALID, _UNCHECKED):
            if verdict in tenants:
                return verdict
        return tenants[0]

    def _tenant_of(self, key: str) -> str | object | None:
        """The key's tenant; ``_INVALID`` when it is unknown or revoked; ``_UNCHECKED`` when
        the store cannot say (logged: the request is refused with 503 rather than answered
        without the tenant's rules)."""
        hub = self._hub()
        if hub is None:
            return None
        try:
            principal = resolve(hub.store, key)
        except Exception:
            log.exception("key lookup failed")
            return _UNCHECKED
        if principal is None:
            return _INVALID
        return principal.tenant if principal.tenant != "*" else None


class RulesTenancy:
    """What the fast path of cached answers (``rules_api/fast_path.py``) needs to know about
    tenants, without ever reading the store: a request with a zerolayer key names a tenant and
    takes the full path, where its key is looked up on every request (a revoked key is refused
    at once)."""

    def has_tenant(self, headers: Mapping[str, str]) -> bool:
        """True when the request carries a zerolayer client key."""
        return bool(zerolayer_keys(headers))
