"""Error answers in the shape of the API a client speaks, and the handlers that make them.

Anthropic: ``{"type": "error", "error": {"type": KIND, "message": ...}}``.
OpenAI: ``{"error": {"message": ..., "type": TYPE, "param": null, "code": CODE}}``.
The flavour of an error follows the request path (``/v1/chat/...`` is OpenAI; ``/v1/models``
is OpenAI unless the request carries ``anthropic-version``); everything else is Anthropic.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from zerolayer.rules_api.credentials import ANSWER_PATHS
from zerolayer.rules_api.encoding import SafeJSONResponse as JSONResponse
from zerolayer.rules_api.encoding import unencodable_field
from zerolayer.rules_api.headers import STATUS, answer_headers

log = logging.getLogger("zerolayer.rules_api")

Flavour = Literal["anthropic", "openai"]

# Anthropic error type of each HTTP status zerolayer answers with.
KIND_OF_STATUS = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    405: "invalid_request_error",
    413: "request_too_large",
    415: "invalid_request_error",
    408: "timeout_error",
    409: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
    500: "api_error",
    502: "api_error",
    503: "overloaded_error",
    504: "timeout_error",
    529: "overloaded_error",
}
# OpenAI (type, code) for each Anthropic kind.
OPENAI_OF_KIND = {
    "invalid_request_error": ("invalid_request_error", None),
    "authentication_error": ("invalid_request_error", "invalid_api_key"),
    "permission_error": ("invalid_request_error", "permission_denied"),
    "not_found_error": ("invalid_request_error", "not_found"),
    "request_too_large": ("invalid_request_error", "request_too_large"),
    "rate_limit_error": ("rate_limit_error", "rate_limit_exceeded"),
    "timeout_error": ("server_error", "timeout"),
    "api_error": ("server_error", None),
    "overloaded_error": ("server_error", "overloaded"),
}
OpenAIFields = tuple[str | None, str | None, str | None]  # type, code, param


def kind_of_status(status: int) -> str:
    """The Anthropic error type of an HTTP status (by its class when it has none of its own)."""
    return KIND_OF_STATUS.get(status) or ("invalid_request_error" if status < 500 else "api_error")


class ApiError(Exception):
    """An error answer: HTTP status, Anthropic error kind, message, extra headers.

    ``param`` names the request field at fault (OpenAI's ``param``); ``openai`` gives the
    OpenAI (type, code, param) exactly, for an upstream's error passed on as it came.
    """

    def __init__(
        self,
        status: int,
        message: str,
        *,
        kind: str | None = None,
        code: str | None = None,
        param: str | None = None,
        openai: OpenAIFields | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind or kind_of_status(status)
        self.code = code
        self.param = param
        self.openai = openai
        self.headers = dict(headers or {})


class UnencodableText(ApiError):
    """The fallback's failure to encode the upstream request body as UTF-8 (text with a lone
    surrogate): the route names the field that holds it (``invalid_text``), else it is the
    502 it was made as."""


def invalid_text(exc: ApiError, body: Any) -> ApiError:
    """The 400 naming the field of ``body`` (the client's request) that holds a lone
    surrogate, or ``exc`` itself when no field of the body does."""
    found = unencodable_field(body)
    if found is None:
        return exc
    field, char = found
    message = (
        f"{field}: the text holds a lone surrogate (U+{ord(char):04X}), which is not valid "
        "Unicode: it cannot be encoded as UTF-8 to be sent to the model"
    )
    return ApiError(400, message, param=field, headers=exc.headers)


class BodyTooLarge(StarletteHTTPException):
    """The request body is over the configured limit (raised while it is read)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body is larger than the limit of {limit} bytes")


def flavour_of(path: str, headers: Mapping[str, str] | None = None) -> Flavour:
    """Which API's error shape a request path gets."""
    if path.startswith("/v1/chat/"):
        return "openai"
    if path.startswith("/v1/models"):
        return "anthropic" if headers and "anthropic-version" in headers else "openai"
    return "anthropic"


def error_body(
    flavour: Flavour,
    kind: str,
    message: str,
    code: str | None = None,
    *,
    param: str | None = None,
    openai: OpenAIFields | None = None,
) -> dict[str, Any]:
    """The JSON body of an error answer in the given API's shape."""
    if flavour == "openai":
        if openai is not None:
            otype, ocode, oparam = openai
            return {"error": {"message": message, "type": otype, "param": oparam, "code": ocode}}
        otype, ocode = OPENAI_OF_KIND.get(kind, ("server_error", None))
        return {"error": {"message": message, "type": otype, "param": param,
                          "code": code or ocode}}  # fmt: skip
    return {"type": "error", "error": {"type": kind, "message": message}}


def rejection_headers(path: str, reason: str) -> dict[str, str]:
    """zerolayer headers of a request rejected before the engine on an answer route."""
    if path.rstrip("/") not in ANSWER_PATHS:
        return {}
    return answer_headers(active=True, reason=reason)


def error_response(
    request: Request,
    status: int,
    message: str,
    *,
    kind: str | None = None,
    code: str | None = None,
    param: str | None = None,
    openai: OpenAIFields | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """An error answer for ``request`` in its API's shape."""
    flavour = flavour_of(request.url.path, request.headers)
    kind = kind or kind_of_status(status)
    return JSONResponse(
        error_body(flavour, kind, message, code, param=param, openai=openai),
        status_code=status,
        headers=dict(headers or {}),
    )


def describe_validation(errors: Sequence[Any]) -> str:
    """One line naming each invalid field the way the upstream APIs do (``messages.0.role: …``)."""
    parts: list[str] = []
    for err in list(errors)[:5]:
        loc = [str(p) for p in err.get("loc", ()) if p != "body"]
        if err.get("type") == "json_invalid":
            detail = (err.get("ctx") or {}).get("error", "invalid JSON")
            where = f" (at character {loc[0]})" if loc else ""
            parts.append(f"request body is not valid JSON: {detail}{where}")
            continue
        field = ".".join(loc) or "body"
        parts.append(f"{field}: {err.get('msg', 'invalid value')}")
    more = len(errors) - len(parts)
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def allowed_methods(request: Request) -> str:
    """The ``Allow`` value of a path: the methods of every route matching it (a path served
    by several routes, one per method, answers with all of them, not the first one's). As in
    OpenAPI, a concrete path is matched before a templated one: where a route without path
    parameters matches (``/v1/zero-rules/validate``), the templated ones that would also
    match (``/v1/zero-rules/{name}``, whose names exclude it) do not count."""
    from starlette.routing import Match

    concrete: set[str] = set()
    templated: set[str] = set()
    for route in _flat(getattr(request.app, "routes", ())):
        match, _ = route.matches({**request.scope, "method": "GET"})
        if match is not Match.NONE:
            found = set(getattr(route, "methods", None) or ())
            (templated if getattr(route, "param_convertors", None) else concrete).update(found)
    methods = concrete or templated
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


def _flat(routes: Sequence[Any]) -> Iterator[Any]:
    """Routes, with those of included routers (FastAPI keeps them nested) in their place."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _flat(inner.routes)
        else:
            yield route


def install_error_handlers(
    app: FastAPI, on_reject: Callable[[Request, int], None] | None = None
) -> None:
    """Answer errors (malformed JSON, validation, 404/405/413) in the API's shape.

    Validation errors become 400 (not FastAPI's 422). ``on_reject(request, status)`` is called
    for each rejection (metrics). Unexpected exceptions are caught by ``GuardMiddleware``.
    """

    def note(request: Request, status: int) -> None:
        if on_reject is not None:
            on_reject(request, status)

    async def api_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        headers = exc.headers
        if STATUS not in headers:  # rejected before the engine (request-level error)
            note(request, exc.status)
            headers = {**rejection_headers(request.url.path, "request.invalid"), **headers}
        return error_response(request, exc.status, exc.message, kind=exc.kind, code=exc.code,
                              param=exc.param, openai=exc.openai, headers=headers)  # fmt: skip

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        note(request, 400)
        headers = rejection_headers(request.url.path, "request.invalid")
        return error_response(request, 400, describe_validation(exc.errors()), headers=headers)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        status = exc.status_code if exc.status_code in KIND_OF_STATUS else 400
        note(request, status)
        reason = "request.too_large" if status == 413 else "request.invalid"
        headers = {**(exc.headers or {}), **rejection_headers(request.url.path, reason)}
        message = str(exc.detail)
        if status == 404:
            message = f"not found: {request.method} {request.url.path}"
        elif status == 405:
            message = f"method {request.method} is not allowed on {request.url.path}"
            headers = {k: v for k, v in headers.items() if k.lower() != "allow"}
            headers["allow"] = allowed_methods(request)
        return error_response(request, status, message, headers=headers)

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)
