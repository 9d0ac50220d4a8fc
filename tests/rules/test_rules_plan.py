"""A rule compiles into a plan over OpSpecs: checked by the planner (implicit reading steps
included) and run by the engine's executor, over a registry of the rule's own."""

from __future__ import annotations

import dataclasses
import json
import pickle
from typing import Any

import pytest
from rules_helpers import CONTRIB

from zerolayer.core import engine as core_engine
from zerolayer.core.engine import Engine
from zerolayer.core.errors import (
    LimitExceeded,
    OpError,
    PayloadError,
    PipelineSyntaxError,
    PositionedLimit,
    StartupError,
    Unsupported,
    ZeroLayerError,
)
from zerolayer.core.execute import FUSED, execute
from zerolayer.core.messages import EngineRequest, EngineResult, Message, Route
from zerolayer.core.ops import OpSpec
from zerolayer.core.plan import Plan, Step
from zerolayer.core.planner import check_chain
from zerolayer.core.registry import Registry
from zerolayer.core.segment import readings, segment
from zerolayer.core.types import JSON_VALUE, TEXT
from zerolayer.rules_api.rules import runner as runner_module
from zerolayer.rules_api.rules.compiler import compile_rule
from zerolayer.rules_api.rules.document import RuleInvalid
from zerolayer.rules_api.rules.isolation import InlineRunner, Job, failure
from zerolayer.rules_api.rules.rule_ops import RULE_OP_NAMES, RuleAssets, rule_ops, rule_registry
from zerolayer.rules_api.rules.runner import match_message, run_examples, run_rule
from zerolayer.rules_api.rules.tenant_engine import TenantRulesEngine
from zerolayer.rules_api.rules.wire import WireError, error_from_wire, error_to_wire
from zerolayer.rules_api.rules.workflow import fallback_reason

TEMPLATE = "{% for t in data %}{{ t.title }}\n{% endfor %}"


def _doc(pipeline: str, inputs: list[str], **extra: Any) -> str:
    titles = "".join(f"{t}\n" for t in ("a", "b"))
    return json.dumps(
        {
            "name": "due-list",
            "triggers": {"phrases": ["list the tasks by due date"]},
            "templates": {"list": TEMPLATE},
            "pipeline": pipeline,
            "examples": [{"input": text, "expected": titles} for text in inputs],
            **extra,
        }
    )


JSON_TASKS = '[{"title": "b", "due": 2}, {"title": "a", "due": 1}]'
YAML_TASKS = "- title: b\n  due: 2\n- title: a\n  due: 1\n"
SORTED = 'sort(key="due", order="asc") | template.render(template="list")'


def _compile(engine: Engine, text: str) -> Any:
    return compile_rule(text, "json", builtin_ops=engine.registry.ops)


@pytest.mark.parametrize(
    ("inputs", "extra", "reader"),
    [
        ([JSON_TASKS], {}, "json.parse"),
        ([YAML_TASKS], {}, "yaml.parse"),
        ([JSON_TASKS], {"input": {"format": "yaml"}}, "yaml.parse"),
    ],
    ids=["json examples", "yaml examples", "stated format"],
)
def test_the_planner_inserts_the_reading_step(
    engine: Engine, inputs: list[str], extra: dict[str, Any], reader: str
) -> None:
    rule = _compile(engine, _doc(SORTED, inputs, **extra))
    assert [s.op for s in rule.plan.steps] == [reader, "sort", "template.render"]
    assert rule.plan.to_text().startswith(f"{reader} | sort(")
    assert rule.steps[0].op == reader
    results = run_examples(rule, engine.registry.ops)
    assert all(r.passed for r in results), [r.to_dict() for r in results]


def test_examples_in_two_formats_need_a_stated_format(engine: Engine) -> None:
    with pytest.raises(RuleInvalid) as info:
        _compile(engine, _doc(SORTED, [JSON_TASKS, YAML_TASKS]))
    assert any(
        i.location == "/pipeline" and "input: {format: json}" in i.message
        for i in info.value.issues
    ), [i.to_dict() for i in info.value.issues]
    rule = _compile(engine, _doc(SORTED, [JSON_TASKS, YAML_TASKS], input={"format": "yaml"}))
    assert all(r.passed for r in run_examples(rule, engine.registry.ops))


