"""Loading plugins: selection, and clear start-up errors for every kind of bad plugin."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.errors import StartupError
from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.ops import OpSpec
from zerolayer.core.plugin_host import load_plugins, selected_plugins
from zerolayer.core.registry import Example, GrammarFragment


def _plugin(**hooks: Any) -> SimpleNamespace:
    return SimpleNamespace(**{name: hookimpl(func) for name, func in hooks.items()})


def _upper(text: str) -> str:
    return text.upper()


UPPER = OpSpec("shout.upper", "text", "text", _upper, description="Upper-case the text.")
SHOUT_GRAMMAR = r"""
%extend clause: shout_clause
shout_clause: SHOUT_WORD
SHOUT_WORD.2: /shout(?![A-Za-z0-9_])/i
"""


def shout_plugin() -> SimpleNamespace:
    def register_ops(register: Any) -> None:
        register(UPPER)

    def register_grammar(register: Any) -> None:
        from zerolayer.core.plan import Step

        register(
            GrammarFragment(
                "shout", SHOUT_GRAMMAR, {"shout_clause": lambda c: [Step("shout.upper")]}
            )
        )

    def register_examples(register: Any) -> None:
        register(Example("shout", "hello", "HELLO"))

    return _plugin(
        register_ops=register_ops,
        register_grammar=register_grammar,
        register_examples=register_examples,
    )


def test_builtin_plugins_load_with_their_ops() -> None:
    _, registry = load_plugins()
    assert "json_yaml" in registry.plugins
    assert {"json.parse", "yaml.emit", "sort"} <= set(registry.plugins["json_yaml"].ops)
    assert registry.ops["yaml.emit"].plugin == "json_yaml"


def test_an_extra_plugin_adds_ops_grammar_and_examples() -> None:
    engine = Engine(EngineConfig(plugins=frozenset({"shout"})), plugins={"shout": shout_plugin()})
    assert set(engine.registry.plugins) == {"shout"}
    result = engine.run("shout", "hello")
    assert result.output == "HELLO"
    assert result.plan == "shout.upper"
    assert [e.plugin for e in engine.registry.examples] == ["shout"]


def test_selection_reads_the_environment_variable() -> None:
    assert selected_plugins({}) is None
    assert selected_plugins({"ZEROLAYER_PLUGINS": "all"}) is None
    assert selected_plugins({"ZEROLAYER_PLUGINS": "json_yaml, shout"}) == {"json_yaml", "shout"}


def test_selecting_an_unknown_plugin_is_a_startup_error() -> None:
    with pytest.raises(StartupError, match="not installed: nope"):
        load_plugins(frozenset({"nope"}))


def test_duplicate_op_names_name_both_plugins() -> None:
    twin = _plugin(register_ops=lambda register: register(UPPER))
    with pytest.raises(StartupError, match=r"duplicate op name 'shout\.upper'.*'a'.*'b'"):
        load_plugins(frozenset({"a", "b"}), extra={"a": shout_plugin(), "b": twin})


def test_registering_the_wrong_type_is_a_startup_error() -> None:
    bad = _plugin(register_ops=lambda register: register({"name": "x"}))
    with pytest.raises(StartupError, match="plugin 'bad' registered dict through register_ops"):
        load_plugins(frozenset({"bad"}), extra={"bad": bad})


def test_a_misspelled_hook_is_a_startup_error() -> None:
    typo = _plugin(register_opps=lambda register: None)
    with pytest.raises(StartupError, match="register_opps"):
        load_plugins(frozenset({"typo"}), extra={"typo": typo})


def test_a_plugin_that_raises_while_registering_is_named() -> None:
    def explode(register: Any) -> None:
        raise RuntimeError("boom")

    with pytest.raises(StartupError, match="plugin 'boom' failed in register_ops: RuntimeError"):
        load_plugins(frozenset({"boom"}), extra={"boom": _plugin(register_ops=explode)})


def test_grammar_rules_outside_the_namespace_are_refused() -> None:
    rogue = _plugin(
        register_grammar=lambda register: register(
            GrammarFragment("rogue", "%extend clause: start_over\nstart_over: NUMBER\n")
        )
    )
    with pytest.raises(StartupError, match="defines 'start_over'"):
        Engine(EngineConfig(plugins=frozenset({"rogue"})), plugins={"rogue": rogue})


def _fragment(ns: str, rule: str, keyword: str) -> SimpleNamespace:
    text = f"%extend clause: {ns}_c\n{ns}_c: {rule}\n{ns.upper()}_W.2: /{keyword}/\n"
    return _plugin(register_grammar=lambda register: register(GrammarFragment(ns, text)))


def test_two_plugins_claiming_one_keyword_stop_startup() -> None:
    with pytest.raises(StartupError, match="'one' and 'two' both claim the keyword 'zap'"):
        Engine(
            EngineConfig(plugins=frozenset({"one", "two"})),
            plugins={
                "one": _fragment("one", "ONE_W", "zap"),
                "two": _fragment("two", "TWO_W", "zip|zap"),
            },
        )


def test_a_fragment_that_makes_the_grammar_ambiguous_stops_startup() -> None:
    # Both clauses are one NUMBER: a reduce/reduce collision.
    with pytest.raises(StartupError, match="grammar does not compile"):
        Engine(
            EngineConfig(plugins=frozenset({"one", "two"})),
            plugins={
                "one": _fragment("one", "NUMBER", "x"),
                "two": _fragment("two", "NUMBER", "y"),
            },
        )


def test_op_specs_check_their_own_shape() -> None:
    with pytest.raises(ValueError, match="lower-case words joined by dots"):
        OpSpec("Bad Name", "text", "text", _upper)
    with pytest.raises(ValueError, match="type object"):
        OpSpec("ok.name", "text", "text", _upper, params={"type": "array"})
