"""The router over a tenant's active rules: paraphrases of rule examples must match a
trigger once proposed; near misses and other tenants' requests are left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from zerolayer.core.messages import EngineRequest, EngineResult, Message, Route
from zerolayer.rules_api.rules.compiler import compile_rule
from zerolayer.rules_api.rules.rule_router import trigger_parser
from zerolayer.rules_api.rules.runner import match_message
from zerolayer.rules_api.rules.tenant_engine import TenantRulesEngine

RULES = Path(__file__).resolve().parents[2] / "contrib" / "rules"
CLAUSES = "1. Term. This agreement lasts twelve months from signing.\n"
EMAILS = "Write to ann@example.com or bo@example.org.\n"


class Hub:
    """Stands in for RulesHub: the tenant's active rules, and a trigger match as the answer."""

    def __init__(self, engine) -> None:
        self.rules = [
            compile_rule((RULES / name).read_text(), "yaml", builtin_ops=engine.registry.ops)
            for name in ("contract-faq.yaml", "email-list.yaml")
        ]
        self.asked: list[EngineRequest] = []

    def active(self, tenant: str):
        return 7, [(rule, 1) for rule in self.rules]

    def answer(self, tenant: str, request: EngineRequest) -> EngineResult | None:
        self.asked.append(request)
        match = match_message(self.rules, request.messages[-1].content, request.payloads)
        if match is None:
            return None
        return EngineResult(
            Route.DETERMINISTIC, output=match.payload, plan=f"rule:{match.rule.name}"
        )


@pytest.fixture(scope="module")
def tenant_engine(routed_engine):
    hub = Hub(routed_engine)
    return TenantRulesEngine(routed_engine, lambda: hub), hub


def ask(engine, text: str, payload: str, tenant: str | None = "acme") -> EngineResult:
    request = EngineRequest(
        (Message("user", f"{text}\n\n{payload}"),), temperature=0.0, tenant=tenant
    )
    return engine.run(request)


def test_trigger_parser_gives_the_rule_and_its_slots(routed_engine) -> None:
    parse = trigger_parser(Hub(routed_engine).rules)
    assert parse("Turn the contract clauses into a FAQ.")[0].op == "rule:contract-faq"
    with pytest.raises(Exception, match="no trigger"):
        parse("turn the clauses into a poem")


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Turn these contract clauses into an FAQ", "rule:contract-faq"),
        ("I need the email addresses extracted", "rule:email-list"),
    ],
)
def test_paraphrases_of_rule_examples_are_routed(tenant_engine, text, rule) -> None:
    engine, _hub = tenant_engine
    payload = CLAUSES if "contract" in text else EMAILS
    result = ask(engine, text, payload)
    assert result.route is Route.DETERMINISTIC and result.plan == rule
    assert result.routed is not None and result.output.strip() == payload.strip()


@pytest.mark.parametrize(
    "text",
    [
        "Turn these contract clauses into a poem",
        "Do not extract the email addresses",
        "Extract the email addresses and reply to each",
        "Turn these contract clauses into an FAQ in French",
    ],
)
def test_near_misses_of_rules_fall_back(tenant_engine, text) -> None:
    engine, _hub = tenant_engine
    result = ask(engine, text, CLAUSES)
    assert result.route is Route.FALLBACK and result.routed is None


def test_no_tenant_no_rules(tenant_engine) -> None:
    engine, _hub = tenant_engine
    result = ask(engine, "Turn these contract clauses into an FAQ", CLAUSES, tenant=None)
    assert result.route is Route.FALLBACK
