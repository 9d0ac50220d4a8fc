"""Transforms for the JSON/YAML grammar fragment: parse-tree rules → directives.

Each function receives the children of one rule (tokens, values and already transformed
sub-rules) and returns a value; clause rules return lists of ``Step``/``Option``/``Source``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from lark import Token

from zerolayer.core.errors import Unsupported
from zerolayer.core.fields import RECORD_NOUNS, FieldRef
from zerolayer.core.plan import Directive, Option, Source, Step

Children = list[Any]

_FORMATS = ("json", "yaml")


def _fmts(children: Children) -> list[str]:
    return [
        c
        for c in children
        if isinstance(c, str) and not isinstance(c, Token | FieldRef) and c in _FORMATS
    ]


def _names(children: Children) -> list[FieldRef]:
    out: list[FieldRef] = []
    for c in children:
        if isinstance(c, FieldRef):
            out.append(c)
        elif isinstance(c, list) and all(isinstance(x, FieldRef) for x in c):
            out.extend(c)
    return out


def _tokens(children: Children, *types: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type in types]


def _emit(fmt: str) -> Step:
    return Step(f"{fmt}.emit")


def _number(children: Children) -> int | float:
    for c in children:
        if isinstance(c, int | float) and not isinstance(c, bool):
            return c
    raise Unsupported("parse.no_number", "a number was expected")


def _count(children: Children) -> int:
    n = _number(children)
    if not isinstance(n, int) or n < 0:
        raise Unsupported("parse.bad_count", f"{n} is not a count")
    return n


def convert_from_to(children: Children) -> list[Directive]:
    fmts = _fmts(children)
    src, dst = fmts[0], fmts[-1]
    return [Source(src), _emit(dst)]


def convert_to(children: Children) -> list[Directive]:
    dst = _fmts(children)[-1]
    out: list[Directive] = [_emit(dst)]
    # "convert to JSON" says the payload is not JSON (YAML reads any JSON too)
    verbs = [c for c in children if isinstance(c, Token) and c.type == "CONVERT"]
    if verbs and dst == "json":
        out.insert(0, Source("yaml"))
    return out


def convert_version(children: Children) -> list[Directive]:
    fmts = _fmts(children)
    out: list[Directive] = [_emit(fmts[0])]
    if len(fmts) > 1:
        out.insert(0, Source(fmts[1]))
    return out


def convert_zh(children: Children) -> list[Directive]:
    fmts = _fmts(children)
    if len(fmts) == 2:
        return [Source(fmts[0]), _emit(fmts[1])]
    return convert_to([*children, Token("CONVERT", "转")])


def convert_to_minified(children: Children) -> list[Directive]:
    """ "Convert this YAML to minified JSON": the conversion and one-line output."""
    return [*convert_to(children), Option("single_line", True)]


def convert_from_to_minified(children: Children) -> list[Directive]:
    return [*convert_from_to(children), Option("single_line", True)]


def seq_dash(children: Children) -> list[Directive]:
    """ "数组项用'-'开头": sequence items start with a dash, i.e. block style."""
    mark = next(c for c in children if isinstance(c, str) and not isinstance(c, Token))
    if mark.strip() != "-":
        raise Unsupported("parse.seq_mark", f"items cannot start with {mark!r} in YAML")
    return [Option("seq_style", "block")]


def source(children: Children) -> list[Directive]:
    return [Source(_fmts(children)[0])]


def indent(children: Children) -> list[Directive]:
    n = _number(children)
    if not isinstance(n, int) or not 1 <= n <= 10:
        raise Unsupported("parse.bad_indent", f"an indent of {n} spaces is not supported")
    return [Option("indent", n)]


def indent_fmt(children: Children) -> list[Directive]:
    """ "re-indent this YAML with 4 spaces": the payload's format and the indentation."""
    return [Source(_fmts(children)[0]), *indent(children)]


