"""Three ``zerolayer serve`` replicas on one PostgreSQL, one Redis and one OpenAI-compatible
upstream behave as one service: rules, cached answers and key revocations reach every
replica at once; SIGTERM drains a stream in flight; kill -9 loses nothing acknowledged.

All processes listen on loopback ports and live under one temporary folder, removed at the
end. The tests of this module run in order on one fleet (the last two stop replicas)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fleet_processes import Replica, postgres, redis, replicas, upstream

pytestmark = pytest.mark.slow

CONTRIB = Path(__file__).resolve().parents[2] / "contrib" / "rules"
FAQ_RULE = (CONTRIB / "contract-faq.yaml").read_text(encoding="utf-8")
FAQ_V2 = FAQ_RULE.replace("# Frequently asked questions", "# FAQ, second edition")
FAQ = "Turn the contract clauses into a FAQ:\n\n1. Term. One year."
CONVERT = 'Convert this JSON to YAML:\n\n{"fleet": {"replicas": 3, "shared": ["pg", "redis"]}}'
ROLES = ("author", "reviewer", "publisher", "client")
PROPAGATION_S = 1.0  # what the fleet promises: a change made on one replica, served by all


@dataclass
class Fleet:
    replicas: list[Replica]
    admin_key: str
    keys: dict[str, str] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)  # the FAQ rule's, once approved
    clients: dict[str, httpx.Client] = field(default_factory=dict)

    def client(self, replica: Replica) -> httpx.Client:
        if replica.name not in self.clients:
            self.clients[replica.name] = httpx.Client(base_url=replica.url, timeout=15)
        return self.clients[replica.name]

    def h(self, who: str, etag: str | None = None) -> dict[str, str]:
        headers = {"x-api-key": self.keys.get(who, self.admin_key)}
        if etag is not None:
            headers["If-Match"] = etag
        return headers


@pytest.fixture(scope="module")
def fleet() -> Iterator[Fleet]:
    base = Path(tempfile.mkdtemp(prefix="zl-fleet-"))
    admin = "fleet-admin-" + secrets.token_urlsafe(16)
    try:
        with postgres(base) as db, redis(base) as cache, upstream(base) as model:
            env = {
                **os.environ,
                "ZEROLAYER_DB_URL": db,
                "ZEROLAYER_REDIS_URL": cache,
                "ZEROLAYER_FALLBACK": f"upstream:{model}",
                "ZEROLAYER_UPSTREAM_RETRIES": "0",
                "ZEROLAYER_ADMIN_KEY": admin,
                "ZEROLAYER_RULE_WORKERS": "1",
                "ZEROLAYER_RULES_POLL_S": "3600",  # only NOTIFY can explain a fast change
                "ZEROLAYER_ROUTER": "off",
            }
            with replicas(base, 3, env) as started:
                made = Fleet(started, admin)
                try:
                    first = made.client(started[0])
                    for role in ROLES:
                        r = first.post(
                            "/v1/keys",
                            json={"tenant": "acme", "roles": [role]},
                            headers=made.h("admin"),
                        )
                        assert r.status_code == 201, r.text
                        made.keys[role] = r.json()["key"]
                    yield made
                finally:
                    for client in made.clients.values():
                        client.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def ask(client: httpx.Client, key: str, text: str) -> httpx.Response:
    return client.post(
        "/v1/messages",
        json={
            "model": "m",
            "max_tokens": 1000,
            "temperature": 0,
            "messages": [{"role": "user", "content": text}],
        },
        headers={"x-api-key": key, "anthropic-version": "2023-06-01"},
    )


def faq_heading(fleet: Fleet, replica: Replica) -> str:
    """The first line of replica's answer to the FAQ request when a rule answered it, else ''."""
    r = ask(fleet.client(replica), fleet.keys["client"], FAQ)
    assert r.status_code == 200, r.text
    if r.headers["x-zero-layer-status"] != "active":
        return ""
    return str(r.json()["content"][0]["text"]).splitlines()[0]


