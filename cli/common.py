"""What every subcommand shares: the exit codes, reading a payload, building the engine."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolayer.core.engine import Engine

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_FALLBACK = 3
EXIT_BAD_INPUT = 4


def read_payload(source: str | None) -> str | None:
    """The payload named on the command line: a file, ``-`` for standard input, or none."""
    if source is None:
        return None
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    if not path.is_file():
        raise SystemExit(f"zerolayer: no such file: {source}")
    return path.read_text(encoding="utf-8")


def engine() -> Engine:
    from zerolayer.core.engine import Engine

    return Engine()
