"""The block syntax documentation says what the code does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from zerolayer.cli import main as cli
from zerolayer.core.blocks.syntax import VERSIONS, status
from zerolayer.core.engine import Engine

DOCS = Path(__file__).parents[2] / "docs"


def test_the_status_example_is_what_the_route_answers() -> None:
    text = (DOCS / "http.md").read_text(encoding="utf-8")
    block = re.search(r"`GET /v1/beta/status` answers:\n\n```json\n(.*?)```", text, re.S)
    assert block is not None
    assert json.loads(block.group(1)) == {"syntax": status()}


def test_the_versions_table_has_every_version_and_its_date() -> None:
    text = (DOCS / "instructions.md").read_text(encoding="utf-8")
    for version in VERSIONS.values():
        row = re.search(rf"^\| `{version.name}` \|.*$", text, re.M)
        assert row is not None, version.name
        if version.deprecation_date:
            assert f"deprecated since {version.deprecation_date}" in row.group(0)
        else:
            assert "current" in row.group(0)


def test_the_cli_reads_a_declared_version(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "engine", lambda: engine)
    legacy = "[CODE_CONVERSION lang=json to=yaml]\n[1]\n[/CODE_CONVERSION]"
    assert cli.main(["run", legacy]) == 0
    out, err = capsys.readouterr()
    assert out == "- 1\n" and "deprecated since 2026-12-01" in err
    assert cli.main(["run", "--syntax", "v2", legacy]) == 3
    assert "read as text" in capsys.readouterr().err
    assert cli.main(["run", "--syntax", "v9", legacy]) == 4
    assert "v2 (current)" in capsys.readouterr().err
    assert cli.main(["explain", "--json", legacy + "<ask>why?</ask>"]) == 3
    explained = json.loads(capsys.readouterr().out)
    assert [p["kind"] for p in explained["parts"]] == ["zero", "model"]
    assert explained["warnings"] and explained["reason"] == "blocks.mixed"
