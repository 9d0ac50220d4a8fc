"""Output checks of the bench command, as the zeroscore contract describes them (its README,
section 3): ``yaml_equals``, ``json_equals``, ``html_equals``, ``text_equals``,
``table_equals``, ``pandas_equals`` (runs the code in a Python subprocess with pandas) and
``ts_stdout`` (compiles with ``tsc`` and runs ``node`` when both are on PATH; skipped
otherwise).

Each check takes the answer text (one surrounding code fence already stripped), the gold
value and the options, and returns a ``Check``: passed, failed with a reason, or skipped.
"""

from __future__ import annotations

import html.parser
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

PANDAS_TIMEOUT = 5.0
TS_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class Check:
    """The outcome of one check: ``ok`` is None when it was skipped."""

    ok: bool | None
    reason: str = ""


PASS = Check(True)


def fail(reason: str) -> Check:
    return Check(False, reason)


def skip(reason: str) -> Check:
    return Check(None, reason)


_FENCE = re.compile(r"\A\s*(`{3,}|~{3,})[^\n]*\n(.*?)\n?\1\s*\Z", re.DOTALL)


def strip_fence(text: str) -> str:
    """The text inside exactly one code fence around the whole answer, else the text."""
    m = _FENCE.match(text)
    return m.group(2) if m else text


def _is_number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def data_difference(a: Any, b: Any, path: str = "$") -> str | None:
    """Where two data trees differ (bool is not a number; int and float by value), or None."""
    if _is_number(a) and _is_number(b):
        return None if a == b else f"{path}: {a!r} != {b!r}"
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} {a!r} != {type(b).__name__} {b!r}"
    if isinstance(a, dict):
        if set(a) != set(b):
            return f"{path}: keys {sorted(map(str, a))} != {sorted(map(str, b))}"
        for k in a:
            if d := data_difference(a[k], b[k], f"{path}.{k}"):
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if d := data_difference(x, y, f"{path}[{i}]"):
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


# ---------------------------------------------------------------- yaml_equals


def check_yaml(output: str, gold: Any, options: dict[str, Any]) -> Check:
    try:
        data = yaml.safe_load(output)
        root = yaml.compose(output, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        return fail(f"not YAML: {str(exc).splitlines()[0]}")
    if d := data_difference(data, gold):
        return fail(d)
    problems: list[str] = []
    if root is not None:
        _yaml_options(root, options, problems, role="root")
    return fail(problems[0]) if problems else PASS


def _yaml_options(node: yaml.Node, options: dict[str, Any], problems: list[str], role: str) -> None:
    if isinstance(node, yaml.ScalarNode):
        is_str = node.tag == "tag:yaml.org,2002:str"
        if options.get("quote") == "double" and role != "key" and is_str and node.style != '"':
            problems.append(f"string value {node.value!r} is not double-quoted")
        return
    if isinstance(node, yaml.SequenceNode):
        if options.get("seq_style") == "block" and node.flow_style and node.value:
            problems.append("a non-empty sequence is in flow style")
        for item in node.value:
            _yaml_options(item, options, problems, "item")
        return
    if isinstance(node, yaml.MappingNode):
        keys = [k.value for k, _ in node.value]
        if options.get("sort_keys") and keys != sorted(keys):
            problems.append(f"keys {keys} are not sorted")
        indent = options.get("indent")
        for key, value in node.value:
            if (
                indent
                and isinstance(value, yaml.MappingNode)
                and value.value
                and not node.flow_style
            ):
                if value.flow_style:
                    problems.append(f"the mapping under {key.value!r} is in flow style")
                elif value.start_mark.column - key.start_mark.column != indent:
                    problems.append(f"the mapping under {key.value!r} is not indented by {indent}")
            _yaml_options(key, options, problems, "key")
            _yaml_options(value, options, problems, "value")


# ---------------------------------------------------------------- json_equals


def check_json(output: str, gold: Any, options: dict[str, Any]) -> Check:
    unsorted: list[list[str]] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in items]
        if keys != sorted(keys):
            unsorted.append(keys)
        return dict(items)

    try:
        data = json.loads(output, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        return fail(f"not JSON: {exc.msg} (line {exc.lineno} column {exc.colno})")
    if d := data_difference(data, gold):
        return fail(d)
    if options.get("sort_keys") and unsorted:
        return fail(f"keys {unsorted[0]} are not sorted")
    if options.get("ensure_ascii") is False:
        for m in re.finditer(r"\\u([0-9a-fA-F]{4})", output):
            if int(m.group(1), 16) >= 0x80:
                return fail(f"non-ASCII character escaped as {m.group(0)}")
    if options.get("single_line") and "\n" in output.strip():
        return fail("the JSON is not on one line")
    indent = options.get("indent")
    if indent and (problem := _json_indent_problem(output, int(indent), data)):
        return fail(problem)
    return PASS


def _json_indent_problem(text: str, n: int, data: Any) -> str | None:
    lines = [line for line in text.strip("\n").split("\n") if line.strip()]
    if len(lines) == 1:
        if isinstance(data, dict | list) and data:
            return "the JSON is on one line; an indented layout was asked for"
        return None
    depth = 0
    for number, line in enumerate(lines, 1):
        body = line.lstrip(" ")
        level = depth - 1 if body[:1] in "]}" else depth
        if len(line) - len(body) != n * level:
            return f"line {number} is indented by {len(line) - len(body)}, not {n * level}"
        depth += _bracket_balance(body)
    return None


def _bracket_balance(line: str) -> int:
    balance, in_string, escaped = 0, False, False
    for ch in line:
        if in_string:
            escaped = not escaped and ch == "\\"
            if ch == '"' and not escaped:
                in_string = False
            if ch != "\\":
                escaped = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            balance += 1
        elif ch in "]}":
            balance -= 1
    return balance


# ---------------------------------------------------------------- html_equals

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"}
    | {"source", "track", "wbr"}
)
_BLOCK = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hr",
        "html",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
        "br",
    }
)

