"""Field names from instructions, resolved against the data they refer to.

An instruction names fields the way people write them ("sort by Created_At", "their ids",
"students scored above 80"); the grammar keeps such names as ``FieldRef`` and the executor
resolves them against the keys present in the data just before the op runs. Resolution is
exact first, then case-insensitive, then a small set of word forms (ids → id, scored → score,
scoring → score), then a glossary of other words for common fields (价格 → price, cost → price),
and only ever to exactly one key: otherwise the request falls back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from zerolayer.core.errors import Unsupported


class FieldRef(str):
    """A field name as written in the instruction, resolved against the data at run time."""

    __slots__ = ()


def data_keys(value: Any) -> list[str]:
    """The keys a field name may refer to: of a mapping, or of the records of a list."""
    if isinstance(value, Mapping):
        return [str(k) for k in value]
    keys: dict[str, None] = {}
    if isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping):
                keys.update(dict.fromkeys(str(k) for k in item))
    return list(keys)


# Chinese names of common fields. A Chinese name resolves through this table only to a key
# the data really has, and only when exactly one of its translations is such a key.
GLOSSARY: dict[str, tuple[str, ...]] = {
    "价格": ("price",),
    "单价": ("unit_price", "price"),
    "分数": ("score",),
    "成绩": ("score", "grade"),
    "得分": ("score",),
    "分": ("score",),
    "班": ("class",),
    "页数": ("pages", "page_count"),
    "名字": ("name",),
    "姓名": ("name",),
    "名称": ("name", "title"),
    "标题": ("title",),
    "书名": ("title",),
    "作者": ("author",),
    "年份": ("year",),
    "年龄": ("age",),
    "数量": ("quantity", "qty", "count"),
    "金额": ("amount",),
    "总额": ("total", "amount"),
    "日期": ("date",),
    "状态": ("status",),
    "类别": ("category", "type"),
    "分类": ("category",),
    "类型": ("type", "category"),
    "城市": ("city",),
    "班级": ("class",),
    "邮箱": ("email",),
    "电话": ("phone",),
    "语言": ("lang", "language"),
    "优先级": ("priority",),
    "负责人": ("owner",),
    "创建时间": ("created_at", "created"),
    "库存": ("stock", "in_stock"),
    "编号": ("id",),
    "薪资": ("salary",),
    "薪水": ("salary",),
    "工资": ("salary",),
    "月薪": ("salary", "monthly_salary"),
    "年薪": ("annual_salary", "salary"),
    "人口": ("population",),
    "部门": ("department", "dept"),
    "国家": ("country",),
    "面积": ("area",),
    "入职日期": ("hire_date", "hired", "start_date"),
    "邮件": ("email",),
    "地址": ("address",),
    "品牌": ("brand",),
    "颜色": ("color", "colour"),
    "重量": ("weight",),
    "销量": ("sales", "sold"),
    "省份": ("province", "state"),
    "评分": ("rating", "score"),
    # English verbs and nouns that name a field by another word ("products that cost over 20")
    "cost": (
        "price",
        "cost",
        "unit_price",
        "fare",
        "amount",
        "total_amount",
        "total",
        "rent",
        "fee",
    ),
    "worth": ("price", "value"),
    "pay": ("salary", "pay"),
    "paid": ("salary", "pay"),
    "wage": ("salary", "wage"),
    "earn": ("salary", "earnings", "income", "pay", "wage"),
    "earnings": ("salary", "earnings"),
    # "how much does Grace make": what a person earns
    "make": ("salary", "earnings", "income", "pay", "wage"),
    "makes": ("salary", "earnings", "income", "pay", "wage"),
    "income": ("salary", "income"),
    "department": ("dept", "department"),
    "dept": ("department", "dept"),
    # the point in time a record began ("who joined after 2018", "hired before 2015")
    "joined": ("startYear", "start_year", "start_date", "hire_date", "joined", "join_date"),
    "hired": ("startYear", "start_year", "start_date", "hire_date", "hired", "hire_year"),
    "started": ("startYear", "start_year", "start_date", "started"),
    "placed": ("created_at", "placed_at", "order_date", "ordered_at", "date"),
    # a verb names the field of its agent ("who wrote the most expensive book": the author);
    # regular participles reach their agent noun by its ending (published: publisher)
    "wrote": ("author", "writer"),
    "written": ("author", "writer"),
    "write": ("author", "writer"),
    "writes": ("author", "writer"),
    # a verb of judging names the field of its mark ("books rated above 4"); a shared stem
    # alone does not ("shipped" is no "shipping" cost)
    "rated": ("rating", "rate", "stars", "score"),
    "创建": ("created_at", "created"),
    "商品名": ("product_name", "name"),
    "产品名": ("product_name", "name"),
    "商品名称": ("product_name", "name"),
    "团队": ("team",),
    "活跃": ("active", "is_active"),
    "角色": ("role", "roles"),
    "上市": ("releaseDate", "release_date", "released_at", "launch_date"),
    # a unit said after a number names the field it measures ("over 30 degrees")
    "degrees": ("temperature", "temp"),
    "temperature": ("temperature", "temp"),
    "duration": ("duration", "hours", "minutes", "days"),
    "time": ("duration", "hours", "minutes"),
    "时长": ("duration", "hours", "minutes"),
    "时间": ("duration", "hours", "minutes"),
}


# Nouns that name the records of a list themselves ("count the employees", "the 3 cheapest
# products"), not one of their fields. A noun the records' keys hold is a field instead.
RECORD_NOUNS = frozenset(
    {
        "records", "entries", "rows", "items", "elements", "objects", "people", "persons",
        "employees", "staff", "workers", "members", "users", "customers", "clients", "students",
        "pupils", "products", "books", "orders", "tickets", "tasks", "cities", "countries",
        "flights", "movies", "films", "songs", "cars", "events", "transactions", "invoices",
        "accounts", "companies", "issues", "sensors", "readings", "devices",
        # records of other kinds people paste, seldom a field's name: repositories, lettings,
        # recipes, consignments (the data names its records too: core/fields.data_record_nouns)
        "repos", "repositories", "apartments", "flats", "listings", "recipes", "shipments",
    }
)  # fmt: skip
RECORD_NOUNS |= frozenset(
    {"people": "person", "staff": "staff"}.get(n, n[:-3] + "y" if n.endswith("ies") else n[:-1])
    for n in RECORD_NOUNS
)


# The last word of a key that identifies a record ("shipment_id", "roomNumber", "invoiceNo",
# "recipe_name"): the word before it names the records themselves.
_IDENTIFIER_ENDS = frozenset({"id", "number", "no", "nr", "num", "name", "code"})


def _key_words(key: str) -> list[str]:
    """The words of a key, lower case (``roomNumber`` → room, number)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    return [w for w in re.split(r"[_\s-]+", spaced.lower()) if w]


