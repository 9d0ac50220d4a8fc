"""The HTTP routes of the rules service: ``/v1/zero-rules``, ``/v1/keys``, ``/v1/status``.

Every answer other than success has one shape: ``{"code", "message", "errors": [{"location",
"message", "line"?, "column"?}]}``. Every route but the schema needs an API key; every change
to an existing rule needs ``If-Match`` with the rule's current ETag (428 without, 412 when it
is stale, 400 when it is not an ETag).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

import sqlalchemy.exc
from fastapi import APIRouter, FastAPI, Request
from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor

from zerolayer.rules_api.api_errors import error_response
from zerolayer.rules_api.credentials import key_from_headers, zerolayer_keys
from zerolayer.rules_api.encoding import SafeJSONResponse as JSONResponse
from zerolayer.rules_api.openapi_doc import RULES_PREFIXES
from zerolayer.rules_api.rules.document import Issue, guess_format
from zerolayer.rules_api.rules.errors import (
    Forbidden,
    NotFound,
    PreconditionRequired,
    RulesError,
    StoreUnavailable,
    TooLarge,
    Unauthorized,
)
from zerolayer.rules_api.rules.keys import (
    ALL_TENANTS,
    TENANT_PATTERN,
    Principal,
    create_key,
    key_id_of,
    key_view,
    resolve,
)
from zerolayer.rules_api.rules.paging import page_of, paged
from zerolayer.rules_api.rules.schema import rule_schema
from zerolayer.rules_api.rules.workflow import RESERVED_NAMES, RulesHub

READ = ("author", "reviewer", "publisher", "auditor")
TENANT_HEADER = "x-zerolayer-tenant"
_ETAG = re.compile(r'^\s*(?:W/)?"r(\d{1,12})"\s*$')
ACTION_BODY_LIMIT = 64 * 1024
STORE_RETRY_AFTER_S = 1  # Retry-After of a 503 while the rules store cannot be reached
log = logging.getLogger("zerolayer.rules_api.rules")


class RuleNameConvertor(Convertor[str]):
    """A rule's name in a path: any segment except the reserved names, which are concrete
    routes at that place (``/v1/zero-rules/validate``, ``/v1/zero-rules/schema``). So
    ``GET /v1/zero-rules/validate`` is the validate route's 405 with ``Allow: POST`` rather
    than a lookup of a rule that no one can create (404)."""

    regex = "(?!(?:" + "|".join(sorted(map(re.escape, RESERVED_NAMES))) + ")(?:/|$))[^/]+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("rule_name", RuleNameConvertor())
RULE = "/v1/zero-rules/{name:rule_name}"  # the path of one rule


def install_rules_errors(app: FastAPI) -> None:
    """Answer ``RulesError`` in the rules API's shape, and a rules store that cannot be
    reached (PostgreSQL down or restarting) as 503 with ``Retry-After``: nothing was
    changed, the client retries; the store's pool reconnects by itself once it is back."""

    async def handler(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RulesError)
        return JSONResponse(exc.to_dict(), status_code=exc.status, headers=exc.headers)

    async def store_down(request: Request, exc: Exception) -> JSONResponse:
        log.warning("the rules store cannot be reached: %s", str(exc).splitlines()[0])
        message = "the rules store cannot be reached; nothing was changed: retry shortly"
        headers = {"retry-after": str(STORE_RETRY_AFTER_S)}
        if request.url.path.startswith(RULES_PREFIXES):
            body = StoreUnavailable(message, headers=headers)
            return JSONResponse(body.to_dict(), status_code=body.status, headers=headers)
        return error_response(request, 503, message, headers=headers)

    app.add_exception_handler(RulesError, handler)
    app.add_exception_handler(sqlalchemy.exc.OperationalError, store_down)
    app.add_exception_handler(sqlalchemy.exc.InterfaceError, store_down)


