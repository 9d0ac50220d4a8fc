"""Normalise, segment and gate: the text stages before parsing, driven by data files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from zerolayer.core import normalise as stages
from zerolayer.core.gate import check_sampling, check_text
from zerolayer.core.messages import EngineRequest, Message
from zerolayer.core.normalise import chinese_to_int, normalise
from zerolayer.core.segment import segment

CASES = Path(__file__).parent / "cases" / "core"


def _load(name: str) -> list[Any]:
    data: list[Any] = yaml.safe_load((CASES / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(("text", "expected"), _load("normalise.yaml"))
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected


def _every_pass(text: str) -> str:
    """Normalisation with every pass run on every text (what ``normalise`` skips for an
    ASCII text without the words a pass looks for must change nothing)."""
    text = stages.unicodedata.normalize("NFKC", text).translate(stages._PUNCT)
    text = stages._CN_NUMBER.sub(stages._replace_numeral, text)
    text = stages._EN_NUMBER.sub(lambda m: stages._EN_NUMBERS[m.group(1).lower()], text)
    text = stages._FILLER.sub("", text)
    text = stages._USE_OPTION.sub(r"\1using ", text)
    text = stages._SPACES.sub(" ", text)
    return "\n".join(line.strip() for line in text.split("\n")).strip()


_PIECES = st.sampled_from(
    ["Use", "use", "USE", "please", "PLS", "Kindly", "thanks", "Thank you", "two", "Four",
     "twenty", "one-", "spaces", "JSON", ",", ".", "-", " ", "  ", "\t", "\n", "x", "'", "abuse",
     "请", "两个", "第三段", "，", "。", "ｕｓｅ", "ſ", "İ", "\u3000"]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=12).map("".join) | st.text(max_size=40))
def test_normalise_skips_only_passes_with_nothing_to_do(text: str) -> None:
    assert stages._normalise(text) == _every_pass(text)


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("三", 3),
        ("两", 2),
        ("十", 10),
        ("十二", 12),
        ("二十", 20),
        ("二十五", 25),
        ("一百零三", 103),
        ("三千零五十", 3050),
        ("一万二千", 12000),
        ("二〇二四", 2024),
        # a last digit right after 百, 千 or 万 counts the next lower unit, as it is said
        ("一万五", 15000),
        ("两千五", 2500),
        ("三百五", 350),
        ("一百二", 120),
        ("两万三", 23000),
        ("一万零五", 10005),
        ("一万五千", 15000),
        ("一百二十三", 123),
    ],
)
def test_chinese_numerals(numeral: str, value: int) -> None:
    assert chinese_to_int(numeral) == value


@pytest.mark.parametrize("case", _load("segment.yaml"), ids=lambda c: c["how"])
def test_segment_first_reading(case: dict[str, Any]) -> None:
    first = segment(case["message"])[0]
    assert first.instruction == case["instruction"]
    assert [[p.text, p.lang] for p in first.payloads] == case["payloads"]
    assert first.how == case["how"]


def test_payload_before_the_instruction_is_the_second_reading() -> None:
    readings = segment('{"a": 1}\n\nConvert the JSON above to YAML.')
    before = next(r for r in readings if r.how == "before")
    assert before.instruction == "Convert the JSON above to YAML."
    assert before.payloads[0].text == '{"a": 1}\n'  # its line, with its line break
    assert before.before == '{"a": 1}'


@pytest.mark.parametrize(("instruction", "reason"), _load("gate.yaml"))
def test_gate_text(instruction: str, reason: str | None) -> None:
    failure = check_text(normalise(instruction))
    assert (failure.reason if failure else None) == reason
    if failure:
        assert failure.detail  # every failure says what it found


def test_gate_ignores_words_that_are_payload_keys() -> None:
    assert check_text("keep only id and summary", ('{"id": 1, "summary": "x"}',)) is None
    assert check_text("keep only id and summary", ('{"id": 1}',)) is not None


def _request(**kwargs: Any) -> EngineRequest:
    return EngineRequest(messages=(Message("user", "x"),), **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "absent_is_zero", "reason"),
    [
        ({"temperature": 0}, False, None),
        ({"temperature": 0, "top_p": 1}, False, None),
        ({"temperature": 0.7}, False, "gate.temperature"),
        ({"temperature": 0, "top_p": 0.5}, False, "gate.top_p"),
        ({}, False, "gate.temperature_absent"),
        ({}, True, None),
        ({"temperature": 0, "disabled": True}, False, "gate.disabled"),
    ],
)
def test_gate_sampling(kwargs: dict[str, Any], absent_is_zero: bool, reason: str | None) -> None:
    failure = check_sampling(_request(**kwargs), absent_temperature_is_zero=absent_is_zero)
    assert (failure.reason if failure else None) == reason
