"""The ``zerolayer`` command line.

    zerolayer run "INSTRUCTION" [FILE|-]     answer an instruction on a payload
    zerolayer run --plan "PIPELINE" [FILE|-] run a plan written in the pipeline language
    zerolayer explain "INSTRUCTION" [FILE|-] print the plan, or why the request would fall back
        [--tenant T [--db URL]]              ... with tenant T's active rules: a rule's plan
                                             prints as rule:NAME@VERSION PIPELINE
    zerolayer plugins [--json]               list plugins (version, ops, grammar), the fallback
                                             backends and the intent router's status

``run`` and ``explain`` take ``--syntax v1|v2``, the block syntax version of the instruction.

Exit codes: 0 answered, 3 would fall back, 4 bad input (the payload or the plan), 1 start-up
or internal error, 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from zerolayer.cli import (
    bench_cli,
    config_cli,
    lint_cli,
    plugin_cli,
    rules_cli,
    serve_cli,
)
from zerolayer.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_ERROR,
    EXIT_FALLBACK,
    EXIT_OK,
    EXIT_USAGE,
    engine,
    read_payload,
)
from zerolayer.core.errors import (
    LimitExceeded,
    OpError,
    PayloadError,
    PlanError,
    StartupError,
    Unsupported,
    ZeroLayerError,
)
from zerolayer.core.messages import EngineResult, Route


def _print_result(result: EngineResult, as_json: bool) -> int:
    if as_json:
        out = {
            "route": result.route.value,
            "output": result.output,
            "plan": result.plan,
            "reason": result.reason,
            "detail": result.detail,
            "error": str(result.error) if result.error else None,
            "parts": [
                {
                    "kind": p.kind,
                    "text": p.text,
                    "plan": p.plan,
                    "reason": p.reason,
                    "block": p.block,
                }
                for p in result.parts
            ],
            "warnings": list(result.warnings),
            "routed": result.routed,
            "protocol": result.protocol.describe() if result.protocol else None,
            "timings_ms": {k: round(v * 1000, 3) for k, v in result.timings.items()},
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
    elif result.route is Route.DETERMINISTIC:
        if result.output is not None:
            sys.stdout.write(
                result.output if result.output.endswith("\n") else result.output + "\n"
            )
        else:
            print(result.plan)
    elif result.route is Route.ERROR:
        print(f"zerolayer: {result.error}", file=sys.stderr)
    else:
        print(f"zerolayer: would fall back ({result.reason}): {result.detail}", file=sys.stderr)
    if not as_json:
        for warning in result.warnings:
            print(f"zerolayer: warning: {warning}", file=sys.stderr)
    return {Route.DETERMINISTIC: EXIT_OK, Route.ERROR: EXIT_BAD_INPUT}.get(
        result.route, EXIT_FALLBACK
    )


def cmd_run(args: argparse.Namespace) -> int:
    payload = read_payload(args.file)
    zero = engine()
    if args.plan:
        try:
            output = zero.run_plan(args.plan, payload or "")
        except (PlanError, PayloadError, OpError, LimitExceeded) as exc:
            print(f"zerolayer: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except Unsupported as exc:
            print(f"zerolayer: cannot run this plan exactly ({exc.reason}): {exc}", file=sys.stderr)
            return EXIT_FALLBACK
        sys.stdout.write(output if output.endswith("\n") else output + "\n")
        return EXIT_OK
    if not args.instruction:
        print("zerolayer run: give an INSTRUCTION or --plan", file=sys.stderr)
        return EXIT_USAGE
    payloads = [payload] if payload is not None else []
    return _print_result(zero.run(args.instruction, *payloads, syntax=args.syntax), args.json)


def cmd_explain(args: argparse.Namespace) -> int:
    payload = read_payload(args.file)
    payloads = [payload] if payload is not None else []
    if args.tenant:
        result = _explain_for_tenant(args, payloads)
        if result is None:
            return EXIT_ERROR
    else:
        result = engine().explain(args.instruction, *payloads, syntax=args.syntax)
    if args.json:
        return _print_result(result, True)
    if result.route is Route.DETERMINISTIC:
        print(result.plan)
        return EXIT_OK
    print(f"falls back: {result.reason}: {result.detail}")
    return EXIT_FALLBACK


def _explain_for_tenant(args: argparse.Namespace, payloads: list[str]) -> EngineResult | None:
    """The explanation with the tenant's active rules of the store ``--db`` names."""
    try:
        from zerolayer.rules_api.rules.explain import explain_for_tenant
        from zerolayer.rules_api.rules.store import RuleStore, default_db_url
    except ImportError as exc:
        print(
            f"zerolayer explain --tenant needs the server extra ({exc.name} is missing): "
            "pip install 'zerolayer[server]'",
            file=sys.stderr,
        )
        return None
    store = RuleStore(args.db or default_db_url())
    try:
        return explain_for_tenant(
            engine(), store, args.tenant, args.instruction, payloads, syntax=args.syntax
        )
    finally:
        store.close()


