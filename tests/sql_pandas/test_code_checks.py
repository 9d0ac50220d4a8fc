"""The cheaper checks of the translator: bindings read from bytecode, the verifier's use of
them, and the tree walks against sqlglot's own."""

from __future__ import annotations

import ast

import pytest
import sqlglot
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.sql_pandas.ops import verify_pandas
from zerolayer.plugins.sql_pandas.pycheck import (
    module_bindings,
    recent_bindings,
    remember_bindings,
)
from zerolayer.plugins.sql_pandas.sqltree import NODE, walk_all, walk_outer
from zerolayer.plugins.sql_pandas.translate import translate_sql

from .test_cases import EXACT, SCHEMA


def _bindings(source: str) -> frozenset[str] | None:
    return module_bindings(compile(source, "<test>", "exec"))


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("import pandas as pd\nresult = pd\n", {"pd", "result"}),
        ("import a.b.c\nresult = 1\n", {"a", "result"}),
        ("from m import x as y\nresult = 1\n", {"y", "result"}),
        ("a = b = 1\nx, t = 1, 2\n[u, *v] = 1, 2\n", {"a", "b", "x", "t", "u", "v"}),
        ("t += 1\n", {"t"}),
        ("result = [t for t in x]\nf = lambda s: s.sum()\n", {"result", "f"}),
        ("def f():\n    t = 1\n", {"f"}),
    ],
)
def test_module_bindings_are_exact(source: str, names: set[str]) -> None:
    assert _bindings(source) == names


@pytest.mark.parametrize(
    "source",
    [
        "from m import *\n",
        "global t\nt = 1\n",
        "del t\n",
        "result = [(t := 1) for x in y]\n",
        "def f():\n    global t\n    t = 1\n",
        "".join(f"x{i} = {i}\n" for i in range(300)),  # EXTENDED_ARG: not scanned
    ],
)
def test_module_bindings_refuse_other_bindings(source: str) -> None:
    """Binding by anything but assignment and import gets no record (the source is parsed)."""
    assert _bindings(source) is None


def _ast_bindings(source: str) -> set[str]:
    names: set[str] = set()
    for stmt in ast.parse(source).body:
        if isinstance(stmt, ast.Assign):
            names.update(n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(stmt, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
    return names


@pytest.mark.parametrize("case", EXACT, ids=[c["sql"][:50] for c in EXACT])
def test_translations_record_their_bindings(case: dict) -> None:
    """What translate_sql records is what the code's syntax tree binds."""
    code = translate_sql(
        case["sql"],
        df_name=case.get("df_name"),
        use_query=case.get("use_query", False),
        schema=SCHEMA if case.get("schema") else None,
    )
    assert recent_bindings(code) == _ast_bindings(code)


def test_verifier_uses_the_record_and_parses_other_code() -> None:
    code = "t = 1\nresult = t\n"
    with pytest.raises(Unsupported) as info:
        verify_pandas("SELECT a FROM t", code)
    assert info.value.reason == "sql_output_shadows_input"
    source = "u = 1\nresult = u\n"
    remember_bindings(source, compile(source, "<test>", "exec"))
    verify_pandas("SELECT a FROM t", source)
    shadow = "result = 1\nt = 2\n"
    remember_bindings(shadow, compile(shadow, "<test>", "exec"))
    with pytest.raises(Unsupported) as info:
        verify_pandas("SELECT a FROM t", shadow)
    assert info.value.reason == "sql_output_shadows_input"
    walrus = "result = 1\nx = ':='\n"
    remember_bindings(walrus, compile(walrus, "<test>", "exec"))
    with pytest.raises(Unsupported) as info:
        verify_pandas("SELECT a FROM t", walrus)
    assert info.value.reason == "sql_output_shape"


def _outer_reference(node: sqlglot.exp.Expression) -> list[sqlglot.exp.Expression]:
    out = [node]
    for child in node.iter_expressions():
        if not isinstance(child, sqlglot.exp.Query | sqlglot.exp.Subquery):
            out += _outer_reference(child)
    return out


@pytest.mark.parametrize("case", EXACT, ids=[c["sql"][:50] for c in EXACT])
def test_walks_match_sqlglot(case: dict) -> None:
    tree = sqlglot.parse_one(case["sql"], read="sqlite")
    assert [id(n) for n in walk_all(tree)] == [id(n) for n in tree.walk()]
    for node in tree.walk():
        assert [id(n) for n in walk_outer(node)] == [id(n) for n in _outer_reference(node)]


@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=6))
def test_walk_all_covers_every_node(columns: list[str]) -> None:
    sql = f"SELECT {', '.join(columns)} FROM t WHERE a IN (SELECT b FROM u)"
    tree = sqlglot.parse_one(sql, read="sqlite")
    nodes = walk_all(tree)
    assert len(nodes) == len({id(n) for n in nodes}) == len(list(tree.walk()))
    assert all(isinstance(n, NODE) for n in nodes)
