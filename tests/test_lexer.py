"""The dispatching contextual lexer reads every instruction exactly as Lark's own does.

``core/lexer.py`` narrows each state's alternation of terminals to those that can start
with the next character. These tests compare the engine's parser with a plain Lark parser
of the same grammar and callbacks on every instruction the case files, plugin examples and
development corpus hold, and on random text made of the grammar's own words; and they check
the first-character sets against strings drawn from every terminal's pattern.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedInput

from zerolayer.core.engine import Engine
from zerolayer.core.grammar import _build_transformer, _rule_names
from zerolayer.core.lexer import DispatchContextualLexer, first_chars, pair_starts
from zerolayer.core.normalise import normalise

ROOT = Path(__file__).parents[1]
DEV = ROOT.parent / "shared" / "zeroscore" / "dev.jsonl"


@pytest.fixture(scope="module")
def plain(engine: Engine) -> Lark:
    """Lark's own contextual lexer on the engine's grammar, with the same callbacks."""
    text = engine.parser.text
    fragments = engine.registry.fragments
    return Lark(
        text,
        parser="lalr",
        lexer="contextual",
        transformer=_build_transformer(fragments, _rule_names(text)),
    )


def _outcome(lark: Lark, text: str) -> Any:
    try:
        return ("parsed", repr(lark.parse(text)))
    except UnexpectedInput as exc:
        return ("refused", type(exc).__name__, getattr(exc, "pos_in_stream", None))
    except Exception as exc:  # a transform refusing (Unsupported …)
        return ("raised", type(exc).__name__, str(exc))


def _strings(node: Any, key: str) -> list[str]:
    if isinstance(node, dict):
        found = [v for k, v in node.items() if k == key and isinstance(v, str)]
        return found + [s for v in node.values() for s in _strings(v, key)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v, key)]
    return []


def _instructions(engine: Engine) -> list[str]:
    texts = [e.instruction for e in engine.registry.examples]
    for path in [*ROOT.glob("tests/**/*.yaml"), *ROOT.glob("contrib/*/tests/**/*.yaml")]:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        texts += _strings(data, "instruction")
    if DEV.exists():
        for line in DEV.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            texts += _strings(case, "content")
    # The engine parses normalised instruction text: the whole text and each line of it.
    out = {normalise(t) for t in texts}
    out |= {normalise(line) for t in texts for line in t.splitlines() if line.strip()}
    return sorted(s for s in out if s.strip())


def test_lexer_is_installed(engine: Engine) -> None:
    assert isinstance(engine.parser._lark.parser.lexer, DispatchContextualLexer)


def test_every_known_instruction_reads_the_same(engine: Engine, plain: Lark) -> None:
    texts = _instructions(engine)
    assert len(texts) > 250  # over 1,000 with the development corpus beside the checkout
    parsed = 0
    for text in texts:
        want = _outcome(plain, text)
        assert _outcome(engine.parser._lark, text) == want, text
        parsed += want[0] == "parsed"
    assert parsed > 200  # the comparison covers instructions the grammar reads, not only refusals


_WORDS = st.sampled_from(
    ["convert", "JSON", "YAML", "to", "into", "sort", "by", "desc", "keep only", "id", "name",
     "markdown", "html", "sql", "pandas", "indent", "4", "2", "and", "then", ",", "，", "转为",
     "按", "降序", "排列", "只返回", "字段", "use double quotes", "'", '"', "→", "the following",
     "ſ", "K", "İ", "ＪＳＯＮ", "the", "first", "rows", "where", ">", "100", "金额", "大于"]
)  # fmt: skip


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(_WORDS, min_size=1, max_size=12), st.sampled_from([" ", ""]))
def test_random_word_sequences_read_the_same(
    engine: Engine, plain: Lark, words: list[str], sep: str
) -> None:
    text = sep.join(words)
    assert _outcome(engine.parser._lark, text) == _outcome(plain, text)


@pytest.mark.parametrize(
    ("pattern", "starts", "never"),
    [
        ("(?i:convert|turn)(?![A-Za-z])", "cCtT", "xX1 "),
        ("(?:to|into)(?![A-Za-z0-9_])|→|->", "ti→-", "TIx"),
        ("[-+]?\\d+(?:\\.\\d+)?", "-+09", "a. "),
        ("(?:the )?json", "tj", "xJ "),
        ("转换成|转为", "转", "换为x"),
        ("[\u3400-\u9fff]+", "中文", "a1"),
        ("\\w+", "aZ_9中", " -，"),
    ],
)
def test_first_characters(pattern: str, starts: str, never: str) -> None:
    first = first_chars(pattern)
    assert all(c in first for c in starts)
    assert not any(c in first for c in never)


@pytest.mark.parametrize("pattern", ["[^a]b", ".x", "(?i:[à-ÿ])", "a?", "\\bx?"])
def test_what_is_not_modelled_counts_as_any_character(pattern: str) -> None:
    first = first_chars(pattern)
    assert all(c in first for c in "aZ0 中")


@pytest.mark.parametrize(
    ("pattern", "starts", "never"),
    [
        ("(?i:ſ)", "sSſ", "aZ0 中"),  # long s folds to s and S
        ("(?i:\u212a)", "kK\u212a", "aZ "),  # the Kelvin sign folds to k and K
        ("(?i:→|->)", "→-", "tT "),
    ],
)
def test_case_forms_of_characters_outside_ascii(pattern: str, starts: str, never: str) -> None:
    first = first_chars(pattern)
    assert all(c in first for c in starts)
    assert not any(c in first for c in never)


@pytest.mark.parametrize(
    ("pattern", "pairs", "never"),
    [
        ("(?i:convert|turn)(?![A-Za-z])", ["co", "CO", "tU"], ["cu", "ta", "c ", "c"]),
        ("(?:这份|该)?\\s*python", [" p", "  ", "py", "这份", "该 ", "该p"], [" t", "pa", "这个"]),
        ("(?:to|into)(?![A-Za-z0-9_])|→|->", ["to", "in", "->", "→ ", "→"], ["ti", "-a", " t"]),
        ("[-+]?\\d+", ["-1", "12", "7", "+0", "1a"], ["-a", "a1", "-"]),
        ("a?b*c", ["c", "ab", "ac", "bb", "bc", "c "], ["ad", "ba", "d"]),
        ("(?:ab){3,}|x{2}", ["ab", "xx"], ["aa", "x", "xa"]),
        ("[\u3400-\u9fff]+", ["中文", "中", "中a"], ["a中", "ab"]),
        ("\\w+(?:\\.\\w+)*", ["ab", "a.", "中1", "x"], [".a", " a"]),
    ],
)
def test_first_two_characters(pattern: str, pairs: list[str], never: list[str]) -> None:
    starts = pair_starts(pattern)
    assert all(starts.may_start(p[0], p[1:]) for p in pairs)
    assert not any(starts.may_start(p[0], p[1:]) for p in never)


def test_ignorecase_under_a_global_flag() -> None:
    assert "A" in first_chars("abc", re.IGNORECASE)
    assert "A" not in first_chars("abc")


def _terminal_patterns(engine: Engine) -> list[tuple[str, str]]:
    return [(t.name, t.pattern.to_regexp()) for t in engine.parser._lark.terminals]


def _sample(engine: Engine, data: st.DataObject) -> tuple[str, str, str] | None:
    """A terminal's name and pattern, and a non-empty string the pattern matches whole; None
    where hypothesis cannot generate from the pattern (look-arounds …)."""
    name, pattern = data.draw(st.sampled_from(_terminal_patterns(engine)))
    try:
        sample = data.draw(st.from_regex(re.compile(pattern), fullmatch=True))
    except Exception:
        return None
    return (name, pattern, sample) if sample and re.fullmatch(pattern, sample) else None


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_first_characters_cover_every_terminal(engine: Engine, data: st.DataObject) -> None:
    if (drawn := _sample(engine, data)) is not None:
        _name, pattern, sample = drawn
        assert sample[0] in first_chars(pattern), drawn


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_first_two_characters_cover_every_terminal(engine: Engine, data: st.DataObject) -> None:
    if (drawn := _sample(engine, data)) is not None:
        _name, pattern, sample = drawn
        assert pair_starts(pattern).may_start(sample[0], sample[1:2]), drawn
