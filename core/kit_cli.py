"""Subcommands for plugin authors and embedders: ``lint``, ``bench`` and ``plugin new``.

``zerolayer.core.cli`` imports this module at start; each command lives in its own module
and registers itself with ``extra_command``.
"""

from __future__ import annotations

from zerolayer.core import bench_cli, lint_cli, plugin_cli

__all__ = ["bench_cli", "lint_cli", "plugin_cli"]
