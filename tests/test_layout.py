"""Imports go downward: cli → rules_api → core, and plugins → core.

Every module's imports are read from its syntax tree (those inside functions too), and so are
the strings that name a module (what ``importlib.import_module`` would be given).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package → the zerolayer packages its modules must not reach
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "core": ("zerolayer.cli", "zerolayer.rules_api", "zerolayer.plugins"),
    "plugins": ("zerolayer.cli", "zerolayer.rules_api"),
    "rules_api": ("zerolayer.cli",),
}
# The one place the engine names the built-in plugins: the plugin host reads the module names
# of zerolayer.plugins.DEFAULT_PLUGINS and registers each exactly like a third-party plugin.
ALLOWED = {("core/plugin_host.py", "zerolayer.plugins")}


def _reached(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) for each import and each string that names a zerolayer module."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            if node.module == "zerolayer":  # from zerolayer import plugins
                found += [(node.lineno, f"zerolayer.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.split(":")[0]
            if text.startswith("zerolayer.") and text.replace(".", "").replace("_", "").isalnum():
                found.append((node.lineno, text))
    return found


def _violations(package: str) -> list[str]:
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        for line, module in _reached(tree):
            for banned in FORBIDDEN[package]:
                hit = module == banned or module.startswith(banned + ".")
                if hit and (rel, banned) not in ALLOWED:
                    out.append(f"{rel}:{line} reaches {module}")
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_go_downward(package: str) -> None:
    assert _violations(package) == []


def test_the_walk_sees_imports_inside_functions_and_module_names() -> None:
    source = (
        "def f():\n"
        "    from zerolayer.rules_api.server import serve\n"
        "    import zerolayer.cli.main\n"
        "    from zerolayer import plugins\n"
        "    importlib.import_module('zerolayer.rules_api.cli')\n"
    )
    reached = [m for _, m in _reached(ast.parse(source))]
    assert reached == [
        "zerolayer.rules_api.server",
        "zerolayer.cli.main",
        "zerolayer",
        "zerolayer.plugins",
        "zerolayer.rules_api.cli",
    ]


def test_the_allowed_exception_is_still_needed() -> None:
    # an allowance nothing uses any more is dropped, so that it cannot hide a new import
    for rel, banned in ALLOWED:
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        assert any(m == banned or m.startswith(banned + ".") for _, m in _reached(tree))
