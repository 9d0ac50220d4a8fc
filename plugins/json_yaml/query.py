"""Query ops on parsed JSON or YAML data: pure functions, exact or a clear error.

Records are JSON objects in a list. Comparisons never coerce between types: a number in the
instruction is compared with numbers only, a string with strings only; data where that is not
so makes the op refuse (``Unsupported``: the request falls back) rather than guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from zerolayer.core.errors import OpError, Unsupported
from zerolayer.core.fields import data_keys, resolve
from zerolayer.core.paths import PathMissing, parse_path, walk

Record = Mapping[str, Any]


def _records(data: Any, op: str) -> list[Record]:
    if not isinstance(data, list):
        raise OpError(f"{op} needs a list of objects; the data is {_kind(data)}")
    for i, item in enumerate(data):
        if not isinstance(item, Mapping):
            raise OpError(f"{op} needs a list of objects; item {i + 1} is {_kind(item)}")
    return data


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _sort_class(value: Any) -> str | None:
    if _is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    return None


def sort_records(
    data: Any,
    *,
    key: str,
    order: str = "asc",
    alphabetical: bool = False,
    in_time: bool = False,
) -> list[Any]:
    """Records sorted by ``key``, stable; every record needs the key, all of one type.
    ``alphabetical``: strings compare ignoring case first ("apple" before "Banana").
    ``in_time``: the order was said in time words ("oldest first"), which say which end comes
    first only for dates and times: a field of other values (ages, where the oldest is the
    highest) is not sorted."""
    records = _records(data, "sort")
    values = [_field_value(r, key) for r in records]  # a key, or a dotted path (a.b)
    if in_time and not all(_point_in_time(key, v) for v in values):
        raise Unsupported(
            "query.order_in_time",
            f"'oldest' or 'newest' first says the order of dates; {key!r} does not hold dates: "
            "say ascending or descending",
        )
    classes: set[str] = set()
    for i, value in enumerate(values):
        if value is _ABSENT:
            raise OpError(f"sort by {key!r}: record {i + 1} has no field {key!r}")
        cls = _sort_class(value)
        if cls is None:
            raise OpError(
                f"sort by {key!r}: record {i + 1} has {_kind(value)} there; "
                "only numbers, strings and booleans sort"
            )
        classes.add(cls)
    if len(classes) > 1:
        raise OpError(f"sort by {key!r}: the field mixes {' and '.join(sorted(classes))}s")
    pairs = list(zip(values, records, strict=True))
    if alphabetical and classes == {"string"}:
        pairs.sort(key=lambda p: (p[0].casefold(), p[0]), reverse=order == "desc")
    else:
        pairs.sort(key=lambda p: p[0], reverse=order == "desc")
    return [record for _, record in pairs]


# a date or a date and time, ISO 8601 or with slashes ("2024-03-01", "2024/3/1 10:00")
_DATE = re.compile(
    r"\d{4}[-/]\d{1,2}(?:[-/]\d{1,2})?"
    r"(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$"
)


def _point_in_time(key: str, value: Any) -> bool:
    """Whether ``value`` is a date, a date and time, or a year in a field named for years."""
    if isinstance(value, str):
        return _DATE.match(value) is not None
    year = isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 2999
    return year and ("year" in key.lower() or "年" in key)


def project(data: Any, *, fields: list[str]) -> Any:
    """Each record (or the one object) with only ``fields``, in that order; absent ones left out."""
    if isinstance(data, Mapping):
        return {f: data[f] for f in fields if f in data}
    return [{f: r[f] for f in fields if f in r} for r in _records(data, "keep")]


def drop(data: Any, *, fields: list[str]) -> Any:
    """Each record (or the one object) without ``fields``."""
    gone = set(fields)
    if isinstance(data, Mapping):
        return {k: v for k, v in data.items() if k not in gone}
    return [{k: v for k, v in r.items() if k not in gone} for r in _records(data, "drop")]


def rename(data: Any, *, field: str, to: str) -> Any:
    """Each record (or the one object) with ``field`` renamed to ``to``, in place."""

    def one(record: Record, where: str) -> dict[str, Any]:
        if to in record and to != field:
            raise OpError(f"rename {field!r} to {to!r}: {where} already has a field {to!r}")
        return {(to if k == field else k): v for k, v in record.items()}

    if isinstance(data, Mapping):
        return one(data, "the object")
    return [one(r, f"record {i + 1}") for i, r in enumerate(_records(data, "rename"))]


_COMPARE = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
}


def _comparable(field_value: Any, literal: Any, field: str, op: str) -> bool:
    """Whether ``field_value`` can be compared with the literal; refuse what would coerce."""
    if field_value is None:
        return False
    if literal is None:
        return op in ("eq", "ne")
    if _is_number(literal) and _is_number(field_value):
        return True
    if isinstance(literal, bool) and isinstance(field_value, bool):
        return op in ("eq", "ne")
    if isinstance(literal, str) and isinstance(field_value, str):
        return True
    raise Unsupported(
        "query.type_mismatch",
        f"{field!r} holds {_kind(field_value)} but the instruction compares it with "
        f"{_kind(literal)} {literal!r}",
    )


_ABSENT = object()


def _field_value(record: Record, field: str) -> Any:
    """``record``'s value of ``field``: a key, or else a dotted path into nested objects
    (``address.city``, walked as ``get`` walks it); ``_ABSENT`` when it has none."""
    if field in record:
        return record[field]
    if "." not in field:
        return _ABSENT
    try:
        return get(record, path=field)
    except OpError:
        return _ABSENT


_TEXT_TESTS = {
    "starts": str.startswith,
    "ends": str.endswith,
    "contains": lambda text, part: part in text,
}


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``1``, ``true`` and ``"1"`` are three values."""
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def _text_test(current: Any, value: Any, field: str, op: str) -> bool:
    """ "starts with", "ends with", "contains": a test of a string field's text (exact case;
    an instruction whose answer would change with case is no exact request), or, for
    "contains", whether an array field holds the value."""
    if isinstance(current, list) and op == "contains":
        return any(_same_json(item, value) for item in current)
    if not isinstance(current, str) or not isinstance(value, str) or not value:
        raise Unsupported(
            "query.type_mismatch",
            f"{field!r} holds {_kind(current)}; '{op}' tests the text of a string",
        )
    return _TEXT_TESTS[op](current, value)


