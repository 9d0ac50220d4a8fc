"""The one exception tree of zerolayer.

    ZeroLayerError
    ├── StartupError            plugins or grammars that cannot be loaded (raised at start-up)
    ├── PlanError               a plan that is not well formed: unknown op, bad parameters, types
    │   └── PipelineSyntaxError pipeline text that does not parse (line, column)
    ├── PayloadError            a payload the recognised instruction cannot read (line, column)
    ├── OpError                 an op that cannot apply to a readable payload (missing field, …)
    ├── Unsupported             the engine cannot do this exactly: the request falls back
    └── LimitExceeded           an input, output or time limit was hit
        └── PositionedLimit     a limit hit at a line and column of a payload (nesting depth)

``PayloadError``, ``OpError`` and ``LimitExceeded`` become HTTP 400 ``invalid_request_error``
answers; ``Unsupported`` never reaches the user as an error: the engine hands the request to
the neural fallback and names the reason.
"""

from __future__ import annotations


class ZeroLayerError(Exception):
    """Base class of every error zerolayer raises on purpose."""

    code = "zerolayer_error"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.block: int | None = None

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\nHint: {self.hint}"

    def in_block(self, number: int, total: int, label: str = "") -> ZeroLayerError:
        """Place this error in block ``number`` of ``total`` of a message written in blocks:
        the message starts with the block (line and column count from the block's body)."""
        self.block = number
        where = f"block {number} of {total}" + (f" ({label})" if label else "")
        self.message = f"{where}: {self.message}"
        self.args = (self.message,)
        return self

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": str(self)}
        if self.block is not None:
            out["block"] = self.block
        return out


class StartupError(ZeroLayerError):
    """A plugin, grammar fragment or configuration that cannot be loaded."""

    code = "startup_error"


class PlanError(ZeroLayerError):
    """A plan that is not well formed (unknown op, bad parameters, mismatched types)."""

    code = "plan_error"


class Positioned(ZeroLayerError):
    """An error that points at a line and column of some text, with a caret excerpt."""

    what = "input"

    def __init__(
        self,
        message: str,
        *,
        text: str | None = None,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.reason = message
        self.line = line
        self.column = column
        self.excerpt = caret_excerpt(text, line, column) if text is not None else ""
        where = f" at line {line}, column {column}" if line is not None else ""
        full = f"invalid {self.what}{where}: {message}"
        if self.excerpt:
            full = f"{full}\n{self.excerpt}"
        super().__init__(full, hint=hint)

    def to_dict(self) -> dict[str, object]:
        out = super().to_dict()
        out.update(line=self.line, column=self.column)
        return out


class PipelineSyntaxError(Positioned, PlanError):
    """Pipeline text that does not parse."""

    code = "pipeline_syntax_error"
    what = "pipeline"


class PayloadError(Positioned):
    """A payload that the recognised instruction cannot read (malformed JSON, YAML, SQL …)."""

    code = "invalid_payload"

    def __init__(self, message: str, *, fmt: str = "input", **kwargs: object) -> None:
        self.what = fmt
        super().__init__(message, **kwargs)  # type: ignore[arg-type]


class OpError(ZeroLayerError):
    """An op that cannot apply to a readable payload (a missing field, mixed types, …)."""

    code = "op_error"


class Unsupported(ZeroLayerError):
    """The engine cannot answer this exactly; the request goes to the neural fallback.

    ``reason`` is a short stable name (``unsupported_sql_construct``) used in metrics and
    traces; the message says what exactly was not supported.
    """

    code = "unsupported"

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class LimitExceeded(ZeroLayerError):
    """An input, output or time limit was hit."""

    code = "limit_exceeded"


class PositionedLimit(Positioned, LimitExceeded):
    """A limit hit at a line and column of a payload (a collection nested too deeply)."""

    code = "limit_exceeded"

    def __init__(self, message: str, *, fmt: str = "input", **kwargs: object) -> None:
        self.what = fmt
        super().__init__(message, **kwargs)  # type: ignore[arg-type]


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def caret_excerpt(text: str | None, line: int | None, column: int | None) -> str:
    """The offending line of ``text`` with a caret under ``column`` (both 1-based)."""
    if text is None or line is None:
        return ""
    lines = text.splitlines() or [""]
    if not 1 <= line <= len(lines):
        return ""
    src = lines[line - 1]
    if len(src) > 120:  # keep long lines readable: a window around the column
        col = column or 1
        start = max(0, col - 60)
        src = ("…" if start else "") + src[start : start + 120]
        column = col - start + (1 if start else 0)
    prefix = f"{line:>4} | "
    caret = " " * (len(prefix) + max((column or 1) - 1, 0)) + "^"
    return f"{prefix}{src}\n{caret}"
