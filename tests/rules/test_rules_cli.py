"""``zerolayer rules …`` and ``zerolayer keys create`` drive the whole workflow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rules_helpers import CONTRIB, Rig

from zerolayer.cli import rules_cli
from zerolayer.cli.main import EXIT_BAD_INPUT, main


def _run(capsys: pytest.CaptureFixture[str], key: str, *argv: str) -> tuple[int, str, str]:
    code = main(["rules", "--url", "http://testserver", "--key", key, *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_cli_workflow(
    rig: Rig, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rules_cli._Api, "client_factory", staticmethod(lambda _url: rig.client))
    path = str(CONTRIB / "contract-faq.yaml")
    author, reviewer, publisher = rig.keys["author"], rig.keys["reviewer"], rig.keys["publisher"]
    code, out, _ = _run(capsys, author, "validate", path)
    assert code == 0 and json.loads(out)["valid"] is True
    code, out, _ = _run(capsys, author, "push", path, "--freeze")
    assert code == 0 and json.loads(out)["number"] == 1
    code, out, _ = _run(capsys, author, "test", "contract-faq")
    assert code == 0 and json.loads(out)["passed"] is True
    assert _run(capsys, author, "submit", "contract-faq", "1")[0] == 0
    code, _, err = _run(capsys, author, "approve", "contract-faq", "1")
    assert code != 0 and "forbidden" in err
    assert _run(capsys, reviewer, "approve", "contract-faq", "1")[0] == 0
    code, out, _ = _run(capsys, publisher, "activate", "contract-faq", "1")
    assert code == 0 and json.loads(out)["active_version"] == 1
    code, out, _ = _run(capsys, author, "list")
    assert json.loads(out)["rules"][0]["active_version"] == 1
    code, out, _ = _run(capsys, rig.keys["auditor"], "log", "contract-faq")
    assert json.loads(out)["audit"][0]["action"] == "activate"


def test_cli_validate_prints_located_errors(
    rig: Rig, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(rules_cli._Api, "client_factory", staticmethod(lambda _url: rig.client))
    bad = tmp_path / "bad.yaml"
    bad.write_text((CONTRIB / "contract-faq.yaml").read_text().replace("c.body", "c.__class__"))
    code, _, err = _run(capsys, rig.keys["author"], "validate", str(bad))
    assert code == EXIT_BAD_INPUT
    assert "/templates/faq (line" in err and "start with _" in err


def test_keys_create_writes_a_usable_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from zerolayer.rules_api.rules.keys import resolve
    from zerolayer.rules_api.rules.store import RuleStore

    url = f"sqlite:///{tmp_path / 'k.db'}"
    assert (
        main(["keys", "create", "--tenant", "acme", "--roles", "author,auditor", "--db", url]) == 0
    )
    key = capsys.readouterr().out.strip()
    store = RuleStore(url)
    principal = resolve(store, key)
    assert principal is not None and principal.tenant == "acme"
    assert principal.roles == {"author", "auditor"}
    assert resolve(store, key[:-1] + ("A" if key[-1] != "A" else "B")) is None
    store.close()
    assert main(["keys", "create", "--tenant", "acme", "--roles", "wizard", "--db", url]) != 0
