"""The router with the real all-MiniLM-L6-v2 model: embeddings, the paraphrase set, the
engine's rules for when the router is asked (skipped when the model is not installed)."""

from __future__ import annotations

import json

import pytest
from router_cases import load_paraphrases

from zerolayer.core.messages import EngineRequest, Message, Route

PARAPHRASES = load_paraphrases()
JSON = '{"server": {"host": "localhost", "port": 8080}, "debug": false}'


def test_embeddings_are_unit_vectors_and_paraphrases_are_near(routed_engine) -> None:
    from zerolayer.core.neural.embedder import load_embedder

    embedder = load_embedder()
    assert embedder.dimensions == 384
    vectors = embedder.encode(
        ["Convert this JSON to YAML", "Express this JSON in YAML", "Write a poem about the sea"]
    )
    norms = vectors.norm(dim=1).tolist()
    assert all(abs(n - 1) < 1e-5 for n in norms)
    near = float(vectors[0] @ vectors[1])
    far = float(vectors[0] @ vectors[2])
    assert near > 0.85 > 0.3 > far
    again = embedder.encode(["Convert this JSON to YAML"])
    assert float(again[0] @ vectors[0]) == pytest.approx(1.0, abs=1e-5)  # deterministic


@pytest.mark.parametrize("case", PARAPHRASES, ids=[c["id"] for c in PARAPHRASES])
def test_paraphrase_set(case, routed_engine) -> None:
    """A routed answer always has the expected plan, and a near miss is never routed."""
    result = routed_engine.run(case["text"], case["payload_text"])
    if result.routed is None:
        return  # not routed: a miss or a correct fallback (recall is measured below)
    assert case["expect"] == "route", f"near miss routed as {result.routed!r}"
    assert result.route is Route.DETERMINISTIC and result.plan == case["plan"]


def test_recall_on_the_paraphrase_set(routed_engine, plain_engine) -> None:
    positives = [c for c in PARAPHRASES if c["expect"] == "route"]

    def hits(engine) -> int:
        return sum(engine.run(c["text"], c["payload_text"]).plan == c["plan"] for c in positives)

    off, on = hits(plain_engine), hits(routed_engine)
    # measured: 17 → 28 of 34 (docs/neural.md); the surface forms answer 7 of them unrouted
    assert on >= 30 and on - off >= 8, (off, on)


def test_routed_answers_equal_the_canonical_instructions(routed_engine) -> None:
    routed = routed_engine.run("Restate this JSON as YAML", JSON)
    assert routed.routed == "Convert this JSON to YAML"
    assert routed.output == routed_engine.run("Convert this JSON to YAML", JSON).output


def test_the_router_is_not_asked_when_the_gate_refuses(routed_engine) -> None:
    sampled = EngineRequest(
        (Message("user", f"Express this JSON in YAML\n\n{JSON}"),), temperature=0.7
    )
    assert routed_engine.run(sampled).reason == "gate.temperature"
    vague = routed_engine.run("Express about 3 keys of this JSON in YAML", JSON)
    assert vague.route is Route.FALLBACK and vague.reason.startswith("gate.")
    opinion = routed_engine.run("What do you think of this JSON in YAML?", JSON)
    assert opinion.route is Route.FALLBACK and opinion.routed is None


def test_a_proposal_that_does_not_fit_the_payload_falls_back(routed_engine) -> None:
    yaml_text = "server:\n  host: localhost\n"
    # states JSON, but the payload is YAML: json.parse's sniffer refuses it
    result = routed_engine.run("Restate this JSON as YAML", yaml_text)
    assert result.route is Route.FALLBACK
    # the grammar reads "this YAML in JSON" itself, word order kept: the router proposes
    # nothing, and a JSON payload read as YAML (JSON is YAML) is the same document
    wrong_way = routed_engine.run("Express this YAML in JSON", JSON)
    assert wrong_way.routed is None
    if wrong_way.route is Route.DETERMINISTIC:
        assert json.loads(wrong_way.output) == json.loads(JSON)


def test_a_field_is_carried_over_only_when_it_names_the_payload(routed_engine) -> None:
    people = '[{"name": "Ann", "city": "Oslo"}, {"name": "Bo", "city": "Rome"}]'
    result = routed_engine.run("Descending sort by city please", people)
    # the query frames read this wording themselves; the router is asked only when they do not
    assert result.routed in (None, "Sort by city descending")
    assert [r["name"] for r in json.loads(result.output)] == ["Bo", "Ann"]
    unknown = routed_engine.run("Descending sort by height please", people)
    assert unknown.route is Route.FALLBACK and unknown.routed is None


def test_router_status_and_fingerprint(routed_engine, plain_engine) -> None:
    info = routed_engine.router_info()
    assert info["router"] == "minilm" and info["model"] == "all-MiniLM-L6-v2"
    assert info["examples"]["en"] >= 10 and info["examples"]["zh"] >= 5
    assert plain_engine.router_info()["router"] == "off"
    assert routed_engine.rule_set_version != plain_engine.rule_set_version
