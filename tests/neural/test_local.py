"""The local backend on a tiny model built by the test and loaded through the real code."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import Completion, FallbackBackend, FallbackUnavailable
from zerolayer.core.messages import EngineRequest, Message

pytest.importorskip("torch")

REQUEST = EngineRequest(
    (Message("user", "Write a short poem about the sea."),), system="Be brief.", temperature=0.0
)


def collect(items) -> tuple[list[str], Completion]:
    items = list(items)
    assert isinstance(items[-1], Completion)
    assert all(isinstance(i, str) and i for i in items[:-1])
    return items[:-1], items[-1]


def test_it_is_a_fallback_backend_on_the_cpu(tiny_backend) -> None:
    assert isinstance(tiny_backend, FallbackBackend)
    assert tiny_backend.device == "cpu"


def test_greedy_is_deterministic_across_runs_and_loads(tiny_backend, tiny_dir: Path) -> None:
    from zerolayer.core.neural.local import LocalBackend

    first = tiny_backend.generate(REQUEST, max_tokens=24)
    again = tiny_backend.generate(REQUEST, max_tokens=24)
    reloaded = LocalBackend.from_spec(str(tiny_dir), {"ZEROLAYER_DEVICE": "cpu"})
    assert first == again == reloaded.generate(REQUEST, max_tokens=24)
    assert first.text


def test_stream_deltas_make_the_generated_text(tiny_backend) -> None:
    whole = tiny_backend.generate(REQUEST, max_tokens=24)
    deltas, final = collect(tiny_backend.stream(REQUEST, max_tokens=24))
    assert "".join(deltas) == final.text == whole.text
    assert final.input_tokens > 0


def test_max_tokens_counts_generated_tokens(tiny_backend) -> None:
    short = tiny_backend.generate(REQUEST, max_tokens=5)
    longer = tiny_backend.generate(REQUEST, max_tokens=24)
    assert short.stop_reason == "max_tokens" and short.output_tokens == 5
    assert longer.text.startswith(short.text)


def test_stop_sequence_cuts_before_it(tiny_backend) -> None:
    text = tiny_backend.generate(REQUEST, max_tokens=24).text
    stop = text[len(text) // 2 : len(text) // 2 + 2]
    deltas, final = collect(tiny_backend.stream(REQUEST, max_tokens=24, stop=["\x00never", stop]))
    assert final.text == "".join(deltas) == text[: text.find(stop)]
    assert (final.stop_reason, final.stop_sequence) == ("stop_sequence", stop)


def test_end_token_ends_the_turn(tiny_backend) -> None:
    import itertools

    import torch

    from zerolayer.core.neural.decode import tokens
    from zerolayer.core.neural.local import LocalBackend
    from zerolayer.core.neural.prompt import prompt_ids

    loaded = tiny_backend.loaded
    first = tiny_backend.generate(REQUEST, max_tokens=24)
    prompt = torch.tensor([prompt_ids(loaded.tokenizer, REQUEST)])
    ids = list(itertools.islice(tokens(loaded.model, prompt), 24))
    backend = LocalBackend(loaded)
    backend.end_ids = frozenset({ids[12]})  # pretend the 13th generated token ends the turn
    ended = backend.generate(REQUEST, max_tokens=24)
    assert ended.stop_reason == "end_turn"
    assert first.text.startswith(ended.text) and len(ended.text) < len(first.text)


def test_sampling_with_a_seed_repeats_and_differs_from_greedy(tiny_backend) -> None:
    from zerolayer.core.neural.local import LocalBackend

    hot = EngineRequest(REQUEST.messages, temperature=1.5)
    a = LocalBackend(tiny_backend.loaded, seed=7).generate(hot, max_tokens=24)
    b = LocalBackend(tiny_backend.loaded, seed=7).generate(hot, max_tokens=24)
    assert a == b
    assert a.text != tiny_backend.generate(REQUEST, max_tokens=24).text


def test_concurrent_callers_all_get_the_greedy_answer(tiny_backend) -> None:
    expected = tiny_backend.generate(REQUEST, max_tokens=24)
    results: list[Completion] = []
    errors: list[BaseException] = []

    def call() -> None:
        try:
            results.append(tiny_backend.generate(REQUEST, max_tokens=24))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=call) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert results == [expected] * 8


def test_a_full_queue_answers_unavailable_and_an_abandoned_stream_frees_its_slot(
    tiny_backend,
) -> None:
    from zerolayer.core.neural.local import LocalBackend
    from zerolayer.core.neural.queue import ModelQueue

    backend = LocalBackend(tiny_backend.loaded, queue=ModelQueue(slots=1, max_waiting=0))
    open_stream = backend.stream(REQUEST, max_tokens=24)
    next(open_stream)  # holds the only slot
    with pytest.raises(FallbackUnavailable, match="busy"):
        backend.generate(REQUEST, max_tokens=4)
    open_stream.close()  # the client went away
    assert backend.generate(REQUEST, max_tokens=4).output_tokens == 4


def test_a_conversation_longer_than_the_context_is_unavailable(tiny_backend) -> None:
    long = EngineRequest((Message("user", "the sea " * 400),), temperature=0.0)
    with pytest.raises(FallbackUnavailable, match="context"):
        tiny_backend.generate(long, max_tokens=4)


def test_bad_model_paths_fail_at_start_up(tmp_path: Path) -> None:
    from zerolayer.core.neural.weights import resolve_source

    with pytest.raises(StartupError, match="neither"):
        resolve_source(str(tmp_path))
    with pytest.raises(StartupError, match="neither"):
        resolve_source(str(tmp_path / "missing.gguf"))


def test_device_choice(monkeypatch) -> None:
    import torch

    from zerolayer.core.neural.weights import pick_device

    assert pick_device({"ZEROLAYER_DEVICE": "cuda:1"}) == "cuda:1"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert pick_device({}) == "cuda"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert pick_device({}) == "cpu"
