"""The plugin contract: every hook a zerolayer plugin may implement.

Each hook receives a ``register`` callback; the host checks every item a plugin registers and
records which plugin gave it. Built-in plugins use these hooks exactly as third-party ones do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("zerolayer")
hookimpl = pluggy.HookimplMarker("zerolayer")


@hookspec
def register_ops(register: Callable[[Any], None]) -> None:
    """Register ops: call ``register(OpSpec(...))`` once per op."""


@hookspec
def register_grammar(register: Callable[[Any], None]) -> None:
    """Register instruction grammar: call ``register(GrammarFragment(...))``."""


@hookspec
def register_examples(register: Callable[[Any], None]) -> None:
    """Register worked examples: call ``register(Example(...))`` once per example."""


@hookspec
def register_backends(register: Callable[[Any], None]) -> None:
    """Register neural fallback backends: call ``register(BackendSpec(...))`` once per backend."""


@hookspec
def register_lexicon(register: Callable[[Any], None]) -> None:
    """Register words for frame recognition: call ``register(Lexicon(...))`` (see
    :mod:`zerolayer.core.frames`)."""