Token = tuple[str, ...]


class _Tokens(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tokens: list[Token] = []
        self.pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        flat = tuple(f"{k}={v if v is not None else ''}" for k, v in sorted(attrs))
        self.tokens.append(("start", tag, *flat))
        if tag == "pre":
            self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        self.tokens.append(("end", tag))

    def handle_data(self, data: str) -> None:
        kind = "pre" if self.pre else "data"
        if self.tokens and self.tokens[-1][0] == kind:
            data = self.tokens.pop()[1] + data
        self.tokens.append((kind, data))


def html_tokens(text: str) -> list[Token]:
    """Normalised tokens: entities decoded, attributes sorted, voids uniform, whitespace
    collapsed outside ``<pre>`` and dropped next to block-level tags."""
    parser = _Tokens()
    parser.feed(text)
    parser.close()
    raw = parser.tokens
    out: list[Token] = []
    for i, token in enumerate(raw):
        if token[0] == "pre":
            before_close = i + 1 < len(raw) and raw[i + 1][0] == "end"
            out.append(("data", token[1].rstrip("\n") if before_close else token[1]))
            continue
        if token[0] != "data":
            out.append(token)
            continue
        data = re.sub(r"\s+", " ", token[1])
        if i == 0 or _is_block(raw[i - 1]):
            data = data.lstrip(" ")
        if i + 1 == len(raw) or _is_block(raw[i + 1]):
            data = data.rstrip(" ")
        if data:
            out.append(("data", data))
    return out


def _is_block(token: Token) -> bool:
    return token[0] in ("start", "end") and token[1] in _BLOCK


def check_html(output: str, gold: Any, options: dict[str, Any]) -> Check:
    mine, theirs = html_tokens(output), html_tokens(str(gold))
    for i, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if a != b:
            return fail(f"token {i + 1}: {a!r} != {b!r}")
    if len(mine) != len(theirs):
        return fail(f"{len(mine)} tokens != {len(theirs)}")
    return PASS


# ---------------------------------------------------------------- text and tables


def check_text(output: str, gold: Any, options: dict[str, Any]) -> Check:
    got = output.rstrip().strip("\n")
    want = str(gold).rstrip().strip("\n")
    return PASS if got == want else fail(f"{got[:80]!r} != {want[:80]!r}")


def split_table_row(line: str) -> list[str]:
    """The cells of a Markdown table row: pipes at the ends optional, ``\\|`` escaped."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def check_table(output: str, gold: Any, options: dict[str, Any]) -> Check:
    lines = [line for line in output.strip().splitlines() if line.strip()]
    if len(lines) < 2:
        return fail("not a Markdown table (no header and delimiter row)")
    delimiter = split_table_row(lines[1])
    if not all(re.fullmatch(r":?-{3,}:?|:?-+:?", c) for c in delimiter):
        return fail("the second line is not a delimiter row")
    rows = [split_table_row(lines[0])] + [split_table_row(line) for line in lines[2:]]
    if len(rows) != len(gold):
        return fail(f"{len(rows)} rows (header included) != {len(gold)}")
    for i, (row, want) in enumerate(zip(rows, gold, strict=True)):
        if row != [str(c) for c in want]:
            return fail(f"row {i}: {row} != {want}")
    return PASS


# ---------------------------------------------------------------- pandas_equals

_PANDAS_RUNNER = r"""
import datetime, json, math, sys
import pandas as pd

def conv(v):
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        try:
            v = v.item()
        except Exception:
            pass
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    try:
        if not isinstance(v, (str, bytes, list, dict)) and pd.isna(v):
            return None
    except Exception:
        pass
    if isinstance(v, (pd.Timestamp, datetime.datetime)):
        if (v.hour, v.minute, v.second, v.microsecond) == (0, 0, 0, 0):
            return v.strftime("%Y-%m-%d")
        return v.isoformat(sep=" ")
    if isinstance(v, datetime.date):
        return v.isoformat()
    return v if isinstance(v, (bool, int, float, str)) else str(v)

def frame(df):
    rows = [[conv(v) for v in row] for row in df.astype(object).itertuples(index=False, name=None)]
    return {"columns": [str(c) for c in df.columns], "rows": rows}

spec = json.load(open(sys.argv[1], encoding="utf-8"))
g = {"pd": pd}
for name, t in spec["tables"].items():
    g[name] = pd.DataFrame(t["rows"], columns=t["columns"])
if len(spec["tables"]) == 1:
    t = next(iter(spec["tables"].values()))
    g.setdefault("df", pd.DataFrame(t["rows"], columns=t["columns"]))
out = {"candidates": []}
try:
    exec(compile(spec["code"], "<answer>", "exec"), g)
    r = g["result"]
    if isinstance(r, pd.Series):
        r = r.to_frame(name=r.name)
    if isinstance(r, pd.DataFrame):
        out["candidates"].append(frame(r))
        if any(n is not None for n in r.index.names):
            out["candidates"].append(frame(r.reset_index()))
    else:
        out["candidates"].append({"columns": None, "rows": [[conv(r)]]})
except BaseException as e:
    out["error"] = f"{type(e).__name__}: {e}"
json.dump(out, open(sys.argv[2], "w", encoding="utf-8"), default=str)
"""


def _same_value(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    a, b = (int(x) if isinstance(x, bool) else x for x in (a, b))
    if _is_number(a) and _is_number(b):
        return bool(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9))
    return type(a) is type(b) and a == b


def _row_key(row: list[Any]) -> list[tuple[int, str]]:
    return [
        (0, "") if v is None else (1, f"{float(v):40.6f}") if _is_number(v) else (2, str(v))
        for v in row
    ]


def _frame_difference(
    cand: dict[str, Any], cols: list[str], rows: list[Any], ordered: bool
) -> str | None:
    if cand["columns"] is None:
        if len(cols) == 1 and len(rows) == 1 and _same_value(cand["rows"][0][0], rows[0][0]):
            return None
        return f"scalar {cand['rows'][0][0]!r} does not match the SQL result"
    if sorted(cand["columns"]) != sorted(cols):
        return f"columns {cand['columns']} != {cols}"
    order = [cand["columns"].index(c) for c in cols]
    got = [[r[i] for i in order] for r in cand["rows"]]
    if len(got) != len(rows):
        return f"{len(got)} rows != {len(rows)}"
    if not ordered:
        got, rows = sorted(got, key=_row_key), sorted(rows, key=_row_key)
    for i, (x, y) in enumerate(zip(got, rows, strict=True)):
        if not all(_same_value(u, v) for u, v in zip(x, y, strict=True)):
            return f"row {i + 1}: {x} != {y}"
    return None


def check_pandas(output: str, gold: Any, options: dict[str, Any]) -> Check:
    con = sqlite3.connect(":memory:")
    try:
        for name, t in gold["tables"].items():
            cols = ", ".join(f'"{c}"' for c in t["columns"])
            con.execute(f'CREATE TABLE "{name}" ({cols})')
            marks = ", ".join("?" for _ in t["columns"])
            con.executemany(f'INSERT INTO "{name}" VALUES ({marks})', map(tuple, t["rows"]))
        cur = con.execute(gold["sql"])
        cols = [d[0] for d in cur.description]
        rows = [list(r) for r in cur.fetchall()]
    except sqlite3.Error as exc:
        return skip(f"the gold SQL fails on SQLite: {exc}")
    finally:
        con.close()
    ordered = re.search(r"\border\s+by\b", gold["sql"], re.IGNORECASE) is not None
    with tempfile.TemporaryDirectory(prefix="zerolayer-bench-") as tmp:
        spec, out, runner = (os.path.join(tmp, n) for n in ("spec.json", "out.json", "run.py"))
        with open(spec, "w", encoding="utf-8") as f:
            json.dump({"code": output, "tables": gold["tables"]}, f)
        with open(runner, "w", encoding="utf-8") as f:
            f.write(_PANDAS_RUNNER)
        try:
            subprocess.run(
                [sys.executable, runner, spec, out],
                cwd=tmp,
                capture_output=True,
                timeout=PANDAS_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return fail(f"the pandas code ran longer than {PANDAS_TIMEOUT:g} s")
        if not os.path.exists(out):
            return skip("the pandas runner did not start (is pandas installed?)")
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
    if result.get("error"):
        if "No module named 'pandas'" in result["error"]:
            return skip("pandas is not installed")
        return fail(f"the code failed: {result['error'][:140]}")
    first = None
    for cand in result["candidates"]:
        difference = _frame_difference(cand, cols, rows, ordered)
        if difference is None:
            return PASS
        first = first or difference
    return fail(first or "no result")


# ---------------------------------------------------------------- ts_stdout


def check_ts(output: str, gold: Any, options: dict[str, Any]) -> Check:
    tsc = os.environ.get("ZEROSCORE_TSC") or shutil.which("tsc")
    node = os.environ.get("ZEROSCORE_NODE") or shutil.which("node")
    if not tsc or not node:
        return skip("tsc or node is not on PATH")
    with tempfile.TemporaryDirectory(prefix="zerolayer-bench-ts-") as tmp:
        with open(os.path.join(tmp, "main.ts"), "w", encoding="utf-8") as f:
            f.write(output)
        args = ["--target", "es2020", "--module", "commonjs", "--strict", "false"]
        try:
            built = subprocess.run(
                [tsc, *args, "--outDir", "out", "main.ts"],
                cwd=tmp,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            if built.returncode != 0:
                return fail(f"tsc: {(built.stdout + built.stderr).strip()[:160]}")
            ran = subprocess.run(
                [node, os.path.join("out", "main.js")],
                cwd=tmp,
                capture_output=True,
                text=True,
                timeout=TS_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return fail("tsc or node ran too long")
    if ran.stdout.rstrip() != str(gold).rstrip():
        return fail(f"stdout {ran.stdout[:80]!r} != {str(gold)[:80]!r}")
    return PASS


# ---------------------------------------------------------------- error answers


def check_error_message(message: str, options: dict[str, Any]) -> Check:
    """An error answer's message names what ``options`` ask for (mentions, line)."""
    lowered = message.lower()
    for word in options.get("mentions", []):
        if word.lower() not in lowered:
            return fail(f"the error message does not mention {word!r}")
    line = options.get("line")
    if line is not None and not re.search(rf"line:?\s*{line}\b|第\s*{line}\s*行", message):
        return fail(f"the error message does not point at line {line}")
    return PASS


CHECKS: dict[str, Callable[[str, Any, dict[str, Any]], Check]] = {
    "yaml_equals": check_yaml,
    "json_equals": check_json,
    "html_equals": check_html,
    "text_equals": check_text,
    "table_equals": check_table,
    "pandas_equals": check_pandas,
    "ts_stdout": check_ts,
}


def check_output(check: str, output: str, gold: Any, options: dict[str, Any]) -> Check:
    """Run the named check on an answer (its one surrounding fence stripped)."""
    func = CHECKS.get(check)
    if func is None:
        return skip(f"unknown check {check!r}")
    return func(strip_fence(output), gold, options or {})
