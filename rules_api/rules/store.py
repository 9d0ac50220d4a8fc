"""Storage of rules, versions, activations, audit records and API keys (SQLAlchemy Core).

SQLite by default, PostgreSQL for several workers: the same statements run on both. Every
change is one transaction (``tx``); a change of an existing rule (``change``) first advances
the rule's revision (``UPDATE … WHERE revision = ?``), so two writers never silently
overwrite each other, and a change and its audit record are committed together or not at
all. Versions are never updated except for their review and test fields; audit records and
activations are only ever inserted. Reads go through ``read`` (a connection of their own, or
the transaction they are part of).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from zerolayer.rules_api.rules.errors import Conflict, NotFound, PreconditionFailed
from zerolayer.rules_api.rules.propagation import CHANNEL

metadata = MetaData()
SCHEMA_LOCK = 0x7A6C5F72756C6573  # the advisory lock held while the tables are made ("zl_rules")

rules = Table(
    "zl_rules",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tenant", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("created_by", String(64), nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("revision", Integer, nullable=False),
    Column("draft_text", Text, nullable=False),
    Column("draft_format", String(8), nullable=False),
    Column("draft_hash", String(80), nullable=False),
    Column("updated_by", String(64), nullable=False),
    Column("updated_at", String(40), nullable=False),
    Column("active_version", Integer, nullable=True),
    Column("retired", Boolean, nullable=False, default=False),
    UniqueConstraint("tenant", "name", name="zl_rules_tenant_name"),
)

versions = Table(
    "zl_rule_versions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("rule_id", Integer, ForeignKey("zl_rules.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("content_hash", String(80), nullable=False),
    Column("text", Text, nullable=False),
    Column("format", String(8), nullable=False),
    Column("created_by", String(64), nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("status", String(16), nullable=False),  # frozen | submitted | approved | rejected
    Column("submitted_by", String(64), nullable=True),
    Column("reviewed_by", String(64), nullable=True),
    Column("review_note", Text, nullable=True),
    Column("tested_hash", String(80), nullable=True),
    Column("tests_passed", Boolean, nullable=True),
    Column("test_report", Text, nullable=True),
    UniqueConstraint("rule_id", "number", name="zl_versions_rule_number"),
)

audit = Table(
    "zl_audit",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", String(40), nullable=False),
    Column("tenant", String(64), nullable=False),
    Column("actor", String(64), nullable=False),
    Column("action", String(32), nullable=False),
    Column("rule", String(64), nullable=True),
    Column("version", Integer, nullable=True),
    Column("content_hash", String(80), nullable=True),
    Column("outcome", String(16), nullable=False),  # ok | refused
    Column("detail", Text, nullable=True),
)

activations = Table(
    "zl_activations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tenant", String(64), nullable=False),
    Column("rule", String(64), nullable=False),
    Column("version", Integer, nullable=True),  # None: deactivated
    Column("at", String(40), nullable=False),
)

api_keys = Table(
    "zl_api_keys",
    metadata,
    Column("key_id", String(32), primary_key=True),
    Column("secret_hash", String(64), nullable=False),
    Column("tenant", String(64), nullable=False),
    Column("roles", String(200), nullable=False),
    Column("name", String(200), nullable=False, default=""),
    Column("created_at", String(40), nullable=False),
    Column("revoked", Boolean, nullable=False, default=False),
)


def now() -> str:
    """The current UTC time, ISO 8601 with milliseconds."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def etag_of(revision: int) -> str:
    """The strong ETag of a rule revision."""
    return f'"r{revision}"'


def default_db_url() -> str:
    """``ZEROLAYER_DB_URL``, else a SQLite file under ``ZEROLAYER_DATA_DIR`` (or XDG data)."""
    url = os.environ.get("ZEROLAYER_DB_URL")
    if url:
        return url
    base = os.environ.get("ZEROLAYER_DATA_DIR") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "zerolayer"
    )
    return f"sqlite:///{Path(base) / 'rules.db'}"


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine; SQLite gets WAL, a busy timeout and writer-first transactions."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # transactions are begun below
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True)


def _dict(row: Any) -> dict[str, Any]:
    return dict(row._mapping) if row is not None else {}