def sort_keys_of(children: Children) -> list[Directive]:
    """ "sort the keys of this JSON": the payload's format and sorted keys."""
    return [Source(_fmts(children)[0]), Option("sort_keys", True)]


def quote(children: Children) -> list[Directive]:
    style = next(c for c in children if c in ("double", "single"))
    return [Option("quote", style)]


class _Alphabetical(str):
    """An order stated as alphabetical: strings compare ignoring case."""

    __slots__ = ()


class _Word(str):
    """A value written as a bare word ("status shipped"), not quoted nor a number."""

    __slots__ = ()


class _InTime(str):
    """An order stated in time words ("oldest first"): it holds for points in time only."""

    __slots__ = ()


def _order(children: Children, default: str | None) -> str:
    for c in children:
        if c in ("asc", "desc") and not isinstance(c, Token | FieldRef):
            return str(c)
    if default is None:
        raise Unsupported("query.order_unstated", "say in which order: ascending or descending")
    return default


_PARTICIPLES = ("sorted", "ordered", "arranged", "ranked")


def sort(children: Children) -> list[Directive]:
    """ "sort by X": a sort step; "sorted by X" is resolved by ``finish`` (see there)."""
    key = _names(children)[-1]
    params: dict[str, Any] = {"key": key, "order": _order(children, "asc")}
    if any(isinstance(c, _Alphabetical) for c in children):
        params["alphabetical"] = True
    if any(isinstance(c, _InTime) for c in children):
        params["in_time"] = True
    words = _tokens(children, "JY_SORT")
    if words and words[0].lower() in _PARTICIPLES:
        return [Step("jy.sorted", params)]
    return [Step("sort", params)]


def alpha(children: Children) -> list[Directive]:
    """ "in (reverse) alphabetical order" after a field was picked: see ``_alpha_sort``."""
    return [Step("jy.alpha", {"order": "desc" if _tokens(children, "JY_ALPHA_DESC") else "asc"})]


def _alpha_sort(done: list[Directive], order: str) -> None:
    """ "List the names in alphabetical order": sort the records by the field just picked,
    before picking it; "the distinct authors, alphabetically": the values in that order.
    Anything else (records, a sort already there) falls back."""
    steps = [d for d in done if isinstance(d, Step)]
    if steps and steps[-1].op == "distinct" and not any(s.op == "sort" for s in steps):
        # "list the distinct authors, alphabetically": the values themselves in that order
        done[done.index(steps[-1])] = Step("distinct", {**steps[-1].params, "order": order})
        return
    if not steps or steps[-1].op != "pluck" or any(s.op == "sort" for s in steps):
        raise Unsupported("query.order_field", "in alphabetical order of which field?")
    pluck = steps[-1]
    sort = Step("sort", {"key": pluck.params["field"], "order": order, "alphabetical": True})
    done.insert(done.index(pluck), sort)


def keep(children: Children) -> list[Directive]:
    return [Step("project", {"fields": _names(children)})]


def drop(children: Children) -> list[Directive]:
    """ "remove the email field (from every user | from the JSON)"."""
    names = _names(children)
    if _tokens(children, "FROM"):
        fmts = _fmts(children)
        if fmts:
            return [Source(fmts[0]), Step("drop", {"fields": names})]
        names = names[:-1]  # "from every user": the records, not a field
    return [Step("drop", {"fields": names})]


def rename(children: Children) -> list[Directive]:
    old, new = _names(children)[:2]
    return [Step("rename", {"field": old, "to": str(new)})]


_COMPARISONS = frozenset(("ge", "le", "gt", "lt", "ne", "eq", "starts", "ends", "contains"))


def cond(children: Children) -> tuple[str, Any, Any, Any]:
    """ "score >= 80", "a score of at least 80": field, comparison, value."""
    field = children[0]
    value = children[-1]
    if isinstance(value, (Token, FieldRef)):
        value = str(value)
    op = next(  # the comparison, past an optional "of"
        c
        for c in children[1:-1]
        if isinstance(c, str) and not isinstance(c, Token | FieldRef) and c in _COMPARISONS
    )
    return ("cond", field, op, value)


