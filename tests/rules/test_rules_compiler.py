"""The compiler: every invalid document is refused with a located error; the contrib rules
compile and pass their examples; positions point into the YAML text."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from rules_helpers import CONTRIB, contrib

from zerolayer.core.engine import Engine
from zerolayer.rules_api.rules.compiler import compile_rule
from zerolayer.rules_api.rules.document import RuleInvalid
from zerolayer.rules_api.rules.install import builtin_parser_of
from zerolayer.rules_api.rules.runner import run_examples

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "invalid_documents.yaml").read_text())
BASE = yaml.safe_load(contrib("contract-faq.yaml"))


def _apply(case: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(BASE)
    for key in case.get("remove", []):
        doc.pop(key)
    for key, value in case.get("patch", {}).items():
        if key == "triggers" and "phrases_count" in value:
            doc["triggers"]["phrases"] = [
                f"make faq number {i} now" for i in range(value["phrases_count"])
            ]
        elif key == "pipeline_steps":
            doc["pipeline"] = (
                " | ".join(['regex.replace(pattern="clause", replacement="x")'] * value)
                + ' | template.render(template="faq")'
            )
        elif key == "examples_count":
            doc["examples"] = doc["examples"][:1] * value
        else:
            doc[key] = value
    return doc


def _compile(engine: Engine, text: str, fmt: str = "json") -> Any:
    return compile_rule(
        text, fmt, builtin_ops=engine.registry.ops, builtin_parser=builtin_parser_of(engine)
    )


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_invalid_documents_are_refused_with_a_location(
    engine: Engine, case: dict[str, Any]
) -> None:
    with pytest.raises(RuleInvalid) as info:
        _compile(engine, json.dumps(_apply(case)))
    issues = info.value.issues
    assert any(i.location == case["location"] and case["message"] in i.message for i in issues), [
        i.to_dict() for i in issues
    ]


@pytest.mark.parametrize("path", sorted(CONTRIB.iterdir()), ids=lambda p: p.name)
def test_contrib_rules_compile_and_pass_their_examples(engine: Engine, path: Path) -> None:
    fmt = "json" if path.suffix == ".json" else "yaml"
    rule = _compile(engine, path.read_text(encoding="utf-8"), fmt)
    results = run_examples(rule, engine.registry.ops)
    assert results and all(r.passed for r in results), [r.to_dict() for r in results]


def test_yaml_and_json_of_one_rule_hash_alike(engine: Engine) -> None:
    a = _compile(engine, contrib("contract-faq.yaml"), "yaml")
    b = _compile(engine, json.dumps(BASE), "json")
    assert a.content_hash == b.content_hash


def test_yaml_errors_carry_line_and_column(engine: Engine) -> None:
    text = contrib("contract-faq.yaml").replace(
        "    {% for c in data %}", "    {% for c in data %}{{ c.__class__ }}"
    )
    with pytest.raises(RuleInvalid) as info:
        _compile(engine, text, "yaml")
    issue = info.value.issues[0]
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "c.__class__" in s)
    assert (issue.location, issue.line) == ("/templates/faq", line)

    with pytest.raises(RuleInvalid) as info:
        _compile(engine, "name: x\n  bad: [indent\n", "yaml")
    assert info.value.issues[0].line == 2

    with pytest.raises(RuleInvalid) as info:
        _compile(engine, '{"name": "x",\n "name": "y"}', "json")
    assert "duplicate key" in info.value.issues[0].message


def test_trigger_errors_point_into_the_phrase(engine: Engine) -> None:
    text = contrib("contract-faq.yaml").replace(
        "    - turn the contract clauses into a FAQ", "    - turn the {n:float} clauses into a FAQ"
    )
    with pytest.raises(RuleInvalid) as info:
        _compile(engine, text, "yaml")
    issue = info.value.issues[0]
    row = text.splitlines()[issue.line - 1]
    assert row[issue.column - 1 :].startswith("float")


def test_yaml_alias_bomb_is_refused(engine: Engine) -> None:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]")
    with pytest.raises(RuleInvalid) as info:
        _compile(engine, "\n".join(lines), "yaml")
    assert "more than" in info.value.issues[0].message


def test_yaml_tags_are_refused(engine: Engine) -> None:
    with pytest.raises(RuleInvalid):
        _compile(engine, "name: !!python/object/apply:os.system ['ls']\n", "yaml")


def test_colliding_with_another_rule_of_the_tenant(engine: Engine) -> None:
    other = _compile(engine, contrib("contract-faq.yaml"), "yaml")
    doc = copy.deepcopy(BASE)
    doc["name"] = "contract-faq-2"
    with pytest.raises(RuleInvalid) as info:
        compile_rule(json.dumps(doc), "json", builtin_ops=engine.registry.ops, others=[other])
    assert "collides with a trigger of rule 'contract-faq'" in info.value.issues[0].message
    # a slot phrase that covers another rule's phrase collides too
    doc["triggers"] = {"phrases": ["turn the {what:text} into a FAQ"]}
    doc["examples"] = [{"input": "1. A. B.", "expected": "x"}]
    with pytest.raises(RuleInvalid):
        compile_rule(json.dumps(doc), "json", builtin_ops=engine.registry.ops, others=[other])


def test_slots_reach_templates_and_examples(engine: Engine) -> None:
    doc = copy.deepcopy(BASE)
    doc["name"] = "first-clauses"
    doc["triggers"] = {"phrases": ["list the first {n:int} contract clause titles"]}
    doc["templates"] = {"faq": "{% for c in data[:slots.n] %}{{ c.title }}\n{% endfor %}"}
    doc["examples"] = [
        {
            "instruction": "List the first two contract clause titles",
            "input": "1. Term. A.\n2. Fees. B.\n3. Law. C.\n",
            "expected": "Term\nFees\n",
        }
    ]
    rule = _compile(engine, json.dumps(doc))
    assert [r.passed for r in run_examples(rule, engine.registry.ops)] == [True]
    from zerolayer.rules_api.rules.runner import match_message

    match = match_message([rule], "list the first 1 contract clause titles:\n\n1. Term. A.")
    assert match is not None and match.slots == {"n": 1}