def plural(noun: str) -> str:
    """The regular plural of an English noun (room → rooms, property → properties)."""
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + "es" if noun.endswith(("s", "x", "ch", "sh")) else noun + "s"


def singular(noun: str) -> str:
    """The regular singular of an English plural (rooms → room, properties → property)."""
    if noun.endswith("ies") and len(noun) > 4:
        return noun[:-3] + "y"
    if noun.endswith(("ses", "xes", "ches", "shes")):
        return noun[:-2]
    return noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun


def data_record_nouns(
    records: list[Mapping[Any, Any]], wrapper: str | None = None
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The nouns the data gives its records, singular and plural, each with the word it is read
    as ("record" or "records") and the key words that may follow it in a key's name (it is then
    part of that name, not the records' noun):

    - the head of the first key of every record when that key identifies the record
      (``shipment_id``, ``roomNumber``, ``invoiceNo``: shipment, room, invoice), the key's
      first word being no key of its own;
    - the key that holds the array, when the records were sent inside an object
      (``{"shipments": [...]}``: shipments).

    A noun that is a key of the records, a word of one of their text values, shorter than
    three letters or not alphabetic names no records."""
    if not records or not all(isinstance(r, Mapping) for r in records):
        return {}
    keys = [str(k) for k in records[0] if all(k in r for r in records[1:])]
    lowered = {k.lower() for k in keys}
    words_of = {k: _key_words(k) for k in keys}
    heads: list[str] = []
    first = words_of.get(keys[0], []) if keys else []
    if len(first) == 2 and first[1] in _IDENTIFIER_ENDS:
        heads.append(first[0])
    if wrapper is not None and wrapper.isascii() and wrapper.isalpha():
        heads.append(singular(wrapper.lower()))
    said = {
        w
        for r in records
        for v in r.values()
        if isinstance(v, str)
        for w in re.findall(r"[a-z]+", v.lower())
    }
    nouns: dict[str, tuple[str, tuple[str, ...]]] = {}
    for head in dict.fromkeys(heads):
        many = plural(head)
        if len(head) < 3 or not head.isalpha() or {head, many} & (lowered | said):
            continue
        after = tuple(sorted({ws[1] for ws in words_of.values() if len(ws) > 1 and ws[0] == head}))
        nouns[head] = ("record", after)
        nouns[many] = ("records", after)
    return nouns


def _forms(word: str) -> set[str]:
    w = word.lower()
    forms = {w}
    for suffix, repl in (
        ("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("d", ""), ("ing", ""), ("ing", "e"),
    ):  # fmt: skip
        if w.endswith(suffix) and len(w) - len(suffix) >= 2:
            forms.add(w[: len(w) - len(suffix)] + repl)
    # a consonant doubled before -ed, -ing ("shipped", "planning": ship, plan)
    doubled = re.match(r"(.*[aeiou]([bdgmnprt]))\2(?:ed|ing)$", w)
    if doubled and len(doubled[1]) >= 3:
        forms.add(doubled[1])
    return forms


def resolve(name: str, keys: Iterable[str], *, glossary: bool = True, reverse: bool = False) -> str:
    """The one key ``name`` refers to; ``Unsupported`` when there is none or several. The
    glossary translates a word to a key (cost → price; ``glossary=False``: not), and with
    ``reverse`` a Chinese key to the word (the key 面积 for "area")."""
    keys = list(keys)
    if name in keys:
        return str(name)
    if "." in name and not keys:
        return str(name)
    folded = [k for k in keys if k.lower() == name.lower()]
    if len(folded) == 1:
        return folded[0]
    forms = _forms(name)
    by_form = [k for k in keys if k.lower() in forms or name.lower() in _forms(k)]
    if len(by_form) == 1:
        return by_form[0]
    translated = _translated(name, forms, keys, reverse) if glossary else []
    if len(translated) == 1:
        return translated[0]
    if "." in name:  # a dotted path into nested data: resolved by the op itself
        return str(name)
    known = ", ".join(keys[:20]) or "none"
    if len(by_form) > 1:
        raise Unsupported(
            "field.ambiguous", f"{name!r} could mean any of {', '.join(by_form)}; name one"
        )
    raise Unsupported("field.unknown", f"the data has no field {name!r} (fields: {known})")


def _translated(name: str, forms: set[str], keys: list[str], reverse: bool) -> list[str]:
    """The keys the glossary gives for ``name`` (or a form of it), or else the Chinese keys it
    translates to ``name`` (a key 面积, written "area")."""
    words = (name, *forms)
    found = list({k: None for f in words for k in GLOSSARY.get(f, ()) if k in keys})
    if found or not reverse:
        return found
    chinese = [k for k in keys if not k.isascii()]
    return [k for k in chinese if any(w in GLOSSARY.get(k, ()) for w in (name.lower(), *forms))]


def resolve_params(params: Mapping[str, Any], value: Any) -> dict[str, Any]:
    """``params`` with every ``FieldRef`` (alone or in a list) resolved against ``value``."""
    keys: list[str] | None = None
    out: dict[str, Any] = {}
    for key, param in params.items():
        if isinstance(param, FieldRef) or (
            isinstance(param, list) and any(isinstance(p, FieldRef) for p in param)
        ):
            if keys is None:
                keys = data_keys(value)
            if isinstance(param, list):
                out[key] = [resolve(p, keys) if isinstance(p, FieldRef) else p for p in param]
            else:
                out[key] = resolve(param, keys)
        else:
            out[key] = param
    return out
