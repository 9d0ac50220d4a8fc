"""The errors of the rules API, all answered in one shape.

``{"code": ..., "message": ..., "errors": [{"location": ..., "message": ..., "line": ...}]}``
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from zerolayer.rules_api.rules.document import Issue


class RulesError(Exception):
    """An answer other than success: HTTP status, stable code, message, located errors."""

    status = 400
    code = "bad_request"

    def __init__(
        self,
        message: str,
        *,
        errors: Sequence[Issue] = (),
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.errors = list(errors)
        if code:
            self.code = code
        self.headers = dict(headers or {})

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "errors": [e.to_dict() for e in self.errors],
        }


class Unauthorized(RulesError):
    status, code = 401, "unauthorized"


class Forbidden(RulesError):
    status, code = 403, "forbidden"


class NotFound(RulesError):
    status, code = 404, "not_found"


class Conflict(RulesError):
    status, code = 409, "conflict"


class PreconditionFailed(RulesError):
    status, code = 412, "precondition_failed"


class TooLarge(RulesError):
    status, code = 413, "too_large"


class Invalid(RulesError):
    status, code = 422, "invalid_rule"


class PreconditionRequired(RulesError):
    status, code = 428, "precondition_required"


class StoreUnavailable(RulesError):
    status, code = 503, "store_unavailable"
