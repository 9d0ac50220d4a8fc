"""The keys a request carries, read the one way every route reads them.

A request may present a key in ``x-api-key`` and in ``Authorization: Bearer``; they are read
in that order of precedence. Keys starting ``zlk_`` are zerolayer keys (the rules store's);
any other key belongs to an upstream provider (forwarded to the pass-through fallback) or is
the admin token of the service routes.
"""

from __future__ import annotations

from collections.abc import Mapping

KEY_PREFIX = "zlk_"  # every zerolayer key starts so; one that does not parse is invalid
# The routes besides the rules API (which reads its own key, with its roles) on which every
# presented zerolayer key is looked up before the route runs, and one that is malformed,
# unknown or revoked is 401 (``rules_api.rules.tenant_engine.TenantMiddleware``): the
# answer routes, which also take their tenant from it, and the others that read a payload.
ANSWER_PATHS = ("/v1/messages", "/v1/chat/completions")
KEY_CHECKED_PATHS = (*ANSWER_PATHS, "/v1/messages/count_tokens", "/v1/lint", "/v1/cache/warmup")


def presented_keys(headers: Mapping[str, str]) -> tuple[str, ...]:
    """The keys a request carries, in order of precedence: ``x-api-key``, then
    ``Authorization: Bearer`` (each once; an empty value is not a key)."""
    keys: list[str] = []
    given = str(headers.get("x-api-key", "") or "").strip()
    if given:
        keys.append(given)
    auth = str(headers.get("authorization", "") or "")
    if auth[:7].lower() == "bearer ":
        bearer = auth[7:].strip()
        if bearer and bearer not in keys:
            keys.append(bearer)
    return tuple(keys)


def key_from_headers(headers: Mapping[str, str]) -> str:
    """The key a request is read with: ``x-api-key``, else ``Authorization: Bearer``."""
    keys = presented_keys(headers)
    return keys[0] if keys else ""


def is_zerolayer_key(key: str) -> bool:
    """True for a zerolayer key (``zlk_…``), well formed or not."""
    return key.startswith(KEY_PREFIX)


def zerolayer_keys(headers: Mapping[str, str]) -> tuple[str, ...]:
    """The presented keys that are zerolayer keys, in order of precedence."""
    return tuple(k for k in presented_keys(headers) if is_zerolayer_key(k))


def upstream_key(headers: Mapping[str, str]) -> str | None:
    """The first presented key that is not a zerolayer key (those never leave the service)."""
    return next((k for k in presented_keys(headers) if not is_zerolayer_key(k)), None)