class RuleStore:
    """Every read and write of the rules service."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_db_url()
        self.engine = make_engine(self.url)
        self._create_tables()

    def _create_tables(self) -> None:
        """The tables, made where they are missing. Replicas of a fleet open one PostgreSQL
        database at once when they start: each checks for a table and then creates it, so
        two could both find it missing and the second fail (a duplicate table or type).
        One transaction-level advisory lock per database lets one replica at a time check
        and create; the others then find the tables made."""
        with self.engine.begin() as conn:
            if self.notifies:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            metadata.create_all(conn)

    @property
    def notifies(self) -> bool:
        """True on PostgreSQL: changes are announced with NOTIFY (``propagation.py``)."""
        return self.engine.dialect.name == "postgresql"

    def announce(self, conn: Connection, **payload: Any) -> None:
        """NOTIFY listeners of ``payload`` when ``conn``'s transaction commits (PostgreSQL)."""
        if self.notifies:
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": json.dumps(payload)},
            )

    @contextmanager
    def tx(self) -> Iterator[Connection]:
        """One transaction: committed when the block ends, rolled back when it raises."""
        with self.engine.begin() as conn:
            yield conn

    @contextmanager
    def read(self, conn: Connection | None = None) -> Iterator[Connection]:
        """A connection to read with: ``conn`` (inside its transaction) or a new one."""
        if conn is not None:
            yield conn
            return
        with self.engine.connect() as new:
            yield new

    @contextmanager
    def change(
        self, tenant: str, name: str, expected: int, actor: str
    ) -> Iterator[tuple[Connection, dict[str, Any]]]:
        """One change of an existing rule: a transaction that first advances the rule's
        revision from ``expected`` (412 when it is stale, 404 when there is no such rule)
        and yields the connection and the rule as it is now."""
        with self.tx() as conn:
            yield conn, self._bump(conn, tenant, name, expected, updated_by=actor, updated_at=now())

    def close(self) -> None:
        self.engine.dispose()

    # ---- audit ------------------------------------------------------------------------

    def log(
        self,
        conn: Connection,
        tenant: str,
        actor: str,
        action: str,
        *,
        rule: str | None = None,
        version: int | None = None,
        content_hash: str | None = None,
        outcome: str = "ok",
        detail: str | None = None,
    ) -> None:
        conn.execute(
            insert(audit).values(
                at=now(),
                tenant=tenant,
                actor=actor,
                action=action,
                rule=rule,
                version=version,
                content_hash=content_hash,
                outcome=outcome,
                detail=detail,
            )
        )

    def log_refusal(self, tenant: str, actor: str, action: str, rule: str | None, why: str) -> None:
        """Record a refused action in its own transaction (the refused one rolled back)."""
        with self.tx() as conn:
            self.log(conn, tenant, actor, action, rule=rule, outcome="refused", detail=why)

    def audit_log(
        self, tenant: str, rule: str | None = None, limit: int = 500, before: int | None = None
    ) -> list[dict[str, Any]]:
        """Audit records, newest first: at most ``limit``, with ids below ``before``."""
        query = select(audit).where(audit.c.tenant == tenant)
        if rule is not None:
            query = query.where(audit.c.rule == rule)
        if before is not None:
            query = query.where(audit.c.id < before)
        with self.read() as conn:
            rows = conn.execute(query.order_by(audit.c.id.desc()).limit(limit)).fetchall()
        return [_dict(r) for r in rows]

    # ---- rules ------------------------------------------------------------------------

    def _rule(self, conn: Connection, tenant: str, name: str) -> dict[str, Any]:
        row = conn.execute(
            select(rules).where(rules.c.tenant == tenant, rules.c.name == name)
        ).first()
        if row is None:
            raise NotFound(f"no rule named {name!r}")
        return _dict(row)

    def _bump(
        self, conn: Connection, tenant: str, name: str, expected: int, **values: Any
    ) -> dict[str, Any]:
        """Advance the rule's revision if it is still ``expected``; else 412 (or 404)."""
        rule = self._rule(conn, tenant, name)
        result = conn.execute(
            update(rules)
            .where(rules.c.id == rule["id"], rules.c.revision == expected)
            .values(revision=rules.c.revision + 1, **values)
        )
        if result.rowcount != 1:
            current = self._rule(conn, tenant, name)
            raise PreconditionFailed(
                f"the rule changed: If-Match {etag_of(expected)} but it is now "
                f"{etag_of(current['revision'])}",
                headers={"ETag": etag_of(current["revision"])},
            )
        return self._rule(conn, tenant, name)

    def create_rule(
        self, tenant: str, name: str, text: str, fmt: str, content_hash: str, desc: str, actor: str
    ) -> dict[str, Any]:
        stamp = now()
        try:
            with self.tx() as conn:
                conn.execute(
                    insert(rules).values(
                        tenant=tenant,
                        name=name,
                        description=desc,
                        created_by=actor,
                        created_at=stamp,
                        revision=1,
                        draft_text=text,
                        draft_format=fmt,
                        draft_hash=content_hash,
                        updated_by=actor,
                        updated_at=stamp,
                        active_version=None,
                        retired=False,
                    )
                )
                self.log(conn, tenant, actor, "create", rule=name, content_hash=content_hash)
                return self._rule(conn, tenant, name)
        except IntegrityError:
            raise Conflict(f"a rule named {name!r} exists; replace its draft instead") from None

    def get_rule(self, tenant: str, name: str) -> dict[str, Any]:
        with self.read() as conn:
            return self._rule(conn, tenant, name)

    def list_rules(
        self, tenant: str, limit: int | None = None, after: str | None = None
    ) -> list[dict[str, Any]]:
        """The tenant's rules by name: at most ``limit`` (None: all), named after ``after``."""
        query = select(rules).where(rules.c.tenant == tenant)
        if after is not None:
            query = query.where(rules.c.name > after)
        query = query.order_by(rules.c.name)
        if limit is not None:
            query = query.limit(limit)
        with self.read() as conn:
            rows = conn.execute(query).fetchall()
        return [_dict(r) for r in rows]

    def replace_draft(
        self,
        tenant: str,
        name: str,
        expected: int,
        text: str,
        fmt: str,
        content_hash: str,
        desc: str,
        actor: str,
    ) -> dict[str, Any]:
        with self.tx() as conn:
            if self._rule(conn, tenant, name)["retired"]:  # 409 before 412 for a draft
                raise Conflict(f"rule {name!r} is retired")
            rule = self._bump(
                conn,
                tenant,
                name,
                expected,
                draft_text=text,
                draft_format=fmt,
                draft_hash=content_hash,
                description=desc,
                updated_by=actor,
                updated_at=now(),
            )
            self.log(conn, tenant, actor, "draft", rule=name, content_hash=content_hash)
            return rule

    # ---- versions ---------------------------------------------------------------------

    def freeze(self, tenant: str, name: str, expected: int, actor: str) -> dict[str, Any]:
        """Copy the draft into a new immutable version (numbered 1, 2, …)."""
        with self.change(tenant, name, expected, actor) as (conn, rule):
            if rule["retired"]:
                raise Conflict(f"rule {name!r} is retired")
            same = conn.execute(
                select(versions.c.number).where(
                    versions.c.rule_id == rule["id"],
                    versions.c.content_hash == rule["draft_hash"],
                )
            ).first()
            if same is not None:
                raise Conflict(f"the draft is the same as version {same[0]}")
            last = conn.execute(
                select(func.max(versions.c.number)).where(versions.c.rule_id == rule["id"])
            ).scalar()
            number = (last or 0) + 1
            conn.execute(
                insert(versions).values(
                    rule_id=rule["id"],
                    number=number,
                    content_hash=rule["draft_hash"],
                    text=rule["draft_text"],
                    format=rule["draft_format"],
                    created_by=actor,
                    created_at=now(),
                    status="frozen",
                )
            )
            self.log(
                conn,
                tenant,
                actor,
                "freeze",
                rule=name,
                version=number,
                content_hash=rule["draft_hash"],
            )
            return self._version(conn, rule["id"], number)

    def _version(self, conn: Connection, rule_id: int, number: int) -> dict[str, Any]:
        row = conn.execute(
            select(versions).where(versions.c.rule_id == rule_id, versions.c.number == number)
        ).first()
        if row is None:
            raise NotFound(f"no version {number}")
        return _dict(row)

    def get_version(self, tenant: str, name: str, number: int) -> dict[str, Any]:
        with self.read() as conn:
            rule = self._rule(conn, tenant, name)
            return self._version(conn, rule["id"], number)

    def list_versions(self, tenant: str, name: str) -> list[dict[str, Any]]:
        with self.read() as conn:
            rule = self._rule(conn, tenant, name)
            rows = conn.execute(
                select(versions).where(versions.c.rule_id == rule["id"]).order_by(versions.c.number)
            ).fetchall()
        return [_dict(r) for r in rows]

    def record_test(
        self,
        tenant: str,
        name: str,
        number: int,
        content_hash: str,
        passed: bool,
        report: list[dict[str, Any]],
        actor: str,
    ) -> None:
        with self.tx() as conn:
            rule = self._rule(conn, tenant, name)
            version = self._version(conn, rule["id"], number)
            conn.execute(
                update(versions)
                .where(versions.c.id == version["id"])
                .values(
                    tested_hash=content_hash, tests_passed=passed, test_report=json.dumps(report)
                )
            )
            self.log(
                conn,
                tenant,
                actor,
                "test",
                rule=name,
                version=number,
                content_hash=content_hash,
                detail="passed" if passed else "failed",
            )

    def review(
        self,
        tenant: str,
        name: str,
        expected: int,
        number: int,
        *,
        action: str,
        actor: str,
        allowed_from: tuple[str, ...],
        to: str,
        check: Any = None,
        note: str | None = None,
    ) -> dict[str, Any]:
        """Move a version from one of ``allowed_from`` to ``to`` (submit, approve, reject)."""
        with self.change(tenant, name, expected, actor) as (conn, rule):
            version = self._version(conn, rule["id"], number)
            if version["status"] not in allowed_from:
                raise Conflict(
                    f"version {number} is {version['status']}; {action} needs "
                    f"{' or '.join(allowed_from)}"
                )
            if check is not None:
                check(version)
            values: dict[str, Any] = {"status": to}
            if action == "submit":
                values["submitted_by"] = actor
            else:
                values.update(reviewed_by=actor, review_note=note)
            conn.execute(update(versions).where(versions.c.id == version["id"]).values(**values))
            self.log(
                conn,
                tenant,
                actor,
                action,
                rule=name,
                version=number,
                content_hash=version["content_hash"],
                detail=note,
            )
            return self._version(conn, rule["id"], number)

    # ---- activation -------------------------------------------------------------------

    def activate(
        self,
        tenant: str,
        name: str,
        expected: int,
        number: int | None,
        *,
        action: str,
        actor: str,
        check: Any = None,
    ) -> dict[str, Any]:
        """Make ``number`` the active version (None: deactivate), atomically.

        ``check(conn, rule, version)`` runs inside the transaction; when it raises, nothing
        changes and the previous version stays active.
        """
        with self.change(tenant, name, expected, actor) as (conn, rule):
            version = self._version(conn, rule["id"], number) if number is not None else None
            if rule["retired"]:
                raise Conflict(f"rule {name!r} is retired")
            if check is not None:
                check(conn, rule, version)
            conn.execute(
                update(rules).where(rules.c.id == rule["id"]).values(active_version=number)
            )
            conn.execute(
                insert(activations).values(tenant=tenant, rule=name, version=number, at=now())
            )
            self.announce(conn, kind="rules", tenant=tenant)
            self.log(
                conn,
                tenant,
                actor,
                action,
                rule=name,
                version=number,
                content_hash=version["content_hash"] if version else None,
                detail=f"previous: {rule['active_version']}",
            )
            return self._rule(conn, tenant, name)

    def retire(self, tenant: str, name: str, expected: int, actor: str) -> dict[str, Any]:
        with self.change(tenant, name, expected, actor) as (conn, rule):
            if rule["active_version"] is not None:
                raise Conflict(
                    f"rule {name!r} is active (version {rule['active_version']}); "
                    "deactivate it first"
                )
            conn.execute(update(rules).where(rules.c.id == rule["id"]).values(retired=True))
            self.log(conn, tenant, actor, "retire", rule=name)
            return self._rule(conn, tenant, name)

    def active_rules(self, tenant: str, conn: Connection | None = None) -> list[dict[str, Any]]:
        """(name, number, text, format, content_hash) of each active rule of the tenant."""
        query = (
            select(
                rules.c.name,
                versions.c.number,
                versions.c.text,
                versions.c.format,
                versions.c.content_hash,
            )
            .join(versions, versions.c.rule_id == rules.c.id)
            .where(
                rules.c.tenant == tenant,
                rules.c.active_version == versions.c.number,
                rules.c.retired.is_(False),
            )
            .order_by(rules.c.name)
        )
        with self.read(conn) as c:
            return [_dict(r) for r in c.execute(query).fetchall()]

    def active_tenants(self) -> list[str]:
        """The tenants that have an active rule."""
        query = (
            select(rules.c.tenant)
            .where(rules.c.active_version.is_not(None), rules.c.retired.is_(False))
            .distinct()
            .order_by(rules.c.tenant)
        )
        with self.read() as c:
            return [str(r[0]) for r in c.execute(query).fetchall()]

    def ruleset_version(self, tenant: str, conn: Connection | None = None) -> int:
        """A number that grows with every activation change of the tenant (0: none yet)."""
        query = select(func.max(activations.c.id)).where(activations.c.tenant == tenant)
        with self.read(conn) as c:
            return int(c.execute(query).scalar() or 0)

    # ---- keys -------------------------------------------------------------------------

    def add_key(
        self,
        key_id: str,
        secret_hash: str,
        tenant: str,
        roles: str,
        name: str,
        actor: str = "keys",
    ) -> None:
        with self.tx() as conn:
            conn.execute(
                insert(api_keys).values(
                    key_id=key_id,
                    secret_hash=secret_hash,
                    tenant=tenant,
                    roles=roles,
                    name=name,
                    created_at=now(),
                    revoked=False,
                )
            )
            self.log(conn, tenant, actor, "key.create", detail=f"{key_id} roles={roles}")

    def get_key(self, key_id: str) -> dict[str, Any] | None:
        with self.read() as conn:
            row = conn.execute(select(api_keys).where(api_keys.c.key_id == key_id)).first()
        return _dict(row) if row is not None else None

    def list_keys(
        self,
        tenant: str | None,
        limit: int | None = None,
        after: tuple[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        """The keys of ``tenant`` (None: of every tenant), without their secret hashes, by
        creation: at most ``limit`` (None: all), after the key ``(created_at, key_id)``."""
        query = select(*(c for c in api_keys.c if c.name != "secret_hash"))
        if tenant is not None:
            query = query.where(api_keys.c.tenant == tenant)
        if after is not None:
            stamp, key_id = after
            query = query.where(
                or_(
                    api_keys.c.created_at > stamp,
                    and_(api_keys.c.created_at == stamp, api_keys.c.key_id > key_id),
                )
            )
        query = query.order_by(api_keys.c.created_at, api_keys.c.key_id)
        if limit is not None:
            query = query.limit(limit)
        with self.read() as conn:
            rows = conn.execute(query)
            return [_dict(r) for r in rows.fetchall()]

    def revoke_key(self, key_id: str, actor: str, tenant: str | None = None) -> dict[str, Any]:
        """Revoke a key (of ``tenant`` only, unless None) and audit it; 404, or 409 if revoked.

        Every lookup reads the key's row, so the key is refused by every worker from the
        moment this commits.
        """
        with self.tx() as conn:
            row = conn.execute(select(api_keys).where(api_keys.c.key_id == key_id)).first()
            key = _dict(row) if row is not None else None
            if key is None or (tenant is not None and key["tenant"] != tenant):
                raise NotFound(f"no key {key_id!r}")
            result = conn.execute(
                update(api_keys)
                .where(api_keys.c.key_id == key_id, api_keys.c.revoked.is_(False))
                .values(revoked=True)
            )
            if result.rowcount != 1:
                raise Conflict(f"key {key_id!r} is already revoked", code="already_revoked")
            self.log(conn, key["tenant"], actor, "key.revoke", detail=key_id)
            return {k: v for k, v in {**key, "revoked": True}.items() if k != "secret_hash"}
