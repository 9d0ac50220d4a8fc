"""Long unstructured input, and paragraphs of text placed after the instruction.

Payloads of several thousand characters with no paragraph break are answered exactly when
the instruction is deterministic (a conversion); context requests that need paragraphs fall
back with ``context_no_paragraphs`` wherever that text sits: an earlier turn, the same
message before the instruction, or after it. English and Chinese.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.plugins.context.text import LONG_UNBROKEN_CHARS
from zerolayer.plugins.json_yaml.codec import emit_yaml
from zerolayer.plugins.markdown_html.render import render_markdown

LONG_EN = " ".join(
    f"Sentence {i} reports the quarterly figures for region {i % 7}." for i in range(90)
)
LONG_ZH = "".join(f"第{i}句话说明了第{i % 7}个地区的季度数据。" for i in range(200))
assert len(LONG_EN) > LONG_UNBROKEN_CHARS and len(LONG_ZH) > LONG_UNBROKEN_CHARS
assert "\n" not in LONG_EN + LONG_ZH


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(EngineConfig(plugins=None))


def run(engine: Engine, *turns: tuple[str, str]):
    messages = tuple(Message(role, content) for role, content in turns)  # type: ignore[arg-type]
    return engine.run(EngineRequest(messages=messages, temperature=0.0))


ASK = {
    "en": "Return the second paragraph of the text above verbatim.",
    "zh": "原样返回上面文字的第2段",
}
ASK_FIRST = {
    "en": "Return the first paragraph of the text above verbatim.",
    "zh": "原样返回上面文字的第1段",
}
ASK_BELOW = {
    "en": "Return the second paragraph of the text below verbatim:",
    "zh": "原样返回下面文字的第2段：",
}
LONG = {"en": LONG_EN, "zh": LONG_ZH}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("ask", [ASK, ASK_FIRST], ids=["second", "first"])
def test_long_earlier_turn_falls_back(engine: Engine, lang: str, ask: dict[str, str]) -> None:
    result = run(engine, ("user", LONG[lang]), ("assistant", "OK."), ("user", ask[lang]))
    assert (result.route, result.reason) == (Route.FALLBACK, "context_no_paragraphs")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_long_earlier_turn_after_a_paragraphed_one_falls_back(engine: Engine, lang: str):
    """The long text is the most recent: the older text with paragraphs is not read."""
    result = run(
        engine,
        ("user", "Old one.\n\nOld two.\n\nOld three."),
        ("assistant", "OK."),
        ("user", LONG[lang]),
        ("assistant", "OK."),
        ("user", ASK[lang]),
    )
    assert (result.route, result.reason) == (Route.FALLBACK, "context_no_paragraphs")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_long_text_before_the_instruction_falls_back(engine: Engine, lang: str) -> None:
    result = run(engine, ("user", f"{LONG[lang]}\n\n{ASK[lang]}"))
    assert (result.route, result.reason) == (Route.FALLBACK, "context_no_paragraphs")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_long_text_after_the_instruction_falls_back(engine: Engine, lang: str) -> None:
    result = run(engine, ("user", f"{ASK_BELOW[lang]}\n\n{LONG[lang]}"))
    assert (result.route, result.reason) == (Route.FALLBACK, "context_no_paragraphs")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_long_unbroken_markdown_converts_exactly(engine: Engine, lang: str) -> None:
    instruction = {"en": "Convert this Markdown to HTML:", "zh": "把下面的Markdown转换成HTML："}
    result = run(engine, ("user", f"{instruction[lang]}\n\n{LONG[lang]}"))
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    assert result.output == render_markdown(LONG[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_long_one_line_json_converts_exactly(engine: Engine, lang: str) -> None:
    value = [{"id": i, "text": sentence} for i, sentence in enumerate(LONG[lang].split("。"))]
    payload = json.dumps(value, ensure_ascii=False)  # one line, no paragraph break
    assert len(payload) > LONG_UNBROKEN_CHARS and "\n" not in payload
    instruction = {"en": "Convert this JSON to YAML:", "zh": "把下面的JSON转换成YAML："}
    result = run(engine, ("user", f"{instruction[lang]} {payload}"))
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    assert result.output == emit_yaml(value)


# Paragraph n of a generated document placed after the instruction comes back verbatim.
_WORD = st.text(
    alphabet=st.sampled_from(list("abcdefghXYZ0123,;春夏秋冬天地")), min_size=1, max_size=8
)
_PARA = st.lists(_WORD, min_size=1, max_size=6).map(lambda ws: "A" + " ".join(ws) + ".")
_TEMPLATES = [
    "Return paragraph {n} of the text below verbatim:",
    "Return paragraph {n} of the following text.",
    "原样返回下面文字的第{n}段：",
    "返回以下文字的第{n}段，不要做任何修改。",
]


@settings(max_examples=60, deadline=None)
@given(
    paras=st.lists(_PARA, min_size=2, max_size=6, unique=True),
    template=st.sampled_from(_TEMPLATES),
    data=st.data(),
)
def test_paragraph_n_of_text_below_is_verbatim(
    paras: list[str], template: str, data: st.DataObject
) -> None:
    engine = _ENGINE
    n = data.draw(st.integers(1, len(paras)))
    message = template.format(n=n) + "\n\n" + "\n\n".join(paras)
    result = run(engine, ("user", "Old one.\n\nOld two."), ("assistant", "OK."), ("user", message))
    assert result.route is Route.DETERMINISTIC, (result.reason, result.detail)
    assert result.output == paras[n - 1]


_ENGINE = Engine(EngineConfig(plugins=None))
