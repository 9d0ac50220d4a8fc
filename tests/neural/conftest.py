"""Fixtures of the neural tests: a tiny model built and saved once per run, its backend."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a tiny random Llama model and its tokenizer (see neural_tiny_model.py)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from neural_tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-model"))


@pytest.fixture(scope="session")
def tiny_backend(tiny_dir: Path):
    """A LocalBackend over the tiny model, loaded through the real loading code."""
    from zerolayer.core.neural.local import LocalBackend

    return LocalBackend.from_spec(str(tiny_dir), {"ZEROLAYER_DEVICE": "cpu"})