def _one_of(current: Any, value: Any, field: str) -> bool:
    """Whether ``current`` equals one of the values (each compared as ``eq`` compares)."""
    if not isinstance(value, list) or not value:
        raise OpError("filter: 'one of' needs a list of values")
    return any(_comparable(current, v, field, "eq") and current == v for v in value)


def _text_matches(
    records: list[Any], values: list[Any], field: str, op: str, value: Any
) -> list[Any]:
    """The records whose text passes the test; ``Unsupported`` when matching without regard
    to case would keep other records ("starts with l": l or L?)."""
    out = [
        r
        for r, v in zip(records, values, strict=True)
        if v is not _ABSENT and _text_test(v, value, field, op)
    ]
    if isinstance(value, str):
        folded = [
            r
            for r, v in zip(records, values, strict=True)
            if isinstance(v, str) and _TEXT_TESTS[op](v.casefold(), value.casefold())
        ]
        if any(isinstance(v, str) for v in values) and len(folded) != len(out):
            raise Unsupported(
                "query.case", f"'{op} {value}' keeps other records when case is ignored"
            )
    return out


def filter_records(
    data: Any, *, field: str, op: str = "eq", value: Any = None, held: bool = False
) -> list[Any]:
    """Records whose ``field`` (a key or a dotted path) compares true with ``value`` (``one_of``:
    equals one of a list of values; ``starts``, ``ends``, ``contains``: a test of the text, or
    for ``contains`` of an array's items); records without it never match, and a field no
    record has is a misread instruction. With ``held`` (a value said as a bare word), a value
    no record holds is a misread instruction too ("which different statuses occur")."""
    records = _records(data, "filter")
    if held and not any(_field_value(r, field) == value for r in records if isinstance(r, dict)):
        raise Unsupported("query.unheld", f"no record has {value!r} as its {field!r}")
    test = _COMPARE.get(op)
    if test is None and op not in _TEXT_TESTS and op != "one_of":
        raise OpError(f"filter: unknown comparison {op!r}")
    values = [_field_value(record, field) for record in records]
    if records and all(v is _ABSENT for v in values):
        raise Unsupported("field.unknown", f"no record has a field {field!r}")
    if op in _TEXT_TESTS:
        return _text_matches(records, values, field, op, value)
    if op == "one_of":
        return [
            r
            for r, v in zip(records, values, strict=True)
            if v is not _ABSENT and _one_of(v, value, field)
        ]
    out = []
    for record, current in zip(records, values, strict=True):
        if current is _ABSENT:
            continue
        if (_comparable(current, value, field, op) and test(current, value)) or (
            current is None and value is None and op == "eq"
        ):
            out.append(record)
    return out


