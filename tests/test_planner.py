"""The planner: options attach to the right step, implicit ops are inserted, bad plans refused."""

from __future__ import annotations

import pytest

from zerolayer.core.engine import Engine
from zerolayer.core.errors import PlanError, Unsupported
from zerolayer.core.plan import Option, Source, Step
from zerolayer.core.planner import PayloadHint, make_plan


def _text(engine: Engine, directives: list, hint: PayloadHint | None = None) -> str:  # type: ignore[type-arg]
    return engine.format(make_plan(directives, engine.registry, hint=hint))


def test_an_option_attaches_to_the_step_before_it(engine: Engine) -> None:
    plan = _text(engine, [Source("json"), Step("yaml.emit"), Option("indent", 4)])
    assert plan == "json.parse | yaml.emit(indent=4)"


def test_an_option_before_any_accepting_step_attaches_forward(engine: Engine) -> None:
    plan = _text(engine, [Option("sort_keys", True), Source("yaml"), Step("json.emit")])
    assert plan == "yaml.parse | json.emit(sort_keys=true)"


def test_implicit_reader_follows_the_fence_tag_then_the_sniffer(engine: Engine) -> None:
    steps = [Step("sort", {"key": "id"})]
    assert _text(engine, steps, PayloadHint("yaml", "- id: 1")).startswith("yaml.parse")
    assert _text(engine, steps, PayloadHint(None, '[{"id": 1}]')).startswith("json.parse")
    assert _text(engine, steps, PayloadHint(None, "- id: 1")).startswith("yaml.parse")


def test_a_chain_that_ends_in_data_is_rendered(engine: Engine) -> None:
    plan = _text(engine, [Source("json"), Step("count")])
    assert plan == "json.parse | count | render"


def test_an_option_no_step_takes_falls_back(engine: Engine) -> None:
    with pytest.raises(Unsupported) as info:
        make_plan(
            [Source("json"), Step("yaml.emit"), Option("ensure_ascii", False)], engine.registry
        )
    assert info.value.reason == "plan.option_unused"


def test_conflicting_options_fall_back(engine: Engine) -> None:
    with pytest.raises(Unsupported) as info:
        make_plan(
            [Step("yaml.emit"), Option("indent", 2), Option("indent", 4)],
            engine.registry,
            hint=PayloadHint("json"),
        )
    assert info.value.reason == "plan.conflicting_options"


def test_unknown_op_suggests_a_name(engine: Engine) -> None:
    with pytest.raises(PlanError, match=r"did you mean yaml\.emit"):
        make_plan([Step("yaml.emitt")], engine.registry)


def test_parameters_are_checked_against_the_schema(engine: Engine) -> None:
    with pytest.raises(PlanError, match="parameter order"):
        make_plan([Source("json"), Step("sort", {"key": "a", "order": "up"})], engine.registry)
    with pytest.raises(PlanError, match="Additional properties"):
        make_plan([Source("json"), Step("sort", {"key": "a", "colour": 1})], engine.registry)


def test_an_empty_instruction_plan_falls_back(engine: Engine) -> None:
    with pytest.raises(Unsupported) as info:
        make_plan([Source("json")], engine.registry)
    assert info.value.reason == "plan.empty"


def test_the_writer_named_first_moves_after_the_work_on_the_data(engine: Engine) -> None:
    # "convert to JSON and sort by price, indent 4": the answer's format first, the work on
    # the data after it; the writer keeps its options
    directives = [
        Source("yaml"),
        Step("json.emit"),
        Step("sort", {"key": "price", "order": "desc"}),
        Option("indent", 4),
    ]
    plan = engine.format(make_plan(directives, engine.registry, writer_last=True))
    assert plan == 'yaml.parse | sort(key="price", order="desc") | json.emit(indent=4)'
    with pytest.raises(Unsupported):  # not while readings are weighed
        _text(engine, directives)


@pytest.mark.parametrize(
    "directives",
    [
        # two writers: which format is the answer's is not said
        [Source("json"), Step("yaml.emit"), Step("json.emit"), Step("sort", {"key": "a"})],
        # a writer after a writer, nothing on the data
        [Source("json"), Step("yaml.emit"), Step("json.emit")],
        # work on the data before and after the writer: ordered across the conversion
        [
            Source("json"),
            Step("sort", {"key": "a"}),
            Step("yaml.emit"),
            Step("project", {"fields": ["a"]}),
        ],
    ],
)
def test_a_chain_of_other_shapes_is_not_reordered(engine: Engine, directives: list) -> None:  # type: ignore[type-arg]
    with pytest.raises(Unsupported):
        make_plan(directives, engine.registry, writer_last=True)


@pytest.mark.parametrize(
    ("instruction", "plan"),
    [
        (
            "convert to json and sort by age",
            'yaml.parse | sort(key="age", order="asc") | json.emit',
        ),
        (
            "turn this into JSON, then keep only name, indent 4",
            'yaml.parse | project(fields=["name"]) | json.emit(indent=4)',
        ),
        ("转成JSON，再按age降序排", 'yaml.parse | sort(key="age", order="desc") | json.emit'),
        ("convert to json and sort by age, then explain it", None),
        ("convert to json and then to yaml", None),
    ],
)
def test_requests_that_name_the_format_before_the_work(
    engine: Engine, instruction: str, plan: str | None
) -> None:
    result = engine.run(instruction, "- name: Ann\n  age: 41\n- name: Bo\n  age: 29\n")
    assert (result.plan if result.active else None) == plan, result.detail