def cond_between(children: Children) -> list[tuple[str, Any, Any, Any]]:
    """ "age between 30 and 40 inclusive": at least the first bound and at most the second."""
    field = children[0]
    low, high = (c for c in children[1:] if not isinstance(c, Token))
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (low, high)):
        raise Unsupported("query.range", "a range needs two numbers ('between 30 and 40')")
    if low > high:
        raise Unsupported("query.range", f"the range {low} to {high} is empty; swap its bounds")
    return [("cond", field, "ge", low), ("cond", field, "le", high)]


def text_test(children: Children) -> str:
    """ "starts with", "ends with", "contains": the test of a string's text."""
    word = str(children[0]).lower()
    return (
        "starts"
        if word.startswith(("start", "begin"))
        else "ends"
        if word.startswith("end")
        else "contains"
    )


def cond_one_of(children: Children) -> tuple[str, Any, Any, Any]:
    """ "status is one of pending, shipped": equal to one of two or more values."""
    values = [c for c in children[1:] if not isinstance(c, Token)]
    if len(values) < 2 or len({json.dumps(v) for v in values}) != len(values):
        raise Unsupported("query.one_of", "'one of' needs two or more different values")
    return ("cond", children[0], "one_of", values)


def flag(value: bool, prefix: str) -> Callable[[Children], tuple[str, Any, Any, Any]]:
    """A boolean condition: "in stock" → ``in_stock`` is true, "有库存" → ``库存`` is true."""

    def build(children: Children) -> tuple[str, Any, Any, Any]:
        field = _names(children)[-1]
        name = FieldRef(prefix + "_".join(str(field).split()))
        return ("cond", name, "eq", value)

    return build


def _conds(children: Children, *, held: bool = False) -> list[Step]:
    """The filters of the conditions; with ``held``, a bare word compared equal is a value
    only when a record holds it."""
    out = []
    for c in children:
        if isinstance(c, tuple) and c and c[0] == "cond":
            _, field, op, value = c
            params = {"field": field, "op": op, "value": value}
            if held and isinstance(value, _Word) and op == "eq":
                params |= {"value": str(value), "held": True}
            out.append(Step("filter", params))
        elif isinstance(c, list):
            out.extend(_conds(c, held=held))
    return out


def filter_(children: Children) -> list[Directive]:
    return list(_conds(children))


def filter_which(children: Children) -> list[Directive]:
    """ "Which products cost more than 20?": a filter; what to answer with comes from the rest
    of the instruction, else the records themselves (see ``finish``). A bare word read as a
    value is one only when a record holds it ("which different statuses occur" is no filter
    of status "occur")."""
    return [*_conds(children, held=True), Step("jy.which")]


def distinct(children: Children) -> list[Directive]:
    """ "the distinct classes", "不同的班级": the different values of the field named last."""
    return [Step("distinct", {"field": _names(children)[-1]})]


def first(children: Children) -> list[Directive]:
    out: list[Directive] = []
    if _tokens(children, "JY_BY"):
        key = _names(children)[-1]
        out.append(Step("sort", {"key": key, "order": _order(children, None)}))
    out.append(Step("first", {"count": _count(children)}))
    return out


def top(children: Children) -> list[Directive]:
    """ "top 3 students by score": the highest first (unless an order is stated), then N."""
    key = _names(children)[-1]
    return [
        Step("sort", {"key": key, "order": _order(children, "desc")}),
        Step("first", {"count": _count(children)}),
    ]


_ZH_HIGH = ("最高", "最大", "最多", "最高值", "最大值")


def top_zh(children: Children) -> list[Directive]:
    """ "分数最高的前3名学生的名字": sort by 分数, take 3, then the named field if any."""
    names = _names(children)
    word = str(_tokens(children, "JY_ZH_EXTREME")[0])
    out: list[Directive] = [
        Step("sort", {"key": names[0], "order": "desc" if word in _ZH_HIGH else "asc"}),
        Step("first", {"count": _count(children)}),
    ]
    if len(names) > 1:
        out.append(Step("pluck", {"field": names[1]}))
    return out


