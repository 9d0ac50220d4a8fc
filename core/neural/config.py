"""Choosing the fallback backend from configuration (``ZEROLAYER_FALLBACK``).

``NAME`` or ``NAME:ARGUMENT`` picks a registered backend (``local``, ``local:/models/x.gguf``,
``upstream:http://127.0.0.1:8001/v1``, ``anthropic``); any other ``module:callable`` is
imported and called (a class's ``from_env`` first), as before backends were plugins.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from types import ModuleType

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import FallbackBackend
from zerolayer.core.plugin_host import load_plugins, selected_plugins
from zerolayer.core.registry import Registry

FALLBACK_ENV = "ZEROLAYER_FALLBACK"


def backend_registry(
    env: Mapping[str, str] | None = None, *, extra: Mapping[str, object] | None = None
) -> Registry:
    """The registry with every backend: the built-in ones and those of installed plugins."""
    from zerolayer.core.neural import plugin

    plugins: dict[str, object | ModuleType] = {plugin.PLUGIN_NAME: plugin, **(extra or {})}
    _, registry = load_plugins(selected_plugins(env), extra=plugins)
    return registry


def split_spec(spec: str, names: set[str] | frozenset[str]) -> tuple[str, str] | None:
    """(backend name, argument) when ``spec`` names a registered backend, else None."""
    name, sep, argument = spec.strip().partition(":")
    if name in names:
        return name, argument if sep else ""
    return None


def backend_from_spec(
    spec: str, env: Mapping[str, str] | None = None, *, registry: Registry | None = None
) -> FallbackBackend:
    """Build the backend ``spec`` names; StartupError when it names nothing usable."""
    env = os.environ if env is None else env
    registry = registry or backend_registry(env)
    picked = split_spec(spec, frozenset(registry.backends))
    if picked is not None:
        name, argument = picked
        backend = registry.backends[name].factory(argument, env)
    elif ":" in spec and "/" not in spec.partition(":")[0]:
        backend = _from_object(spec)
    else:
        raise StartupError(
            f"{FALLBACK_ENV}={spec!r} names no backend",
            hint="backends: " + ", ".join(sorted(registry.backends)) + ", or module:callable",
        )
    if not isinstance(backend, FallbackBackend):
        raise StartupError(f"{spec!r} did not give a fallback backend (generate, stream, name)")
    return backend


def fallback_from_env(env: Mapping[str, str] | None = None) -> FallbackBackend | None:
    """The backend ``ZEROLAYER_FALLBACK`` names, or None when it is unset or ``none``."""
    env = os.environ if env is None else env
    spec = (env.get(FALLBACK_ENV) or "").strip()
    if spec in ("", "none", "off"):
        return None
    return backend_from_spec(spec, env)


def _from_object(spec: str) -> FallbackBackend:
    module_name, _, attr = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise StartupError(f"cannot load {spec!r}: {exc}") from exc
    from_env = getattr(factory, "from_env", None)
    backend: FallbackBackend = from_env() if callable(from_env) else factory()
    return backend
