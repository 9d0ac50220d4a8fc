"""A message written in blocks answered with the local backend for its open parts: the tiny
model built by the tests, loaded and run through the real LocalBackend code."""

from __future__ import annotations

import pytest

from zerolayer.core.blocks.parts import MergedAnswer, merge_texts, part_request
from zerolayer.core.engine import Engine
from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.rules_api.usage import count_tokens, truncate_tokens

pytest.importorskip("torch")
pytestmark = pytest.mark.slow  # builds a model

MESSAGES = [
    '<ask>Write a short poem about the sea.</ask>\n<convert lang="json" to="yaml">\n{"a": 1}\n</convert>',
    "[OPINION_REQUEST] 你觉得这个配置好吗？\n[CODE_CONVERSION lang=yaml to=json]\n键: 值\n[/CODE_CONVERSION]",
]


@pytest.mark.parametrize("message", MESSAGES)
def test_open_parts_are_the_local_models_answers(
    message: str, engine: Engine, tiny_backend
) -> None:
    request = EngineRequest((Message("user", message),), temperature=0.0)
    result = engine.run(request)
    assert result.route is Route.FALLBACK and [p.kind for p in result.parts] == ["model", "zero"]
    model_part, zero_part = result.parts
    alone = tiny_backend.generate(part_request(request, model_part), max_tokens=48).text
    # a merged answer is cut at max_tokens like a model's (its deterministic part alone never is)
    text, cut = truncate_tokens(merge_texts([alone, zero_part.text]), 48)
    expected = (text, "max_tokens" if cut else "end_turn")
    merged = MergedAnswer(
        result.parts, tiny_backend, count_tokens=count_tokens, truncate_tokens=truncate_tokens
    )
    whole = merged.generate(request, max_tokens=48)
    assert (whole.text, whole.stop_reason) == expected
    items = list(merged.stream(request, max_tokens=48))
    assert "".join(i for i in items if isinstance(i, str)) == whole.text
