"""Case files: YAML lists of test cases, each with an ``id`` unique across the files read, and
the expectation engine cases share (a fallback reason or an error class)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core.messages import EngineResult, Route


def read_cases(paths: Iterable[Path], key: str | None = None) -> list[tuple[Path, dict[str, Any]]]:
    """Every case of the files in turn, with the file it came from.

    A file is a list of cases, or (with ``key``) a mapping that holds the list under ``key``.
    A case id used twice fails the run.
    """
    cases: list[tuple[Path, dict[str, Any]]] = []
    seen: set[str] = set()
    for path in paths:
        doc = yaml.safe_load(path.read_text("utf-8"))
        for case in doc[key] if key is not None else doc:
            assert case["id"] not in seen, f"duplicate case id {case['id']}"
            seen.add(case["id"])
            cases.append((path, case))
    return cases


def case_params(folder: Path) -> list[Any]:
    """A pytest parameter per case of ``folder/*.yaml`` (files in name order), with the id
    ``file-stem/case-id``."""
    return [
        pytest.param(case, id=f"{path.stem}/{case['id']}")
        for path, case in read_cases(sorted(folder.glob("*.yaml")))
    ]


def assert_fallback_or_error(result: EngineResult, case: dict[str, Any]) -> None:
    """The case's ``fallback`` (the reason the request goes to the model), else its ``error``
    (the error class of an HTTP 400 answer)."""
    if "fallback" in case:
        assert result.route is Route.FALLBACK, (result.output, result.plan)
        assert result.reason == case["fallback"], result.detail
    else:
        assert result.route is Route.ERROR, (result.route, result.reason, result.output)
        assert type(result.error).__name__ == case["error"], str(result.error)