def test_an_unknown_input_format_is_located(engine: Engine) -> None:
    with pytest.raises(RuleInvalid) as info:
        _compile(engine, _doc(SORTED, [JSON_TASKS], input={"format": "toml"}))
    assert info.value.issues[0].location == "/input/format"


def test_a_written_reader_is_kept_and_the_trace_shows_each_step(engine: Engine) -> None:
    rule = _compile(engine, _doc("json.parse | " + SORTED, [JSON_TASKS]))
    assert [s.op for s in rule.plan.steps] == ["json.parse", "sort", "template.render"]
    out, trace = run_rule(rule, JSON_TASKS, {}, engine.registry.ops)
    assert out == "a\nb\n"
    assert [(t.step, t.input_type, t.output_type) for t in trace] == [
        ("json.parse", TEXT, JSON_VALUE),
        ('sort(key="due", order="asc")', JSON_VALUE, JSON_VALUE),
        ('template.render(template="list")', JSON_VALUE, TEXT),
    ]


def test_rule_ops_are_opspecs_bound_to_the_rules_assets(engine: Engine) -> None:
    assets = RuleAssets({"word": r"\w+"}, {"t": "{{ data | join(',') }}/{{ slots.n }}"}, {"n": 3})
    specs = rule_ops(assets)
    assert all(isinstance(s, OpSpec) and s.plugin == "rules" for s in specs)
    assert tuple(s.name for s in specs) == RULE_OP_NAMES
    registry = rule_registry(engine.registry, assets)
    assert "regex.findall" not in engine.registry.ops  # the engine's registry is unchanged
    plan = check_chain(
        [Step("regex.findall", {"pattern": "word"}), Step("template.render", {"template": "t"})],
        registry,
        TEXT,
    )
    assert execute(plan, "x y", registry)[0] == "x,y/3"


def test_an_overlay_never_replaces_an_op() -> None:
    base = Registry()
    base.ops["regex.split"] = rule_ops(RuleAssets())[3]
    with pytest.raises(StartupError, match=r"duplicate op name 'regex\.split'"):
        rule_registry(base, RuleAssets())


def test_an_op_takes_the_types_it_also_accepts_as_they_are() -> None:
    registry = rule_registry({}, RuleAssets(templates={"t": "<{{ data }}>"}))
    plan = check_chain([Step("template.render", {"template": "t"})], registry, TEXT)
    assert [s.op for s in plan.steps] == ["template.render"]
    assert execute(plan, "raw", registry)[0] == "<raw>"


def test_execute_reports_each_step_and_fused_pairs(engine: Engine) -> None:
    seen: list[tuple[str, Any]] = []
    plan = Plan((Step("json.parse"), Step("yaml.emit")))
    out, _ = execute(
        plan, '{"a": 1}', engine.registry, on_step=lambda s, _spec, v, _t: seen.append((s.op, v))
    )
    assert out == "a: 1\n"
    assert [op for op, _ in seen] == ["json.parse", "yaml.emit"]
    fused = engine.registry.ops["yaml.emit"].fused.get("json.parse") is not None
    assert (seen[0][1] is FUSED) == fused


WIRE_ERRORS = [
    PayloadError("Expecting value", fmt="JSON", text='{"a": }', line=1, column=7),
    PositionedLimit("nested too deeply", fmt="JSON", text="[[[", line=1, column=3),
    Unsupported("rule.no_match", "the rule's pattern finds nothing in the payload"),
    OpError("sort: field 'due' is missing"),
    LimitExceeded("the plan ran past its time limit of 1 s", hint="make it cheaper"),
    PipelineSyntaxError("expected )", text="sort(", line=1, column=6),
]


