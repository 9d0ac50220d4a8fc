"""Frames and slots (core/frames.py): conversion requests worded freely are answered as the
grammar's own sentence would be, and everything else still falls back.

The case files in tests/cases/frames were written before the frame reader: ``positives`` and
``negatives`` are the part it was developed on, ``held_out`` the third kept unread. An active
answer must be the gold plan's answer (the plan run on the payload); a negative must fall
back. The recall floors are below the figures in docs/recognition.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.engine import Engine
from zerolayer.core.errors import Unsupported
from zerolayer.core.frames import Frame, FrameReader, Kind, asks_politely
from zerolayer.core.messages import Route
from zerolayer.core.registry import Lexicon

FOLDER = Path(__file__).parent / "cases" / "frames"
FILES = {name: yaml.safe_load((FOLDER / f"{name}.yaml").read_text("utf-8")) for name in (
    "positives", "negatives", "held_out", "classes"
)}  # fmt: skip
FLOORS = {"positives": 0.85, "held_out": 0.8}


def _cases(name: str) -> list[Any]:
    doc = FILES[name]
    return [pytest.param(doc["payloads"][c["payload"]], c, id=c["id"]) for c in doc["cases"]]


def _answer(engine: Engine, instruction: str, payload: str) -> str | None:
    result = engine.run(instruction, payload)
    return result.output if result.route is Route.DETERMINISTIC else None


def _right(engine: Engine, case: dict[str, Any], payload: str) -> bool | None:
    """True: the gold answer; None: a fallback; False: another answer."""
    got = _answer(engine, case["instruction"], payload)
    if got is None:
        return None
    return case["plan"] is not None and got == engine.run_plan(case["plan"], payload)


@pytest.mark.parametrize(("payload", "case"), _cases("positives") + _cases("held_out"))
def test_a_request_gets_its_answer_or_falls_back(
    engine: Engine, payload: str, case: dict[str, Any]
) -> None:
    assert _right(engine, case, payload) is not False, case["instruction"]


@pytest.mark.parametrize(("payload", "case"), _cases("negatives"))
def test_a_negative_falls_back(engine: Engine, payload: str, case: dict[str, Any]) -> None:
    assert _answer(engine, case["instruction"], payload) is None, case["instruction"]


def _classes(active: bool) -> list[Any]:
    return [p for p in _cases("classes") if (p.values[1]["plan"] is not None) == active]


@pytest.mark.parametrize(("payload", "case"), _classes(active=True))
def test_a_word_class_reads_its_request(engine: Engine, payload: str, case: dict[str, Any]) -> None:
    assert _right(engine, case, payload) is True, case["instruction"]


@pytest.mark.parametrize(("payload", "case"), _classes(active=False))
def test_a_near_miss_of_a_word_class_falls_back(
    engine: Engine, payload: str, case: dict[str, Any]
) -> None:
    assert _answer(engine, case["instruction"], payload) is None, case["instruction"]


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_recall_stays_above_its_floor(engine: Engine, name: str) -> None:
    doc = FILES[name]
    active = [c for c in doc["cases"] if c["plan"] is not None]
    hits = sum(_right(engine, c, doc["payloads"][c["payload"]]) is True for c in active)
    assert hits / len(active) >= FLOORS[name], f"{name}: {hits}/{len(active)}"


# ---- the reader on its own -------------------------------------------------------------------

FORMATS = ("json", "yaml", "sql", "pandas", "python", "typescript", "markdown", "html")
LEXICONS = (Lexicon(aliases={"yml": "yaml", "ts": "typescript"}, targets={"render": "html"}),)


def _reader() -> FrameReader:
    def parse(sentence: str) -> list[Any]:
        raise Unsupported("parse.no_match", sentence)

    return FrameReader(FORMATS, LEXICONS, parse)


@pytest.mark.parametrize(
    ("text", "known", "frame"),
    [
        ("json -> yaml", set(), Frame("json", "yaml")),
        ("make this yaml instead of json", {"json"}, Frame("json", "yaml")),
        ("the TypeScript version of this Python", set(), Frame("python", "typescript")),
        ("pandas code for this sql", set(), Frame("sql", "pandas")),
        ("got some json here, need yaml", {"json"}, Frame("json", "yaml")),
        ("render this markdown", set(), Frame("markdown", "html")),
        ("give me yml, keys sorted", {"json"}, Frame(None, "yaml", ("keys sorted",))),
        ("yaml with keys sorted pls", {"json"}, Frame(None, "yaml", ("with keys sorted",))),
        ("转成YAML，缩进用4个空格", {"json"}, Frame(None, "yaml", ("缩进用4个空格",))),
        ("用TypeScript重写这段Python", set(), None),  # no direction word, no payload format
        ("把这段python翻译成ts", set(), Frame("python", "typescript")),
    ],
)
def test_slots(text: str, known: set[str], frame: Frame | None) -> None:
    reader = _reader()
    if frame is None:
        with pytest.raises(Unsupported):
            reader.frame(text, frozenset(known))
    else:
        assert reader.frame(text, frozenset(known)) == frame


@pytest.mark.parametrize(
    "text",
    [
        "YAML please",  # a format name alone says nothing to do
        "explain this json",
        "why convert json to yaml",
        "convert 'json to yaml'",
        "json or yaml",
        "json yaml python",
        "convert from json",
        "把JSON转成YAML并解释一下",
    ],
)
def test_no_frame(text: str) -> None:
    with pytest.raises(Unsupported):
        _reader().frame(text, frozenset({"json"}))


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("port it over to yaml", {"over": Kind.BENIGN}),
        ("over 100", {"over": Kind.OTHER}),
        ("as raw html", {"raw": Kind.BENIGN}),
        ("keep raw html", {"raw": Kind.OTHER}),
        ("translating it", {"translating": Kind.BENIGN}),
        ("filter with df.query()", {"df.query()": Kind.OTHER}),
        ("json - yaml", {"-": Kind.SEP}),
        ("top-level keys", {"top-level": Kind.OTHER}),
    ],
)
def test_words_in_context(text: str, kinds: dict[str, Kind]) -> None:
    words = {w.text: w.kind for w in _reader().words(text)}
    assert {t: words.get(t) for t in kinds} == kinds


def test_a_phrase_a_lexicon_declares_is_one_word() -> None:
    reader = FrameReader(
        FORMATS, (Lexicon(phrases=frozenset({"jsdoc comments"})),), _reader()._parse
    )
    words = reader.words("to ts, add JSDoc  comments")
    assert ("JSDoc  comments", Kind.OTHER) in [(w.text, w.kind) for w in words]
    assert not any(w.kind is Kind.OPEN for w in words)


def test_chinese_words_are_split_at_known_words_only() -> None:
    words = _reader().words("这段json转成yaml格式吧")
    assert [(w.text, w.kind) for w in words] == [
        ("这段", Kind.BENIGN),
        ("json", Kind.FORMAT),
        ("转成", Kind.TO),
        ("yaml", Kind.FORMAT),
        ("格式", Kind.BENIGN),
        ("吧", Kind.BENIGN),
    ]
    assert {w.kind for w in _reader().words("把json弄得漂亮点")} >= {Kind.OTHER}


JSON_DOC = '{"name": "Ada", "tags": ["a", "b"]}'
YAML_OF_IT = "name: Ada\ntags:\n  - a\n  - b\n"
OPENERS = ["", "hey, ", "yo ", "can u ", "could you ", "I need you to "]
FRAMES = [
    "turn this into yaml",
    "give me the yaml version",
    "the YAML equivalent of this JSON",
    "json -> yaml",
    "make this yaml instead of json",
    "I'd like this as YAML",
    "这段json改成yaml格式",
]
CLOSERS = ["", " pls", ", thanks!", ", nothing else", ", no commentary", "，不要解释", " 就行"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(OPENERS), st.sampled_from(FRAMES), st.sampled_from(CLOSERS))
def test_benign_words_keep_the_answer(engine: Engine, pre: str, core: str, post: str) -> None:
    assert _answer(engine, pre + core + post, JSON_DOC) == YAML_OF_IT


ASKS = [
    ", and explain why",
    ", then review it",
    " and make it nicer",
    "，并说明区别",
    " - is it valid?",
]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(OPENERS), st.sampled_from(FRAMES), st.sampled_from(ASKS))
def test_an_open_ask_falls_back(engine: Engine, pre: str, core: str, ask: str) -> None:
    assert _answer(engine, pre + core + ask, JSON_DOC) is None


@pytest.mark.parametrize(
    ("instruction", "payload", "answer"),
    [
        ("json -> yaml", JSON_DOC, YAML_OF_IT),
        ("give me json instead of yaml", JSON_DOC, None),  # the payload is not YAML's to read
        ("convert json to yaml and toml", JSON_DOC, None),
        ("make this json instead of yaml", JSON_DOC, None),
        ("give me the yaml version, don't", JSON_DOC, None),
        ("give me the yaml version, unless it is long", JSON_DOC, None),
    ],
)
def test_direction_and_negation_change_the_answer(
    engine: Engine, instruction: str, payload: str, answer: str | None
) -> None:
    assert _answer(engine, instruction, payload) == answer


def test_a_plugin_lexicon_extends_the_benign_nouns() -> None:
    from types import SimpleNamespace

    from zerolayer.core.engine import EngineConfig
    from zerolayer.core.hookspecs import hookimpl

    @hookimpl
    def register_lexicon(register: Any) -> None:
        register(Lexicon(nouns=frozenset({"blob"})))

    config = EngineConfig(plugins=frozenset({"json_yaml"}))
    plain = Engine(config)
    extended = Engine(config, plugins={"b": SimpleNamespace(register_lexicon=register_lexicon)})
    ask = "I would like this blob as YAML"
    assert _answer(plain, ask, '{"a": 1}') is None
    assert _answer(extended, ask, '{"a": 1}') == "a: 1\n"


@pytest.mark.parametrize(
    ("written", "polite"),
    [
        ("YAML please", True),
        ("yaml pls", True),
        ("请给YAML", True),
        ("YAML.", False),
        ("YAML", False),
    ],
)
def test_a_word_that_asks_makes_a_format_named_alone_the_target(written: str, polite: bool) -> None:
    assert asks_politely(written) is polite
    reader = _reader()
    assert reader.frame("YAML", frozenset({"json"}), polite=True) == Frame(None, "yaml", ())
    with pytest.raises(Unsupported):
        reader.frame("YAML", frozenset({"json"}))  # no word that asks: nothing to do is said
    with pytest.raises(Unsupported):
        reader.frame("YAML", frozenset({"yaml"}), polite=True)  # already YAML
