"""Shared fixtures: zeroscore's harness module, loaded by path (for its html_equals check)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ZEROSCORE = Path("/work/shared/zeroscore")


@pytest.fixture(scope="session")
def zeroscore() -> ModuleType:
    """/work/shared/zeroscore/zeroscore.py as a module (skips when it cannot be loaded)."""
    if not (ZEROSCORE / "zeroscore.py").exists():
        pytest.skip("zeroscore harness not available")
    pytest.importorskip("requests")  # zeroscore.py exits at import without these
    pytest.importorskip("yaml")
    spec = importlib.util.spec_from_file_location("zeroscore", ZEROSCORE / "zeroscore.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
