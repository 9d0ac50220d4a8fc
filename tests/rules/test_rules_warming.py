"""A hub that warms compiles a tenant's active rules as soon as it hears of a change (a
NOTIFY), and every tenant's when it opens: in the server process and in each rule worker's
compile cache, before any request of the tenant arrives."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from rules_helpers import LIMITS, Rig, contrib, publish, wait_until

from zerolayer.core.engine import Engine
from zerolayer.rules_api.rules.document import load_document
from zerolayer.rules_api.rules.isolation import InlineRunner, Job, WorkerPool
from zerolayer.rules_api.rules.store import RuleStore
from zerolayer.rules_api.rules.warming import PRIMER, Warmer, prime
from zerolayer.rules_api.rules.workflow import RulesHub, run_text


def _unique(heading: str) -> str:
    """contract-faq with a heading of its own: a document no worker has compiled yet."""
    return contrib("contract-faq.yaml").replace("# Frequently asked questions", heading)


def _run_text(text: str) -> str:
    return run_text(load_document(text, "yaml", LIMITS).data)


def _served(hub: RulesHub, tenant: str) -> tuple[int, list[tuple[str, int]]] | None:
    """What ``hub`` serves for ``tenant`` now, without reading the store: (version, rules)."""
    entry = hub._served.get(tenant)
    if entry is None:
        return None
    return entry.version, [(rule.name, number) for rule, number in entry.rules]


def _compiled_in_every_worker(pool: WorkerPool, text: str) -> list[bool]:
    """Whether each worker had ``text`` compiled (``submit`` takes the one idle longest, so
    as many compile jobs as workers, one after another, reach each worker once)."""
    answers = [pool.submit(Job("compile", text, "json")) for _ in pool._all]
    assert all(a["ok"] and a["valid"] for a in answers), answers
    return [a["cached"] for a in answers]


@pytest.fixture
def warm_hubs(db_url: str, engine: Engine, pool: WorkerPool) -> Iterator[Any]:
    """``open_hub()``: a hub on the rig's store that listens (PostgreSQL) and warms, on the
    shared worker pool; what it started is stopped afterwards (the pool stays open)."""
    made: list[RulesHub] = []

    def open_hub() -> RulesHub:
        hub = RulesHub(
            RuleStore(db_url),
            pool,
            builtin_ops=engine.registry.ops,
            limits=LIMITS,
            poll_s=3600,  # nothing but the warming can explain what is served
            listen=True,
            warm=True,
        )
        made.append(hub)
        return hub

    yield open_hub
    for hub in made:
        if hub.listener is not None:
            hub.listener.stop()
        if hub.warmer is not None:
            hub.warmer.stop()
        hub.store.close()


def test_prepare_fills_the_compile_cache_of_every_worker(pool: WorkerPool) -> None:
    text = _run_text(_unique("# Prepared in every worker"))
    on_demand = _run_text(_unique("# Compiled on demand"))
    assert _compiled_in_every_worker(pool, on_demand) == [False, False]  # each its own
    assert _compiled_in_every_worker(pool, on_demand) == [True, True]
    threads = pool.prepare([Job("compile", text, "json")])
    assert len(threads) == len(pool._all) == 2
    for thread in threads:
        thread.join(30)
    assert _compiled_in_every_worker(pool, text) == [True, True]


def test_an_inline_runner_prepares_at_once() -> None:
    runner = InlineRunner(LIMITS)
    text = _run_text(_unique("# Prepared inline"))
    assert runner.prepare([Job("compile", text, "json")]) == []
    assert runner.submit(Job("compile", text, "json"))["cached"] is True


def test_the_primer_is_a_valid_rule_whose_example_passes(engine: Engine) -> None:
    runner = InlineRunner(LIMITS)
    answer = runner.submit(Job("test", json.dumps(PRIMER), "json"))
    assert answer["ok"] and [r["passed"] for r in answer["results"]] == [True], answer
    prime(engine.registry.ops, LIMITS, run=True)  # and priming says nothing


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_a_notify_compiles_the_new_version_before_any_request(
    rig: Rig, warm_hubs: Any, pool: WorkerPool
) -> None:
    hub = warm_hubs()
    assert hub.listener is not None and hub.warmer is not None
    wait_until(hub.listener.connected.is_set)
    assert hub.warmer.wait_idle(10)
    assert _served(hub, "acme") is None  # no request, nothing active: nothing served

    text = _unique("# Warmed by the notification")
    publish(rig, text)  # activated through the rig's own hub: the other one hears a NOTIFY
    version = rig.hub.store.ruleset_version("acme")
    wait_until(lambda: _served(hub, "acme") == (version, [("contract-faq", 1)]), timeout=10)
    assert hub.warmer.wait_idle(30)  # the workers too
    assert ("yaml", text) in hub._cache  # compiled here
    assert _compiled_in_every_worker(pool, _run_text(text)) == [True, True]  # and there

    # the first request finds it all ready: the answer is the new version's
    answer = hub.answer(
        "acme",
        _request("Turn the contract clauses into a FAQ:\n\n1. Term. One year."),
    )
    assert answer is not None and answer.output is not None
    assert answer.output.startswith("# Warmed by the notification")


def test_a_hub_compiles_every_tenant_s_active_rules_when_it_opens(
    rig: Rig, warm_hubs: Any, pool: WorkerPool
) -> None:
    text = _unique("# Warmed when the hub opened")
    publish(rig, text)
    version = rig.hub.store.ruleset_version("acme")
    hub = warm_hubs()  # on PostgreSQL when its listener connects, on SQLite at once
    wait_until(lambda: _served(hub, "acme") == (version, [("contract-faq", 1)]), timeout=10)
    assert hub.warmer is not None and hub.warmer.wait_idle(30)
    assert _served(hub, "globex") is None  # a tenant without active rules is left alone
    assert _compiled_in_every_worker(pool, _run_text(text)) == [True, True]


def test_the_warmer_prepares_each_tenant_once_per_request_and_survives_failures() -> None:
    seen: list[str] = []

    def prepare(tenant: str) -> None:
        seen.append(tenant)
        if tenant == "broken":
            raise RuntimeError("the store went away")

    warmer = Warmer(prepare, lambda: ["a", "b"])
    try:
        warmer.request("broken")
        warmer.request_all()
        warmer.request("c")
        assert warmer.wait_idle(5)
        assert seen == ["broken", "a", "b", "c"]
        assert warmer.prepared == 4
    finally:
        warmer.stop()


def _request(text: str) -> Any:
    from zerolayer.core.messages import EngineRequest, Message

    return EngineRequest(messages=(Message("user", text),))


def test_serve_opens_a_configured_rules_store_at_start_up(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zerolayer.rules_api import create_app
    from zerolayer.rules_api.rules.install import open_early
    from zerolayer.rules_api.testing import FakeFallback

    app = create_app(engine, fallback=FakeFallback())
    opened: list[bool] = []
    app.state.rules.factory = lambda: opened.append(True) or object()
    monkeypatch.delenv("ZEROLAYER_DB_URL", raising=False)
    assert open_early(app) is None  # no store configured: it opens on first use
    monkeypatch.setenv("ZEROLAYER_DB_URL", "postgresql+psycopg://zl@127.0.0.1:1/none")
    thread = open_early(app)
    assert thread is not None
    thread.join(10)
    assert opened == [True]
