"""The two kinds of uploaded text that run: sandboxed Jinja2 templates and regular expressions.

Templates render in Jinja2's ``SandboxedEnvironment`` with no globals that reach Python (no
``lipsum``, no ``self``), attribute names that start with ``_`` refused before they run, and an
output size limit. Regular expressions run in the ``regex`` module with a timeout per call.
Both also run inside worker processes with a hard time limit (``isolation.py``).
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

import regex
from jinja2 import StrictUndefined, TemplateSyntaxError, nodes
from jinja2.exceptions import SecurityError, TemplateError, UndefinedError
from jinja2.sandbox import SandboxedEnvironment

from zerolayer.core.errors import LimitExceeded, OpError, Unsupported

SAFE_GLOBALS = ("range", "dict", "namespace", "cycler", "joiner")


class RuleEnvironment(SandboxedEnvironment):
    """Jinja2's sandbox with a deadline checked on every attribute access and call."""

    deadline: float | None = None

    def _tick(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise LimitExceeded("the template ran past its time limit")

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        self._tick()
        if attr.startswith("_"):
            return False
        return bool(super().is_safe_attribute(obj, attr, value))

    def call(self, context: Any, obj: Any, *args: Any, **kwargs: Any) -> Any:
        self._tick()
        return super().call(context, obj, *args, **kwargs)


def make_environment() -> RuleEnvironment:
    """A fresh sandboxed environment with only harmless globals."""
    env = RuleEnvironment(
        autoescape=False, undefined=StrictUndefined, keep_trailing_newline=True, cache_size=64
    )
    env.globals = {k: v for k, v in env.globals.items() if k in SAFE_GLOBALS}
    return env


_ENV = make_environment()


def template_problems(source: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of each problem in a template, found without running it."""
    try:
        tree = _ENV.parse(source)
    except TemplateSyntaxError as exc:
        return [(exc.lineno or 1, 1, f"template syntax: {exc.message}")]
    problems: list[tuple[int, int, str]] = []
    for node in tree.find_all((nodes.Getattr, nodes.Getitem, nodes.Name)):
        name = None
        if isinstance(node, nodes.Getattr):
            name = node.attr
        elif isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const):
            name = node.arg.value if isinstance(node.arg.value, str) else None
        elif isinstance(node, nodes.Name):
            name = node.name
        if name is not None and name.startswith("_"):
            problems.append((node.lineno, 1, f"names that start with _ are not allowed ({name!r})"))
    for node in tree.find_all(nodes.Name):
        if node.ctx == "load" and node.name in ("self", "lipsum", "config", "request"):
            problems.append((node.lineno, 1, f"{node.name!r} is not available in rule templates"))
    return problems


@lru_cache(maxsize=256)
def _compiled(source: str) -> Any:
    return _ENV.from_string(source)


def render(source: str, context: dict[str, Any], *, max_chars: int, time_limit: float) -> str:
    """Render a template in the sandbox; OpError on a refused access, LimitExceeded on limits."""
    if template_problems(source):
        raise OpError("the template is not allowed (validate the rule for details)")
    template = _compiled(source)
    _ENV.deadline = time.perf_counter() + time_limit
    parts: list[str] = []
    size = 0
    try:
        for chunk in template.generate(**context):
            size += len(chunk)
            if size > max_chars:
                raise LimitExceeded(f"the template output is over {max_chars} characters")
            parts.append(chunk)
            _ENV._tick()
    except SecurityError as exc:
        raise OpError(f"template: {exc}") from None
    except UndefinedError as exc:
        raise Unsupported("rule.template_undefined", f"template: {exc}") from None
    except (TemplateError, TypeError, ValueError, ArithmeticError, LookupError) as exc:
        raise Unsupported(
            "rule.template_failed", f"template: {type(exc).__name__}: {exc}"
        ) from None
    except OverflowError as exc:
        raise LimitExceeded(f"template: {exc}") from None
    finally:
        _ENV.deadline = None
    return "".join(parts)


def pattern_problem(pattern: str) -> tuple[int, str] | None:
    """(column, message) when ``pattern`` does not compile, else None."""
    try:
        compile_pattern(pattern)
    except regex.error as exc:
        pos = exc.pos if isinstance(exc.pos, int) else 0
        return pos + 1, f"regular expression: {exc.msg}"
    return None


@lru_cache(maxsize=256)
def compile_pattern(pattern: str) -> Any:
    """A compiled ``regex`` pattern (the module that supports timeouts)."""
    return regex.compile(pattern, regex.VERSION0)


def _timed(func: Any, *args: Any, timeout: float, **kwargs: Any) -> Any:
    try:
        return func(*args, timeout=timeout, **kwargs)
    except TimeoutError:
        raise LimitExceeded(
            f"the regular expression ran past its time limit of {timeout:g} s"
        ) from None


def findall(pattern: str, text: str, *, timeout: float) -> list[Any]:
    """Each match: a dict of named groups when the pattern names groups, else the match text."""
    compiled = compile_pattern(pattern)
    matches = _timed(lambda **kw: list(compiled.finditer(text, **kw)), timeout=timeout)
    if not matches:
        raise Unsupported("rule.no_match", "the rule's pattern finds nothing in the payload")
    if compiled.groupindex:
        return [{k: v for k, v in m.groupdict().items()} for m in matches]
    return [m.group(0) for m in matches]


def fullmatch(pattern: str, text: str, *, timeout: float) -> dict[str, Any]:
    """The named groups of a match of the whole text; Unsupported when it does not match."""
    compiled = compile_pattern(pattern)
    m = _timed(compiled.fullmatch, text, timeout=timeout)
    if m is None:
        raise Unsupported("rule.no_match", "the payload does not match the rule's pattern")
    return dict(m.groupdict())


def replace(pattern: str, replacement: str, text: str, *, timeout: float, count: int = 0) -> str:
    """Substitute matches; the replacement may only name groups (\\g<name>, \\1)."""
    compiled = compile_pattern(pattern)
    try:
        return str(_timed(compiled.sub, replacement, text, count=count, timeout=timeout))
    except regex.error as exc:
        raise OpError(f"regex.replace: bad replacement: {exc}") from None


def split(pattern: str, text: str, *, timeout: float) -> list[str]:
    """The text between matches (empty pieces dropped, pieces stripped)."""
    compiled = compile_pattern(pattern)
    pieces = _timed(compiled.split, text, timeout=timeout)
    return [p.strip() for p in pieces if isinstance(p, str) and p.strip()]