@pytest.mark.parametrize("error", WIRE_ERRORS, ids=lambda e: type(e).__name__)
def test_errors_cross_the_process_boundary_as_their_class_with_positions(
    error: ZeroLayerError,
) -> None:
    data = pickle.loads(pickle.dumps(error_to_wire(error)))  # what a worker's pipe does
    back = error_from_wire(data)
    assert type(back) is type(error)
    assert vars(back) == vars(error)
    assert str(back) == str(error) and back.to_dict() == error.to_dict()


def test_a_subclass_travels_as_the_nearest_class_of_the_tree() -> None:
    class Special(PayloadError):
        pass

    back = error_from_wire(error_to_wire(Special("bad", text="x", line=1, column=1)))
    assert type(back) is PayloadError and (back.line, back.column) == (1, 1)


@pytest.mark.parametrize("data", [None, {}, {"type": "KeyError", "attrs": {"message": "x"}}])
def test_data_that_is_not_an_error_is_refused(data: Any) -> None:
    with pytest.raises(WireError):
        error_from_wire(data)


def test_a_payload_error_keeps_its_position_through_a_worker(engine: Engine) -> None:
    doc = _doc("json.parse | " + SORTED, [JSON_TASKS])
    runner = InlineRunner()
    answer = runner.submit(Job("run", doc, "json", '[{"title": "a",\n  "due": }]'))
    error = failure(answer)
    assert isinstance(error, PayloadError) and (error.line, error.column) == (2, 10)
    assert fallback_reason(error) == "rule.invalid_payload"
    assert "line 2, column 10" in error.message


class _Hub:
    """The tenant's active rules answered with the readings the engine made."""

    def __init__(self, engine: Engine) -> None:
        text = (CONTRIB / "email-list.yaml").read_text(encoding="utf-8")
        self.rules = [compile_rule(text, "yaml", builtin_ops=engine.registry.ops)]
        self.given: list[Any] = []

    def active(self, tenant: str) -> tuple[int, list[tuple[Any, int]]]:
        return 1, [(rule, 1) for rule in self.rules]

    def answer(
        self, tenant: str, request: EngineRequest, segmented: Any = None
    ) -> EngineResult | None:
        self.given.append(segmented)
        match = match_message(
            self.rules, request.messages[-1].content, request.payloads, segmented=segmented
        )
        if match is None:
            return None
        output, _ = run_rule(match.rule, match.payload, match.slots, {})
        return EngineResult(Route.DETERMINISTIC, output=output, plan=match.rule.plan.to_text())


def test_a_tenant_request_is_segmented_once(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def counted(message: str, *args: Any) -> Any:
        calls.append(message)
        return segment(message, *args)

    def counted_readings(message: str, *args: Any) -> Any:
        calls.append(message)
        return readings(message, *args)

    for module in (core_engine, runner_module):
        monkeypatch.setattr(module, "segment", counted)
    monkeypatch.setattr(core_engine, "readings", counted_readings)
    hub = _Hub(engine)
    tenant_engine = TenantRulesEngine(engine, lambda: hub)
    message = "Extract the email addresses:\n\nWrite to ann@example.com or bo@example.org.\n"
    request = EngineRequest((Message("user", message),), temperature=0.0, tenant="acme")
    result = tenant_engine.run(request)
    assert result.route is Route.DETERMINISTIC, result
    assert result.output == "ann@example.com\nbo@example.org\n"
    assert len(calls) == 1 and hub.given[0], calls  # the rules read the engine's readings
    assert "tenant" in result.timings

    calls.clear()
    untenanted = tenant_engine.run(dataclasses.replace(request, tenant=None))
    assert untenanted.route is Route.FALLBACK and untenanted.reason == "parse.no_match"
    assert len(hub.given) == 1  # a request without a tenant never reaches the rules


def test_the_gate_refusal_never_reaches_the_rules(engine: Engine) -> None:
    hub = _Hub(engine)
    request = EngineRequest(
        (Message("user", "Extract the email addresses:\n\nann@example.com\n"),),
        temperature=0.9,
        tenant="acme",
    )
    result = TenantRulesEngine(engine, lambda: hub).run(request)
    assert result.route is Route.FALLBACK and result.reason.startswith("gate.")
    assert hub.given == []
