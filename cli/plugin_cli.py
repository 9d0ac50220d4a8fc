"""``zerolayer plugin new NAME [--dir DIR]``: a new plugin package whose own test passes.

See ``zerolayer.cli.plugin_template`` for what the package holds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from zerolayer.cli.common import EXIT_OK, EXIT_USAGE


def cmd_plugin_new(args: argparse.Namespace) -> int:
    from zerolayer.cli.plugin_template import TemplateError, create_plugin

    try:
        root = create_plugin(args.name, Path(args.dir))
    except TemplateError as exc:
        print(f"zerolayer plugin new: {exc}")
        return EXIT_USAGE
    print(f"created {root}")
    print(f"next: pip install -e {root} && python -m pytest {root / 'tests'}")
    return EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    plugin = sub.add_parser("plugin", help="tools for plugin authors")
    actions = plugin.add_subparsers(dest="plugin_command", required=True)
    new = actions.add_parser("new", help="create a plugin package from the template")
    new.add_argument("name", help="plugin name: lower-case letters and digits (e.g. shout)")
    new.add_argument("--dir", default=".", help="where to create zerolayer-NAME/")
    new.set_defaults(func=cmd_plugin_new)
