"""``explain_for_tenant``: the plan a tenant's request would run, its rules included.

The engine's own reading comes first, exactly as it does when a request is answered
(``tenant_engine.py``): a built-in instruction is never shadowed by a rule, and a request the
gate refuses or a message written in blocks is never offered to the rules. Otherwise the
tenant's active rules (compiled from the store, their trigger grammars composed as the
service composes them) are matched against the message; a match explains as
``rule:NAME@VERSION`` and the rule's plan in the pipeline language, the form the service's
traces log. Nothing runs: explaining needs no worker processes. The intent router's proposal
of a rule example (``rule_router.py``) is not consulted, so a request that the service
answers only through the router explains as a fallback.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from zerolayer.core.messages import EngineResult, Route
from zerolayer.rules_api.rules.compiler import CompiledRule, compile_rule
from zerolayer.rules_api.rules.document import RuleInvalid
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits
from zerolayer.rules_api.rules.runner import match_message
from zerolayer.rules_api.rules.store import RuleStore
from zerolayer.rules_api.rules.tenant_grammar import GrammarConflict, TenantGrammar

log = logging.getLogger("zerolayer.rules")

# fallback reasons the rules are never asked about (as in Engine.run's not_understood hook)
NOT_OFFERED = ("gate.", "blocks.", "protocol.")


def rule_label(name: str, number: int) -> str:
    """How a trace names the version of a rule that answered: ``rule:NAME@VERSION``."""
    return f"rule:{name}@{number}"


def active_compiled(
    store: RuleStore,
    tenant: str,
    engine: Any,
    limits: RuleLimits = DEFAULT_LIMITS,
) -> list[tuple[CompiledRule, int]]:
    """The tenant's active rules compiled against ``engine``'s ops, with their versions (a
    stored version that no longer compiles is logged and left out, as the service does)."""
    loaded: list[tuple[CompiledRule, int]] = []
    for row in store.active_rules(tenant):
        try:
            rule = compile_rule(
                row["text"],
                row["format"],
                builtin_ops=engine.registry.ops,
                limits=limits,
                tenant=tenant,
            )
        except RuleInvalid:
            log.error("active rule %s/%s no longer compiles", tenant, row["name"])
            continue
        loaded.append((rule, row["number"]))
    return loaded


def explain_for_tenant(
    engine: Any,
    store: RuleStore,
    tenant: str,
    message: str,
    payloads: Sequence[str] = (),
    *,
    syntax: str | None = None,
    limits: RuleLimits = DEFAULT_LIMITS,
) -> EngineResult:
    """The engine's explanation of a request of ``tenant``, or the matching rule's plan."""
    result: EngineResult = engine.explain(message, *payloads, syntax=syntax)
    if result.route is not Route.FALLBACK or result.parts:
        return result
    if (result.reason or "").startswith(NOT_OFFERED):
        return result
    active = active_compiled(store, tenant, engine, limits)
    if not active:
        return result
    numbers = {rule.name: number for rule, number in active}
    rules = [rule for rule, _ in active]
    members = [(rule.name, rule.grammar.fragment) for rule in rules if rule.grammar]
    grammars: list[TenantGrammar] = []
    if members:
        try:
            grammars.append(TenantGrammar(tenant, members, limits))
        except GrammarConflict as exc:  # activation refuses this; the service serves none
            log.error("trigger grammars of tenant %s collide: %s", tenant, exc.message)
    match = match_message(rules, message, payloads, grammars=grammars)
    if match is None:
        return result
    rule = match.rule
    return EngineResult(
        Route.DETERMINISTIC,
        plan=f"{rule_label(rule.name, numbers[rule.name])} {rule.plan.to_text()}",
        detail=(
            f"tenant {tenant}: rule {rule.name!r} version {numbers[rule.name]}, "
            + (
                f"trigger phrase {match.phrase!r}"
                if match.phrase is not None
                else "its trigger grammar"
            )
            + (f", slots {match.slots}" if match.slots else "")
        ),
        warnings=result.warnings,
    )
