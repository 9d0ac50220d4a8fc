"""``zerolayer serve``: the HTTP service from the main command line.

Imported by ``zerolayer.cli.main`` at start; nothing here imports the web stack until the
command runs, so the CLI stays usable when the ``server`` extra is not installed.
"""

from __future__ import annotations

import argparse

from zerolayer.cli.common import EXIT_ERROR, EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from zerolayer.rules_api.server import serve
    except ImportError as exc:
        print(
            f"zerolayer serve needs the server extra ({exc.name} is missing): "
            "pip install 'zerolayer[server]'"
        )
        return EXIT_ERROR
    serve(
        args.host,
        args.port,
        args.workers,
        log_level=args.log_level,
        access_log=not args.no_access_log,
    )
    return EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = sub.add_parser(
        "serve", help="run the HTTP service (Anthropic- and OpenAI-compatible APIs)"
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on")
    serve.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    serve.add_argument("--log-level", default="info", help="uvicorn log level")
    serve.add_argument(
        "--no-access-log", action="store_true", help="do not log a line for every request"
    )
    serve.set_defaults(func=cmd_serve)
