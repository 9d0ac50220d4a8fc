"""Transforms for the context grammar fragment, and ``finish``, which assembles its clauses.

Clauses of the context grammar are small: "the third paragraph", "the table above", "add a
column "YoY"", "the year-over-year growth", "2 decimals", "like 12.34%". Each becomes a
directive; clause words that only make sense with another clause become *marks*
(``Option`` with a ``context.`` name). ``finish`` sees the whole instruction and either
builds the steps (``context.paragraph``, ``context.table | table.growth | table.markdown``
…) or raises ``Unsupported`` when the clauses do not make one complete, certain request:
a growth column without a stated number format, a format without a growth column, "verbatim"
with nothing to quote, two paragraphs asked at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lark import Token

from zerolayer.core.errors import Unsupported
from zerolayer.core.fields import FieldRef
from zerolayer.core.plan import Directive, Option, Step

Children = list[Any]

_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "last": -1,
    "final": -1,
    "opening": 1,
    "closing": -1,
    "concluding": -1,
    "previous": -1,
    "penultimate": -2,
}
_SUFFIXED = re.compile(r"(\d+)(st|nd|rd|th)$")
_SECOND_TO_LAST = re.compile(r"second[\s-]+to[\s-]+last")


def _mark(name: str, value: Any = True) -> Option:
    return Option(f"context.{name}", value)


def _text(children: Children) -> str:
    return " ".join(str(c) for c in children if isinstance(c, Token))


def _ordinal(phrase: str) -> int:
    """The position an English ordinal phrase names: "third" → 3, "last" → -1."""
    words = [w for w in phrase.lower().split() if w not in ("only", "just", "need", "the", "very")]
    if _SECOND_TO_LAST.match(phrase.lower()):
        return -2
    if words[0] == "most":  # "most recent"
        return -1
    if m := _SUFFIXED.match(words[0]):
        n, suffix = int(m.group(1)), m.group(2)
        expected = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n % 100 not in (11, 12, 13) else 0)
        if suffix != (expected or "th"):
            raise Unsupported("parse.bad_ordinal", f"{words[0]!r} is not an ordinal")
        return n
    return _ORDINALS[words[0]]


def _zh_position(phrase: str) -> int:
    """The position a Chinese phrase names: 第3段 → 3, 倒数第2段 → -2, 最后1段 → -1."""
    if phrase.startswith("倒数"):
        return -int(re.findall(r"\d+", phrase)[0])
    if phrase.startswith(("最后", "末", "上", "刚才", "最近")):
        return -1
    if phrase.startswith(("首", "最开始", "一开始", "最早", "最初")):
        return 1
    return int(re.findall(r"\d+", phrase)[0])


def _positive(n: int) -> int:
    if n == 0:
        raise Unsupported("parse.bad_ordinal", "there is no 0th item")
    return n


def paragraph_ord(children: Children) -> list[Directive]:
    return [Step("context.paragraph", {"n": _positive(_ordinal(_text(children)))})]


def paragraph_num(children: Children) -> list[Directive]:
    n = int(re.findall(r"\d+", _text(children))[0])
    return [Step("context.paragraph", {"n": _positive(n)})]


def paragraph_zh(children: Children) -> list[Directive]:
    return [Step("context.paragraph", {"n": _positive(_zh_position(_text(children)))})]


def question_ord(children: Children) -> list[Directive]:
    return [Step("context.question", {"n": _positive(_ordinal(_text(children)))})]


_WHEN_ASKED = re.compile(
    r"\b(?:first|originally|initially|start|beginning)\b|\b(?P<last>last)\b", re.I
)


def question_when(children: Children) -> list[Directive]:
    """ "what I asked first", "what did I ask last": the question by when it was asked."""
    m = _WHEN_ASKED.search(_text(children))
    if m is None:
        raise Unsupported("parse.bad_ordinal", "the instruction does not say which question")
    return [Step("context.question", {"n": -1 if m["last"] else 1})]


def question_zh(children: Children) -> list[Directive]:
    return [Step("context.question", {"n": _positive(_zh_position(_text(children)))})]


def section(children: Children) -> list[Directive]:
    names = [c for c in children if isinstance(c, str) and not isinstance(c, Token)]
    return [Step("context.section", {"name": str(names[0])})]


# Column names that say what the column holds: "add a YoY column" is the growth column.
_GROWTH_NAME = re.compile(
    r"(?:yoy|y/y|y-o-y|yoy\s+growth|growth|growth\s+rate|同比增长率|同比增长|同比|增长率)", re.I
)


def add_column(children: Children) -> list[Directive]:
    names = [c for c in children if isinstance(c, str) and not isinstance(c, Token)]
    out: list[Directive] = [_mark("add_column")]
    if names:
        out.append(_mark("column_name", str(names[0])))
        if _GROWTH_NAME.fullmatch(str(names[0]).strip()):
            out.append(_mark("growth"))
    return out


def add_growth_column(children: Children) -> list[Directive]:
    """ "加一列同比", "加个增长率的列": a new column named by its growth word, holding the
    growth."""
    text = str(children[0])
    name = re.sub(r"^.*?列", "", text) if "个" not in text else ""
    if not name:  # "加个增长率的列": the growth word between 个 and 列
        name = re.sub(r"^.*?个|的?列$", "", text)
    return [_mark("add_column"), _mark("column_name", name), _mark("growth")]


def add_growth(children: Children) -> list[Directive]:
    """ "add YoY", "add the YoY growth": a new column named by its growth words, as written."""
    name = re.sub(r"^(?:add|append)\s+(?:(?:a|an|the)\s+)?", "", _text(children), flags=re.I)
    return [_mark("add_column"), _mark("column_name", name), _mark("growth")]


def colname(children: Children) -> str:
    text = str(children[0])
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        text = text[1:-1]
    if not text.strip():
        raise Unsupported("parse.empty_name", "the column name is empty")
    return text


_FORMULA = re.compile(
    r"^\(?\s*\(\s*(?P<a>[^()]+?)\s*[-−]\s*(?P<b>[^()]+?)\s*\)\s*/\s*(?P<c>[^()]+?)\s*\)?$"
)


def formula(children: Children) -> list[Directive]:
    """ "((this year - last year) / last year)": the current and previous columns."""
    text = _text(children).strip()
    text = text[text.index("(") :]  # after a lead-in such as "计算" or "值为"
    m = _FORMULA.match(text)
    if m is None or m["b"].strip().casefold() != m["c"].strip().casefold():
        raise Unsupported(
            "parse.formula", f"the formula {text!r} is not (current - previous) / previous"
        )
    # the formula is the definition of growth, so it also says what the column holds
    return [_mark("growth"), _mark("columns", (m["a"].strip(), m["b"].strip()))]


_COMPARED = re.compile(r"(?i)相比|相较|对比|\bvs\.?\b|\bversus\b|\bcompared\s+(?:to|with)\b")


def span(children: Children) -> list[Directive]:
    """ "from 2022 to 2023": previous, then current ("2024 vs 2023", 2024年相比2023年: current,
    then previous); "from last year to this year", "the change vs last month" name periods,
    which the headers must show (the growth op finds them)."""
    text = _text(children)
    if re.match(r"from\s+(?:last|previous|prior)\s", text, re.IGNORECASE):
        return [_mark("period_span")]
    if re.search(r"(?i)\bchange\b", text):
        # "the change vs last month": a growth from the previous period's column
        return [_mark("period_span"), _mark("growth")]
    quoted = re.findall(r'"([^"]+)"', text)
    if len(quoted) == 2:
        previous, current = quoted
    else:
        years = re.findall(r"(?:fy\s*)?(\d{4})", text, flags=re.IGNORECASE)
        previous, current = years[0], years[1]
        if _COMPARED.search(text):  # "2024年相比2023年", "2024 vs 2023": the current first
            previous, current = current, previous
        if int(previous) >= int(current):
            raise Unsupported("parse.span", f"{text!r} does not run from an earlier year")
    return [_mark("columns", (current, previous))]


def decimals(children: Children) -> list[Directive]:
    """ "2 decimals", "保留2位小数"; "no decimals", "取整" are 0."""
    digits = re.findall(r"\d+", _text(children))
    n = int(digits[0]) if digits else 0
    if n > 10:
        raise Unsupported("parse.decimals", f"{n} decimals is not supported")
    return [_mark("decimals", n)]


def example(children: Children) -> list[Directive]:
    text = _text(children)
    m = re.search(r"([-+−]?)(\d+)(?:\.(\d+))?\s*(%?)$", text)
    if m is None:
        raise Unsupported("parse.example", f"{text!r} is not an example number")
    return [
        _mark(
            "example",
            (m.group(1).replace("−", "-"), len(m.group(3) or ""), m.group(4) == "%"),
        )
    ]


def _plain(value: Any) -> str:
    text = str(value)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        text = text[1:-1]
    return text


def _field(children: Children) -> str:
    names = [c for c in children if isinstance(c, FieldRef)]
    return str(names[0])


def sort(children: Children) -> list[Directive]:
    orders = [c for c in children if c in ("asc", "desc") and not isinstance(c, Token | FieldRef)]
    order = orders[0] if orders else "asc"
    return [Step("context.table"), _mark("sort", (_field(children), order))]


def select(children: Children) -> list[Directive]:
    lead = next(c for c in children if isinstance(c, Token))
    names_table = lead.type == "CTX_ZH_FILTER_TABLE" or _TABLE_WORD.search(lead)
    out: list[Directive] = [Step("context.table")] if names_table else []
    op = next(c for c in children if isinstance(c, _Cmp))
    value = children[-1]
    return [*out, _mark("select", (_field(children), op.op, _plain(value)))]


_TABLE_WORD = re.compile(r"table", re.IGNORECASE)


class _Cmp:
    def __init__(self, op: str) -> None:
        self.op = op


_AGG_WORD = re.compile(r"sum|total|average|mean")
_AGG_WORDS = {"sum": "sum", "total": "sum", "average": "average", "mean": "average"}


def aggregate(children: Children) -> list[Directive]:
    token = next(c for c in children if isinstance(c, Token) and c.type == "CTX_AGG")
    word = _AGG_WORD.findall(token.lower())[-1]
    return [_mark("aggregate", (_AGG_WORDS[word], _field(children)))]


def round_column(children: Children) -> list[Directive]:
    return [_mark("round_column", _field(children))]


def _const(value: Any) -> Callable[[Children], Any]:
    return lambda _children: value


TRANSFORMS: dict[str, Callable[[Children], Any]] = {
    "ctx_paragraph_ord": paragraph_ord,
    "ctx_paragraph_num": paragraph_num,
    "ctx_paragraph_zh": paragraph_zh,
    "ctx_question_ord": question_ord,
    "ctx_question_zh": question_zh,
    "ctx_question_when": question_when,
    "ctx_section": section,
    "ctx_table": _const([Step("context.table")]),
    "ctx_text_ref": _const([_mark("text")]),
    "ctx_asked": _const([_mark("asked")]),
    "ctx_what": _const([_mark("what")]),
    "ctx_mine": _const([_mark("role", "user")]),
    "ctx_yours": _const([_mark("role", "assistant")]),
    "ctx_in_conv": _const([_mark("conversation")]),
    "ctx_each_row": _const([_mark("rows")]),
    "ctx_verbatim": _const([_mark("verbatim")]),
    "ctx_alone": _const([_mark("alone")]),
    "ctx_markdown": _const([_mark("markdown")]),
    "ctx_colname": colname,
    "ctx_name": lambda children: FieldRef(_plain(children[0])),
    "ctx_add_column": add_column,
    "ctx_add_growth_column": add_growth_column,
    "ctx_add_growth": add_growth,
    "ctx_growth": _const([_mark("growth")]),
    "ctx_growth_zh": _const([_mark("growth"), _mark("growth_zh")]),
    "ctx_formula": formula,
    "ctx_span": span,
    "ctx_format_word": _const([_mark("format_word")]),
    "ctx_decimals": decimals,
    "ctx_percent": _const([_mark("percent")]),
    "ctx_example": example,
    "ctx_asc": _const("asc"),
    "ctx_desc": _const("desc"),
    "ctx_sort": sort,
    "ctx_ge": _const(_Cmp(">=")),
    "ctx_le": _const(_Cmp("<=")),
    "ctx_gt": _const(_Cmp(">")),
    "ctx_lt": _const(_Cmp("<")),
    "ctx_ne": _const(_Cmp("!=")),
    "ctx_eq": _const(_Cmp("==")),
    "ctx_value": lambda children: children[0],
    "ctx_select": select,
    "ctx_aggregate": aggregate,
    "ctx_round": round_column,
}

# ---------------------------------------------------------------------------- finish

_TEXT_OPS = ("context.paragraph", "context.question", "context.section")
# Marks that go with each kind of request.
_QUESTION_MARKS = {"verbatim", "alone", "asked", "conversation", "what"}
_PARAGRAPH_MARKS = {"verbatim", "alone", "text", "what", "role"}
_GROWTH_MARKS = {
    "add_column",
    "column_name",
    "growth",
    "growth_zh",
    "columns",
    "rows",
    "period_span",
}
# The header of a growth column the instruction does not name, by the language of its
# growth words ("add a column with the % change" → Growth; "加一列增长率" → 增长率).
_DEFAULT_GROWTH_NAME = {False: "Growth", True: "增长率"}
_FORMAT_MARKS = {"format_word", "percent", "example"}
_TABLE_MARKS = {
    "verbatim",
    "alone",
    "markdown",
    "decimals",
    "sort",
    "select",
    "aggregate",
    "round_column",
    *_GROWTH_MARKS,
    *_FORMAT_MARKS,
}
# Query steps of the JSON/YAML family that mean the same on the table above: "把上表按销售额
# 从高到低排序" parses as that family's sort; on the table it is ``table.sort``.
_JY_COMPARISONS = {"eq": "==", "ne": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}


def _as_mark(step: Step) -> Option | None:
    """A query step of another family read as a mark on the table above, else None."""
    p = step.params
    if step.op == "sort" and set(p) <= {"key", "order"}:
        return _mark("sort", (str(p["key"]), p.get("order", "asc")))
    if step.op == "filter" and p.get("op") in _JY_COMPARISONS:
        value = p.get("value")
        if isinstance(value, bool) or value is None or not isinstance(value, str | int | float):
            return None
        return _mark("select", (str(p["field"]), _JY_COMPARISONS[p["op"]], str(value)))
    if step.op == "round" and set(p) == {"decimals"}:
        return _mark("decimals", p["decimals"])
    if step.op in ("sum", "avg") and set(p) == {"field"}:
        return _mark("aggregate", ("sum" if step.op == "sum" else "average", str(p["field"])))
    return None


def _uncertain(message: str) -> Unsupported:
    return Unsupported("context.incomplete", message)


def _one(marks: dict[str, list[Any]], name: str) -> Any:
    values = marks.get(name, [])
    if len(set(map(repr, values))) > 1:
        raise Unsupported(
            "plan.conflicting_options", f"the instruction gives two different {name}s"
        )
    return values[0] if values else None


def finish(directives: list[Directive]) -> list[Directive]:
    """Assemble the context clauses of an instruction into steps, or refuse.

    Directives of other families pass through untouched when the instruction has no context
    clause. Context clauses must not mix with other families' steps.
    """
    marks: dict[str, list[Any]] = {}
    ours: list[Step] = []
    others: list[Directive] = []
    for d in directives:
        if isinstance(d, Option) and d.name.startswith("context."):
            marks.setdefault(d.name.removeprefix("context."), []).append(d.value)
        elif isinstance(d, Step) and d.op.startswith(("context.", "table.")):
            ours.append(d)
        else:
            others.append(d)
    if not marks and not ours:
        return directives
    # a new column goes into a table: "add a column called Growth with the YoY change" names
    # no table, and means the table above
    on_table = any(s.op == "context.table" for s in ours) or "add_column" in marks
    if others and on_table:
        for d in others:
            mark = _as_mark(d) if isinstance(d, Step) else None
            if mark is None:
                break
            marks.setdefault(mark.name.removeprefix("context."), []).append(mark.value)
        else:
            others = []
    if others:
        raise _uncertain("the instruction mixes context clauses with other requests")
    text_steps = [s for s in ours if s.op in _TEXT_OPS]
    table_steps = [s for s in ours if s.op == "context.table"]
    if text_steps and table_steps:
        raise _uncertain("the instruction asks for a table and a piece of text at once")
    if text_steps:
        return _text_request(text_steps, marks)
    if on_table:
        return _table_request(marks)
    raise _uncertain("the instruction does not say what in the conversation it refers to")


def _check_marks(marks: dict[str, list[Any]], allowed: set[str], what: str) -> None:
    extra = sorted(set(marks) - allowed)
    if extra:
        raise _uncertain(f"{', '.join(extra)} do not go with {what}")


def _text_request(steps: list[Step], marks: dict[str, list[Any]]) -> list[Directive]:
    if len({(s.op, tuple(sorted(s.params.items()))) for s in steps}) > 1:
        raise _uncertain("the instruction asks for more than one piece of text")
    step = steps[0]
    allowed = {
        "context.paragraph": _PARAGRAPH_MARKS,
        "context.question": _QUESTION_MARKS,
        "context.section": _PARAGRAPH_MARKS,
    }[step.op]
    _check_marks(marks, allowed, step.op)
    params = dict(step.params)
    for name in ("verbatim", "alone"):
        if name in marks:
            params[name] = True
    role = _one(marks, "role")
    if role is not None:
        params["role"] = role  # "of my message", "of your previous reply"
    return [Step(step.op, params)]


def _table_request(marks: dict[str, list[Any]]) -> list[Directive]:
    """``context.table``, then selections, a sort, one computing op, and the output."""
    _check_marks(marks, _TABLE_MARKS, "a table")
    flags = {name: True for name in ("verbatim", "alone") if name in marks}
    kinds = [k for k in ("growth", "round_column", "aggregate") if k in marks]
    if len(kinds) > 1:
        raise _uncertain("the instruction asks for more than one computation on the table")
    kind = kinds[0] if kinds else None
    if kind != "growth":
        stray = sorted((set(marks) & (_GROWTH_MARKS | _FORMAT_MARKS)) - {"rows"})
        if stray:
            raise _uncertain(f"{', '.join(stray)} need a growth column")
    if kind is None and "decimals" in marks:
        raise _uncertain("the instruction does not say what to round")
    if kind is None and not ({"sort", "select"} & set(marks)):
        return [Step("context.table_text", flags)]  # "quote the table above"
    steps: list[Directive] = [Step("context.table", flags)]
    for column, op, value in marks.get("select", []):
        steps.append(Step("table.select", {"column": column, "op": op, "value": value}))
    sort = _one(marks, "sort")
    if sort is not None:
        steps.append(Step("table.sort", {"by": sort[0], "order": sort[1]}))
    if kind == "growth":
        steps.append(_growth_step(marks))
    elif kind == "round_column":
        decimals = _one(marks, "decimals")
        if decimals is None:
            raise Unsupported("context.format_unstated", "the number of decimals is not stated")
        column = _one(marks, "round_column")
        steps.append(Step("table.round", {"column": column, "decimals": decimals}))
    elif kind == "aggregate":
        if "markdown" in marks or "sort" in marks:
            raise _uncertain("a sum or average is a number, not a table")
        fn, column = _one(marks, "aggregate")
        params: dict[str, Any] = {"column": column}
        decimals = _one(marks, "decimals")
        if decimals is not None:
            if fn == "sum":
                raise _uncertain("rounding a sum is not supported")
            params["decimals"] = decimals
        steps.append(Step(f"table.{fn}", params))
        return steps
    steps.append(Step("table.markdown"))
    return steps


def _growth_step(marks: dict[str, list[Any]]) -> Step:
    if "growth" not in marks:
        raise _uncertain("the instruction does not say what the new column holds")
    name = _one(marks, "column_name")
    if name is None:
        name = _DEFAULT_GROWTH_NAME["growth_zh" in marks]
    params: dict[str, Any] = {"name": name, **_number_format(marks)}
    columns = _one(marks, "columns")
    if columns is not None:
        params["current"], params["previous"] = columns
    return Step("table.growth", params)


def _number_format(marks: dict[str, list[Any]]) -> dict[str, Any]:
    """Decimals, kind and sign of the growth values, from the words and the example, which
    must agree. The decimals must be stated; a growth column is a percentage unless an
    example says otherwise (the convention of a YoY or growth column, "15.00%"). An example
    written with ``+`` ("+12.34%") asks for a ``+`` before positive values."""
    decimals = _one(marks, "decimals")
    percent = "percent" in marks
    example = _one(marks, "example")
    if example is not None:
        _sign, places, has_percent = example
        if decimals is not None and places != decimals:
            raise Unsupported(
                "context.format_conflict", f"{decimals} decimals but the example has {places}"
            )
        if percent and not has_percent:
            raise Unsupported("context.format_conflict", "a percentage but the example has no %")
        decimals = places if decimals is None else decimals
        percent = percent or has_percent
    if decimals is None:
        raise Unsupported("context.format_unstated", "the number of decimals is not stated")
    if example is not None and not percent:
        raise Unsupported("context.format_unstated", "the example is not a percentage")
    out: dict[str, Any] = {"decimals": decimals, "format": "percent"}
    if example is not None and example[0] == "+":
        out["plus_sign"] = True  # "like +12.34%": growth is written with its sign
    return out