def top_of_sorted(children: Children) -> list[Directive]:
    """ "… and return the top 2": the first N of data an earlier clause sorted."""
    return [Step("jy.top", {"count": _count(children)})]


def first_field(children: Children) -> list[Directive]:
    """ "the first 3 names only": the first N, answered with that field."""
    return [Step("first", {"count": _count(children)}), *answer_field(children)]


def last(children: Children) -> list[Directive]:
    return [Step("last", {"count": _count(children)})]


def count(children: Children) -> list[Directive]:
    """ "count the students", "how many users have plan pro": the records counted are named
    by a noun for records (core/fields.RECORD_NOUNS); any other noun ("count the duplicates")
    says which records to count in a way the count does not read. A count with no condition,
    of the records named or of nothing named ("how many are there?"), counts the items of a
    list only (``records``): an object is not its records ("count the orders" of
    {"orders": […]})."""
    for c in children:
        named = isinstance(c, tuple) and c[:1] == ("noun",) and c[1].isascii()
        if named and c[1].lower() not in RECORD_NOUNS:
            raise Unsupported(
                "query.count_noun",
                f"'{c[1]}' does not name the records: say what to count with a condition "
                "('how many records have …')",
            )
    conds = _conds(children)
    return [*conds, Step("count", {} if conds else {"records": True})]


_AGGREGATES = {
    "sum": "sum",
    "total": "sum",
    "average": "avg",
    "mean": "avg",
    "avg": "avg",
    "median": "median",
}


def aggregate(children: Children) -> list[Directive]:
    """ "the total price", "the maximum score": one number from a numeric field."""
    field = _names(children)[0]
    agg = _tokens(children, "JY_AGG")
    if agg:
        return [Step(_AGGREGATES[agg[0].lower()], {"field": field})]
    word = _tokens(children, "JY_EXTREME")[0].lower()
    return [Step("max" if word in _HIGH else "min", {"field": field})]


def aggregate_where(children: Children) -> list[Directive]:
    """ "the average score of students in class A": filter, then aggregate."""
    conds = _conds(children)
    return [*conds, *aggregate([c for c in children if not isinstance(c, list | tuple)])]


_ZH_AGGREGATES = {
    "总和": "sum",
    "之和": "sum",
    "总计": "sum",
    "合计": "sum",
    "平均值": "avg",
    "平均数": "avg",
    "平均": "avg",
    "均值": "avg",
    "中位数": "median",
    "最大值": "max",
    "最高值": "max",
    "最小值": "min",
    "最低值": "min",
}


def aggregate_zh(children: Children) -> list[Directive]:
    """ "价格的总和是多少", "分数的最大值": one number from a numeric field."""
    word = str(_tokens(children, "JY_ZH_AGG", "JY_ZH_EXTREME_VALUE")[0])
    return [Step(_ZH_AGGREGATES[word], {"field": _names(children)[-1]})]


_HIGH = ("highest", "largest", "biggest", "greatest", "most", "maximum", "max")


def extreme_zh(children: Children) -> list[Directive]:
    """ "分数最高的学生是谁": the one record with the highest 分数."""
    word = str(_tokens(children, "JY_ZH_EXTREME")[0])
    field = _names(children)[0]
    return [Step("max_by" if word in _ZH_HIGH else "min_by", {"field": field})]


def extreme_zh_field(children: Children) -> list[Directive]:
    """ "价格最高的商品名称": the one record with the highest 价格, then its 名称."""
    (step,) = extreme_zh(children)
    return [step, Step("get", {"path": _names(children)[-1]})]


def extreme_field(children: Children) -> list[Directive]:
    """ "the name of the student with the highest score": the record, then its name."""
    (step,) = extreme(children)
    return [step, Step("get", {"path": _names(children)[0]})]


