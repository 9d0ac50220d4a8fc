"""Reading a rule document (YAML or JSON) into plain data, with positions for errors.

Every problem becomes an ``Issue``: a JSON pointer into the document, the line and column in
the uploaded text when known, and a message. ``RuleInvalid`` carries the list.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from zerolayer.core.errors import ZeroLayerError
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits

FORMATS = ("yaml", "json")


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem in a document: where (JSON pointer, line, column) and what."""

    location: str
    message: str
    line: int | None = None
    column: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"location": self.location, "message": self.message}
        if self.line is not None:
            out["line"] = self.line
            out["column"] = self.column
        return out


class RuleInvalid(ZeroLayerError):
    """A rule document that does not compile; ``issues`` says where and why."""

    code = "rule_invalid"

    def __init__(self, issues: list[Issue], message: str = "the rule document is not valid"):
        super().__init__(message)
        self.issues = issues


@dataclass
class Document:
    """A parsed document: plain data, its source, and where each value sits in the source."""

    data: dict[str, Any]
    text: str
    fmt: str
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)  # pointer → (line, col)

    def issue(self, pointer: str, message: str, *, offset: tuple[int, int] | None = None) -> Issue:
        """An issue at ``pointer``; ``offset`` (line, column within the value) refines it."""
        line, column = self.positions.get(pointer, (None, None))
        if line is None or column is None or offset is None:
            return Issue(pointer, message, line, column)
        in_line, in_col = offset
        lines = self.text.splitlines()
        start = lines[line - 1][column - 1 : column] if line <= len(lines) else ""
        if start in ("|", ">"):  # a block scalar: its text starts on the next line
            target = line + in_line
            src = lines[target - 1] if target <= len(lines) else ""
            indent = len(src) - len(src.lstrip(" "))
            return Issue(pointer, message, target, indent + in_col)
        quoted = 1 if start in ('"', "'") else 0
        if in_line > 1:
            return Issue(pointer, message, line + in_line - 1, in_col)
        return Issue(pointer, message, line, column + quoted + in_col - 1)


def pointer(*parts: str | int) -> str:
    """The JSON pointer of a path (``/templates/faq``)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def guess_format(content_type: str | None, text: str) -> str:
    """``json`` or ``yaml`` from a content type, else from the first character."""
    ctype = (content_type or "").split(";")[0].strip().lower()
    if ctype.endswith("json"):
        return "json"
    if "yaml" in ctype:
        return "yaml"
    return "json" if text.lstrip()[:1] in ("{", "[") else "yaml"


def load_document(text: str, fmt: str, limits: RuleLimits = DEFAULT_LIMITS) -> Document:
    """Parse ``text`` as ``fmt``; raise ``RuleInvalid`` with positions when it does not read."""
    if fmt not in FORMATS:
        raise RuleInvalid([Issue("", f"unknown document format {fmt!r}; use yaml or json")])
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_document_bytes:
        raise RuleInvalid(
            [Issue("", f"the document is {size} bytes; the limit is {limits.max_document_bytes}")]
        )
    if "\x00" in text:
        line, col = _line_col(text, text.index("\x00"))
        raise RuleInvalid([Issue("", "the document contains a NUL character", line, col)])
    if fmt == "json":
        data = _load_json(text)
    tree = _load_yaml(text, strict=fmt == "yaml")
    if fmt == "yaml":
        data = _plain(tree, limits, [0])
    positions: dict[str, tuple[int, int]] = {}
    if tree is not None:
        _collect_positions(tree, "", positions)
    if not isinstance(data, dict):
        raise RuleInvalid([Issue("", "the document must be a mapping (an object)", 1, 1)])
    _count_nodes(data, limits)
    return Document(data, text, fmt, positions)


def _load_json(text: str) -> Any:
    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise ValueError(f"duplicate key {key!r}")
            out[key] = value
        return out

    try:
        return json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        raise RuleInvalid([Issue("", f"invalid JSON: {exc.msg}", exc.lineno, exc.colno)]) from None
    except (ValueError, RecursionError) as exc:
        raise RuleInvalid([Issue("", f"invalid JSON: {exc}")]) from None


def _load_yaml(text: str, *, strict: bool) -> Any:
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        return yaml.load(io.StringIO(text))
    except MarkedYAMLError as exc:
        if not strict:
            return None
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        col = mark.column + 1 if mark else None
        problem = exc.problem or exc.context or "unreadable YAML"
        raise RuleInvalid([Issue("", f"invalid YAML: {problem}", line, col)]) from None
    except (YAMLError, RecursionError, ValueError) as exc:
        if not strict:
            return None
        raise RuleInvalid([Issue("", f"invalid YAML: {exc}")]) from None


def _plain(node: Any, limits: RuleLimits, budget: list[int]) -> Any:
    """ruamel's round-trip objects as plain JSON data; refuses tags and alias bombs."""
    budget[0] += 1
    if budget[0] > limits.max_nodes:
        raise RuleInvalid([Issue("", f"the document has more than {limits.max_nodes} values")])
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if not isinstance(key, str):
                raise RuleInvalid([Issue("", f"mapping keys must be strings, not {key!r}")])
            out[key] = _plain(value, limits, budget)
        return out
    if isinstance(node, list):
        return [_plain(v, limits, budget) for v in node]
    if node is None or isinstance(node, bool | int | float):
        return node
    if isinstance(node, str):
        return str(node)
    raise RuleInvalid([Issue("", f"unsupported YAML value of type {type(node).__name__}")])


def _line_col(text: str, offset: int) -> tuple[int, int]:
    from zerolayer.core.errors import line_col

    return line_col(text, offset)


def _count_nodes(data: Any, limits: RuleLimits) -> None:
    """Refuse documents with too many values, and strings with NUL characters."""
    stack: list[tuple[Any, str]] = [(data, "")]
    seen = 0
    while stack:
        item, at = stack.pop()
        seen += 1
        if seen > limits.max_nodes:
            raise RuleInvalid([Issue("", f"the document has more than {limits.max_nodes} values")])
        if isinstance(item, dict):
            for key, value in item.items():
                if "\x00" in key:
                    raise RuleInvalid([Issue(at, "a key contains a NUL character")])
                stack.append((value, at + pointer(key)))
        elif isinstance(item, list):
            stack.extend((value, f"{at}/{i}") for i, value in enumerate(item))
        elif isinstance(item, str) and "\x00" in item:
            raise RuleInvalid([Issue(at, "the text contains a NUL character")])


def _collect_positions(node: Any, at: str, out: dict[str, tuple[int, int]]) -> None:
    if len(out) > 20_000:  # aliases can repeat a subtree many times: positions are a help only
        return
    if isinstance(node, CommentedMap):
        for key in node:
            here = at + pointer(str(key))
            try:
                line, col = node.lc.value(key)
            except (KeyError, TypeError, AttributeError):
                continue
            if here in out:
                continue
            out[here] = (line + 1, col + 1)
            _collect_positions(node[key], here, out)
    elif isinstance(node, CommentedSeq):
        for i, value in enumerate(node):
            here = f"{at}/{i}"
            try:
                line, col = node.lc.item(i)
            except (KeyError, TypeError, AttributeError, IndexError):
                continue
            out[here] = (line + 1, col + 1)
            _collect_positions(value, here, out)
