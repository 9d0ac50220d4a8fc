"""The plugin template: ``create_plugin("shout", Path("."))`` writes ``zerolayer-shout/``, a
package that registers through the ``zerolayer`` entry-point group and passes its own test.

The package holds one op (``shout.upper``: upper-case the payload), a grammar fragment with one
keyword (the plugin's name: "shout this"), one worked example, a README and a test that runs
the example and checks that an open-ended request still falls back. Rename and grow from there
(docs/plugins/tutorial.md walks through it).
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from zerolayer.core.errors import ZeroLayerError

NAME = re.compile(r"^[a-z][a-z0-9]{1,30}$")


class TemplateError(ZeroLayerError):
    """The plugin cannot be created (bad name, folder already there)."""


PYPROJECT = """\
[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "zerolayer-{name}"
version = "0.1.0"
description = "zerolayer plugin: {name}"
requires-python = ">=3.11"
dependencies = ["zerolayer>=0.1"]

[project.entry-points.zerolayer]
{name} = "zerolayer_{name}"

[tool.setuptools]
package-dir = {{ "" = "src" }}
packages = ["zerolayer_{name}"]

[tool.setuptools.package-data]
zerolayer_{name} = ["*.lark"]

[tool.pytest.ini_options]
testpaths = ["tests"]
filterwarnings = ["error"]
"""

README = """\
# zerolayer-{name}

A zerolayer plugin. `pip install -e .` registers it through the `zerolayer` entry-point
group; `zerolayer plugins` then lists `{name}`, and `zerolayer run "{name} this" FILE`
upper-cases FILE. Test it with `python -m pytest tests`.
"""

GRAMMAR = """\
// The {name} family: "{name} this" upper-cases the payload.
// Rules start with {name}_, terminals with {upper}_ (checked at start-up).

%extend clause: {name}_clause

{name}_clause: {upper}_WORD

{upper}_WORD.2: /{name}(?![A-Za-z0-9_])/i
"""

INIT = '''\
"""zerolayer-{name}: one op, one grammar clause and one worked example."""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from typing import Any

from zerolayer.core.hookspecs import hookimpl
from zerolayer.core.ops import OpSpec
from zerolayer.core.plan import Step
from zerolayer.core.registry import Example, GrammarFragment

__version__ = "0.1.0"


def upper(text: str) -> str:
    """The payload in upper case."""
    return text.upper()


EXAMPLES = (Example("{name} this", "hello, world\\n", "HELLO, WORLD\\n"),)


@hookimpl
def register_ops(register: Callable[[Any], None]) -> None:
    register(OpSpec("{name}.upper", "text", "text", upper, description="Upper-case the text."))


@hookimpl
def register_grammar(register: Callable[[Any], None]) -> None:
    text = files("zerolayer_{name}").joinpath("{name}.lark").read_text(encoding="utf-8")
    register(GrammarFragment("{name}", text, {{"{name}_clause": lambda _: [Step("{name}.upper")]}}))


@hookimpl
def register_examples(register: Callable[[Any], None]) -> None:
    for example in EXAMPLES:
        register(example)
'''

CONFTEST = '''\
"""Make the package importable from its source folder, installed or not."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
'''

TEST = '''\
"""The plugin's own tests: its examples answer exactly; what it cannot do falls back."""

from __future__ import annotations

import pytest
from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.messages import Route
from zerolayer.plugins import DEFAULT_PLUGINS

import zerolayer_{name}

BUILTIN = frozenset(m.rsplit(".", 1)[-1] for m in DEFAULT_PLUGINS)


@pytest.fixture(scope="module")
def engine() -> Engine:
    """The built-in plugins and this one, loaded in-process (installed or not)."""
    return Engine(EngineConfig(plugins=BUILTIN), plugins={{"{name}": zerolayer_{name}}})


@pytest.mark.parametrize("example", zerolayer_{name}.EXAMPLES, ids=lambda e: e.instruction)
def test_example(engine: Engine, example) -> None:  # type: ignore[no-untyped-def]
    result = engine.run(example.instruction, example.payload)
    assert result.route is Route.DETERMINISTIC, result.detail
    assert result.output == example.expected


def test_open_ended_request_falls_back(engine: Engine) -> None:
    assert engine.run("{name} this and explain why", "x").route is Route.FALLBACK


def test_unknown_words_fall_back(engine: Engine) -> None:
    assert engine.run("{name} this gently", "x").route is Route.FALLBACK
'''


def plugin_files(name: str) -> dict[str, str]:
    """The files of a new plugin package, by path relative to its folder."""
    check_name(name)
    values = {"name": name, "upper": name.upper()}
    package = f"src/zerolayer_{name}"
    return {
        "pyproject.toml": PYPROJECT.format(**values),
        "README.md": README.format(**values),
        f"{package}/__init__.py": INIT.format(**values),
        f"{package}/{name}.lark": GRAMMAR.format(**values),
        "tests/conftest.py": CONFTEST,
        f"tests/test_{name}.py": TEST.format(**values),
    }


def check_name(name: str) -> None:
    """A plugin name is a grammar namespace and a keyword: lower-case letters and digits."""
    if not NAME.match(name) or keyword.iskeyword(name):
        raise TemplateError(
            f"plugin name {name!r} must be 2-31 lower-case letters and digits, starting with "
            "a letter (it becomes the grammar namespace, the op prefix and the keyword)"
        )


def create_plugin(name: str, parent: Path) -> Path:
    """Write ``parent/zerolayer-NAME/`` from the template; return its path."""
    files = plugin_files(name)
    root = parent / f"zerolayer-{name}"
    if root.exists():
        raise TemplateError(f"{root} already exists")
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