def extreme(children: Children) -> list[Directive]:
    word = _tokens(children, "JY_EXTREME")[0].lower()
    field = _names(children)[-1]
    return [Step("max_by" if word in _HIGH else "min_by", {"field": field})]


def pluck(children: Children) -> list[Directive]:
    names = _names(children)
    field, noun = names[0], names[1]
    steps: list[Directive] = list(_conds(children))
    if noun.lower().endswith("s"):
        steps.append(Step("pluck", {"field": field}))
    else:  # "the email of the user with id 3": exactly one record
        steps += [Step("only"), Step("get", {"path": field})]
    return steps


def pluck_field(children: Children) -> list[Directive]:
    return [Step("pluck", {"field": _names(children)[0]})]


def get(children: Children) -> list[Directive]:
    return [Step("get", {"path": _names(children)[-1]})]


def group(children: Children) -> list[Directive]:
    """ "Count the students by class", "group … and count them", "按class分组统计": counts per
    value. A bare "group by class" says nothing of what to do with each group: see ``finish``."""
    field = _names(children)[-1]
    counted = _tokens(children, "JY_COUNT") or any(
        str(t) in ("分组统计", "分组计数") for t in _tokens(children, "JY_ZH_GROUP")
    )
    return [Step("group_count" if counted else "jy.group", {"field": field})]


def aggregate_per(children: Children) -> list[Directive]:
    """ "the average score per class": one aggregate for each value of a field."""
    (step,) = aggregate([c for c in children if not _is_per(c)])
    by = next(c[1] for c in children if _is_per(c))
    return [_group_aggregate(by, step)]


def aggregate_per_zh(children: Children) -> list[Directive]:
    """ "按班级计算平均分数": the first name groups, the second is aggregated."""
    names = _names(children)
    (step,) = aggregate_zh([c for c in children if c is not names[0]])
    return [_group_aggregate(names[0], step)]


def _is_per(child: Any) -> bool:
    return isinstance(child, tuple) and len(child) == 2 and child[0] == "per"


def _group_aggregate(by: Any, step: Step) -> Step:
    return Step("group_agg", {"by": by, "agg": step.op, "field": step.params["field"]})


def group_zh(children: Children) -> list[Directive]:
    """ "按 class 字段分组，统计每个班级的人数": the tallied name must be the grouped field."""
    names = _names(children)
    return [Step("group_count", {"field": names[0], "same_as": names[1]})]


def round_(children: Children) -> list[Directive]:
    return [Step("round", {"decimals": _count(children)})]


def answer_plain(children: Children) -> list[Directive]:
    """ "Reply with the number only": a number is asked for (see ``finish``); "output only
    the value" asks for the result as it is."""
    kinds = [c for c in children if not isinstance(c, Token) and c in ("any", "number")]
    return [Step("jy.number")] if kinds == ["number"] else []


def answer_field(children: Children) -> list[Directive]:
    """ "Answer with the name only": the answer is that field (see ``finish``). Several names
    are several fields ("show only name and population") or one field's words ("only the
    email address"): ``finish`` decides by what comes before."""
    names = _names(children)
    return [Step("jy.focus", {"field": names[0], "also": names[1:]})]


def _reformat(directives: list[Directive]) -> list[Directive]:
    """Output options or "pretty-print" with no writer ("Minify this JSON", "Sort the keys of
    this YAML"): write the data back in the one format the instruction names."""
    pretty = any(isinstance(d, Step) and d.op == "jy.reformat" for d in directives)
    out = [d for d in directives if not (isinstance(d, Step) and d.op == "jy.reformat")]
    if any(isinstance(d, Step) and d.op in ("json.emit", "yaml.emit") for d in out):
        return out
    if not pretty and not any(isinstance(d, Option) for d in out):
        return out
    sources = {d.format for d in out if isinstance(d, Source)}
    if len(sources) != 1 or not sources <= set(_FORMATS):
        if pretty:
            raise Unsupported("query.reformat_format", "say which format to write: JSON or YAML")
        return out
    return [*out, _emit(sources.pop())]


