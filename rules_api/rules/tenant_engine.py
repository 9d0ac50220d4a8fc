"""Tenant rules in front of the engine: ``TenantRulesEngine`` and ``TenantMiddleware``.

The middleware reads the client key of a ``/v1/messages`` or ``/v1/chat/completions``
request (``x-api-key`` or ``Authorization: Bearer``); when it is a zerolayer key, the tenant
it belongs to is set for the request (a context variable, so the API modules need not know).
``TenantRulesEngine`` wraps the engine: the built-in grammar answers first, and only a request
the engine would hand to the fallback for not understanding it (never one refused by the
sampling gate) is offered to the tenant's active rules. A tenant rule therefore never shadows
a built-in instruction, and a request without a tenant never sees any rule. The cache key of
a tenant's request includes the tenant's rule-set version, so no stale answer survives an
activation. When the engine's intent router is on and no trigger matches, the router may
propose the instruction of one of the tenant's rule examples (``rule_router.py``); the
proposal must match a trigger before the rule runs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from zerolayer.core.messages import EngineRequest, EngineResult, Route
from zerolayer.rules_api.contracts import EngineLike
from zerolayer.rules_api.rules.keys import KEY_PATTERN, key_from_headers, resolve
from zerolayer.rules_api.rules.rule_router import RuleRouter
from zerolayer.rules_api.rules.workflow import RulesHub

log = logging.getLogger("zerolayer.rules")
current_tenant: ContextVar[str | None] = ContextVar("zerolayer_tenant", default=None)
ANSWER_PATHS = ("/v1/messages", "/v1/chat/completions")
KEY_CACHE_S = 5.0


class TenantRulesEngine:
    """An ``EngineLike`` that adds the request tenant's active rules behind ``inner``."""

    def __init__(self, inner: EngineLike, hub: Callable[[], RulesHub | None]) -> None:
        self.inner = inner
        self._hub = hub
        router = getattr(inner, "router", None)
        self._rule_router = RuleRouter(inner) if router is not None else None

    @property
    def rule_set_version(self) -> str:
        """The wrapped engine's rule-set version (tenant versions are added per request)."""
        return self.inner.rule_set_version

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # a transparent proxy: isinstance sees the wrapped engine
        return type(self.inner)

    def _tenant(self, request: EngineRequest) -> str | None:
        return request.tenant or current_tenant.get()

    def run(self, request: EngineRequest) -> EngineResult:
        """The engine's answer; when it does not understand the request, the tenant's rules'."""
        result = self.inner.run(request)
        tenant = self._tenant(request)
        if tenant is None or result.route is not Route.FALLBACK or result.parts:
            return result  # a mixed answer's engine parts stand; rules see whole requests only
        if (result.reason or "").startswith(("gate.", "blocks.")):
            return result
        hub = self._hub()
        if hub is None:
            return result
        try:
            answer = hub.answer(tenant, dataclasses.replace(request, tenant=tenant))
            if answer is None and result.reason == "parse.no_match":
                answer = self._routed(hub, tenant, request)
        except Exception:  # the rules store failing must not fail the request
            log.exception("tenant rules failed")
            return result
        return answer or result

    def _routed(self, hub: RulesHub, tenant: str, request: EngineRequest) -> EngineResult | None:
        """The answer of the rule whose example the router proposes, when it is on."""
        if self._rule_router is None:
            return None
        version, active = hub.active(tenant)
        proposed = self._rule_router.propose(tenant, version, active, request)
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


class KeyTenants:
    """The tenant of each client key, read from the store and kept ``KEY_CACHE_S`` seconds."""

    def __init__(self, hub: Callable[[], RulesHub | None]) -> None:
        self._hub = hub
        self._keys: dict[str, tuple[float, str | None]] = {}

    def lookup(self, key: str) -> str | None:
        """The tenant of a zerolayer client key (None: unknown, revoked or every tenant's);
        may read the store, so it runs in the thread pool."""
        cached = self._keys.get(key)
        if cached is not None and time.monotonic() - cached[0] < KEY_CACHE_S:
            return cached[1]
        hub = self._hub()
        tenant = None
        if hub is not None:
            try:
                principal = resolve(hub.store, key)
            except Exception:
                log.exception("key lookup failed")
                principal = None
            tenant = principal.tenant if principal and principal.tenant != "*" else None
        if len(self._keys) > 10_000:
            self._keys.clear()
        self._keys[key] = (time.monotonic(), tenant)
        return tenant

    def cached(self, key: str) -> tuple[bool, str | None]:
        """``(True, tenant)`` when ``lookup`` would answer from its cache, else ``(False, None)``;
        never reads the store."""
        cached = self._keys.get(key)
        if cached is not None and time.monotonic() - cached[0] < KEY_CACHE_S:
            return True, cached[1]
        return False, None


class TenantMiddleware:
    """Sets ``current_tenant`` from a zerolayer client key on the answer routes."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hub: Callable[[], RulesHub | None],
        keys: KeyTenants | None = None,
    ) -> None:
        self.app = app
        self.keys = keys if keys is not None else KeyTenants(hub)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path", "").rstrip("/") not in ANSWER_PATHS:
            await self.app(scope, receive, send)
            return
        key = key_from_headers(Headers(scope=scope))
        tenant = await run_in_threadpool(self._tenant_of, key) if KEY_PATTERN.match(key) else None
        token = current_tenant.set(tenant)
        try:
            await self.app(scope, receive, send)
        finally:
            current_tenant.reset(token)

    def _tenant_of(self, key: str) -> str | None:
        return self.keys.lookup(key)


class RulesTenancy:
    """What the fast path of cached answers (``rules_api/fast_path.py``) needs to know about
    tenants, without ever reading the store: the tenant of a request's key and the tenant's
    rule-set version, both only as fresh as the slow path would use them."""

    def __init__(self, keys: KeyTenants, hub: Callable[[], RulesHub | None]) -> None:
        self.keys = keys
        self._hub = hub  # the hub if it is open, else None (never opens it)

    def tenant(self, headers: Mapping[str, str]) -> tuple[bool, str | None]:
        """``(known, tenant)`` of a request's headers; not known when the key's tenant would
        have to be read from the store."""
        key = key_from_headers(headers)
        if not KEY_PATTERN.match(key):
            return True, None
        return self.keys.cached(key)

    def version(self, tenant: str) -> int | None:
        """The tenant's rule-set version when the hub holds it fresh (within its poll
        interval), else None."""
        hub = self._hub()
        return hub.fresh_version(tenant) if hub is not None else None

    def current(self) -> str | None:
        """The tenant the tenant middleware set for the request being answered."""
        return current_tenant.get()
