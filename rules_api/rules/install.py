"""``install_rules``: the rules API and tenant rules on a zerolayer app.

Configuration (environment): ``ZEROLAYER_RULES=off`` leaves them out; ``ZEROLAYER_DB_URL``
(SQLite by default, under ``ZEROLAYER_DATA_DIR``; ``postgresql://…`` for several workers);
``ZEROLAYER_RULE_WORKERS`` worker processes (2); ``ZEROLAYER_RULES_POLL_S`` how often a
worker re-reads the rule-set version (1 s; on PostgreSQL activations arrive by LISTEN/NOTIFY
and this is a fallback, see ``propagation.py``). The store opens on first use, so an app that
never sees a rules request or a zerolayer client key never touches the database; ``zerolayer
serve`` with ``ZEROLAYER_DB_URL`` set opens it at start-up instead (``open_early``).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

from zerolayer.rules_api.rules.isolation import WorkerPool
from zerolayer.rules_api.rules.router import install_rules_errors, rules_router
from zerolayer.rules_api.rules.store import RuleStore, default_db_url
from zerolayer.rules_api.rules.tenant_engine import (
    RulesTenancy,
    TenantMiddleware,
    TenantRulesEngine,
)
from zerolayer.rules_api.rules.workflow import RulesHub

log = logging.getLogger("zerolayer.rules")


def builtin_parser_of(engine: Any) -> Callable[[str], bool] | None:
    """``text → understood?`` by the engine's grammar (None when the engine has none)."""
    parser = getattr(engine, "parser", None)
    if parser is None or not hasattr(parser, "parse"):
        return None

    def parses(text: str) -> bool:
        from zerolayer.core.normalise import normalise

        try:
            parser.parse(normalise(text))
        except Exception:
            return False
        return True

    return parses


def hub_from_env(engine: Any) -> RulesHub:
    """A hub on ``ZEROLAYER_DB_URL`` with a worker pool (its processes started in the
    background at once), checking against ``engine``; it compiles a tenant's active rules,
    here and in the workers, as soon as it hears of a change (and every tenant's when it
    opens), so that no request waits for that."""
    registry = getattr(engine, "registry", None)
    pool = WorkerPool(int(os.environ.get("ZEROLAYER_RULE_WORKERS") or 2))
    pool.warm()
    return RulesHub(
        RuleStore(default_db_url()),
        pool,
        builtin_ops=dict(registry.ops) if registry is not None else {},
        builtin_parser=builtin_parser_of(engine),
        poll_s=float(os.environ.get("ZEROLAYER_RULES_POLL_S") or 1.0),
        listen=True,
        warm=True,
    )


class RulesState:
    """The app's rules hub, made by ``factory`` on first use."""

    def __init__(self, factory: Callable[[], RulesHub]) -> None:
        self.factory = factory
        self._hub: RulesHub | None = None
        self._lock = threading.Lock()

    def hub(self) -> RulesHub:
        if self._hub is None:
            with self._lock:
                if self._hub is None:
                    self._hub = self.factory()
        return self._hub

    def hub_if_open(self) -> RulesHub | None:
        """The hub (opened if needed); None when it cannot be opened (logged)."""
        try:
            return self.hub()
        except Exception:
            log.exception("the rules store cannot be opened")
            return None

    def close(self) -> None:
        if self._hub is not None:
            self._hub.close()
            self._hub = None


def open_early(app: FastAPI) -> threading.Thread | None:
    """Open the app's rules store in the background now, when ``ZEROLAYER_DB_URL`` names one
    (``zerolayer serve`` of a fleet): its rule workers start, and its tenants' active rules
    compile, before any request needs them. None when the app has no rules or no store is
    configured (the store then opens on first use); a store that cannot be reached now is
    logged and opened by the first request that needs it."""
    state = getattr(app.state, "rules", None)
    if not isinstance(state, RulesState) or not os.environ.get("ZEROLAYER_DB_URL"):
        return None
    thread = threading.Thread(target=state.hub_if_open, name="zerolayer-rules-open", daemon=True)
    thread.start()
    return thread


def install_rules(app: FastAPI, service: Any) -> RulesState | None:
    """Add the rules routes, the tenant middleware and the tenant engine to ``app``."""
    if os.environ.get("ZEROLAYER_RULES", "").strip().lower() in ("off", "0", "false"):
        return None
    inner = service.engine
    state = RulesState(lambda: hub_from_env(inner))
    service.engine = TenantRulesEngine(inner, state.hub_if_open)
    service.tenancy = RulesTenancy()  # tenant requests bypass the fast path
    app.state.rules = state
    install_rules_errors(app)
    app.include_router(rules_router(state.hub))
    app.add_middleware(TenantMiddleware, hub=state.hub_if_open)
    return state
