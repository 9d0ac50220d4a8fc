"""Meta-tests of the plugin documentation: every hook of core/hookspecs.py has a heading in
docs/plugins/hooks.md and a test in tests/; every runnable block of docs/plugins/ runs; the
tutorial, followed step by step, gives a package whose tests pass."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from zerolayer.cli.plugin_template import create_plugin
from zerolayer.core import hookspecs

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "plugins"
HOOKS = sorted(n for n in dir(hookspecs) if n.startswith("register_"))
RUNNABLE = re.compile(r"<!-- runnable -->\n```python\n(.*?)```", re.DOTALL)
FILE_BLOCK = re.compile(r"<!-- file: (\S+) -->\n```\w+\n(.*?)```", re.DOTALL)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / ".dev"), env.get("PYTHONPATH", "")])
    return env


def _blocks() -> list[tuple[str, int, str]]:
    found = []
    for page in sorted(DOCS.glob("*.md")):
        for i, block in enumerate(RUNNABLE.findall(page.read_text(encoding="utf-8")), 1):
            found.append((page.name, i, block))
    return found


def test_hooks_are_found() -> None:
    assert HOOKS == [
        "register_backends",
        "register_examples",
        "register_grammar",
        "register_lexicon",
        "register_ops",
    ]


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_has_a_heading_with_a_runnable_example(hook: str) -> None:
    text = (DOCS / "hooks.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.MULTILINE)
    mine = [s for s in sections if s.startswith(f"`{hook}(register)`")]
    assert mine, f"docs/plugins/hooks.md has no heading for {hook}"
    assert RUNNABLE.search("## " + mine[0]), f"the {hook} section has no runnable example"
    assert f"def {hook}(" in mine[0], f"the {hook} example does not implement {hook}"


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_has_a_test(hook: str) -> None:
    """A test outside this file implements the hook in a plugin of its own."""
    implementing = re.compile(rf"def {hook}\(|{hook}=")
    files = [
        p
        for p in (ROOT / "tests").rglob("test_*.py")
        if p.name != Path(__file__).name and implementing.search(p.read_text(encoding="utf-8"))
    ]
    assert files, f"no test under tests/ implements the hook {hook}"


@pytest.mark.parametrize(("page", "index", "code"), _blocks(), ids=lambda v: str(v)[:20])
def test_runnable_block(page: str, index: int, code: str, tmp_path: Path) -> None:
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, f"{page} block {index}:\n{ran.stderr[-2000:]}"


def test_every_page_has_runnable_blocks_where_promised() -> None:
    pages = {page for page, _, _ in _blocks()}
    assert {"hooks.md", "testing.md"} <= pages


@pytest.mark.slow
def test_tutorial_builds_a_plugin_whose_tests_pass(tmp_path: Path) -> None:
    root = create_plugin("lines", tmp_path)
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    files = FILE_BLOCK.findall(text)
    assert len(files) == 4
    for relative, body in files:
        (root / relative).write_text(body, encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=root,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=300,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout[-3000:]
    assert "10 passed" in ran.stdout


def test_the_old_page_points_to_the_new_ones() -> None:
    text = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    for page in ("index.md", "hooks.md", "tutorial.md", "testing.md"):
        assert f"plugins/{page}" in text and (DOCS / page).is_file()