def rules_router(get_hub: Callable[[], RulesHub]) -> APIRouter:
    """The routes; ``get_hub`` opens the store on first use."""
    router = APIRouter(tags=["rules"])

    async def principal_of(request: Request) -> tuple[RulesHub, Principal]:
        key = key_from_headers(request.headers)
        if not key:
            raise Unauthorized("this route needs an API key (x-api-key or Authorization: Bearer)")
        hub = await run_in_threadpool(get_hub)
        principal = await run_in_threadpool(resolve, hub.store, key)
        if principal is None:
            raise Unauthorized("the API key is not valid")
        for other in zerolayer_keys(request.headers):  # every zerolayer key shown must hold
            if other != key and await run_in_threadpool(resolve, hub.store, other) is None:
                raise Unauthorized("a zerolayer API key of this request is not valid")
        return hub, principal

    def tenant_of(request: Request, principal: Principal) -> str:
        if principal.tenant != ALL_TENANTS:
            return principal.tenant
        tenant = request.headers.get(TENANT_HEADER, "")
        if not TENANT_PATTERN.match(tenant):
            raise RulesError(
                f"an admin key of every tenant names the tenant in the {TENANT_HEADER} header",
                errors=[Issue(f"header:{TENANT_HEADER}", "a tenant name is required")],
            )
        return tenant

    async def allow(request: Request, *roles: str) -> tuple[RulesHub, Principal, str]:
        hub, principal = await principal_of(request)
        if not principal.has(*roles):
            raise Forbidden(f"this needs one of the roles: {', '.join(roles)} (or admin)")
        return hub, principal, tenant_of(request, principal)

    async def document(request: Request, hub: RulesHub) -> tuple[str, str]:
        limit = hub.limits.max_document_bytes
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise TooLarge(f"the document is over the limit of {limit} bytes")
        raw = await request.body()
        if len(raw) > limit:
            raise TooLarge(f"the document is over the limit of {limit} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RulesError(
                "the document is not UTF-8",
                errors=[Issue("", f"byte {exc.start} is not UTF-8")],
            ) from None
        return text, guess_format(request.headers.get("content-type"), text)

    async def action_body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > ACTION_BODY_LIMIT:
            raise TooLarge(f"the body is over the limit of {ACTION_BODY_LIMIT} bytes")
        if not raw.strip():
            return {}
        try:
            body = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            where = f" at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
            raise RulesError(
                "the body is not JSON", errors=[Issue("", f"invalid JSON{where}: {exc}")]
            ) from None
        if not isinstance(body, dict):
            raise RulesError("the body must be a JSON object", errors=[Issue("", "not an object")])
        return body

    def if_match(request: Request) -> int:
        value = request.headers.get("if-match")
        if value is None:
            raise PreconditionRequired(
                "changes need If-Match with the rule's ETag (GET the rule to read it)"
            )
        m = _ETAG.match(value)
        if m is None:
            raise RulesError(
                f"If-Match {value!r} is not an ETag: send the ETag a GET of the rule answered",
                errors=[Issue("If-Match", 'an ETag such as "r3"')],
            )
        return int(m.group(1))

    def integer(body: dict[str, Any], key: str) -> int:
        value = body.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise RulesError(
                f"{key} must be a version number", errors=[Issue(f"/{key}", "a positive integer")]
            )
        return value

    def string(body: dict[str, Any], key: str, *, required: bool = True) -> str:
        value = body.get(key, None if required else "")
        if not isinstance(value, str) or len(value) > 2000:
            raise RulesError(f"{key} must be a string", errors=[Issue(f"/{key}", "a string")])
        return value

    def tagged(payload: dict[str, Any], status: int = 200) -> JSONResponse:
        headers = {"ETag": payload["etag"]} if "etag" in payload else {}
        return JSONResponse(payload, status_code=status, headers=headers)

    # ---- public -----------------------------------------------------------------------

    @router.get("/v1/zero-rules/schema", summary="The JSON Schema of rule documents")
    async def schema() -> dict[str, Any]:
        return rule_schema()

    # ---- authoring --------------------------------------------------------------------

    @router.post("/v1/zero-rules/validate", summary="Compile a rule document; nothing is stored")
    async def validate(request: Request) -> JSONResponse:
        hub, _, tenant = await allow(request, "author", "reviewer", "publisher")
        text, fmt = await document(request, hub)
        return JSONResponse(await run_in_threadpool(hub.validate, tenant, text, fmt))

    @router.post("/v1/zero-rules", summary="Create a rule and its draft", status_code=201)
    async def create(request: Request) -> JSONResponse:
        hub, who, tenant = await allow(request, "author")
        text, fmt = await document(request, hub)
        return tagged(await run_in_threadpool(hub.create, tenant, who.key_id, text, fmt), 201)

    @router.get("/v1/zero-rules", summary="The tenant's rules")
    async def list_rules(request: Request) -> dict[str, Any]:
        hub, _, tenant = await allow(request, *READ)
        page = page_of(request.query_params, 1)
        after = str(page.after[0]) if page.after else None
        rows = await run_in_threadpool(hub.list_rules, tenant, page.limit + 1, after)
        return paged("rules", rows, page, ("name",))

    @router.get(RULE, summary="A rule: draft, versions, active version")
    async def get_rule(request: Request, name: str) -> JSONResponse:
        hub, _, tenant = await allow(request, *READ)
        return tagged(await run_in_threadpool(hub.view, tenant, name))

    @router.put(f"{RULE}/draft", summary="Replace the draft (If-Match)")
    async def put_draft(request: Request, name: str) -> JSONResponse:
        hub, who, tenant = await allow(request, "author")
        expected = if_match(request)
        text, fmt = await document(request, hub)
        view = await run_in_threadpool(
            hub.replace_draft, tenant, who.key_id, name, expected, text, fmt
        )
        return tagged(view)

    @router.post(f"{RULE}/versions", summary="Freeze the draft into a version", status_code=201)
    async def freeze(request: Request, name: str) -> JSONResponse:
        hub, who, tenant = await allow(request, "author")
        expected = if_match(request)
        return tagged(await run_in_threadpool(hub.freeze, tenant, who.key_id, name, expected), 201)

    @router.get(f"{RULE}/versions", summary="The rule's versions")
    async def versions(request: Request, name: str) -> dict[str, Any]:
        hub, _, tenant = await allow(request, *READ)
        page = page_of(request.query_params, 1)
        after = page.after[0] if page.after else 0
        if not isinstance(after, int):
            raise RulesError(
                "cursor is not one this list returned; start again without it",
                errors=[Issue("query:cursor", "a next_cursor of this list")],
            )
        view = await run_in_threadpool(hub.view, tenant, name)
        ordered = sorted(view["versions"], key=lambda v: v["number"])
        rows = [v for v in ordered if v["number"] > after][: page.limit + 1]
        return paged("versions", rows, page, ("number",))

    @router.get(f"{RULE}/versions/{{number}}", summary="One version")
    async def version(request: Request, name: str, number: int) -> dict[str, Any]:
        hub, _, tenant = await allow(request, *READ)
        from zerolayer.rules_api.rules.workflow import version_view

        row = await run_in_threadpool(hub.store.get_version, tenant, name, number)
        return version_view(row)

    @router.post(f"{RULE}/versions/{{number}}/test", summary="Run the examples")
    async def test(request: Request, name: str, number: int) -> dict[str, Any]:
        hub, who, tenant = await allow(request, "author", "reviewer", "publisher")
        result: dict[str, Any] = await run_in_threadpool(hub.test, tenant, who.key_id, name, number)
        return result

    @router.post(f"{RULE}/evaluate", summary="Dry run on a message, explained")
    async def evaluate(request: Request, name: str) -> dict[str, Any]:
        hub, _, tenant = await allow(request, "author", "reviewer", "publisher")
        body = await action_body(request)
        version = body.get("version")
        if version is not None:
            version = integer(body, "version")
        result: dict[str, Any] = await run_in_threadpool(hub.evaluate, tenant, name, version, body)
        return result

    # ---- review and publication -------------------------------------------------------

    @router.post(f"{RULE}/versions/{{number}}/submit", summary="Ask for review")
    async def submit(request: Request, name: str, number: int) -> JSONResponse:
        hub, who, tenant = await allow(request, "author")
        expected = if_match(request)
        return tagged(
            await run_in_threadpool(hub.submit, tenant, who.key_id, name, expected, number)
        )

    @router.post(f"{RULE}/versions/{{number}}/approve", summary="Approve a hash")
    async def approve(request: Request, name: str, number: int) -> JSONResponse:
        hub, who, tenant = await allow(request, "reviewer")
        expected = if_match(request)
        body = await action_body(request)
        content_hash = string(body, "content_hash")
        return tagged(
            await run_in_threadpool(
                hub.approve, tenant, who.key_id, name, expected, number, content_hash
            )
        )

    @router.post(f"{RULE}/versions/{{number}}/reject", summary="Reject a version")
    async def reject(request: Request, name: str, number: int) -> JSONResponse:
        hub, who, tenant = await allow(request, "reviewer")
        expected = if_match(request)
        body = await action_body(request)
        note = string(body, "reason", required=False)
        return tagged(
            await run_in_threadpool(hub.reject, tenant, who.key_id, name, expected, number, note)
        )

    async def _activate(request: Request, name: str, action: str) -> JSONResponse:
        hub, who, tenant = await allow(request, "publisher")
        expected = if_match(request)
        number = integer(await action_body(request), "version")
        return tagged(
            await run_in_threadpool(
                hub.activate, tenant, who.key_id, name, expected, number, action
            )
        )

    @router.post(f"{RULE}/activate", summary="Activate an approved version")
    async def activate(request: Request, name: str) -> JSONResponse:
        return await _activate(request, name, "activate")

    @router.post(f"{RULE}/rollback", summary="Activate an earlier approved version")
    async def rollback(request: Request, name: str) -> JSONResponse:
        return await _activate(request, name, "rollback")

    @router.post(f"{RULE}/deactivate", summary="Stop applying the rule")
    async def deactivate(request: Request, name: str) -> JSONResponse:
        hub, who, tenant = await allow(request, "publisher")
        expected = if_match(request)
        return tagged(await run_in_threadpool(hub.deactivate, tenant, who.key_id, name, expected))

    @router.post(f"{RULE}/retire", summary="Retire (soft delete) an inactive rule")
    async def retire(request: Request, name: str) -> JSONResponse:
        hub, who, tenant = await allow(request, "publisher")
        expected = if_match(request)
        return tagged(await run_in_threadpool(hub.retire, tenant, who.key_id, name, expected))

    # ---- audit, status, keys ----------------------------------------------------------

    @router.get(f"{RULE}/audit", summary="The rule's audit log")
    async def rule_audit(request: Request, name: str) -> dict[str, Any]:
        hub, _, tenant = await allow(request, "auditor")
        return await audit_page(request, hub, tenant, name)

    @router.get("/v1/audit", summary="The tenant's audit log, newest first")
    async def tenant_audit(request: Request) -> dict[str, Any]:
        hub, _, tenant = await allow(request, "auditor")
        return await audit_page(request, hub, tenant, None)

    async def audit_page(
        request: Request, hub: RulesHub, tenant: str, name: str | None
    ) -> dict[str, Any]:
        page = page_of(request.query_params, 1)
        before = int(page.after[0]) if page.after else None
        rows = await run_in_threadpool(hub.store.audit_log, tenant, name, page.limit + 1, before)
        return paged("audit", rows, page, ("id",))

    @router.get("/v1/status", summary="Each rule's active version and the rule-set version")
    async def status(request: Request) -> dict[str, Any]:
        hub, _, tenant = await allow(request, *READ)
        result: dict[str, Any] = await run_in_threadpool(hub.status, tenant)
        return result

    async def admin(request: Request, what: str) -> tuple[RulesHub, Principal]:
        hub, principal = await principal_of(request)
        if "admin" not in principal.roles:
            raise Forbidden(f"{what} needs the admin role")
        return hub, principal

    @router.post("/v1/keys", summary="Create an API key (admin)", status_code=201)
    async def keys(request: Request) -> JSONResponse:
        hub, principal = await admin(request, "creating keys")
        body = await action_body(request)
        tenant = string(body, "tenant")
        roles = body.get("roles")
        if principal.tenant not in (ALL_TENANTS, tenant):
            raise Forbidden("an admin key creates keys of its own tenant only")
        if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
            raise RulesError("roles must be a list", errors=[Issue("/roles", "a list of names")])
        try:
            key = await run_in_threadpool(
                create_key,
                hub.store,
                tenant,
                roles,
                string(body, "name", required=False),
                principal.key_id,
            )
        except ValueError as exc:
            raise RulesError(str(exc), errors=[Issue("/roles", str(exc))]) from None
        return JSONResponse(
            {"key": key, "tenant": tenant, "roles": sorted(set(roles))}, status_code=201
        )

    @router.get("/v1/keys", summary="The keys of a tenant, without secrets (admin)")
    async def list_keys(request: Request) -> dict[str, Any]:
        hub, principal = await admin(request, "listing keys")
        tenant: str | None = principal.tenant
        if principal.tenant == ALL_TENANTS:  # every tenant, or the one the header names
            tenant = tenant_of(request, principal) if TENANT_HEADER in request.headers else None
        page = page_of(request.query_params, 2)
        after = (str(page.after[0]), str(page.after[1])) if page.after else None
        rows = await run_in_threadpool(hub.store.list_keys, tenant, page.limit + 1, after)
        out = paged("keys", rows, page, ("created_at", "key_id"))
        out["keys"] = [key_view(row) for row in out["keys"]]
        return out

    @router.post("/v1/keys/{key_id}/revoke", summary="Revoke an API key at once (admin)")
    async def revoke(request: Request, key_id: str) -> dict[str, Any]:
        hub, principal = await admin(request, "revoking keys")
        kid = key_id_of(key_id)
        if kid is None:
            raise NotFound(f"no key {key_id[:40]!r}")
        own = None if principal.tenant == ALL_TENANTS else principal.tenant
        row = await run_in_threadpool(hub.store.revoke_key, kid, principal.key_id, own)
        return key_view(row)

    return router