# Steps whose result is a number (``round`` writes one as text).
_NUMERIC = frozenset(("count", "sum", "avg", "median", "min", "max", "round"))


def _as_number(out: list[Directive]) -> list[Directive]:
    """ "Reply with the number only": the chain must end on a number. When its last step
    does not always give one, a ``number`` step checks the result (another kind falls back)."""
    steps = [d for d in out if isinstance(d, Step)]
    if not steps:
        raise Unsupported("query.answer_shape", "a number was asked for, but of what?")
    if steps[-1].op in _NUMERIC:
        return out
    if any(s.op in ("json.emit", "yaml.emit") for s in steps):
        raise Unsupported("query.answer_shape", "a number and a document were both asked for")
    return [*out, Step("number")]


_GROUPABLE = frozenset(("sum", "avg", "median", "min", "max"))


def _grouped(directives: list[Directive]) -> list[Directive]:
    """A bare "group by X" takes the aggregate that follows it ("group the students by class,
    then the average score": the average per class); with none it is not understood."""
    out: list[Directive] = []
    pending: Step | None = None
    for d in directives:
        if isinstance(d, Step) and d.op == "jy.group":
            if pending is not None:
                raise Unsupported("query.group_unstated", "grouped twice")
            pending = d
            continue
        if pending is not None and isinstance(d, Step):
            if d.op not in _GROUPABLE or "field" not in d.params:
                break
            out.append(_group_aggregate(pending.params["field"], d))
            pending = None
            continue
        out.append(d)
    if pending is not None:
        raise Unsupported(
            "query.group_unstated",
            "grouped, then what? say 'count them', or name an aggregate (the average score …)",
        )
    return out


def finish(directives: list[Directive]) -> list[Directive]:
    """Resolve "answer with X only": nothing to do when the chain already ends on field X,
    else read X from the one record at hand; "the number only": see ``_as_number``. Then
    see ``_reformat``."""
    directives = _reformat(_grouped(directives))
    as_number = any(isinstance(d, Step) and d.op == "jy.number" for d in directives)
    out: list[Directive] = []
    for d in directives:
        previous = next((s for s in reversed(out) if isinstance(s, Step)), None)
        if isinstance(d, Step) and d.op == "jy.alpha":
            _alpha_sort(out, d.params["order"])
            continue
        if isinstance(d, Step) and d.op == "jy.which":
            # "Which students scored above 80?" asks for the records that are so: with no
            # step after it that says what to answer with (their names, how many), the
            # answer is those records in full. A field the question did not name (a name, a
            # title) would be a guess; the records hold every field and add nothing.
            continue
        if isinstance(d, Step) and d.op == "jy.sorted":
            # "the first 2 students sorted by name": sort first, or take 2 and then sort?
            if previous is not None and previous.op in ("first", "last"):
                raise Unsupported(
                    "query.order_ambiguous",
                    "say whether to sort before or after taking the first/last items",
                )
            d = Step("sort", d.params)
        if isinstance(d, Step) and d.op == "jy.top":
            if not _sorted_before(out):
                raise Unsupported("query.top_unordered", "top N by which field?")
            d = Step("first", d.params)
        if isinstance(d, Step) and d.op == "jy.group_shape":
            if not any(isinstance(s, Step) and s.op == "group_count" for s in out):
                raise Unsupported("query.shape", "keys and values of what? nothing is grouped")
            continue
        if isinstance(d, Step) and d.op == "jy.focus":
            field, also = d.params["field"], d.params.get("also") or []
            steps = [s for s in out if isinstance(s, Step)]
            last_step = steps[-1] if steps else None
            named = (
                last_step.params.get("field") or last_step.params.get("path") if last_step else None
            )
            if last_step and last_step.op in ("pluck", "get") and _same_field(named, field):
                continue  # "… the email. Output only the email address": what was picked
            if last_step and last_step.op in ("first", "last", "sort", "filter") and also:
                # every name kept: a field that is no key ("address" of "email address") is a
                # misread the query frame reads again, never a field dropped
                out.append(Step("project", {"fields": [field, *also]}))
                continue
            if also:
                raise Unsupported("query.focus", "several fields of one record: name them apart")
            if last_step and last_step.op in ("max_by", "min_by", "only"):
                out.append(Step("get", {"path": field}))
                continue
            if last_step and last_step.op in ("first", "last", "sort", "filter"):
                out.append(Step("pluck", {"field": field}))
                continue
            raise Unsupported("query.focus", f"cannot tell which {field!r} the answer is")
        if isinstance(d, Step) and d.op == "jy.number":
            continue  # see _as_number, after the whole chain
        if isinstance(d, Step) and d.op == "sort" and _already_sorted(out, d):
            continue
        if _restates_pick(previous, d):
            continue  # "价格最高的商品名称，只输出名称": the name is what the chain picked
        out.append(d)
    return _as_number(out) if as_number else out


