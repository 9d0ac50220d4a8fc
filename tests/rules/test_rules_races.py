"""Racing approvals and activations over HTTP, from threads, through two app instances on one
database (SQLite and PostgreSQL): exactly one wins where one must, nothing is half done, and
the audit log has one record for every change and every refused action."""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from rules_helpers import Rig, contrib, publish

from zerolayer.rules_api.rules.keys import create_key

RULE = "email-list"
THREADS = 8


def _race(calls: list[Any]) -> list[Any]:
    """Run the calls at once (a barrier releases them together); their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Any) -> Any:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as ex:
        return list(ex.map(run, calls))


def _submitted_version(rig: Rig, number: int) -> dict[str, Any]:
    """A new version of the rule, tested and submitted: its view with the rule's ETag."""
    c = rig.client
    etag = c.get(f"/v1/zero-rules/{RULE}", headers=rig.h("author")).headers["ETag"]
    doc = contrib("email-list.yaml").replace("Lists the e-mail", f"Lists ({number}) the e-mail")
    r = c.put(
        f"/v1/zero-rules/{RULE}/draft",
        content=doc,
        headers={**rig.h("author", etag), "content-type": "application/yaml"},
    )
    v = c.post(f"/v1/zero-rules/{RULE}/versions", headers=rig.h("author", r.headers["ETag"]))
    assert v.json()["number"] == number, v.text
    assert c.post(f"/v1/zero-rules/{RULE}/versions/{number}/test", headers=rig.h("author")).json()[
        "passed"
    ]
    r = c.post(
        f"/v1/zero-rules/{RULE}/versions/{number}/submit",
        headers=rig.h("author", v.json()["etag"]),
    )
    assert r.status_code == 200, r.text
    return {**r.json(), "content_hash": v.json()["content_hash"]}


def _audit(rig: Rig) -> list[dict[str, Any]]:
    return list(
        rig.client.get(f"/v1/zero-rules/{RULE}/audit", headers=rig.h("auditor")).json()["audit"]
    )


def test_racing_approvals_one_wins_and_every_refusal_is_audited(rig: Rig, make_worker: Any) -> None:
    other, _ = make_worker()
    rig.keys["reviewer2"] = create_key(rig.hub.store, "acme", ["reviewer"])
    publish(rig, contrib("email-list.yaml"))
    v2 = _submitted_version(rig, 2)
    before = len(_audit(rig))

    # the same ETag for everyone: one approval commits, every other is stale
    def approve(i: int) -> Any:
        client = rig.client if i % 2 else other
        who = "reviewer" if i % 3 else "reviewer2"
        return lambda: client.post(
            f"/v1/zero-rules/{RULE}/versions/2/approve",
            json={"content_hash": v2["content_hash"]},
            headers=rig.h(who, v2["etag"]),
        )

    responses = _race([approve(i) for i in range(THREADS)])
    codes = Counter(r.status_code for r in responses)
    assert codes == {200: 1, 412: THREADS - 1}, codes
    winner = next(r for r in responses if r.status_code == 200).json()
    view = rig.client.get(f"/v1/zero-rules/{RULE}", headers=rig.h("auditor")).json()
    assert view["etag"] == winner["etag"]
    assert view["versions"][1]["status"] == "approved"
    approvals = [a for a in _audit(rig)[: len(_audit(rig)) - before] if a["action"] == "approve"]
    assert [(a["outcome"], a["actor"]) for a in approvals] == [("ok", winner["reviewed_by"])]

    # each with the ETag it reads first: one wins, the rest are refused as workflow conflicts
    v3 = _submitted_version(rig, 3)
    before = len(_audit(rig))

    def approve_fresh(i: int) -> Any:
        client = rig.client if i % 2 else other

        def call() -> Any:
            time.sleep(0.03 * i)  # spread out: later ones read the winner's ETag
            etag = client.get(f"/v1/zero-rules/{RULE}", headers=rig.h("reviewer")).headers["ETag"]
            return client.post(
                f"/v1/zero-rules/{RULE}/versions/3/approve",
                json={"content_hash": v3["content_hash"]},
                headers=rig.h("reviewer" if i % 3 else "reviewer2", etag),
            )

        return call

    responses = _race([approve_fresh(i) for i in range(THREADS)])
    codes = Counter(r.status_code for r in responses)
    assert codes[200] == 1 and set(codes) <= {200, 409, 412}, codes
    new = _audit(rig)[: len(_audit(rig)) - before]
    outcomes = Counter((a["action"], a["outcome"]) for a in new)
    assert codes[409] >= 1, codes  # some came after the winner: refused, not stale
    assert outcomes == Counter({("approve", "ok"): 1, ("approve", "refused"): codes[409]})


