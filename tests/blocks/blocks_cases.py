"""Load the data-driven cases of the block syntax tests (``cases/*.yaml``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

CASES = Path(__file__).parent / "cases"


def load(name: str) -> list[dict[str, Any]]:
    """The cases of ``cases/NAME``; each has an ``id``."""
    data: list[dict[str, Any]] = yaml.safe_load((CASES / name).read_text(encoding="utf-8"))
    return data


def ids(case: dict[str, Any]) -> str:
    return str(case["id"])