def first(data: Any, *, count: int = 1) -> list[Any]:
    if not isinstance(data, list):
        raise OpError(f"first {count} needs a list; the data is {_kind(data)}")
    return data[:count]


def last(data: Any, *, count: int = 1) -> list[Any]:
    if not isinstance(data, list):
        raise OpError(f"last {count} needs a list; the data is {_kind(data)}")
    return data[-count:] if count else []


def pluck(data: Any, *, field: str) -> Any:
    """The value of ``field`` (a key, or a dotted path into nested objects) in every record (or
    in the one object)."""
    if isinstance(data, Mapping):
        return get(data, path=field)
    out = []
    for i, record in enumerate(_records(data, "pluck")):
        value = _field_value(record, field)  # a key, or a dotted path (address.city)
        if value is _ABSENT:
            raise OpError(f"record {i + 1} has no field {field!r}")
        out.append(value)
    return out


def distinct(data: Any, *, field: str, order: str | None = None) -> list[Any]:
    """The different values of ``field`` across the records, or of the array at ``field`` of
    one object, in order of first appearance (values compare as JSON: 1, 1.0, true and "1"
    are four values); with ``order``, in alphabetical order (case aside first, as a sort
    said alphabetically), which only strings have. A field that is an array of strings in
    every record gives the different strings they hold ("every distinct label")."""
    values = pluck(data, field=field)
    if isinstance(data, Mapping) and not isinstance(values, list):
        values = [values]
    if (
        not isinstance(data, Mapping)
        and values
        and all(isinstance(v, list) and all(isinstance(i, str) for i in v) for v in values)
    ):
        values = [item for v in values for item in v]
    seen: dict[str, Any] = {}
    for value in values:
        seen.setdefault(json.dumps(value, sort_keys=True), value)
    out = list(seen.values())
    if order is None:
        return out
    if not all(isinstance(v, str) for v in out):
        raise Unsupported(
            "query.order_field",
            f"the values of {field!r} are not all strings: no alphabetical order",
        )
    return sorted(out, key=lambda v: (v.casefold(), v), reverse=order == "desc")


def get(data: Any, *, path: str) -> Any:
    """The value at a dotted path (``service.limits.burst``; numbers index arrays), or at a
    JSONPath-like path (``$.data.items[*].sku``, core/paths.py)."""
    steps = parse_path(path) if path.startswith("$") or "[" in path else None
    if steps is not None:
        try:
            return walk(data, steps)
        except PathMissing as exc:
            raise OpError(f"the data has no value at {path!r}: {exc}") from None
    current = data
    walked: list[str] = []
    for part in path.split("."):
        if isinstance(current, Mapping) and part in current:
            current = current[part]
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            where = ".".join(walked) or "the top level"
            raise OpError(f"there is no {part!r} at {where} of the data (path {path!r})")
        walked.append(part)
    return current


def keys(data: Any) -> list[str]:
    if not isinstance(data, Mapping):
        raise OpError(f"keys needs an object; the data is {_kind(data)}")
    return [str(k) for k in data]


def exists(data: Any, *, none: bool = False) -> bool:
    """Whether the list (the records a filter kept) holds any item: a yes/no question; with
    ``none``, whether it holds none ("are all of them over 30": none is 30 or under)."""
    if not isinstance(data, list):
        raise OpError(f"whether any remain needs a list; the data is {_kind(data)}")
    return not data if none else bool(data)


