"""``zerolayer plugin new NAME``: a package that registers through the entry point and whose
own tests pass out of the box; bad names and existing folders are refused."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest
from plugin_kit_support import PYTHON, subprocess_env

from zerolayer.cli.plugin_template import TemplateError, create_plugin, plugin_files


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "-m", "zerolayer.cli", *args],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=120,
        check=False,
    )


def test_files_register_through_the_entry_point_group() -> None:
    files = plugin_files("shout")
    project = tomllib.loads(files["pyproject.toml"])
    assert project["project"]["name"] == "zerolayer-shout"
    assert project["project"]["entry-points"]["zerolayer"] == {"shout": "zerolayer_shout"}
    assert "%extend clause: shout_clause" in files["src/zerolayer_shout/shout.lark"]
    assert set(files) >= {"tests/test_shout.py", "tests/conftest.py", "README.md"}


@pytest.mark.parametrize("name", ["", "X", "my-plugin", "9lives", "class", "a" * 40, "a"])
def test_bad_names_are_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(TemplateError):
        create_plugin(name, tmp_path)


def test_an_existing_folder_is_not_overwritten(tmp_path: Path) -> None:
    create_plugin("shout", tmp_path)
    with pytest.raises(TemplateError, match="already exists"):
        create_plugin("shout", tmp_path)


@pytest.mark.slow
def test_cli_creates_a_package_whose_tests_pass(tmp_path: Path) -> None:
    made = _cli("plugin", "new", "shout", "--dir", str(tmp_path))
    assert made.returncode == 0, made.stdout + made.stderr
    root = tmp_path / "zerolayer-shout"
    ran = subprocess.run(
        [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=root,
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=300,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout[-3000:]
    assert "3 passed" in ran.stdout
    assert _cli("plugin", "new", "Bad-Name", "--dir", str(tmp_path)).returncode == 2


@pytest.mark.slow
def test_installed_package_is_listed_and_answers(tmp_path: Path) -> None:
    root = create_plugin("shout", tmp_path)
    site = tmp_path / "site"
    args = ["install", "-q", "--no-deps", "--no-build-isolation", "--target", str(site)]
    pip = subprocess.run(
        [PYTHON, "-m", "pip", *args, str(root)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert pip.returncode == 0, pip.stderr
    env = subprocess_env(site)
    listed = subprocess.run(
        [PYTHON, "-m", "zerolayer.cli", "plugins"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert "shout 0.1.0" in listed.stdout, listed.stderr
    ran = subprocess.run(
        [PYTHON, "-m", "zerolayer.cli", "run", "shout this", "-"],
        input="hi\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert ran.stdout == "HI\n", ran.stderr
