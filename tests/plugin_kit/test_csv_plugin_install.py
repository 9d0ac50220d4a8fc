"""The contrib CSV plugin installed through the entry-point group: the engine, the CLI and the
HTTP API answer its instructions; left out (ZEROLAYER_PLUGINS) or not installed, they fall back.

CI installs it for real (``pip install -e contrib/zerolayer-csv``); elsewhere the
``installed_csv`` fixture gives the same entry point without touching the environment.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from plugin_kit_support import (
    CSV_SRC,
    PYTHON,
    csv_installed_for_real,
    subprocess_env,
)

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.messages import Route
from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeFallback, anthropic_body

INSTRUCTION = "把这个CSV转成Markdown表格"
PAYLOAD = "名字,分数\n小明,90\n"
TABLE = "| 名字 | 分数 |\n| --- | --- |\n| 小明 | 90 |\n"
BUILTIN = frozenset({"json_yaml", "markdown_html"})


def _cli(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "-m", "zerolayer.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_engine_loads_it_from_the_entry_point(installed_csv: Path) -> None:
    engine = Engine(EngineConfig())
    assert "csv" in {p["name"] for p in engine.plugin_info()}
    result = engine.run(INSTRUCTION, PAYLOAD)
    assert result.route is Route.DETERMINISTIC, result.detail
    assert result.output == TABLE


def test_left_out_by_zerolayer_plugins_it_falls_back(installed_csv: Path) -> None:
    engine = Engine(EngineConfig(plugins=BUILTIN))
    assert "csv" not in {p["name"] for p in engine.plugin_info()}
    result = engine.run(INSTRUCTION, PAYLOAD)
    assert result.route is Route.FALLBACK
    assert result.reason == "parse.no_match"


@pytest.mark.skipif(csv_installed_for_real(), reason="zerolayer-csv is installed here")
def test_not_installed_it_falls_back() -> None:
    engine = Engine(EngineConfig())
    assert "csv" not in {p["name"] for p in engine.plugin_info()}
    assert engine.run(INSTRUCTION, PAYLOAD).route is Route.FALLBACK


@pytest.mark.slow
def test_cli_lists_it_and_answers(csv_site: Path) -> None:
    env = subprocess_env(csv_site, CSV_SRC)
    listed = _cli(["plugins", "--json"], env)
    assert listed.returncode == 0, listed.stderr
    plugin = {p["name"]: p for p in json.loads(listed.stdout)["plugins"]}["csv"]
    assert plugin["version"] == "0.1.0" and "csv.parse" in plugin["ops"]
    answered = _cli(["run", INSTRUCTION, "-"], env, PAYLOAD)
    assert answered.returncode == 0, answered.stderr
    assert answered.stdout == TABLE
    excluded = _cli(["run", INSTRUCTION, "-"], {**env, "ZEROLAYER_PLUGINS": "json_yaml"}, PAYLOAD)
    assert excluded.returncode == 3  # would fall back


def test_http_api_answers_it(installed_csv: Path) -> None:
    client = TestClient(create_app(Engine(EngineConfig()), fallback=FakeFallback()))
    body = anthropic_body(f"{INSTRUCTION}\n\n```csv\n{PAYLOAD}```")
    response = client.post("/v1/messages", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["x-zero-layer-status"] == "active"
    assert response.json()["content"][0]["text"] == TABLE


def test_http_api_without_it_falls_back(installed_csv: Path) -> None:
    engine = Engine(EngineConfig(plugins=BUILTIN))
    client = TestClient(create_app(engine, fallback=FakeFallback()))
    response = client.post("/v1/messages", json=anthropic_body(f"{INSTRUCTION}\n\n{PAYLOAD}"))
    assert response.headers["x-zero-layer-status"] == "inactive"
    assert response.json()["content"][0]["text"].startswith("[fallback]")


@pytest.mark.slow
def test_pip_installs_the_package_and_the_cli_finds_it(tmp_path: Path) -> None:
    """A real ``pip install`` of contrib/zerolayer-csv (into a folder, no network)."""
    site = tmp_path / "site"
    # a copy: building in place would leave build/ and an .egg-info in contrib/
    package = shutil.copytree(
        CSV_SRC.parent, tmp_path / "pkg", ignore=shutil.ignore_patterns("build", "*.egg-info")
    )
    args = ["install", "-q", "--no-deps", "--no-build-isolation", "--target", str(site)]
    pip = subprocess.run(
        [PYTHON, "-m", "pip", *args, str(package)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert pip.returncode == 0, pip.stderr
    assert (site / "zerolayer_csv" / "csv.lark").is_file()
    env = subprocess_env(site)
    answered = _cli(["run", "Convert this CSV to JSON", "-"], env, "a\n1\n")
    assert answered.returncode == 0, answered.stderr
    assert json.loads(answered.stdout) == [{"a": "1"}]