def test_racing_activations_one_wins_nothing_half_done(rig: Rig, make_worker: Any) -> None:
    other, hub_b = make_worker()
    publish(rig, contrib("email-list.yaml"))
    for number in (2, 3):
        v = _submitted_version(rig, number)
        r = rig.client.post(
            f"/v1/zero-rules/{RULE}/versions/{number}/approve",
            json={"content_hash": v["content_hash"]},
            headers=rig.h("reviewer", v["etag"]),
        )
        assert r.status_code == 200, r.text
    etag = r.json()["etag"]
    ruleset = rig.client.get("/v1/status", headers=rig.h("auditor")).json()["rule_set_version"]
    before = len(_audit(rig))

    def activate(i: int) -> Any:
        client = rig.client if i % 2 else other
        return lambda: client.post(
            f"/v1/zero-rules/{RULE}/activate",
            json={"version": 2 + i % 2},
            headers=rig.h("publisher", etag),
        )

    responses = _race([activate(i) for i in range(THREADS)])
    codes = Counter(r.status_code for r in responses)
    assert codes == {200: 1, 412: THREADS - 1}, codes
    won = next(r for r in responses if r.status_code == 200).json()
    for client in (rig.client, other):  # both instances see one consistent state
        status = client.get("/v1/status", headers=rig.h("auditor")).json()
        assert status["rule_set_version"] > ruleset
        assert {r["name"]: r["active_version"] for r in status["rules"]} == {
            RULE: won["active_version"]
        }
    new = _audit(rig)[: len(_audit(rig)) - before]
    assert [(a["action"], a["outcome"], a["version"]) for a in new] == [
        ("activate", "ok", won["active_version"])
    ]
    assert hub_b.active("acme")[0] == status["rule_set_version"]

    # activate and deactivate racing with fresh ETags: every success is one audited change,
    # and the final state is the last audited one
    def toggle(i: int) -> Any:
        client = rig.client if i % 2 else other

        def call() -> Any:
            tag = client.get(f"/v1/zero-rules/{RULE}", headers=rig.h("publisher")).headers["ETag"]
            if i % 3 == 0:
                return client.post(
                    f"/v1/zero-rules/{RULE}/deactivate", headers=rig.h("publisher", tag)
                )
            return client.post(
                f"/v1/zero-rules/{RULE}/activate",
                json={"version": 2 + i % 2},
                headers=rig.h("publisher", tag),
            )

        return call

    before = len(_audit(rig))
    responses = _race([toggle(i) for i in range(THREADS)])
    codes = Counter(r.status_code for r in responses)
    assert codes[200] >= 1 and set(codes) <= {200, 412}, codes
    new = _audit(rig)[: len(_audit(rig)) - before]
    assert len(new) == codes[200] and all(a["outcome"] == "ok" for a in new)
    view = rig.client.get(f"/v1/zero-rules/{RULE}", headers=rig.h("auditor")).json()
    assert view["active_version"] == new[0]["version"]  # the newest audited change holds
    assert view["etag"] == f'"r{int(etag.strip(chr(34))[1:]) + 1 + codes[200]}"'


def test_stores_opened_together_on_a_new_postgres_database_all_open(postgres_url: str) -> None:
    # Replicas of a fleet open one new database together at start-up: each checked for a
    # table and then created it, so two could both find it missing and one failed with a
    # duplicate table or type (3 processes at once on a fresh database: about 1 start in 2).
    from sqlalchemy import create_engine, text

    from zerolayer.rules_api.rules.store import RuleStore

    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    base = postgres_url.rsplit("/", 1)[0]
    try:
        for attempt in range(5):
            name = f"zl_fresh_{attempt}_{time.monotonic_ns()}"
            with admin.connect() as conn:
                conn.execute(text(f"CREATE DATABASE {name}"))
            stores = _race([partial(RuleStore, f"{base}/{name}") for _ in range(4)])
            for store in stores:
                assert store.list_rules("acme") == []
                store.close()
            with admin.connect() as conn:
                conn.execute(text(f"DROP DATABASE {name}"))
    finally:
        admin.dispose()
