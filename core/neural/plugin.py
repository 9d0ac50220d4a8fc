"""The built-in backends plugin: local, upstream and anthropic, through ``register_backends``.

Third-party packages add backends the same way, from a plugin in the ``zerolayer``
entry-point group that implements ``register_backends``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from zerolayer.core.fallback import BackendSpec, FallbackBackend
from zerolayer.core.hookspecs import hookimpl

PLUGIN_NAME = "neural"


def _local(argument: str, env: Mapping[str, str]) -> FallbackBackend:
    from zerolayer.core.neural.local import LocalBackend

    backend = LocalBackend.from_spec(argument, env)
    backend.warm()
    return backend


def _upstream(argument: str, env: Mapping[str, str]) -> FallbackBackend:
    from zerolayer.core.neural.upstream import UpstreamBackend

    return UpstreamBackend.from_spec(argument, env)


def _anthropic(argument: str, env: Mapping[str, str]) -> FallbackBackend:
    from zerolayer.core.neural.anthropic import AnthropicBackend

    return AnthropicBackend.from_spec(argument, env)


BACKENDS: tuple[BackendSpec, ...] = (
    BackendSpec(
        "local",
        _local,
        "a transformers model on this machine (GPU if any): the embedded SmolLM2-135M, "
        "or local:PATH to a .gguf file or a model folder",
    ),
    BackendSpec("upstream", _upstream, "an OpenAI-compatible server: upstream:BASE_URL"),
    BackendSpec(
        "anthropic", _anthropic, "the Anthropic Messages API with the caller's key: anthropic[:URL]"
    ),
)


@hookimpl
def register_backends(register: Callable[[Any], None]) -> None:
    """Offer the built-in backends."""
    for spec in BACKENDS:
        register(spec)
