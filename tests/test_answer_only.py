"""Answer-only clauses (core/answer_only.py): the words that ask for the answer alone are read
by class, in English and Chinese, wherever they stand; words that ask for more still fall back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route

CASES = yaml.safe_load(
    (Path(__file__).parent / "cases" / "core" / "answer_only.yaml").read_text("utf-8")
)
CLOSINGS = CASES["closings"]


@pytest.mark.parametrize("case", CASES["clauses"], ids=lambda c: c["text"])
def test_a_clause_is_answer_only_by_its_words(engine: Engine, case: dict[str, Any]) -> None:
    assert engine.surface.answer_only(case["text"]) is case["terse"]


def _ask(engine: Engine, text: str) -> tuple[Route, str | None]:
    result = engine.run(EngineRequest(messages=(Message("user", text),), temperature=0))
    return result.route, result.output


@pytest.mark.parametrize(
    "case", CLOSINGS["cases"], ids=lambda c: f"{c['instruction']} / {c['closing']}"
)
@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["LF", "CRLF"])
def test_a_closing_sentence_keeps_the_answer_or_falls_back(
    engine: Engine, case: dict[str, Any], newline: str
) -> None:
    payload = CLOSINGS["payloads"][case["payload"]].rstrip("\n")
    bare = f"{case['instruction']}:\n\n{payload}\n"
    route, want = _ask(engine, bare)
    assert route is Route.DETERMINISTIC, f"{bare!r} is not answered"
    message = f"{case['instruction']}:\n\n{payload}\n\n{case['closing']}\n".replace("\n", newline)
    got_route, got = _ask(engine, message)
    if case["expect"] == "same":
        assert (got_route, got) == (Route.DETERMINISTIC, want)
    else:
        assert got_route is Route.FALLBACK, f"{message!r} answered {got!r}"


@pytest.mark.parametrize(
    "case",
    [c for c in CLOSINGS["cases"] if c["payload"] == "json"],
    ids=lambda c: f"{c['instruction']} / {c['closing']}",
)
def test_a_closing_sentence_after_a_fenced_payload_keeps_the_answer_or_falls_back(
    engine: Engine, case: dict[str, Any]
) -> None:
    fenced = f"{case['instruction']}\n\n```json\n{CLOSINGS['payloads']['json']}\n```"
    _, want = _ask(engine, fenced)
    route, got = _ask(engine, f"{fenced}\n\n{case['closing']}")
    if case["expect"] == "same":
        assert (route, got) == (Route.DETERMINISTIC, want)
    else:
        assert route is Route.FALLBACK, f"{case['closing']!r} answered {got!r}"


@pytest.mark.parametrize(
    "case",
    [c for c in CLOSINGS["cases"] if c["expect"] == "same" and c["payload"] != "yaml"],
    ids=lambda c: f"{c['instruction']} / {c['closing']}",
)
def test_an_answer_only_line_right_under_the_data_is_instruction(
    engine: Engine, case: dict[str, Any]
) -> None:
    payload = CLOSINGS["payloads"][case["payload"]]
    _, want = _ask(engine, f"{case['instruction']}:\n{payload}")
    route, got = _ask(engine, f"{case['instruction']}:\n{payload}\n{case['closing']}")
    assert (route, got) == (Route.DETERMINISTIC, want)


@pytest.mark.parametrize(
    "line", ["Thank you all.", "Just explain.", "Note: keep it short.", "No code here."]
)
def test_a_line_right_under_markdown_that_is_not_answer_only_is_the_data(
    engine: Engine, line: str
) -> None:
    route, got = _ask(engine, f"Convert this Markdown to HTML:\n# Title\n{line}")
    assert route is Route.DETERMINISTIC
    assert line.rstrip(".") in (got or "")


@pytest.mark.parametrize(
    "line", ["Note: keep the keys in the order given", "Remember: the output feeds a parser"]
)
def test_a_labelled_sentence_after_json_falls_back_rather_than_blame_the_json(
    engine: Engine, line: str
) -> None:
    result = engine.run(
        EngineRequest(
            messages=(Message("user", f'Convert this JSON to YAML\n\n{{"a": [1]}}\n\n{line}'),),
            temperature=0,
        )
    )
    # a fallback, not a 400 that blames the JSON (how the sentence is read may change)
    assert result.route is Route.FALLBACK, result.reason


@pytest.mark.parametrize("case", CASES["fields"], ids=lambda c: c["message"][:40])
def test_a_key_of_the_data_is_a_field_not_an_answer_word(
    engine: Engine, case: dict[str, Any]
) -> None:
    assert _ask(engine, case["message"]) == (Route.DETERMINISTIC, case["output"])


@pytest.mark.parametrize(
    "message",
    [
        'Convert this JSON to YAML:\n\n["YAML:"]\n\nReturn only the YAML.\n\nOnly return the YAML.',
        "Convert this JSON to YAML.\n\nJSON:\n[]\n\nYAML:\n\nOnly return the YAML.",
    ],
)
def test_data_that_ends_before_the_users_sentences_is_not_blamed(
    engine: Engine, message: str
) -> None:
    route, _ = _ask(engine, message)
    assert route in (Route.DETERMINISTIC, Route.FALLBACK)


@pytest.mark.parametrize("message", CASES["contradictions"])
def test_an_answer_in_the_source_format_contradicts_the_request(
    engine: Engine, message: str
) -> None:
    route, output = _ask(engine, message)
    assert route is Route.FALLBACK, f"{message!r} answered {output!r}"


def test_an_instruction_after_the_text_it_reads_is_not_taken_for_its_last_line(
    engine: Engine,
) -> None:
    # the last paragraph holds an answer-only clause ("nothing else") and is the instruction
    # on the text above it, not a sentence that ends that text
    message = (
        "Rain fell on the old town all night.\n\nBy morning the river had risen.\n\n"
        "please quote the second paragraph above, nothing else."
    )
    assert _ask(engine, message) == (Route.DETERMINISTIC, "By morning the river had risen.")
