"""The catalogue of ZEROLAYER_* variables: complete, true to the code's defaults, the same as
docs/configuration.md; and ``zerolayer config`` printing it with secrets masked."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

import pytest

from zerolayer.cli.main import main
from zerolayer.core.engine import EngineConfig
from zerolayer.core.neural.transport import TransportSettings
from zerolayer.core.router.config import RouterSettings
from zerolayer.core.variables import BY_NAME, DOC_END, DOC_START, VARIABLES, markdown_table
from zerolayer.rules_api.settings import ServiceSettings

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "configuration.md"
QUOTED = re.compile(r"[\"'`](ZEROLAYER_[A-Z0-9_]*[A-Z0-9])")


def read_in_code() -> set[str]:
    """Every quoted ZEROLAYER_* name in the product's Python sources."""
    names: set[str] = set()
    for folder in ("core", "rules_api", "plugins", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            names.update(QUOTED.findall(path.read_text(encoding="utf-8")))
    return names


def test_every_variable_the_code_names_is_catalogued() -> None:
    prefixes = {n for n in read_in_code() if any(v.startswith(n + "_") for v in BY_NAME)}
    missing = read_in_code() - set(BY_NAME) - prefixes
    assert not missing, f"add these to core/variables.py: {sorted(missing)}"
    assert len(BY_NAME) == len(VARIABLES)  # no name twice


def same(listed: str, value: object) -> bool:
    if value is None:
        return listed == ""
    if isinstance(value, bool):
        return listed == ("1" if value else "")
    if isinstance(value, int | float):
        return float(listed) == float(value)
    return listed == str(value)


@pytest.mark.parametrize(
    ("prefix", "defaults"),
    [
        ("ZEROLAYER_", ServiceSettings()),
        ("ZEROLAYER_UPSTREAM_", TransportSettings()),
        ("ZEROLAYER_ANTHROPIC_", TransportSettings()),
    ],
)
def test_the_catalogue_defaults_are_the_codes(prefix: str, defaults: object) -> None:
    for f in fields(defaults):  # type: ignore[arg-type]
        variable = BY_NAME[prefix + f.name.upper()]
        assert same(variable.default, getattr(defaults, f.name)), variable


def test_engine_and_router_defaults() -> None:
    engine, router = EngineConfig(), RouterSettings()
    assert same(BY_NAME["ZEROLAYER_MAX_PAYLOAD_BYTES"].default, engine.max_payload_bytes)
    assert same(BY_NAME["ZEROLAYER_TIME_LIMIT"].default, engine.time_limit)
    assert same(BY_NAME["ZEROLAYER_MAX_BLOCKS"].default, engine.max_blocks)
    assert same(BY_NAME["ZEROLAYER_ROUTER"].default, router.mode)
    assert same(BY_NAME["ZEROLAYER_ROUTER_THRESHOLD"].default, router.threshold)
    assert same(BY_NAME["ZEROLAYER_ROUTER_ZH_THRESHOLD"].default, router.zh_threshold)
    assert same(BY_NAME["ZEROLAYER_ROUTER_MAX_UNKNOWN"].default, router.max_unknown)


def test_the_docs_table_is_the_generated_one() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(DOC_START), text.index(DOC_END) + len(DOC_END)
    assert text[start:end] == markdown_table(), (
        "regenerate the table: python -m zerolayer.core.variables, between the markers"
    )


def test_config_prints_every_variable_with_secrets_masked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = "redis://:hunter2-not-shown@127.0.0.1:6379/0"
    monkeypatch.setenv("ZEROLAYER_REDIS_URL", secret)
    monkeypatch.setenv("ZEROLAYER_ADMIN_KEY", "admin-secret-not-shown")
    monkeypatch.setenv("ZEROLAYER_MODEL_ID", "fleet-model")
    monkeypatch.setenv("ZEROLAYER_MAX_BODY_BYTE", "10")  # a typo
    assert main(["config", "--json"]) == 0
    out = capsys.readouterr().out
    assert "hunter2" not in out and "admin-secret" not in out
    shown = json.loads(out)
    rows = {r["name"]: r for r in shown["variables"]}
    assert set(rows) == set(BY_NAME)
    assert rows["ZEROLAYER_REDIS_URL"] == {
        "name": "ZEROLAYER_REDIS_URL", "value": "********", "source": "env", "secret": True,
    }  # fmt: skip
    assert rows["ZEROLAYER_MODEL_ID"]["value"] == "fleet-model"
    assert rows["ZEROLAYER_CACHE_MAX_BYTES"] == {
        "name": "ZEROLAYER_CACHE_MAX_BYTES", "value": "67108864", "source": "default",
        "secret": False,
    }  # fmt: skip
    assert shown["unknown"] == ["ZEROLAYER_MAX_BODY_BYTE"]

    assert main(["config"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"^ZEROLAYER_MODEL_ID +[=] fleet-model  \[env\]$", text, re.M)
    assert "warning: ZEROLAYER_MAX_BODY_BYTE is set" in text


def test_config_fails_on_a_value_serve_would_refuse(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ZEROLAYER_CACHE_TTL_S", "0")
    assert main(["config"]) == 1
    assert "error: ZEROLAYER_CACHE_TTL_S must be at least 1" in capsys.readouterr().out
