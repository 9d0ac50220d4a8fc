"""Building the intent router from configuration: ``ZEROLAYER_ROUTER``.

``off`` (the default, also when unset): no router; the engine imports no torch and starts in
a fraction of a second. ``minilm``: the all-MiniLM-L6-v2 router; a start-up error when the
model package or torch is missing. ``auto``: ``minilm`` when both are installed, else off.
``ZEROLAYER_ROUTER_THRESHOLD`` (English, embedding cosine), ``ZEROLAYER_ROUTER_ZH_THRESHOLD``
(Chinese, n-gram cosine) and ``ZEROLAYER_ROUTER_MAX_UNKNOWN`` tune it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zerolayer.core.errors import StartupError
from zerolayer.core.router.router import (
    DEFAULT_MAX_UNKNOWN,
    DEFAULT_THRESHOLD,
    DEFAULT_ZH_THRESHOLD,
)

if TYPE_CHECKING:
    from zerolayer.core.router.router import IntentRouter

ROUTER_ENV = "ZEROLAYER_ROUTER"
MODES = ("off", "minilm", "auto")


@dataclass(frozen=True)
class RouterSettings:
    """Which router to build, and its thresholds."""

    mode: str = "off"
    threshold: float = DEFAULT_THRESHOLD
    zh_threshold: float = DEFAULT_ZH_THRESHOLD
    max_unknown: int = DEFAULT_MAX_UNKNOWN

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> RouterSettings:
        env = os.environ if env is None else env
        mode = (env.get(ROUTER_ENV) or "off").strip().lower()
        if mode in ("", "none", "0", "false"):
            mode = "off"
        if mode in ("1", "true", "on"):
            mode = "minilm"
        if mode not in MODES:
            raise StartupError(
                f"{ROUTER_ENV}={mode!r} is not a router", hint="choose off, minilm or auto"
            )
        try:
            return cls(
                mode=mode,
                threshold=float(env.get("ZEROLAYER_ROUTER_THRESHOLD") or DEFAULT_THRESHOLD),
                zh_threshold=float(
                    env.get("ZEROLAYER_ROUTER_ZH_THRESHOLD") or DEFAULT_ZH_THRESHOLD
                ),
                max_unknown=int(env.get("ZEROLAYER_ROUTER_MAX_UNKNOWN") or DEFAULT_MAX_UNKNOWN),
            )
        except ValueError as exc:
            raise StartupError(f"bad router setting: {exc}") from exc


def router_available() -> bool:
    """True when the router model and torch are installed (nothing is imported)."""
    from zerolayer.core.neural.embedder import embedder_folder, torch_available

    return embedder_folder() is not None and torch_available()


def load_router(
    settings: RouterSettings, env: Mapping[str, str] | None = None
) -> IntentRouter | None:
    """The router ``settings`` ask for, loaded and warmed up; None when it is off."""
    if settings.mode == "off" or (settings.mode == "auto" and not router_available()):
        return None
    from zerolayer.core.neural.embedder import load_embedder
    from zerolayer.core.router.router import IntentRouter

    embedder = load_embedder(env)
    embedder.encode(["warm up the sentence encoder"] * 2)  # first passes are slow
    return IntentRouter(
        embedder.encode,
        name="minilm",
        threshold=settings.threshold,
        zh_threshold=settings.zh_threshold,
        max_unknown=settings.max_unknown,
        info={"model": embedder.name, "device": embedder.device, "source": embedder.source},
    )
