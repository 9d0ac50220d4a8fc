"""Shared fixtures: one engine for the whole run (building it compiles the grammar)."""

from __future__ import annotations

import pytest

from zerolayer.core.engine import Engine, EngineConfig


@pytest.fixture(scope="session")
def engine() -> Engine:
    return Engine(EngineConfig())
