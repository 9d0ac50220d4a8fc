"""``zerolayer lint "PROMPT" [FILE|-]``: would this prompt be answered deterministically?

Prints the verdict, the reason it falls back and the suggested rewrites (``--json`` for the
whole report). Exit code 0 when deterministic, 3 when it would fall back.
"""

from __future__ import annotations

import argparse
import json

from zerolayer.cli.common import EXIT_FALLBACK, EXIT_OK, engine, read_payload
from zerolayer.core.lint import LintReport, Sampling, lint


def format_report(report: LintReport) -> str:
    """The report in words, one suggestion a line."""
    if report.deterministic:
        lines = [f"deterministic: {report.plan}"]
        if report.route == "error":
            lines.append(f"  (the payload is rejected: {report.detail})")
        return "\n".join(lines)
    lines = [f"falls back ({report.reason}): {report.detail}"]
    for i, s in enumerate(report.suggestions, 1):
        lines.append(f"{i}. {s.message}")
        if s.split_off:
            lines.append(f"   ask separately: {s.split_off}")
        if s.rewrite is not None:
            verdict = "deterministic" if s.deterministic else "still falls back"
            sampling = ""
            if s.sampling and s.kind == "sampling":
                sampling = f" [temperature={s.sampling.temperature:g}, no top_p]"
            lines.append(f"   rewrite ({verdict}){sampling}: {s.rewrite}")
    return "\n".join(lines)


def cmd_lint(args: argparse.Namespace) -> int:
    payload = read_payload(args.file)
    sampling = Sampling(temperature=args.temperature, top_p=args.top_p)
    report = lint(engine(), args.prompt, payload=payload, sampling=sampling)
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(format_report(report))
    return EXIT_OK if report.deterministic else EXIT_FALLBACK


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    cmd = sub.add_parser(
        "lint", help="say whether a prompt is answered deterministically, and how to rewrite it"
    )
    cmd.add_argument("prompt", help="the prompt (instruction, with or without its payload)")
    cmd.add_argument("file", nargs="?", help="payload file, or - for standard input")
    cmd.add_argument("--temperature", type=float, default=0.0, help="sampling temperature")
    cmd.add_argument("--top-p", type=float, default=None, help="sampling top_p")
    cmd.add_argument("--json", action="store_true", help="print the report as JSON")
    cmd.set_defaults(func=cmd_lint)
