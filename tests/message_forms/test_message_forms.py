"""The payload the user wrote is the payload converted, however the message carries it.

Over JSONTestSuite, yaml-test-suite and the CommonMark spec, every form of
``tests/message_forms/forms.py`` gets the answer of the payload given apart from the message,
or a fallback; generated payloads and closing sentences on top.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.message_forms.forms import FORMS, JSON, MARKDOWN, YAML, Suite, check, payloads
from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route


@pytest.mark.parametrize("suite", [JSON, YAML, MARKDOWN], ids=lambda s: s.name)
def test_every_payload_in_every_form(engine: Engine, suite: Suite) -> None:
    if not payloads(suite):
        pytest.skip(f"{suite.name} is not installed")
    bad = [(n, f, v, r, g) for n, f, v, r, g in check(engine, suite, None) if v != "ok"]
    assert bad == []


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12),
)
_KEYS = st.text(st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=8)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=12,
)
_CLOSING = [
    "Return only the YAML.",
    "Only return the YAML.",
    "只返回YAML。",
    "Give me the YAML only",
    "Keep the comments.",
    "Preserve the logic.",
    "Nothing else.",
]


def _answer(engine: Engine, request: EngineRequest) -> tuple[str, Any]:
    result = engine.run(request)
    return result.route.value, result.output


@settings(max_examples=60, deadline=None)
@given(
    value=_VALUES,
    indent=st.sampled_from([None, 2]),
    form=st.sampled_from(sorted(FORMS)),
    closing=st.sampled_from(_CLOSING),
)
def test_generated_json_in_every_form_with_a_closing_sentence(
    engine: Engine, value: Any, indent: int | None, form: str, closing: str
) -> None:
    payload = json.dumps(value, indent=indent, ensure_ascii=False) + "\n"
    reference = _answer(engine, EngineRequest.from_instruction(JSON.instruction, payload))
    assert reference[0] == "deterministic"
    build, _ = FORMS[form]
    request = build(JSON, payload)
    if request is None:
        return
    text = request.messages[-1].content
    for message in (text, f"{text.rstrip()}\n\n{closing}"):
        got = _answer(engine, EngineRequest(messages=(*request.messages[:-1], Message("user", message)), temperature=0))  # fmt: skip
        assert got[0] == "fallback" or got == reference, (message, got)


@pytest.mark.parametrize(
    ("message", "output"),
    [
        ("Convert this Markdown to HTML:\r\n\r\n```markdown\r\n# Title\r\n```\r\n", "<h1>Title</h1>\n"),
        ("Convert this Markdown to HTML:\r\r```markdown\r# Title\r```\r", "<h1>Title</h1>\n"),
        ('Convert this JSON to YAML:\r\n\r\n```json\r\n{"a": 1,\r\n "b": [1]}\r\n```\r\n', "a: 1\nb:\n  - 1\n"),
        ("Convert this YAML to JSON:\n\nmessage: |\n  hello\n", '{\n  "message": "hello\\n"\n}'),
        ("Convert this YAML to JSON: name: Bob\nage: 25", '{\n  "name": "Bob",\n  "age": 25\n}'),
        ("Convert this YAML to JSON: a: [b, c]", '{\n  "a": [\n    "b",\n    "c"\n  ]\n}'),
        ("Convert this YAML to JSON: - a\n- b", '[\n  "a",\n  "b"\n]'),
        (
            "Convert this Markdown to HTML:\n\n## Setup\n\n1. Start the server\n\nGive me the html only",
            "<h2>Setup</h2>\n<ol>\n<li>Start the server</li>\n</ol>\n",
        ),
        # a last paragraph the grammar does not read as instruction is the payload's own
        ("Convert this Markdown to HTML:\n\n# Title\n\nSome text here.", "<h1>Title</h1>\n<p>Some text here.</p>\n"),
    ],
)  # fmt: skip
def test_messages_as_users_write_them(engine: Engine, message: str, output: str) -> None:
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert (result.route, result.output) == (Route.DETERMINISTIC, output), result.detail


@pytest.mark.parametrize(
    "message",
    [
        # a closing sentence the grammar does not know: the payload without it reads, with it
        # it does not; the request is open
        "Convert this Python to TypeScript:\n\ndef f(x: int) -> int:\n    return x + 1\n\n"
        "Preserve the logic and add comprehensive type annotations.",
        'Convert this JSON to YAML:\n\n{"a": 1}\n\nAlso explain each key.',
        '请将以下JSON转换为YAML格式：{"a": 1}\n\n并解释每个字段。',
    ],
)
def test_a_closing_sentence_that_asks_for_more_falls_back(engine: Engine, message: str) -> None:
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert result.route is Route.FALLBACK, (result.reason, result.output, result.error)


@pytest.mark.parametrize(
    "message",
    [
        "Convert this JSON to YAML: null\n\nReturn only the YAML.",
        "Convert this JSON to YAML: 5\r\n\r\nReturn only the YAML.",
        "把这段JSON转成YAML：true\n\n只返回YAML",
    ],
)
def test_an_instruction_on_both_sides_of_the_payload_is_not_guessed(
    engine: Engine, message: str
) -> None:
    # the sentence after the payload reads as an instruction on the text before it, and that
    # text opens with an instruction of its own: the boundary is a guess, so it falls back
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert result.route is Route.FALLBACK, (message, result.output)


def test_a_payload_before_the_instruction_may_open_with_a_key(engine: Engine) -> None:
    message = "name: Ann\nage: 3\n\nConvert the YAML above to JSON."
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert result.route is Route.DETERMINISTIC
    assert json.loads(result.output) == {"name": "Ann", "age": 3}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            '{"a": [1, 2]}\n\nConvert this JSON to YAML\n\nReturn only the YAML.',
            "a:\n  - 1\n  - 2\n",
        ),
        ('{"a": 1}\r\n\r\nConvert this JSON to YAML\r\n\r\nReturn only the YAML.', "a: 1\n"),
        ("a: 1\n\n把这段YAML转成JSON\n\n只返回JSON", '{\n  "a": 1\n}'),
    ],
)
def test_a_payload_then_the_instruction_then_a_closing_sentence(
    engine: Engine, message: str, expected: str
) -> None:
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert (result.route, result.output) == (Route.DETERMINISTIC, expected), result.detail


@pytest.mark.parametrize(
    "message",
    [
        '{"a": 1}\n\nConvert this JSON to YAML\n\nThanks, and tell me about Oslo.',
        '{"a": 1}\n\nWhat is this?\n\nConvert this JSON to YAML',
    ],
)
def test_a_sentence_after_the_instruction_that_asks_more_falls_back(
    engine: Engine, message: str
) -> None:
    result = engine.run(EngineRequest(messages=(Message("user", message),), temperature=0))
    assert result.route is Route.FALLBACK, result.output