def cmd_plugins(args: argparse.Namespace) -> int:
    zero = engine()
    info = zero.plugin_info()
    backends = _backends()
    router = zero.router_info()
    if router.get("router") == "off":
        from zerolayer.core.router.config import router_available

        router["installed"] = router_available()
    if args.json:
        print(json.dumps({"plugins": info, "backends": backends, "router": router}, indent=2))
        return EXIT_OK
    for plugin in info:
        print(f"{plugin['name']} {plugin['version']}")
        print(f"  ops:      {', '.join(plugin['ops']) or '-'}")
        print(f"  grammar:  {', '.join(plugin['grammar']) or '-'}")
        print(f"  examples: {plugin['examples']}")
        if plugin.get("backends"):
            print(f"  backends: {', '.join(plugin['backends'])}")
    chosen = os.environ.get("ZEROLAYER_FALLBACK") or "none"
    print(f"fallback backends (ZEROLAYER_FALLBACK=NAME[:ARGUMENT], now {chosen}):")
    for backend in backends:
        print(f"  {backend['name']:<10} {backend['description']} [{backend['plugin']}]")
    print(f"intent router (ZEROLAYER_ROUTER, now {router['mode']}): {_router_line(router)}")
    return EXIT_OK


def _backends() -> list[dict[str, str]]:
    """Every registered fallback backend: the built-in ones and those of installed plugins."""
    from zerolayer.core.neural.config import backend_registry

    registry = backend_registry()
    return [
        {"name": spec.name, "plugin": spec.plugin, "description": spec.description}
        for spec in sorted(registry.backends.values(), key=lambda s: s.name)
    ]


def _router_line(router: dict[str, Any]) -> str:
    if router.get("router") == "off":
        state = "installed" if router.get("installed") else "not installed (.ci/install-neural)"
        return f"off; model {state}"
    examples = router.get("examples", {})
    return (
        f"{router['router']} ({router.get('model')} on {router.get('device')}), "
        f"{examples.get('en', 0)} English and {examples.get('zh', 0)} Chinese examples, "
        f"threshold {router['threshold']} (Chinese n-gram {router['zh_threshold']})"
    )


# The subcommands beyond run, explain and plugins, in the order ``--help`` lists them. Each
# module imports what its command drives (the HTTP service, the rules store, httpx) only when
# the command runs, so a missing optional extra is reported by that command; a module that
# fails to import is a broken installation and stops the CLI at start.
COMMANDS: tuple[ModuleType, ...] = (
    serve_cli,
    bench_cli,
    lint_cli,
    plugin_cli,
    rules_cli,
    config_cli,
)


def build_parser() -> argparse.ArgumentParser:
    from zerolayer import __version__

    parser = argparse.ArgumentParser(
        prog="zerolayer",
        description="Answer deterministic LLM requests without a model.",
    )
    parser.add_argument("--version", action="version", version=f"zerolayer {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="answer an instruction on a payload")
    run.add_argument(
        "instruction", nargs="?", help="the instruction, e.g. 'Convert this JSON to YAML'"
    )
    run.add_argument("file", nargs="?", help="payload file, or - for standard input")
    run.add_argument("--plan", help="run this pipeline instead of an instruction")
    run.add_argument("--json", action="store_true", help="print the whole result as JSON")
    run.add_argument("--syntax", help="block syntax version of the instruction (v1, v2)")
    run.set_defaults(func=cmd_run)

    explain = sub.add_parser("explain", help="print the plan, or why the request would fall back")
    explain.add_argument("instruction")
    explain.add_argument("file", nargs="?", help="payload file, or - for standard input")
    explain.add_argument("--json", action="store_true", help="print the whole result as JSON")
    explain.add_argument("--syntax", help="block syntax version of the instruction (v1, v2)")
    explain.add_argument(
        "--tenant", help="with this tenant's active rules (the plan of the rule that matches)"
    )
    explain.add_argument(
        "--db", help="rules store of --tenant (default ZEROLAYER_DB_URL, else SQLite)"
    )
    explain.set_defaults(func=cmd_explain)

    plugins = sub.add_parser(
        "plugins", help="list plugins with their ops and grammar, backends and the router"
    )
    plugins.add_argument("--json", action="store_true", help="print as JSON")
    plugins.set_defaults(func=cmd_plugins)

    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "run" and args.plan and args.instruction and not args.file:
        args.file = args.instruction  # `run --plan P FILE`
        args.instruction = None
    try:
        code: int = args.func(args)
    except StartupError as exc:
        print(f"zerolayer: cannot start: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except ZeroLayerError as exc:
        print(f"zerolayer: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    return code
