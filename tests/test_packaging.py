"""Packaging: one `zerolayer` namespace, every package listed, grammars shipped."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
TOP_LEVEL = ("core", "plugins", "grammars", "rules_api", "cli")


def _declared() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(config["tool"]["setuptools"]["packages"])


def test_every_package_directory_is_declared() -> None:
    found = {"zerolayer"}
    for top in TOP_LEVEL:
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT)
            found.add(".".join(("zerolayer", *rel.parts)))
    assert found == _declared()


@pytest.mark.slow
def test_the_wheel_installs_only_the_zerolayer_namespace(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("zerolayer-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"zerolayer"}
    assert "zerolayer/grammars/base.lark" in names
    assert "zerolayer/grammars/json_yaml.lark" in names
    assert not any(n.startswith("zerolayer/tests/") for n in names)
    assert "zerolayer/cli/main.py" in names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert (
        "zerolayer = zerolayer.cli.main:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    )
