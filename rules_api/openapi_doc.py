"""The OpenAPI document as the contract: what FastAPI derives, completed with what it cannot see.

FastAPI describes each route from its signature: a success status and 422. The server answers
more than that (docs/http.md, "Errors"), and the rules and keys routes read their bodies,
headers and query parameters themselves. ``complete`` adds, per operation:

- every error status the route can answer, with the error schema of its API (Anthropic,
  OpenAI or the rules API's ``{code, message, errors}``); 400 replaces FastAPI's 422, which is
  never sent; 413 wherever a body is read; 500 everywhere (the last-resort handler);
- the request bodies, headers (``If-Match``, ``x-zerolayer-tenant``) and paging parameters of
  the rules and keys routes, and the API key security schemes;
- the content types actually served: Server-Sent Events on the answer routes, Prometheus text
  on ``/metrics``.

The document is the one ``/openapi.json`` serves; tests/http/test_http_schemathesis.py runs
schemathesis with all its checks against it.
"""

from __future__ import annotations

import copy
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from zerolayer.core.blocks.syntax import HEADER as SYNTAX_HEADER
from zerolayer.core.blocks.syntax import VERSIONS
from zerolayer.rules_api.credentials import ANSWER_PATHS, KEY_CHECKED_PATHS

REF = "#/components/schemas/"
ANTHROPIC_ERROR = {
    "type": "object",
    "required": ["type", "error"],
    "properties": {
        "type": {"const": "error"},
        "error": {
            "type": "object",
            "required": ["type", "message"],
            "properties": {"type": {"type": "string"}, "message": {"type": "string"}},
        },
    },
}
OPENAI_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["message", "type", "param", "code"],
            "properties": {
                "message": {"type": "string"},
                "type": {"type": "string"},
                "param": {"type": ["string", "null"]},
                "code": {"type": ["string", "null"]},
            },
        }
    },
}
RULES_ERROR = {
    "type": "object",
    "required": ["code", "message", "errors"],
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["location", "message"],
                "properties": {
                    "location": {"type": "string"},
                    "message": {"type": "string"},
                    "line": {"type": "integer"},
                    "column": {"type": "integer"},
                },
            },
        },
    },
}
SCHEMAS = {
    "AnthropicError": ANTHROPIC_ERROR,
    "OpenAIError": OPENAI_ERROR,
    "RulesError": RULES_ERROR,
}

WORDS = {
    400: "Bad request: malformed body, a field out of range, or a payload error with its "
    "line and column",
    401: "No API key, or one that is not valid",
    403: "The key lacks the role this needs",
    404: "No such resource",
    409: "The resource is not in a state that allows this",
    412: "If-Match is not the resource's current ETag",
    413: "The body is over the size limit",
    422: "The rule document does not compile; each error has its location",
    428: "This change needs If-Match with the resource's ETag",
    500: "An internal error (logged); no client input should cause it",
    502: "The neural fallback failed",
    503: "The request needs the neural fallback and none is configured or it is unavailable; "
    "or no engine slot of the worker came free within the time budget, or the rules store "
    "cannot be reached for now (Retry-After)",
}
ETAG_PATTERN = r'^(W/)?"r[0-9]{1,12}"$'  # what the rules routes read from If-Match
ANSWER_ROUTES = ANSWER_PATHS
RULES_PREFIXES = ("/v1/zero-rules", "/v1/keys", "/v1/audit", "/v1/status")
PAGED = {"/v1/zero-rules", "/v1/audit", "/v1/zero-rules/{name}/audit", "/v1/keys"}
PAGED |= {"/v1/zero-rules/{name}/versions"}
DOCUMENT_ROUTES = {("/v1/zero-rules", "post"), ("/v1/zero-rules/validate", "post")}
DOCUMENT_ROUTES |= {("/v1/zero-rules/{name}/draft", "put")}
PUBLIC_RULES_ROUTES = {("/v1/zero-rules/schema", "get")}
# Changes to an existing rule: If-Match with the rule's ETag (428 without, 412 when stale).
IF_MATCH_ACTIONS = ("draft", "versions", "submit", "approve", "reject", "activate", "rollback")
IF_MATCH_ACTIONS += ("deactivate", "retire")
# JSON bodies of the rules routes' actions: the fields each reads (all optional to the
# schema; the route answers 400 naming a missing or wrong one).
ACTION_FIELDS: dict[str, dict[str, Any]] = {
    "approve": {"content_hash": {"type": "string", "maxLength": 2000}},
    "reject": {"reason": {"type": "string", "maxLength": 2000}},
    "activate": {"version": {"type": "integer", "minimum": 1}},
    "rollback": {"version": {"type": "integer", "minimum": 1}},
    "evaluate": {"version": {"type": "integer", "minimum": 1}},
    "/v1/keys": {
        "tenant": {"type": "string", "maxLength": 2000},
        "roles": {"type": "array", "items": {"type": "string"}},
        "name": {"type": "string", "maxLength": 2000},
    },
}


def install_contract(app: FastAPI) -> None:
    """Serve the completed document at ``/openapi.json`` (built once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            app.openapi_schema = complete(doc)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def complete(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (FastAPI's) with the statuses, bodies, headers and content types it lacks."""
    doc = copy.deepcopy(doc)
    components = doc.setdefault("components", {})
    components.setdefault("schemas", {}).update(copy.deepcopy(SCHEMAS))
    components["securitySchemes"] = {
        "apiKey": {"type": "apiKey", "in": "header", "name": "x-api-key"},
        "bearer": {"type": "http", "scheme": "bearer"},
    }
    for item in doc.get("paths", {}).values():  # closed sets the server checks
        for operation in item.values():
            for param in operation.get("parameters", []) if isinstance(operation, dict) else []:
                if param.get("name") == SYNTAX_HEADER:
                    param["schema"] = {"type": "string", "enum": sorted(VERSIONS)}
    for path, item in doc.get("paths", {}).items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete", "patch"):
                _complete_operation(path, method, operation)
    return doc


