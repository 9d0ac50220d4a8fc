"""API keys: ``zlk_<id>_<secret>``, stored as the sha256 of the secret, with tenant and roles.

Only the key id and the hash are stored; the whole key is shown once, when it is created.
``ZEROLAYER_ADMIN_KEY`` (compared in constant time, never stored) is an admin of every
tenant, to create the first keys over HTTP; ``zerolayer keys create`` writes one directly.
A revoked key is refused from the moment the revocation commits, by every worker: keys are
looked up on every request, never cached.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from zerolayer.rules_api.rules.store import RuleStore

ROLES = ("author", "reviewer", "publisher", "auditor", "admin", "client")
ALL_TENANTS = "*"
TENANT_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
KEY_PATTERN = re.compile(r"^zlk_(?P<id>[a-z0-9]{12})_(?P<secret>[A-Za-z0-9_-]{20,100})$")
KEY_ID = re.compile(r"[a-z0-9]{12}")


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: key id, tenant (``*``: every tenant) and roles."""

    key_id: str
    tenant: str
    roles: frozenset[str]

    def has(self, *roles: str) -> bool:
        """True when the principal holds ``admin`` or one of ``roles``."""
        return "admin" in self.roles or any(r in self.roles for r in roles)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def check_roles(roles: list[str]) -> list[str]:
    """The roles, deduplicated; ValueError naming an unknown one."""
    bad = [r for r in roles if r not in ROLES]
    if bad or not roles:
        raise ValueError(f"unknown roles {bad}; choose among {', '.join(ROLES)}")
    return sorted(set(roles))


def create_key(
    store: RuleStore, tenant: str, roles: list[str], name: str = "", actor: str = "keys"
) -> str:
    """Store a new key for ``tenant`` with ``roles``; return the whole key (shown once)."""
    if tenant != ALL_TENANTS and not TENANT_PATTERN.match(tenant):
        raise ValueError("a tenant is lower case letters, digits, - and _ (at most 64)")
    checked = check_roles(roles)
    key_id = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    store.add_key(key_id, hash_secret(secret), tenant, ",".join(checked), name, actor)
    return f"zlk_{key_id}_{secret}"


def key_id_of(text: str) -> str | None:
    """The key id of a whole key (``zlk_<id>_<secret>``) or of a bare id; None if neither."""
    m = KEY_PATTERN.match(text)
    if m is not None:
        return m["id"]
    return text if KEY_ID.fullmatch(text) else None


def key_view(row: Mapping[str, Any]) -> dict[str, Any]:
    """A key as listed: never its secret or the secret's hash."""
    return {
        "key_id": row["key_id"],
        "tenant": row["tenant"],
        "roles": row["roles"].split(","),
        "name": row["name"],
        "created_at": row["created_at"],
        "revoked": bool(row["revoked"]),
    }


def resolve(store: RuleStore | None, key: str) -> Principal | None:
    """The principal of a key, or None when it is unknown, revoked or malformed."""
    if not key:
        return None
    admin = os.environ.get("ZEROLAYER_ADMIN_KEY")
    if admin and hmac.compare_digest(key.encode(), admin.encode()):
        return Principal("env-admin", ALL_TENANTS, frozenset({"admin"}))
    m = KEY_PATTERN.match(key)
    if m is None or store is None:
        return None
    row = store.get_key(m["id"])
    if row is None or row["revoked"]:
        return None
    if not hmac.compare_digest(row["secret_hash"], hash_secret(m["secret"])):
        return None
    return Principal(row["key_id"], row["tenant"], frozenset(row["roles"].split(",")))
