"""``zerolayer bench CASES.jsonl [--url URL] [--compare]``: measure the engine on a case file.

Prints a table per category (and per route with ``--compare``) and a machine-readable line;
``--json`` prints the whole report as JSON instead, ``--report FILE`` writes it to a file.
Exit code 0 when the run finished (whatever the score), 1 when a server was unreachable.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from zerolayer.cli.common import EXIT_ERROR, EXIT_OK, engine


def _fallback():  # type: ignore[no-untyped-def]
    """The fallback backend ``ZEROLAYER_FALLBACK`` names, when the server extra is here."""
    try:
        from zerolayer.rules_api.server import fallback_from_env
    except ImportError:
        return None
    return fallback_from_env()


def cmd_bench(args: argparse.Namespace) -> int:
    from zerolayer.cli.bench import (
        format_table,
        in_process,
        load_cases,
        over_http,
        progress_bar,
        run_bench,
    )

    cases = load_cases(args.cases)
    if args.category:
        wanted = set(args.category.split(","))
        cases = [c for c in cases if c.get("category") in wanted]
    show = None if args.no_progress else progress_bar(sys.stderr)
    if args.url:
        try:
            remote = over_http(args.url, timeout=args.timeout)
        except ImportError:
            print("zerolayer bench --url needs httpx: pip install 'zerolayer[server]'")
            return EXIT_ERROR
        with remote:
            report = run_bench(cases, remote, compare=args.compare, progress=show)
    else:
        runner = in_process(engine(), _fallback())
        report = run_bench(cases, runner, compare=args.compare, progress=show)
    data = report.to_dict()
    if args.report:
        Path(args.report).write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(format_table(report))
    unreachable = any(o.route == "unreachable" for o in report.outcomes)
    return EXIT_ERROR if unreachable else EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    cmd = sub.add_parser("bench", help="run a zeroscore case file and measure the engine")
    cmd.add_argument("cases", help="case file (JSON Lines, zeroscore format)")
    cmd.add_argument("--url", help="a running server (default: the engine in-process)")
    cmd.add_argument(
        "--compare", action="store_true", help="also run every case through the neural route"
    )
    cmd.add_argument("--category", help="only these categories (comma-separated)")
    cmd.add_argument("--json", action="store_true", help="print the report as JSON")
    cmd.add_argument("--report", help="also write the JSON report to this file")
    cmd.add_argument("--timeout", type=float, default=30.0, help="seconds per request (--url)")
    cmd.add_argument("--no-progress", action="store_true", help="no progress bar")
    cmd.set_defaults(func=cmd_bench)