def _error_ref(path: str) -> str:
    if path.startswith(RULES_PREFIXES):  # the routes' own errors; the framework's are Anthropic's
        return "RulesError"
    if path.startswith("/v1/chat/"):
        return "OpenAIError"
    return "AnthropicError"


def _errors(path: str, method: str) -> set[int]:
    statuses = {400, 500}
    if method in ("post", "put"):
        statuses.add(413)
    if path in KEY_CHECKED_PATHS:  # 401: a zerolayer key presented that is not valid;
        statuses |= {401, 503}  # 503: the rules store cannot check it now
    if path in ANSWER_ROUTES:
        statuses.add(502)
    if path == "/v1/cache/warmup":
        statuses.add(403)
    if path == "/health/ready":
        statuses.add(503)
    if path.startswith(RULES_PREFIXES) and (path, method) not in PUBLIC_RULES_ROUTES:
        statuses |= {401, 403, 404, 409, 503}
        if (path, method) in DOCUMENT_ROUTES:
            statuses.add(422)
        if _needs_if_match(path, method):
            statuses |= {412, 428}
    return statuses


def _needs_if_match(path: str, method: str) -> bool:
    if not path.startswith("/v1/zero-rules/{name}/") or path.endswith(("/test", "/evaluate")):
        return False
    last = path.rsplit("/", 1)[1]
    return method != "get" and last in IF_MATCH_ACTIONS


def _complete_operation(path: str, method: str, operation: dict[str, Any]) -> None:
    responses: dict[str, Any] = operation.setdefault("responses", {})
    validation = responses.pop("422", None)
    ref = {"$ref": REF + _error_ref(path)}
    if path.startswith("/v1/models"):  # OpenAI's shape, Anthropic's with anthropic-version
        ref = {"oneOf": [{"$ref": REF + "OpenAIError"}, {"$ref": REF + "AnthropicError"}]}
    if path.startswith(RULES_PREFIXES):  # a malformed path or a body over the limit: Anthropic's
        ref = {"oneOf": [{"$ref": REF + "RulesError"}, {"$ref": REF + "AnthropicError"}]}
    for status in sorted(_errors(path, method)):
        schema = ref
        responses.setdefault(
            str(status),
            {"description": WORDS[status], "content": {"application/json": {"schema": schema}}},
        )
    if validation is not None and "400" in responses:
        responses["400"]["description"] = WORDS[400]
    if path in ANSWER_ROUTES:
        ok = responses["200"].setdefault("content", {})
        ok["text/event-stream"] = {"schema": {}}  # events: the API's stream chunks
    if path == "/metrics":
        responses["200"]["content"] = {"text/plain": {"schema": {"type": "string"}}}
    if path in KEY_CHECKED_PATHS:  # a key is optional here
        operation["security"] = [{}, {"apiKey": []}, {"bearer": []}]
    if path.startswith(RULES_PREFIXES) and (path, method) not in PUBLIC_RULES_ROUTES:
        _complete_rules_operation(path, method, operation)


def _parameter(name: str, where: str, schema: dict[str, Any], words: str) -> dict[str, Any]:
    return {"name": name, "in": where, "required": False, "schema": schema, "description": words}


def _complete_rules_operation(path: str, method: str, operation: dict[str, Any]) -> None:
    from zerolayer.rules_api.rules.keys import TENANT_PATTERN  # only with the rules routes
    from zerolayer.rules_api.rules.workflow import RESERVED_NAMES

    operation["security"] = [{"apiKey": []}, {"bearer": []}]
    params: list[dict[str, Any]] = operation.setdefault("parameters", [])
    for param in params:  # said in words: a "not" would have negative tests send exactly
        if param.get("in") == "path" and param.get("name") == "name":  # those concrete paths
            reserved = " or ".join(f"`{n}`" for n in sorted(RESERVED_NAMES))
            param["description"] = (
                f"the rule's name; never {reserved}: those paths are other routes "
                "(OpenAPI matches a concrete path before a templated one)"
            )
    params.append(
        _parameter(
            "x-zerolayer-tenant",
            "header",
            {"type": "string", "pattern": TENANT_PATTERN.pattern},
            "the tenant, for an admin key of every tenant",
        )
    )
    if _needs_if_match(path, method):
        params.append(
            _parameter(
                "If-Match",
                "header",
                {"type": "string", "pattern": ETAG_PATTERN},
                "the rule's current ETag",
            )
        )
    if path in PAGED and method == "get":
        params.append(
            _parameter(
                "limit",
                "query",
                {"type": "integer", "minimum": 1, "maximum": 500},
                "items per page",
            )
        )
        params.append(
            _parameter("cursor", "query", {"type": "string"}, "next_cursor of the previous page")
        )
    if (path, method) in DOCUMENT_ROUTES:
        operation["requestBody"] = {
            "required": True,
            "description": "a rule document (docs/rules.md), JSON or YAML",
            "content": {
                "application/json": {"schema": {"type": "object"}},
                "application/yaml": {"schema": {"type": "string"}},
            },
        }
        return
    action = path if path == "/v1/keys" else path.rsplit("/", 1)[1]
    if method == "post" and "{" not in action:
        fields = ACTION_FIELDS.get(action, {})
        operation["requestBody"] = {
            "required": False,
            "content": {"application/json": {"schema": {"type": "object", "properties": fields}}},
        }
