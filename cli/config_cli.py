"""``zerolayer config``: the effective ``ZEROLAYER_*`` settings, secrets masked.

Every variable of ``core.variables`` is printed with its value and where it comes from
(``env`` or ``default``); the service settings are checked as ``zerolayer serve`` would check
them, and ``ZEROLAYER_*`` names that nothing reads are reported (a typo is otherwise silent).
"""

from __future__ import annotations

import argparse
import json

from zerolayer.cli.common import EXIT_ERROR, EXIT_OK
from zerolayer.core.errors import StartupError
from zerolayer.core.variables import effective, unknown


def cmd_config(args: argparse.Namespace) -> int:
    rows = effective()
    problems: list[str] = []
    try:
        from zerolayer.rules_api.settings import ServiceSettings

        ServiceSettings.from_env()
    except StartupError as exc:
        problems.append(str(exc))
    strays = unknown()
    if args.json:
        print(
            json.dumps(
                {
                    "variables": [
                        {"name": v.name, "value": value, "source": source, "secret": v.secret}
                        for v, value, source in rows
                    ],
                    "unknown": strays,
                    "problems": problems,
                },
                indent=2,
            )
        )
    else:
        width = max(len(v.name) for v, _, _ in rows)
        group = ""
        for v, value, source in rows:
            if v.group != group:
                group = v.group
                print(f"# {group}")
            print(f"{v.name.ljust(width)} = {value or '(unset)'}  [{source}]")
        for name in strays:
            print(f"warning: {name} is set but zerolayer reads no such variable")
        for problem in problems:
            print(f"error: {problem}")
    return EXIT_ERROR if problems else EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    config = sub.add_parser(
        "config", help="print the effective ZEROLAYER_* settings (secrets masked)"
    )
    config.add_argument("--json", action="store_true", help="print JSON instead of lines")
    config.set_defaults(func=cmd_config)
