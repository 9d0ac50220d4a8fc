"""The command line: output and exit codes for answered, fallback and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from zerolayer.cli.main import EXIT_BAD_INPUT, EXIT_FALLBACK, EXIT_OK, main

EXAMPLE = Path(__file__).parents[1] / "examples" / "order.json"


def test_run_answers_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "Convert the following JSON to YAML", str(EXAMPLE)]) == EXIT_OK
    out = capsys.readouterr().out
    assert yaml.safe_load(out) == json.loads(EXAMPLE.read_text())


def test_run_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("b: 2\na: 1\n"))
    assert main(["run", "YAML to JSON, keys sorted, minified", "-"]) == EXIT_OK
    assert capsys.readouterr().out == '{"a":1,"b":2}\n'


def test_fallback_exit_code_and_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "Write a poem about this JSON", str(EXAMPLE)]) == EXIT_FALLBACK
    assert "gate.open_ended" in capsys.readouterr().err


def test_bad_payload_exit_code_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "a": 1,,\n}')
    assert main(["run", "Convert this JSON to YAML", str(bad)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "line 2" in err and "^" in err
    assert "Traceback" not in err


def test_run_plan(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "--plan", 'json.parse | get(path="items.1.sku")', str(EXAMPLE)])
    assert code == EXIT_OK
    assert capsys.readouterr().out == "C7\n"


def test_bad_plan_text_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--plan", "json.parse | sort(", str(EXAMPLE)]) == EXIT_BAD_INPUT
    assert "line 1, column" in capsys.readouterr().err


def test_explain(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "JSON to YAML, indent 4", str(EXAMPLE)]) == EXIT_OK
    assert capsys.readouterr().out.strip() == "json.parse | yaml.emit(indent=4)"
    assert main(["explain", "What is the best format?"]) == EXIT_FALLBACK


def test_plugins_lists_ops_and_grammar(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins", "--json"]) == EXIT_OK
    listing = json.loads(capsys.readouterr().out)
    info = {p["name"]: p for p in listing["plugins"]}
    assert "yaml.emit" in info["json_yaml"]["ops"]
    assert info["json_yaml"]["grammar"] == ["jy"]
    backends = {b["name"]: b for b in listing["backends"]}
    assert {"local", "upstream", "anthropic"} <= set(backends)
    assert backends["local"]["plugin"] == "neural" and backends["local"]["description"]
    assert listing["router"]["mode"] in ("off", "minilm", "auto")


def test_plugins_text_shows_backends_and_router(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ZEROLAYER_ROUTER", raising=False)
    assert main(["plugins"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "fallback backends (ZEROLAYER_FALLBACK=NAME[:ARGUMENT]" in out
    assert "  local " in out and "  anthropic " in out
    assert "intent router (ZEROLAYER_ROUTER, now off): off; model " in out