def count(data: Any, *, records: bool = False) -> int:
    """How many items a list holds, or keys an object; with ``records`` (the records were
    named: "count the orders"), a list's items only: an object holding them is not the records
    (``Unsupported``: the query frame reads the words again, with the key that holds them)."""
    if records and isinstance(data, Mapping):
        raise Unsupported(
            "query.records_inside", "the records counted are inside an object: say which key"
        )
    if not isinstance(data, list | Mapping):
        raise OpError(f"count needs a list or an object; the data is {_kind(data)}")
    return len(data)


def _numbers(data: Any, field: str | None, op: str, *, nulls: bool = False) -> list[int | float]:
    """The numbers of ``field`` (or the items); with ``nulls``, nulls are left out (an extreme:
    a null is no highest nor lowest value), as long as one number is left."""
    values = pluck(data, field=field) if field else data
    if not isinstance(values, list):
        raise OpError(f"{op} needs a list of numbers; the data is {_kind(values)}")
    if nulls and any(v is not None for v in values):
        values = [v for v in values if v is not None]
    for i, v in enumerate(values):
        if not _is_number(v):
            what = f"field {field!r} of record {i + 1}" if field else f"item {i + 1}"
            raise OpError(f"{op}: {what} is {_kind(v)}, not a number")
    return values


# A key that says the currency of a record's sums of money ("currency", "price_currency",
# "ccy"): records in more than one are not added up or averaged together.
_CURRENCY = re.compile(r"(?:^|[_\s-])(?:currency|ccy)$|^(?:cur|ccy)$|[a-z]Currency$", re.I)


def _one_currency(data: Any, op: str) -> None:
    """``Unsupported`` when the records hold sums in more than one currency (EUR and GBP):
    their sum or average would add amounts of different units."""
    if not isinstance(data, list):
        return
    for key in {k for r in data if isinstance(r, Mapping) for k in r if isinstance(k, str)}:
        if _CURRENCY.search(key):
            said = {str(r.get(key)) for r in data if isinstance(r, Mapping) and r.get(key)}
            if len(said) > 1:
                raise Unsupported(
                    "query.mixed_currencies",
                    f"the {op} would add amounts in {len(said)} currencies ({key})",
                )


def total(data: Any, *, field: str | None = None) -> int | float:
    _one_currency(data, "sum")
    values = _numbers(data, field, "sum")
    return (
        sum(values)
        if all(isinstance(v, int) for v in values)
        else float(sum(Decimal(repr(v)) for v in values))
    )


def average(data: Any, *, field: str | None = None) -> float:
    _one_currency(data, "average")
    values = _numbers(data, field, "average")
    if not values:
        raise OpError("average of no values")
    return float(sum(Decimal(repr(v)) for v in values) / len(values))


def median(data: Any, *, field: str | None = None) -> int | float:
    """The middle value (the mean of the two middle values for an even count)."""
    _one_currency(data, "median")
    values = sorted(_numbers(data, field, "median"))
    if not values:
        raise OpError("median of no values")
    mid = len(values) // 2
    if len(values) % 2:
        return values[mid]
    return float((Decimal(repr(values[mid - 1])) + Decimal(repr(values[mid]))) / 2)


def number(data: Any) -> int | float:
    """The result itself when it is a number; the instruction asked for one."""
    if not _is_number(data):
        raise Unsupported(
            "query.not_a_number", f"the instruction asks for a number; the result is {_kind(data)}"
        )
    return data  # type: ignore[no-any-return]


# Points in time written as ISO 8601 text ("2024-06-03", "2024-06-03T08:05:00Z"): when every
# value has one shape, text order is time order, so an extreme of them is exact.
_ISO_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$"
)


def _times(data: Any, field: str | None) -> list[str] | None:
    """The values of ``field`` when each is an ISO date or date-time of one and the same
    shape (one length, one zone: text order is time order); None otherwise."""
    values = pluck(data, field=field) if field else data
    if not isinstance(values, list) or not values:
        return None
    values = [v for v in values if v is not None]  # a null is no point in time
    if not values or not all(isinstance(v, str) and _ISO_TIME.match(v) for v in values):
        return None
    zones = (m[0] if (m := re.search(r"(?:Z|[+-]\d{2}:\d{2})$", v)) else "" for v in values)
    shapes = {(len(v), v[10:11], zone) for v, zone in zip(values, zones, strict=True)}
    return values if len(shapes) == 1 else None