_ORDER_KEEPING = ("first", "last", "pluck", "project", "filter", "drop")


def _sorted_before(done: list[Directive]) -> bool:
    """Whether the data at this point is sorted: a sort step, then only order-keeping ones."""
    for d in reversed(done):
        if isinstance(d, Step):
            if d.op == "sort":
                return True
            if d.op not in _ORDER_KEEPING:
                return False
    return False


def _already_sorted(done: list[Directive], sort: Step) -> bool:
    """Whether the steps so far already left the data in ``sort``'s order: the last sort was
    by the same key and order, and only order-keeping steps ran after it ("前3名…按分数从高到
    低输出" restates the order of "分数最高的前3名")."""
    for d in reversed(done):
        if not isinstance(d, Step):
            continue
        if d.op == "sort":
            return bool(d.params == sort.params)
        if d.op not in _ORDER_KEEPING:
            return False
    return False


def _restates_pick(previous: Step | None, d: Directive) -> bool:
    """Whether ``d`` keeps just the one field the previous step already picked."""
    if previous is None or previous.op not in ("pluck", "get"):
        return False
    if not isinstance(d, Step) or d.op != "project" or len(d.params["fields"]) != 1:
        return False
    named = previous.params.get("field") or previous.params.get("path")
    return _same_field(named, d.params["fields"][0])


def _same_field(a: Any, b: Any) -> bool:
    if a is None:
        return False
    x, y = str(a).lower(), str(b).lower()
    return x == y or x.rstrip("s") == y.rstrip("s")


def _flatten(children: Children) -> list[Directive]:
    out: list[Directive] = []
    for c in children:
        if isinstance(c, list):
            out.extend(c)
    return out


def _const(value: Any) -> Callable[[Children], Any]:
    return lambda _children: value


