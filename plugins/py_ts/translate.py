"""Python -> TypeScript translation through the standard-library ``ast`` module.

``parse_python`` reads the source (syntax errors become ``PayloadError`` with line and
column); ``python_to_typescript`` emits a TS program whose output is exactly the Python
program's output, or raises ``Unsupported`` naming the construct it cannot reproduce.
"""

from __future__ import annotations

import ast
import warnings

from zerolayer.core.errors import PayloadError, Unsupported
from zerolayer.plugins.py_ts.emit_stmt import translate_module

__all__ = ["parse_python", "python_to_typescript"]


def parse_python(source: str) -> ast.Module:
    """Parse Python source; a syntax error raises PayloadError(fmt="Python") with its place."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source, mode="exec")
    except SyntaxError as exc:
        raise PayloadError(
            exc.msg or "invalid syntax",
            fmt="Python",
            text=source,
            line=exc.lineno,
            column=exc.offset,
        ) from exc
    except (ValueError, RecursionError, MemoryError) as exc:
        raise PayloadError(str(exc) or "unreadable source", fmt="Python") from exc


def python_to_typescript(tree: ast.Module) -> str:
    """Translate a parsed Python module to a TypeScript program with the same output."""
    try:
        return translate_module(tree)
    except Unsupported:
        raise
    except RecursionError as exc:
        raise Unsupported("py_too_deep", "Python -> TypeScript: program nested too deeply") from exc
    except Exception as exc:  # a translator bug must fall back, never answer
        raise Unsupported(
            "py_translator_error", f"Python -> TypeScript: internal error ({type(exc).__name__})"
        ) from exc