def minimum(data: Any, *, field: str | None = None) -> int | float | str:
    """The lowest number, or the earliest of ISO points in time of one shape; nulls are left
    out."""
    values = _times(data, field) or _numbers(data, field, "min", nulls=True)
    if not values:
        raise OpError("min of no values")
    return min(values)


def maximum(data: Any, *, field: str | None = None) -> int | float | str:
    """The highest number, or the latest of ISO points in time of one shape; nulls are left
    out."""
    values = _times(data, field) or _numbers(data, field, "max", nulls=True)
    if not values:
        raise OpError("max of no values")
    return max(values)


def _extreme_by(data: Any, field: str, pick: Any, op: str) -> Any:
    records = _records(data, op)
    if any(_field_value(r, field) is not None for r in records):  # a null is no extreme
        records = [r for r in records if _field_value(r, field) is not None]
    values = _times(records, field) or _numbers(records, field, op)
    if not values:
        raise OpError(f"{op} of no records")
    best = pick(values)
    winners = [r for r, v in zip(records, values, strict=True) if v == best]
    if len(winners) > 1:
        raise Unsupported("query.tie", f"{len(winners)} records share the {op} {field!r}")
    return winners[0]


def max_by(data: Any, *, field: str) -> Any:
    """The one record with the highest ``field`` (a tie falls back; nulls are left out)."""
    return _extreme_by(data, field, max, "highest")


def min_by(data: Any, *, field: str) -> Any:
    """The one record with the lowest ``field`` (a tie falls back; nulls are left out)."""
    return _extreme_by(data, field, min, "lowest")


def _groups(data: Any, by: str) -> dict[str, list[Any]]:
    """The records with each value of ``by`` (a string), in order of first appearance."""
    groups: dict[str, list[Any]] = {}
    for i, record in enumerate(_records(data, "group")):
        value = _field_value(record, by)  # a key, or a dotted path (address.country)
        if value is _ABSENT:
            raise OpError(f"group by {by!r}: record {i + 1} has no field {by!r}")
        if not isinstance(value, str):
            raise Unsupported("query.group_key", f"group by {by!r}: values that are not strings")
        groups.setdefault(value, []).append(record)
    return groups


def group_count(data: Any, *, field: str, same_as: str | None = None) -> dict[str, int]:
    """How many records have each value of ``field``, in order of first appearance.

    ``same_as`` is a second name the instruction gave the field ("按 class 分组，统计每个班级
    的人数"); it must resolve to the same field, else the request falls back."""
    if same_as is not None and same_as != field:
        raise Unsupported("query.group_field", f"grouped by {field!r} but counted per {same_as!r}")
    return {key: len(members) for key, members in _groups(data, field).items()}


_AGGREGATE_FNS = {
    "sum": total,
    "avg": average,
    "median": median,
    "min": minimum,
    "max": maximum,
}


def group_aggregate(data: Any, *, by: str, agg: str, field: str) -> dict[str, int | float]:
    """``agg`` of ``field`` over the records with each value of ``by``, in order of first
    appearance ("the average score per class")."""
    fn = _AGGREGATE_FNS[agg]
    return {key: fn(members, field=field) for key, members in _groups(data, by).items()}


def records(data: Any, *, noun: str) -> Any:
    """The data unchanged: ``noun`` names the records ("take the books, …"). A noun that
    could be a field of the data is not taken for the data itself."""
    try:
        field = resolve(noun, data_keys(data))
    except Unsupported:
        return data
    raise Unsupported("query.noun_is_field", f"{noun!r} could mean the field {field!r}")


def only(data: Any) -> Any:
    """The single item of a one-item list (the instruction asked for "the" item)."""
    if not isinstance(data, list) or len(data) != 1:
        n = len(data) if isinstance(data, list) else "no"
        raise Unsupported("query.not_single", f"the instruction asks for one item; there are {n}")
    return data[0]


def round_number(data: Any, *, decimals: int) -> str:
    """A number written with exactly ``decimals`` decimals, rounding half up (2.675 → 2.68)."""
    if not _is_number(data):
        raise OpError(f"round needs a number; the data is {_kind(data)}")
    quantum = Decimal(1).scaleb(-decimals)
    return str(Decimal(repr(data)).quantize(quantum, rounding=ROUND_HALF_UP))