def seconds_until(check: Callable[[], bool], limit_s: float = 10.0) -> float:
    """Seconds until ``check()`` holds (polled); AssertionError after ``limit_s``."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > limit_s:
            raise AssertionError(f"not reached within {limit_s} s")
        time.sleep(0.02)
    return time.monotonic() - start


def everywhere_within(fleet: Fleet, heading: str, others: list[Replica], since: float) -> float:
    """Seconds from ``since`` (a change acknowledged) until the first answer carrying it
    arrives from the last replica of ``others`` to apply it: each replica is polled in a
    thread of its own with the FAQ request, from ``since`` until an answer with ``heading``
    arrives ``PROPAGATION_S`` after it. A replica applied the change when every answer
    from one on carries ``heading``; an answer that arrives ``PROPAGATION_S`` after
    ``since`` without it fails the test, however early its request was sent."""
    seen: dict[str, list[tuple[float, float, str]]] = {r.name: [] for r in others}

    def poll(replica: Replica) -> None:
        c = fleet.client(replica)  # made before: only the replica's time is measured
        while time.monotonic() - since < 10:
            sent = time.monotonic() - since
            r = ask(c, fleet.keys["client"], FAQ)
            arrived = time.monotonic() - since
            active = r.status_code == 200 and r.headers["x-zero-layer-status"] == "active"
            said = str(r.json()["content"][0]["text"]).splitlines()[0] if active else ""
            seen[replica.name].append((round(sent, 3), round(arrived, 3), said))
            if said == heading and arrived >= PROPAGATION_S:
                return
            time.sleep(0.02)

    pollers = [threading.Thread(target=poll, args=(r,)) for r in others]
    for poller in pollers:
        poller.start()
    for poller in pollers:
        poller.join(30)
    applied = []
    for name, answers in seen.items():
        stale = [arrived for _, arrived, said in answers if said != heading]
        late = [at for at in stale if at >= PROPAGATION_S]
        assert not late, f"{name} answered without the change {late} s after it: {answers}"
        fresh = [at for _, at, said in answers if said == heading and at > max(stale, default=-1)]
        assert fresh, f"{name} never applied the change: {answers}"
        assert fresh[0] < PROPAGATION_S, f"{name} applied it {fresh[0]} s after: {answers}"
        applied.append(fresh[0])
    return max(applied)


def approve(fleet: Fleet, client: httpx.Client, name: str, etag: str) -> tuple[int, str]:
    """Freeze the draft as a version, test, submit and approve it: (number, rule ETag)."""
    r = client.post(f"/v1/zero-rules/{name}/versions", headers=fleet.h("author", etag))
    assert r.status_code == 201, r.text
    number, etag, digest = r.json()["number"], r.json()["etag"], r.json()["content_hash"]
    r = client.post(f"/v1/zero-rules/{name}/versions/{number}/test", headers=fleet.h("author"))
    assert r.status_code == 200 and r.json()["passed"], r.text
    r = client.post(
        f"/v1/zero-rules/{name}/versions/{number}/submit", headers=fleet.h("author", etag)
    )
    assert r.status_code == 200, r.text
    r = client.post(
        f"/v1/zero-rules/{name}/versions/{number}/approve",
        json={"content_hash": digest},
        headers=fleet.h("reviewer", r.json()["etag"]),
    )
    assert r.status_code == 200, r.text
    return int(number), str(r.json()["etag"])


def act(fleet: Fleet, client: httpx.Client, action: str, version: int, etag: str) -> str:
    r = client.post(
        f"/v1/zero-rules/contract-faq/{action}",
        json={"version": version},
        headers=fleet.h("publisher", etag),
    )
    assert r.status_code == 200, r.text
    return str(r.headers["ETag"])


def test_activation_and_rollback_reach_every_replica_within_a_second(fleet: Fleet) -> None:
    one, others = fleet.replicas[0], fleet.replicas[1:]
    first = fleet.client(one)
    assert all(faq_heading(fleet, r) == "" for r in fleet.replicas)  # nothing active yet

    r = first.post(
        "/v1/zero-rules",
        content=FAQ_RULE,
        headers={**fleet.h("author"), "content-type": "application/yaml"},
    )
    assert r.status_code == 201, r.text
    v1, etag = approve(fleet, first, "contract-faq", r.headers["ETag"])
    etag = act(fleet, first, "activate", v1, etag)
    since = time.monotonic()
    assert everywhere_within(fleet, "# Frequently asked questions", others, since) < PROPAGATION_S

    etag = first.get("/v1/zero-rules/contract-faq", headers=fleet.h("author")).headers["ETag"]
    r = first.put(
        "/v1/zero-rules/contract-faq/draft",
        content=FAQ_V2,
        headers={**fleet.h("author", etag), "content-type": "application/yaml"},
    )
    assert r.status_code == 200, r.text
    v2, etag = approve(fleet, first, "contract-faq", r.headers["ETag"])
    etag = act(fleet, first, "activate", v2, etag)
    since = time.monotonic()
    assert everywhere_within(fleet, "# FAQ, second edition", others, since) < PROPAGATION_S

    act(fleet, first, "rollback", v1, etag)
    since = time.monotonic()
    assert everywhere_within(fleet, "# Frequently asked questions", others, since) < PROPAGATION_S
    assert faq_heading(fleet, one) == "# Frequently asked questions"
    fleet.versions.update(v1=v1, v2=v2)


def convert(n: int) -> str:
    """A deterministic request of its own for each ``n`` (answered by the engine, not a rule)."""
    return CONVERT.replace('"replicas": 3', f'"replicas": {n}')


def test_an_answer_cached_by_one_replica_is_a_hit_on_the_others(fleet: Fleet) -> None:
    one, two, three = fleet.replicas
    key = fleet.keys["client"]
    answers: dict[int, str] = {}
    for n in (1, 2, 3):  # written through replica one, a hit on two and three
        written = ask(fleet.client(one), key, convert(n))
        assert written.status_code == 200, written.text
        assert written.headers["x-zero-layer-status"] == "active"
        assert written.headers["x-zero-layer-cache-hit"] == "false"
        answers[n] = written.json()["content"][0]["text"]
        assert f"replicas: {n}" in answers[n]
        hits = [ask(fleet.client(r), key, convert(n)) for r in (two, three)]
        assert [h.headers["x-zero-layer-cache-hit"] for h in hits] == ["true", "true"]
        assert [h.json()["content"][0]["text"] for h in hits] == [answers[n], answers[n]]

    # an activation on replica one changes the tenant's rule-set version: each replica
    # misses the entry it hit before (answered anew, the same), then shares the new one
    first = fleet.client(one)
    rule = first.get("/v1/zero-rules/contract-faq", headers=fleet.h("author"))
    assert rule.status_code == 200, rule.text
    act(fleet, first, "activate", fleet.versions["v2"], rule.headers["ETag"])
    since = time.monotonic()
    assert everywhere_within(fleet, "# FAQ, second edition", [two, three], since) < PROPAGATION_S
    after = [ask(fleet.client(r), key, convert(n)) for r, n in ((one, 1), (two, 2), (three, 3))]
    assert [a.headers["x-zero-layer-cache-hit"] for a in after] == ["false"] * 3
    assert [a.json()["content"][0]["text"] for a in after] == [answers[1], answers[2], answers[3]]
    shared = [ask(fleet.client(r), key, convert(1)) for r in (two, three)]
    assert [h.headers["x-zero-layer-cache-hit"] for h in shared] == ["true", "true"]

    # a deactivation the same
    rule = first.get("/v1/zero-rules/contract-faq", headers=fleet.h("author"))
    r = first.post(
        "/v1/zero-rules/contract-faq/deactivate", headers=fleet.h("publisher", rule.headers["ETag"])
    )
    assert r.status_code == 200, r.text
    since = time.monotonic()
    assert everywhere_within(fleet, "", [two, three], since) < PROPAGATION_S
    after = [ask(fleet.client(r), key, CONVERT) for r in (two, three)]
    assert [a.headers["x-zero-layer-cache-hit"] for a in after] == ["false", "true"]
    assert [a.json()["content"][0]["text"] for a in after] == [answers[3], answers[3]]


def test_a_key_revoked_on_one_replica_is_refused_by_all_at_once(fleet: Fleet) -> None:
    one = fleet.client(fleet.replicas[0])
    r = one.post("/v1/keys", json={"tenant": "acme", "roles": ["client"]}, headers=fleet.h("admin"))
    assert r.status_code == 201, r.text
    key = r.json()["key"]
    assert all(ask(fleet.client(x), key, CONVERT).status_code == 200 for x in fleet.replicas)
    r = one.post(f"/v1/keys/{key}/revoke", headers=fleet.h("admin"))
    assert r.status_code == 200, r.text
    refused = [ask(fleet.client(x), key, CONVERT).status_code for x in fleet.replicas]
    assert refused == [401, 401, 401]  # the very next request, no waiting


def stream_events(client: httpx.Client, text: str, on_first: Callable[[], None]) -> list[Any]:
    """The events of a streamed fallback answer; ``on_first()`` once the first text arrives."""
    events: list[Any] = []
    called = False
    body = {
        "model": "m",
        "max_tokens": 200,
        "stream": True,
        "messages": [{"role": "user", "content": text}],
    }
    headers = {"anthropic-version": "2023-06-01"}
    with client.stream("POST", "/v1/messages", json=body, headers=headers) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            if not line.startswith("data:"):
                continue
            event = json.loads(line[5:])
            events.append(event)
            if event.get("type") == "content_block_delta" and not called:
                called = True
                on_first()
    return events


def test_sigterm_mid_stream_completes_that_stream_and_the_others_keep_serving(
    fleet: Fleet,
) -> None:
    one, two, three = fleet.replicas
    text = "please answer this question slowly, word by word, so that it takes a while"
    terminated = threading.Event()

    def terminate() -> None:
        three.sigterm()
        terminated.set()
        at_sigterm.append(time.monotonic())

    at_sigterm: list[float] = []

    served: list[int] = []

    def others() -> None:  # requests to the other replicas while three drains
        terminated.wait(10)
        for _ in range(10):
            for r in (one, two):
                with httpx.Client(base_url=r.url, timeout=10) as c:
                    served.append(ask(c, fleet.keys["client"], CONVERT).status_code)

    worker = threading.Thread(target=others)
    worker.start()
    with httpx.Client(base_url=three.url, timeout=30) as c:
        events = stream_events(c, text, terminate)
    finished = time.monotonic()
    worker.join(30)
    assert terminated.is_set()
    assert not worker.is_alive()
    said = "".join(e["delta"]["text"] for e in events if e.get("type") == "content_block_delta")
    assert said == "upstream heard: " + " ".join(text.split())
    assert events[-1]["type"] == "message_stop"
    assert finished - at_sigterm[0] > 0.5  # the stream went on for a while after SIGTERM
    # uvicorn re-raises the signal once it has drained: the exit is SIGTERM's, not a crash
    assert three.proc.wait(20) in (0, -signal.SIGTERM), three.output()[-2000:]
    assert "Traceback" not in three.output()
    assert served == [200] * 20
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{three.url}/health", timeout=2)


def test_kill_9_of_a_replica_loses_nothing_acknowledged(fleet: Fleet) -> None:
    one, two = fleet.replicas[0], fleet.replicas[1]
    acknowledged: list[str] = []
    failures: list[str] = []
    stop = threading.Event()

    def write() -> None:  # key creations on replica two until it dies (bounded)
        with httpx.Client(base_url=two.url, timeout=5) as c:
            for _ in range(500):
                if stop.is_set():
                    return
                try:
                    r = c.post(
                        "/v1/keys",
                        json={"tenant": "acme", "roles": ["client"]},
                        headers=fleet.h("admin"),
                    )
                except httpx.HTTPError as exc:
                    failures.append(type(exc).__name__)
                    return
                if r.status_code == 201:
                    acknowledged.append(r.json()["key"])

    writer = threading.Thread(target=write)
    writer.start()
    seconds_until(lambda: len(acknowledged) >= 5)
    two.kill9()
    writer.join(10)
    stop.set()
    assert failures, "the writer did not see replica two die"
    listed = fleet.client(one).get("/v1/keys", headers=fleet.h("admin"))
    assert listed.status_code == 200, listed.text
    stored = {k["key_id"] for k in listed.json()["keys"]}
    assert {k.split("_")[1] for k in acknowledged} <= stored
    for key in acknowledged:
        assert ask(fleet.client(one), key, CONVERT).status_code == 200
    hit = ask(fleet.client(one), fleet.keys["client"], CONVERT)
    assert hit.headers["x-zero-layer-cache-hit"] == "true"  # Redis kept what two wrote
