"""Trigger grammar fragments: the restricted syntax (every refusal located), the composed
tenant grammar (collisions refused, never resolved), matching and slots, linear-time
patterns, and properties over arbitrary input."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerolayer.rules_api.rules.grammar_fragment import FragmentInvalid, parse_fragment
from zerolayer.rules_api.rules.limits import RuleLimits
from zerolayer.rules_api.rules.tenant_grammar import GrammarConflict, TenantGrammar, sentences

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "grammar_fragments.yaml").read_text())


def _grammar(source: str, tenant: str = "acme", rule: str = "r") -> TenantGrammar:
    return TenantGrammar(tenant, [(rule, parse_fragment(source))])


@pytest.mark.parametrize("case", CASES["invalid"], ids=[c["name"] for c in CASES["invalid"]])
def test_invalid_fragments_are_refused_where_the_problem_is(case: dict[str, Any]) -> None:
    with pytest.raises(FragmentInvalid) as info:
        parse_fragment(case["grammar"])
    problems = [(p.message, p.line, p.column) for p in info.value.problems]
    assert any(
        case["message"] in message and [line, col] == case["at"] for message, line, col in problems
    ), problems


@pytest.mark.parametrize("case", CASES["conflicts"], ids=[c["name"] for c in CASES["conflicts"]])
def test_ambiguous_fragments_are_refused(case: dict[str, Any]) -> None:
    fragment = parse_fragment(case["grammar"])
    with pytest.raises(GrammarConflict) as info:
        TenantGrammar("acme", [("r", fragment)])
    assert case["message"] in info.value.message
    assert info.value.rules == {"r"}
    assert "zt_" not in info.value.message.lower()  # internal names never leak


@pytest.mark.parametrize("case", CASES["valid"], ids=[c["name"] for c in CASES["valid"]])
def test_valid_fragments_match_whole_instructions(case: dict[str, Any]) -> None:
    fragment = parse_fragment(case["grammar"])
    grammar = TenantGrammar("acme", [("r", fragment)])
    for instruction, slots in case["match"]:
        found = grammar.match(instruction)
        assert found is not None, instruction
        assert (found.rule, found.slots) == ("r", slots), instruction
    for instruction in case.get("no_match", []):
        assert grammar.match(instruction) is None, instruction
    for sample in sentences(fragment, 64):  # every sample the checks use reads back
        found = grammar.match(sample)
        assert found is not None and found.rule == "r", sample


def test_rules_of_one_tenant_share_words_and_collisions_name_the_rule() -> None:
    tickets = parse_fragment('trigger: "list" "tickets" ["for" team]\nteam: /[a-z]+/')
    users = parse_fragment('trigger: "list" "users"')
    grammar = TenantGrammar("acme", [("tickets", tickets), ("users", users)])
    assert grammar.match("list users").rule == "users"  # type: ignore[union-attr]
    assert grammar.match("list tickets for ops").slots == {"team": "ops"}  # type: ignore[union-attr]
    same = parse_fragment('trigger: "list" ("tickets" | "bugs")')
    with pytest.raises(GrammarConflict) as info:
        TenantGrammar("acme", [("tickets", tickets), ("other", same)])
    assert info.value.rules == {"tickets", "other"}
    word_vs_pattern = parse_fragment('trigger: "list" what\nwhat: /[a-z]+/')
    with pytest.raises(GrammarConflict) as info:
        TenantGrammar("acme", [("users", users), ("other", word_vs_pattern)])
    assert "'users'" in info.value.message and info.value.rules == {"users", "other"}


def test_tenants_compose_under_their_own_namespace() -> None:
    source = 'trigger: "list" "tickets"'
    a, b = _grammar(source, "acme"), _grammar(source, "globex")
    assert a.match("list tickets") is not None and b.match("list tickets") is not None
    rules_a = {line.split(":")[0] for line in a.text.splitlines() if line.startswith("zt_")}
    rules_b = {line.split(":")[0] for line in b.text.splitlines() if line.startswith("zt_")}
    assert rules_a and rules_b and not rules_a & rules_b
    assert all(name.startswith(a.tns) for name in rules_a)


def test_patterns_match_in_linear_time() -> None:
    """Quantifiers are possessive: no pattern the checks accept can backtrack badly."""
    grammar = _grammar('trigger: "find" key\nkey: /[a-z]*[0-9]*[a-z0-9_]+@[a-z]+/')
    long = "find " + "a" * 990
    started = time.perf_counter()
    for _ in range(20):
        assert grammar.match(long) is None
        assert grammar.match(long + "@") is None
    assert time.perf_counter() - started < 1.0
    assert grammar.match("find ana42_x@example") is not None


def test_instructions_over_the_limit_are_not_parsed() -> None:
    limits = RuleLimits(max_grammar_instruction_chars=40)
    grammar = TenantGrammar("acme", [("r", parse_fragment('trigger: "find" /.+/'))], limits)
    assert grammar.match("find " + "x" * 30) is not None
    assert grammar.match("find " + "x" * 40) is None


def test_the_largest_fragment_within_the_limits_builds_quickly() -> None:
    """30 definitions and 235 symbols (the limits are 32 and 256): a chain of optional rules
    of five words each, the worst shape for the LALR table and the samples."""
    words = lambda i: " | ".join(f'"w{i}x{j}"' for j in range(5))  # noqa: E731
    rules = "\n".join(f"r{i}: ({words(i)}) [r{i + 1}]" for i in range(29))
    source = f'trigger: r0 "done"\n{rules}\nr29: /[a-z]{{1,30}}/'
    started = time.perf_counter()
    fragment = parse_fragment(source)
    grammar = TenantGrammar("acme", [("r", fragment)])
    samples = sentences(fragment, 64)
    assert time.perf_counter() - started < 2.0
    assert all(grammar.match(s) is not None for s in samples)
    with pytest.raises(FragmentInvalid) as info:
        parse_fragment("trigger: " + '"abc" ' * 260)
    assert "more than 256 symbols" in info.value.problems[0].message
    with pytest.raises(FragmentInvalid) as info:
        parse_fragment(source + "\n" + "\n".join(f'x{i}: "y"' for i in range(3)))
    assert "at most 32 definitions" in info.value.problems[0].message
    with pytest.raises(FragmentInvalid) as info:
        parse_fragment("trigger: " + '"abcdefghijklmn" ' * 260)
    assert "over 4000 characters" in info.value.problems[0].message


FRAGMENT_ALPHABET = st.sampled_from(
    ['"list"', '"x"', "trigger", "a", "A", ":", "|", "(", ")", "[", "]", "?", "*", "+", "\n",
     " ", "/[a-z]+/", "/(a+)+/", "%import", "->", ".", "~", "{", '"', "/", "_x", "ü", "\\"]
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(FRAGMENT_ALPHABET, max_size=30).map("".join) | st.text(max_size=200))
def test_any_text_is_a_fragment_or_a_located_refusal(source: str) -> None:
    try:
        fragment = parse_fragment(source)
    except FragmentInvalid as exc:
        assert exc.problems and all(p.line >= 1 and p.column >= 1 for p in exc.problems)
        return
    try:
        grammar = TenantGrammar("t", [("r", fragment)])
    except GrammarConflict as exc:
        assert exc.message
        return
    for sample in sentences(fragment, 16):
        grammar.match(sample)  # never raises


TICKETS = _grammar('trigger: ("list" | "show") "tickets" ["for" team]\nteam: /[a-z-]+/')


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=300)
    | st.lists(st.sampled_from(["list", "tickets", "for", " ", "ops", ".", "请"])).map("".join)
)
def test_matching_arbitrary_instructions_never_raises(text: str) -> None:
    found = TICKETS.match(text)
    assert found is None or found.rule == "r"