TRANSFORMS: dict[str, Callable[[Children], Any]] = {
    "jy_json": _const("json"),
    "jy_yaml": _const("yaml"),
    "jy_convert_from_to": convert_from_to,
    "jy_convert_to": convert_to,
    "jy_convert_version": convert_version,
    "jy_convert_zh": convert_zh,
    "jy_source": source,
    "jy_source_from": source,
    "jy_records": lambda children: [Step("records", {"noun": str(_names(children)[0])})],
    "jy_option": _flatten,
    "jy_query": _flatten,
    "jy_sort_keys": _const([Option("sort_keys", True)]),
    "jy_indent": indent,
    "jy_indent_fmt": indent_fmt,
    "jy_sort_keys_of": sort_keys_of,
    "jy_quote": quote,
    "jy_double": _const("double"),
    "jy_single": _const("single"),
    "jy_seq_block": _const([Option("seq_style", "block")]),
    "jy_seq_dash": seq_dash,
    "jy_convert_to_minified": convert_to_minified,
    "jy_convert_from_to_minified": convert_from_to_minified,
    "jy_seq_flow": _const([Option("seq_style", "flow")]),
    "jy_doc_start": _const([Option("explicit_start", True)]),
    "jy_no_doc_start": _const([Option("explicit_start", False)]),
    "jy_keep_unicode": _const([Option("ensure_ascii", False)]),
    "jy_escape_unicode": _const([Option("ensure_ascii", True)]),
    "jy_minify": _const([Option("single_line", True)]),
    "jy_reformat": _const([Step("jy.reformat")]),
    "jy_noop": _const([]),
    "jy_asc": _const("asc"),
    "jy_desc": _const("desc"),
    "jy_asc_time": _const(_InTime("asc")),
    "jy_desc_time": _const(_InTime("desc")),
    "jy_alpha_asc": _const(_Alphabetical("asc")),
    "jy_alpha_desc": _const(_Alphabetical("desc")),
    "jy_sort": sort,
    "jy_sort_noun_free": sort,
    "jy_sort_zh": sort,
    "jy_names": lambda children: [c for c in children if isinstance(c, FieldRef)],
    "jy_keep": keep,
    "jy_drop": drop,
    "jy_rename": rename,
    "jy_true": _const(True),
    "jy_false": _const(False),
    "jy_null": _const(None),
    "jy_word": lambda children: _Word(children[0]),
    "jy_ge": _const("ge"),
    "jy_le": _const("le"),
    "jy_gt": _const("gt"),
    "jy_lt": _const("lt"),
    "jy_ne": _const("ne"),
    "jy_eq": _const("eq"),
    "jy_cond": cond,
    "jy_cond_between": cond_between,
    "jy_cond_one_of": cond_one_of,
    "jy_text_test": text_test,
    "jy_cond_eq": lambda children: ("cond", children[0], "eq", children[-1]),
    "jy_filter": filter_,
    "jy_filter_which": filter_which,
    "jy_alpha": alpha,
    "jy_distinct": distinct,
    "jy_count_distinct": lambda children: [*distinct(children), Step("count")],
    "jy_flag_true": flag(True, "in_"),
    "jy_flag_false": flag(False, "in_"),
    "jy_flag_zh_true": flag(True, ""),
    "jy_flag_zh_false": flag(False, ""),
    "jy_first": first,
    "jy_first_zh": first,
    "jy_last": last,
    "jy_count": count,
    "jy_exists": _const([Step("exists")]),
    "jy_none": _const([Step("exists", {"none": True})]),
    "jy_count_zh": count,
    "jy_aggregate": aggregate,
    "jy_extreme": extreme,
    "jy_pluck": pluck,
    "jy_pluck_where": pluck,
    "jy_pluck_field": pluck_field,
    "jy_get": get,
    "jy_keys": _const([Step("keys")]),
    "jy_group": group,
    "jy_group_zh": group_zh,
    "jy_group_shape": _const([Step("jy.group_shape")]),
    "jy_top": top,
    "jy_top_zh": top_zh,
    "jy_top_of_sorted": top_of_sorted,
    "jy_first_field": first_field,
    "jy_aggregate_zh": aggregate_zh,
    "jy_extreme_zh": extreme_zh,
    "jy_extreme_zh_field": extreme_zh_field,
    "jy_extreme_field": extreme_field,
    "jy_noun": lambda children: ("noun", str(children[0])),
    "jy_group_count_by": group,
    "jy_aggregate_per": aggregate_per,
    "jy_aggregate_where": aggregate_where,
    "jy_aggregate_per_zh": aggregate_per_zh,
    "jy_per": lambda children: ("per", _names(children)[-1]),
    "jy_round": round_,
    "jy_answer_plain": answer_plain,
    "jy_answer_number": _const([Step("jy.number")]),
    "jy_kind_any": _const("any"),
    "jy_kind_number": _const("number"),
    "jy_answer_field": answer_field,
    "jy_number": lambda children: _to_number(str(children[0])),
}


def _to_number(text: str) -> int | float:
    return float(text) if "." in text else int(text)
