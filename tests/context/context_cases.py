"""Load the data-driven context cases (YAML and JSON Lines files under ``cases/``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

CASES = Path(__file__).parent / "cases"


def load(name: str) -> list[Any]:
    """The cases of ``cases/<name>`` as ``pytest.param`` objects with their ``id``."""
    path = CASES / name
    if path.suffix == ".jsonl":
        items = [json.loads(ln) for ln in path.read_text("utf-8").splitlines() if ln.strip()]
    else:
        items = yaml.safe_load(path.read_text("utf-8"))
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids)), f"duplicate ids in {name}"
    return [pytest.param(item, id=item["id"]) for item in items]


def raw(name: str) -> list[dict[str, Any]]:
    """The cases of ``cases/<name>`` as plain dicts."""
    return [p.values[0] for p in load(name)]
