"""The command line lists every subcommand the documentation names, and a subcommand module
that fails to import stops the CLI instead of leaving its command out."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from zerolayer.cli.main import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

# `zerolayer WORD` in inline code, or a line `zerolayer WORD` (optionally after `$ `) in a
# fenced block: how the docs write a command, as opposed to prose ("zerolayer is …").
INLINE = re.compile(r"`zerolayer ([a-z][a-z-]*)")
SHELL_LINE = re.compile(r"^\s*(?:\$\s+)?zerolayer ([a-z][a-z-]*)")


def documented_commands() -> dict[str, str]:
    """Each subcommand named in the docs, with one file that names it."""
    found: dict[str, str] = {}
    for path in DOCS:
        fenced = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            names = INLINE.findall(line)
            if fenced and (m := SHELL_LINE.match(line)):
                names.append(m.group(1))
            for name in names:
                found.setdefault(name, str(path.relative_to(ROOT)))
    return found


def help_commands() -> set[str]:
    parser = build_parser()
    (sub,) = (a for a in parser._actions if a.dest == "command")
    return set(sub.choices)  # type: ignore[arg-type]


def test_the_docs_name_the_main_commands() -> None:
    # the extraction itself works: these are written in the docs in several places
    assert {"run", "explain", "plugins", "serve", "rules", "keys", "config"} <= set(
        documented_commands()
    )


@pytest.mark.parametrize("name", sorted(documented_commands()))
def test_every_documented_command_is_in_help(name: str) -> None:
    where = documented_commands()[name]
    assert name in help_commands(), f"{where} documents `zerolayer {name}`, the CLI has none"


def test_help_lists_every_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "zerolayer.cli", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    listed = set(re.search(r"\{([a-z,-]+)\}", out).group(1).split(","))  # type: ignore[union-attr]
    assert listed == help_commands()
    assert set(documented_commands()) <= listed


def test_every_command_module_registers_a_command() -> None:
    assert len(help_commands()) >= 3 + len(COMMANDS)


@pytest.mark.parametrize("module", [m.__name__ for m in COMMANDS])
def test_a_command_module_that_fails_to_import_is_an_error(module: str) -> None:
    # None in sys.modules makes `import` raise ImportError, as a broken module would
    code = (
        "import sys\n"
        f"sys.modules[{module!r}] = None\n"
        "from zerolayer.cli.main import main\n"
        "main(['--help'])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout
    assert re.search(r"^(ModuleNotFound|Import)Error: ", proc.stderr, re.M)
    assert module in proc.stderr
