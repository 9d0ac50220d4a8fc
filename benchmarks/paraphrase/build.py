"""Build the paraphrase corpus: phrasing lists × payloads × message forms, with a fixed seed.

    PYTHONPATH=... python3 -m zerolayer.benchmarks.paraphrase.build [--out DIR] [--seed N]

writes ``dev.jsonl`` (two thirds of every category) and ``heldout.jsonl`` (the other third,
for measurement only) in the zeroscore case format. Golds come from reference tools
(``golds.py``): json/PyYAML, markdown-it-py, CPython, exact fractions; SQL cases carry their
tables so the check runs the answer with pandas and compares it with SQLite's result.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from zerolayer.benchmarks.paraphrase import golds, payloads, phrasing
from zerolayer.benchmarks.paraphrase.forms import render
from zerolayer.benchmarks.paraphrase.golds import (
    Count,
    Extreme,
    Filter,
    Limit,
    Project,
    QueryOp,
    Sort,
    Top,
)
from zerolayer.benchmarks.paraphrase.negatives import NEGATIVES

SEED = 20261204
HERE = Path(__file__).parent
T = TypeVar("T")

# ---------------------------------------------------------------- surface noise

TYPOS: dict[str, list[str]] = {
    "convert": ["conver", "convet", "covnert"],
    "Convert": ["Conver", "Covnert"],
    "JSON": ["JSNO", "JOSN"],
    "json": ["jsno", "josn"],
    "YAML": ["YMAL", "YAMl"],
    "yaml": ["ymal", "yamll"],
    "TypeScript": ["Typscript", "TypeScirpt"],
    "typescript": ["typscript"],
    "Markdown": ["Markdwon", "Mardown"],
    "markdown": ["markdwon"],
    "please": ["pls", "plz", "plase"],
    "this": ["thsi"],
    "Rewrite": ["Rewirte"],
}


def pick(rng: random.Random, items: Sequence[T]) -> T:
    return items[rng.randrange(len(items))]


def by_lang(items: Sequence[Any], lang: str) -> list[Any]:
    return [i for i in items if i[0] == lang]


def noisy(text: str, lang: str, rng: random.Random, *, keep_case: bool = False) -> str:
    """Casual surface variation: a typo, lower case, a 'pls', a greeting or thanks."""
    if lang == "zh":
        roll = rng.random()
        if roll < 0.15:
            return "麻烦" + text
        if roll < 0.25:
            return text.rstrip("。") + "，谢谢"
        return text
    roll = rng.random()
    if roll < 0.18:
        words = [w for w in TYPOS if w in text.split() or f"{w}," in text or f"{w}?" in text]
        if words:
            w = pick(rng, words)
            return text.replace(w, pick(rng, TYPOS[w]), 1)
    if roll < 0.28 and not keep_case:
        return text.lower()
    if roll < 0.36:
        acronym = text[:2].isupper()  # "JSON to YAML" keeps its capitals
        return "hey, " + (text if acronym else text[0].lower() + text[1:])
    ends_sentence = text.rstrip()[-1:] in "?!."
    if roll < 0.44:
        return text.rstrip(".") + " pls"
    if roll < 0.5:
        return text.rstrip(".") + (" Thanks!" if ends_sentence else ", thanks!")
    return text


def join_option(instruction: str, option: str, lang: str, rng: random.Random) -> str:
    base = instruction.rstrip()
    if lang == "zh":
        return base.rstrip("。？?") + pick(rng, ["，", "，并且", "，"]) + option
    if base.endswith("?"):
        return base + " " + option[0].upper() + option[1:] + "."
    seps = [", ", " "] if option.startswith("with ") else [", ", " and ", ". ", " — "]
    sep = pick(rng, seps)
    return base + sep + (option[0].upper() + option[1:] if sep == ". " else option)


def closing_for(kind: str, lang: str, rng: random.Random, p: float) -> str | None:
    if rng.random() >= p:
        return None
    return str(pick(rng, by_lang(phrasing.CLOSINGS[kind], lang))[1])


def points_below(text: str) -> bool:
    return any(w in text.lower() for w in ("below", "following", "下面", "以下", "下列"))


def choose_form(
    rng: random.Random, instruction: str, *, one_line: bool, multiline_text: bool
) -> str:
    forms = ["fenced", "fenced", "fenced_bare", "unfenced", "template", "system"]
    if not points_below(instruction):
        forms += ["before", "before_plain"]
    if one_line:
        forms.append("same_line")
    if multiline_text:
        forms = [f for f in forms if f != "before_plain"]
    return pick(rng, forms)


# ---------------------------------------------------------------- case records


class Corpus:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.cases: list[dict[str, Any]] = []
        self.counters: dict[str, int] = {}

    def rng(self, name: str) -> random.Random:
        digest = hashlib.sha256(f"{self.seed}:{name}".encode()).hexdigest()
        return random.Random(int(digest[:16], 16))

    def add(
        self,
        category: str,
        lang: str,
        messages: list[dict[str, str]],
        expect: dict[str, Any],
        *,
        system: str | None = None,
        form: str,
        phrase: str,
        temperature: float | None = 0,
        top_p: float | None = None,
        why: str | None = None,
    ) -> None:
        n = self.counters[category] = self.counters.get(category, 0) + 1
        request: dict[str, Any] = {"model": "any", "max_tokens": 2048, "messages": messages}
        if temperature is not None:
            request["temperature"] = temperature
        if top_p is not None:
            request["top_p"] = top_p
        if system is not None:
            request["system"] = system
        case = {
            "id": f"{category}-{lang}-{n:03d}",
            "category": category,
            "lang": lang,
            "request": request,
            "headers": {},
            "expect": expect,
            "form": form,
            "phrase": phrase,
        }
        if why:
            case["why"] = why
        self.cases.append(case)


def _temperature(rng: random.Random) -> float | None:
    return None if rng.random() < 0.2 else 0


def zero(check: str, gold: Any, options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"route": "zero", "check": check, "gold": gold, "options": options or {}}


NEURAL = {"route": "neural", "check": "route_only", "gold": None, "options": {}}


# ---------------------------------------------------------------- payload text


def json_text(value: Any, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.55:
        return json.dumps(value, indent=2, ensure_ascii=False)
    if roll < 0.75:
        return json.dumps(value, indent=4, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


# option keys that cannot be asked together (one layout, one treatment of non-ASCII text)
GROUPS = {
    "indent": "layout",
    "single_line": "layout",
    "ensure_ascii": "unicode",
    "ascii_only": "unicode",
}


def _options_pick(
    rng: random.Random,
    pool: list[tuple[str, str, dict[str, Any]]],
    lang: str,
    ok: Callable[[dict[str, Any]], bool],
) -> list[tuple[str, dict[str, Any]]]:
    """None, one or two option phrases (of different option keys)."""
    roll = rng.random()
    count = 0 if roll < 0.45 else (1 if roll < 0.85 else 2)
    chosen: list[tuple[str, dict[str, Any]]] = []
    candidates = [(t, o) for lg, t, o in pool if lg == lang and ok(o)]
    for _ in range(count):
        taken = {GROUPS.get(k, k) for _, c in chosen for k in c}
        free = [(t, o) for t, o in candidates if not {GROUPS.get(k, k) for k in o} & taken]
        if not free:
            break
        chosen.append(pick(rng, free))
    return chosen


def _fits(
    option_ok: Callable[[dict[str, Any], Any], bool] | None, info: dict[str, Any]
) -> Callable[[dict[str, Any]], bool]:
    """Whether an option applies to this payload."""
    return lambda options: option_ok(options, info) if option_ok else True


def conversion(
    corpus: Corpus,
    category: str,
    phrases: list[tuple[str, str]],
    per_phrase: int,
    make: Callable[
        [random.Random, str, str], tuple[str, str, dict[str, Any], dict[str, Any], bool, bool]
    ],
    closing_kind: str,
    option_pool: list[tuple[str, str, dict[str, Any]]] | None,
    option_ok: Callable[[dict[str, Any], Any], bool] | None = None,
) -> None:
    """Cases of one conversion family: each phrase ``per_phrase`` times.

    ``make(rng, lang, phrase)`` returns (payload text, fence language, expect, payload info,
    one_line, multiline_text).
    """
    rng = corpus.rng(category)
    for lang, phrase in phrases:
        for _ in range(per_phrase):
            payload, fence, expect, info, one_line, multiline = make(rng, lang, phrase)
            instruction = phrase
            if option_pool:
                fits = _fits(option_ok, info)
                chosen = _options_pick(rng, option_pool, lang, fits)
                for text, options in chosen:
                    instruction = join_option(instruction, text, lang, rng)
                    expect["options"].update(options)
            instruction = noisy(instruction, lang, rng)
            form = choose_form(rng, instruction, one_line=one_line, multiline_text=multiline)
            closing = closing_for(closing_kind, lang, rng, 0.3)
            if form == "unfenced" and multiline:
                closing = None
            rendered = render(form, instruction, payload, fence, closing, rng=rng, ui_lang=lang)
            corpus.add(
                category,
                lang,
                rendered.messages,
                expect,
                system=rendered.system,
                form=rendered.form,
                phrase=phrase,
                temperature=_temperature(rng),
            )


# ---------------------------------------------------------------- families


def json_yaml(corpus: Corpus) -> None:
    def make(
        rng: random.Random, lang: str, phrase: str
    ) -> tuple[str, str, dict[str, Any], dict[str, Any], bool, bool]:
        doc = pick(rng, payloads.JSON_DOCS)
        text = json_text(doc, rng)
        return (
            text,
            pick(rng, ["json", "json", "JSON"]),
            zero("yaml_equals", doc),
            {},
            "\n" not in text,
            False,
        )

    conversion(corpus, "json_yaml", phrasing.JSON_YAML, 2, make, "yaml", phrasing.JSON_YAML_OPTIONS)
    earlier_turn(corpus, "json_yaml", phrasing.EARLIER_TURN_JSON_YAML, to_yaml=True)


def yaml_json(corpus: Corpus) -> None:
    def make(
        rng: random.Random, lang: str, phrase: str
    ) -> tuple[str, str, dict[str, Any], dict[str, Any], bool, bool]:
        # some cases draw a non-ASCII document so that the unicode options can apply
        docs = payloads.YAML_DOCS
        if rng.random() < 0.3:
            docs = [d for d in docs if not d.isascii()]
        text = pick(rng, docs)
        return (
            text,
            pick(rng, ["yaml", "yml"]),
            zero("json_equals", golds.yaml_load(text)),
            {"text": text},
            False,
            True,
        )

    def ok(options: dict[str, Any], info: dict[str, Any]) -> bool:
        if "ensure_ascii" in options or "ascii_only" in options:
            return not info["text"].isascii()
        return True

    conversion(
        corpus, "yaml_json", phrasing.YAML_JSON, 2, make, "json", phrasing.YAML_JSON_OPTIONS, ok
    )
    earlier_turn(corpus, "yaml_json", phrasing.EARLIER_TURN_YAML_JSON, to_yaml=False)


def earlier_turn(
    corpus: Corpus, category: str, phrases: list[tuple[str, str]], *, to_yaml: bool
) -> None:
    """The payload in an earlier user turn; the current turn points back at it."""
    rng = corpus.rng(category + ".earlier")
    for lang, phrase in phrases:
        for _ in range(2):
            if to_yaml:
                doc = pick(rng, payloads.JSON_DOCS)
                block = "```json\n" + json.dumps(doc, indent=2, ensure_ascii=False) + "\n```"
                expect = zero("yaml_equals", doc)
            else:
                text = pick(rng, payloads.YAML_DOCS)
                block = "```yaml\n" + text.rstrip() + "\n```"
                expect = zero("json_equals", golds.yaml_load(text))
            intro = (
                "这是我的配置："
                if lang == "zh"
                else pick(rng, ["Here's my config:", "This is what the API returns:"])
            )
            reply = pick(rng, by_lang(phrasing.EARLIER_ASSISTANT_REPLIES, lang))[1]
            messages = [
                {"role": "user", "content": intro + "\n\n" + block},
                {"role": "assistant", "content": reply},
                {"role": "user", "content": noisy(phrase, lang, rng)},
            ]
            corpus.add(category, lang, messages, expect, form="earlier_turn", phrase=phrase)


# ---------------------------------------------------------------- JSON queries

NUMERIC = {
    "employees": ["salary", "age"],
    "products": ["price", "stock"],
    "flights": ["price", "hours"],
    "cities": ["population"],
}
INTEGER = {"salary", "age", "stock", "population"}
PROJECTABLE = {
    "employees": ["id", "name", "dept", "salary"],
    "products": ["sku", "name", "price"],
    "flights": ["code", "price", "hours"],
    "cities": ["name", "country", "population"],
}


def _threshold(rng: random.Random, values: list[Any], integer: bool) -> Any:
    """A value strictly between two of ``values``, with at least two values on each side."""
    ordered = sorted(values)
    i = rng.randrange(1, len(ordered) - 2) if len(ordered) > 3 else 1
    lo, hi = ordered[i], ordered[i + 1]
    if integer or (isinstance(lo, int) and isinstance(hi, int)):
        mid = (lo + hi) // 2
        step = 10 ** max(0, len(str(int(hi - lo))) - 1)
        mid = (mid // step) * step or mid
        if not lo < mid < hi:
            mid = (lo + hi) // 2
        return mid
    return round((lo + hi) / 2)


def _field_word(rng: random.Random, field: str, lang: str) -> str:
    return str(pick(rng, phrasing.FIELD_WORDS.get(field, {lang: [field]})[lang]))


def _fields_text(fields: Sequence[str], lang: str, rng: random.Random) -> str:
    if lang == "zh":
        return pick(rng, ["和", "、"]).join(fields) if len(fields) == 2 else "、".join(fields)
    if len(fields) == 2:
        return pick(rng, [f"{fields[0]} and {fields[1]}", f"{fields[0]}, {fields[1]}"])
    return ", ".join(fields[:-1]) + " and " + fields[-1]


def query_clause(rng: random.Random, op: QueryOp, lang: str, things: str) -> str:
    if isinstance(op, Sort):
        pool = phrasing.SORT_DESC if op.desc else phrasing.SORT_ASC
        return str(pick(rng, by_lang(pool, lang))[1]).format(f=_field_word(rng, op.field, lang))
    if isinstance(op, Top):
        pool = phrasing.TOP_DESC if op.desc else phrasing.TOP_ASC
        return str(pick(rng, by_lang(pool, lang))[1]).format(
            f=_field_word(rng, op.field, lang), n=op.n
        )
    if isinstance(op, Filter):
        pool = {">": phrasing.FILTER_GT, "<": phrasing.FILTER_LT, "==": phrasing.FILTER_EQ}[op.op]
        return str(pick(rng, by_lang(pool, lang))[1]).format(
            f=_field_word(rng, op.field, lang), v=op.value
        )
    if isinstance(op, Project):
        return str(pick(rng, by_lang(phrasing.PROJECT, lang))[1]).format(
            fs=_fields_text(op.fields, lang, rng)
        )
    if isinstance(op, Limit):
        return str(pick(rng, by_lang(phrasing.LIMIT, lang))[1]).format(n=op.n)
    raise TypeError(op)


def random_query(rng: random.Random, name: str, pattern: str) -> list[QueryOp]:
    records = payloads.RECORD_SETS[name]
    field = pick(rng, NUMERIC[name])
    desc = rng.random() < 0.5
    values = [r[field] for r in records]
    ops: list[QueryOp] = []
    for part in pattern.split("+"):
        if part == "sort":
            ops.append(Sort(field, desc))
        elif part == "top":
            ops.append(Top(rng.choice([2, 3]), field, desc))
        elif part == "filter":
            if name == "employees" and rng.random() < 0.4:
                ops.append(Filter("dept", "==", pick(rng, ["Engineering", "Sales"])))
            else:
                f2 = pick(rng, NUMERIC[name])
                ops.append(
                    Filter(
                        f2,
                        pick(rng, [">", "<"]),
                        _threshold(rng, [r[f2] for r in records], f2 in INTEGER),
                    )
                )
        elif part == "project":
            keys = PROJECTABLE[name]
            k = 2 if rng.random() < 0.7 else 3
            chosen = sorted(rng.sample(range(len(keys)), k))
            ops.append(Project(tuple(keys[i] for i in chosen)))
        elif part == "limit":
            ops.append(Limit(rng.choice([2, 3])))
    del values
    return ops


QUERY_PATTERNS = [
    "sort",
    "sort",
    "top",
    "top",
    "filter",
    "project",
    "filter+sort",
    "sort+project",
    "filter+project",
    "top+project",
    "sort+limit",
]


def _query_instruction(rng: random.Random, ops: list[QueryOp], lang: str, name: str) -> str:
    things = phrasing.THINGS[name][lang]
    clauses = [query_clause(rng, op, lang, things) for op in ops]
    if lang == "zh":
        text = clauses[0]
        for c in clauses[1:]:
            text += pick(rng, phrasing.JOIN_ZH) + c
    else:
        text = clauses[0][0].upper() + clauses[0][1:]
        for c in clauses[1:]:
            sep = pick(rng, phrasing.JOIN_EN)
            text += sep + (c[0].upper() + c[1:] if sep.endswith(". ") else c)
    if rng.random() < 0.3:
        intro = pick(rng, by_lang(phrasing.QUERY_INTROS, lang))[1]
        if lang == "en" and intro.endswith("."):
            text = intro + " " + text
        elif lang == "en":
            text = intro + " " + text[0].lower() + text[1:]
        else:
            text = intro + text
    return text


def json_query(corpus: Corpus) -> None:
    rng = corpus.rng("json_query")
    names = list(payloads.RECORD_SETS)
    for i in range(58):
        lang = "zh" if i % 3 == 2 else "en"
        name = names[i % len(names)]
        ops = random_query(rng, name, QUERY_PATTERNS[i % len(QUERY_PATTERNS)])
        gold = golds.run_query(payloads.RECORD_SETS[name], ops)
        if not gold:
            continue
        instruction = _query_instruction(rng, ops, lang, name)
        instruction = noisy(instruction, lang, rng, keep_case=True)
        _query_case(
            corpus, rng, "json_query", lang, instruction, name, zero("json_equals", gold), "json"
        )
    # question-form aggregates answered with a bare value
    for i in range(14):
        lang = "zh" if i % 3 == 2 else "en"
        name = pick(rng, ["employees", "products", "cities"])
        field = pick(rng, [f for f in NUMERIC[name] if f in INTEGER])
        things = phrasing.THINGS[name][lang]
        records = payloads.RECORD_SETS[name]
        if i % 2 == 0:
            v = _threshold(rng, [r[field] for r in records], True)
            template = pick(rng, by_lang(phrasing.COUNT_Q, lang))[1]
            text = template.format(things=things, f=_field_word(rng, field, lang), v=v)
            gold: Any = golds.run_query(records, [Filter(field, ">", v), Count()])
        else:
            desc = i % 4 == 1
            pool = phrasing.EXTREME_Q if desc else phrasing.EXTREME_MIN_Q
            text = pick(rng, by_lang(pool, lang))[1].format(f=_field_word(rng, field, lang))
            gold = golds.run_query(records, [Extreme(field, desc)])
        _query_case(
            corpus, rng, "json_query", lang, text, name, zero("text_equals", str(gold)), None
        )


NESTED_DOC: dict[str, Any] = {
    "data": {
        "items": [
            {"sku": "A-1", "qty": 5},
            {"sku": "B-2", "qty": 12},
            {"sku": "C-3", "qty": 8},
        ]
    },
    "meta": {"page": 2, "total": 3},
}


def _nested_answer(kind: str) -> dict[str, Any]:
    items = NESTED_DOC["data"]["items"]
    if kind == "skus":
        return zero("json_equals", [i["sku"] for i in items])
    if kind == "items_by_qty":
        return zero("json_equals", golds.run_query(items, [Sort("qty", True)]))
    return zero("text_equals", str(NESTED_DOC["meta"][kind]))


def free_form_queries(corpus: Corpus) -> None:
    """Queries worded as questions, ranges, exclusions, paths and Chinese numerals."""
    rng = corpus.rng("json_query.free")
    cases: list[tuple[str, str, str, dict[str, Any]]] = []  # (lang, text, records, expect)
    for lang, template in phrasing.BETWEEN:
        name = pick(rng, ["employees", "products"])
        field = "age" if name == "employees" else "stock"
        lo, hi = (30, 40) if field == "age" else (10, 30)
        gold = golds.run_query(payloads.RECORD_SETS[name], [golds.Between(field, lo, hi)])
        text = template.format(
            things=phrasing.THINGS[name][lang], f=_field_word(rng, field, lang), lo=lo, hi=hi
        )
        cases.append((lang, text, name, zero("json_equals", gold)))
    for lang, template in phrasing.EXCEPT:
        v = pick(rng, ["Sales", "Engineering"])
        gold = golds.run_query(payloads.EMPLOYEES, [Filter("dept", "!=", v)])
        cases.append((lang, template.format(v=v), "employees", zero("json_equals", gold)))
    for lang, template in phrasing.EXISTS_Q:
        name = pick(rng, ["products", "employees"])
        field = "price" if name == "products" else "salary"
        v = pick(rng, [100, 300] if field == "price" else [130000, 150000])
        answer = golds.run_query(payloads.RECORD_SETS[name], [golds.Exists(field, ">", v)])
        text = template.format(
            things=phrasing.THINGS[name][lang], f=_field_word(rng, field, lang), v=v
        )
        cases.append((lang, text, name, zero("text_equals", json.dumps(answer))))
    for lang, template in phrasing.PICK_RECORD:
        name = pick(rng, ["products", "cities", "flights"])
        field = NUMERIC[name][0]
        desc = "highest" in template or "最高" in template
        record = golds.run_query(payloads.RECORD_SETS[name], [golds.Pick(field, desc)])
        text = template.format(f=_field_word(rng, field, lang))
        cases.append((lang, text, name, zero("json_equals", record)))
    for lang, text, name, field, desc in phrasing.PICK_VALUE:
        key = "code" if name == "flights" else "name"
        value = golds.run_query(payloads.RECORD_SETS[name], [golds.Pick(field, desc, key)])
        cases.append((lang, text, name, zero("text_equals", str(value))))
    for text, name, field, op, value in phrasing.ZH_NUMERAL_FILTERS:
        gold = golds.run_query(payloads.RECORD_SETS[name], [Filter(field, op, value)])
        cases.append(("zh", text, name, zero("json_equals", gold)))
    for lang, text, name, expect in cases:
        _query_case(
            corpus,
            rng,
            "json_query",
            lang,
            noisy(text, lang, rng, keep_case=True),
            name,
            expect,
            None,
            phrase=text,
        )
    for lang, text, kind in phrasing.NESTED_QUERIES:
        body = json_text(NESTED_DOC, rng)
        form = pick(rng, ["fenced", "fenced_bare", "unfenced", "before"])
        rendered = render(form, text, body, "json", None, rng=rng, ui_lang=lang)
        corpus.add(
            "json_query",
            lang,
            rendered.messages,
            _nested_answer(kind),
            form=rendered.form,
            phrase=text,
        )


def _query_case(
    corpus: Corpus,
    rng: random.Random,
    category: str,
    lang: str,
    instruction: str,
    name: str,
    expect: dict[str, Any],
    closing_kind: str | None,
    *,
    yaml_payload: bool = False,
    phrase: str | None = None,
) -> None:
    records = payloads.RECORD_SETS[name]
    if yaml_payload:
        text, fence = golds.yaml_block(records), "yaml"
    else:
        text, fence = json_text(records, rng), "json"
    closing = closing_for(closing_kind, lang, rng, 0.3) if closing_kind else None
    forms = ["fenced", "fenced", "fenced_bare", "unfenced", "before", "before_plain", "template"]
    if points_below(instruction):
        forms = [f for f in forms if not f.startswith("before")]
    form = pick(rng, forms)
    if yaml_payload and form in ("unfenced", "before_plain"):
        closing = None
    rendered = render(form, instruction, text, fence, closing, rng=rng, ui_lang=lang)
    corpus.add(
        category,
        lang,
        rendered.messages,
        expect,
        system=rendered.system,
        form=rendered.form,
        phrase=phrase or instruction,
        temperature=_temperature(rng),
    )


# ---------------------------------------------------------------- SQL, Markdown, Python


def sql_pandas(corpus: Corpus) -> None:
    def make(
        rng: random.Random, lang: str, phrase: str
    ) -> tuple[str, str, dict[str, Any], dict[str, Any], bool, bool]:
        sql, tables = pick(rng, payloads.SQL_QUERIES)
        gold = {"sql": sql, "tables": {t: payloads.SQL_TABLES[t] for t in tables}}
        return (
            sql,
            pick(rng, ["sql", "sql", "SQL"]),
            zero("pandas_equals", gold),
            {"sql": sql},
            True,
            True,
        )

    def ok(options: dict[str, Any], info: dict[str, Any]) -> bool:
        sql = info["sql"].upper()
        return "WHERE" in sql and "JOIN" not in sql

    conversion(
        corpus, "sql_pandas", phrasing.SQL_PANDAS, 2, make, "code", phrasing.SQL_PANDAS_OPTIONS, ok
    )
    rng = corpus.rng("sql_pandas.more")
    extra = [p for p in phrasing.SQL_PANDAS if p[0] == "en"]
    for lang, phrase in rng.sample(extra, 8):
        sql, tables = pick(rng, payloads.SQL_QUERIES)
        gold = {"sql": sql, "tables": {t: payloads.SQL_TABLES[t] for t in tables}}
        form = pick(rng, ["fenced", "same_line", "before", "template"])
        if points_below(phrase) and form == "before":
            form = "fenced"
        rendered = render(form, noisy(phrase, lang, rng), sql, "sql", None, rng=rng, ui_lang=lang)
        corpus.add(
            "sql_pandas",
            lang,
            rendered.messages,
            zero("pandas_equals", gold),
            system=rendered.system,
            form=rendered.form,
            phrase=phrase,
        )


def markdown_html(corpus: Corpus) -> None:
    def make(
        rng: random.Random, lang: str, phrase: str
    ) -> tuple[str, str, dict[str, Any], dict[str, Any], bool, bool]:
        docs = [d for d in payloads.MARKDOWN_DOCS if lang == "zh" or d.isascii()]
        doc = pick(rng, docs)
        return (
            doc,
            pick(rng, ["markdown", "md", "markdown"]),
            zero("html_equals", golds.markdown_html(doc)),
            {},
            False,
            True,
        )

    conversion(corpus, "markdown_html", phrasing.MARKDOWN_HTML, 2, make, "html", None)
    rng = corpus.rng("markdown_html.gfm")
    for lang, gfm in phrasing.MARKDOWN_GFM:
        for _ in range(2):
            doc = pick(rng, payloads.MARKDOWN_TABLE_DOCS)
            base = pick(rng, by_lang(phrasing.MARKDOWN_HTML, lang))[1]
            instruction = join_option(base, gfm, lang, rng)
            rendered = render("fenced", instruction, doc, "markdown", None, rng=rng, ui_lang=lang)
            corpus.add(
                "markdown_html",
                lang,
                rendered.messages,
                zero("html_equals", golds.markdown_html(doc, tables=True)),
                form=rendered.form,
                phrase=base,
            )


def py_ts(corpus: Corpus) -> None:
    def make(
        rng: random.Random, lang: str, phrase: str
    ) -> tuple[str, str, dict[str, Any], dict[str, Any], bool, bool]:
        source = pick(rng, payloads.PYTHON_PROGRAMS)
        expect = zero("ts_stdout", golds.python_stdout(source))
        return (
            source,
            pick(rng, ["python", "py", "python"]),
            expect,
            {"source": source},
            False,
            True,
        )

    def ok(options: dict[str, Any], info: dict[str, Any]) -> bool:
        # JSDoc documents functions and classes: asked for only where the program has some
        return "def " in info["source"] or "class " in info["source"]

    conversion(corpus, "py_ts", phrasing.PY_TS, 2, make, "code", phrasing.PY_TS_OPTIONS, ok)
    rng = corpus.rng("py_ts.more")
    for lang, phrase in rng.sample(phrasing.PY_TS, 8):
        source = pick(rng, payloads.PYTHON_PROGRAMS)
        form = pick(rng, ["fenced", "template", "before"])
        if points_below(phrase) and form == "before":
            form = "fenced"
        rendered = render(
            form, noisy(phrase, lang, rng), source, "python", None, rng=rng, ui_lang=lang
        )
        corpus.add(
            "py_ts",
            lang,
            rendered.messages,
            zero("ts_stdout", golds.python_stdout(source)),
            system=rendered.system,
            form=rendered.form,
            phrase=phrase,
        )


# ---------------------------------------------------------------- compound


def compound(corpus: Corpus) -> None:
    rng = corpus.rng("compound")
    for lang, text, options in phrasing.COMPOUND_JSON_YAML:
        for _ in range(2):
            doc = pick(rng, payloads.JSON_DOCS)
            instruction = noisy(text, lang, rng)
            form = choose_form(rng, instruction, one_line=False, multiline_text=False)
            rendered = render(
                form,
                instruction,
                json_text(doc, rng),
                "json",
                closing_for("yaml", lang, rng, 0.25),
                rng=rng,
                ui_lang=lang,
            )
            corpus.add(
                "compound",
                lang,
                rendered.messages,
                zero("yaml_equals", doc, dict(options)),
                system=rendered.system,
                form=rendered.form,
                phrase=text,
            )
    for lang, text, options in phrasing.COMPOUND_YAML_JSON:
        for _ in range(2):
            ytext = pick(rng, payloads.YAML_DOCS)
            instruction = noisy(text, lang, rng)
            form = pick(rng, ["fenced", "fenced_bare", "unfenced", "before", "template"])
            rendered = render(form, instruction, ytext, "yaml", None, rng=rng, ui_lang=lang)
            corpus.add(
                "compound",
                lang,
                rendered.messages,
                zero("json_equals", golds.yaml_load(ytext), dict(options)),
                system=rendered.system,
                form=rendered.form,
                phrase=text,
            )
    names = list(payloads.RECORD_SETS)
    patterns = ["sort", "top", "filter", "sort+project", "filter+sort", "top+project"]
    for i in range(18):
        lang, tail = phrasing.AS_YAML[i % len(phrasing.AS_YAML)]
        name = names[i % len(names)]
        ops = random_query(rng, name, patterns[i % len(patterns)])
        gold = golds.run_query(payloads.RECORD_SETS[name], ops)
        if not gold:
            continue
        text = _query_instruction(rng, ops, lang, name)
        text = text + ("，" if lang == "zh" else pick(rng, [", ", " "])) + tail
        _query_case(
            corpus,
            rng,
            "compound",
            lang,
            text,
            name,
            zero("yaml_equals", gold),
            "yaml",
            phrase=tail,
        )
    for i in range(8):
        lang, tail = phrasing.AS_JSON[i % len(phrasing.AS_JSON)]
        name = names[(i + 1) % len(names)]
        ops = random_query(rng, name, ["sort", "filter", "top"][i % 3])
        gold = golds.run_query(payloads.RECORD_SETS[name], ops)
        text = _query_instruction(rng, ops, lang, name)
        text = text + ("，" if lang == "zh" else pick(rng, [", ", " "])) + tail
        _query_case(
            corpus,
            rng,
            "compound",
            lang,
            text,
            name,
            zero("json_equals", gold),
            None,
            yaml_payload=True,
            phrase=tail,
        )


# ---------------------------------------------------------------- context

REQUESTS_FOR_TABLE = {
    "en": [
        "Put these sales figures in a table for me.",
        "Can you make a table of last year's and this year's numbers?",
    ],
    "zh": ["帮我把这些销售数据整理成表格。"],
}
ANSWERS = {
    "How do I reverse a list in Python?": (
        "Use `xs.reverse()` to reverse in place, or `xs[::-1]` for a reversed copy."
    ),
    "What is the capital of Australia?": "Canberra is the capital of Australia.",
    "Can you recommend a good book on statistics?": (
        '"Statistics" by Freedman, Pisani and Purves is a classic introduction.'
    ),
    "怎么在Python里反转一个列表？": (
        "可以用 `xs.reverse()` 原地反转，或者用 `xs[::-1]` 得到新列表。"
    ),
    "澳大利亚的首都是哪里？": "澳大利亚的首都是堪培拉。",
}


def _points_back_to_reply(text: str) -> bool:
    return any(w in text for w in ("gave me", "earlier", "that table", "刚才", "you just"))


def context(corpus: Corpus) -> None:
    rng = corpus.rng("context")
    for lang, text, name, decimals in phrasing.GROWTH:
        for _ in range(2):
            tables = payloads.GROWTH_TABLES
            if "this year" in text:
                tables = [t for t in tables if "this year" in t[0]]
            header, rows = pick(rng, tables)
            table_md = golds.markdown_table(header, rows)
            try:
                gold = golds.growth_table(header, rows, name or "YoY", decimals)
            except ValueError:
                continue
            options: dict[str, Any] = {} if name else {"new_column_named": False}
            instruction = noisy(text, lang, rng, keep_case=True)
            if _points_back_to_reply(text) or rng.random() < 0.6:
                ask = pick(rng, REQUESTS_FOR_TABLE[lang])
                messages = [
                    {"role": "user", "content": ask},
                    {"role": "assistant", "content": table_md},
                    {"role": "user", "content": instruction},
                ]
                form = "earlier_turn"
            else:
                messages = [{"role": "user", "content": table_md + "\n\n" + instruction}]
                form = "before"
            corpus.add(
                "context",
                lang,
                messages,
                zero("table_equals", gold, options),
                form=form,
                phrase=text,
            )
    for lang, pool, texts in (
        ("en", phrasing.PARAGRAPH_EN, payloads.TEXTS_EN),
        ("zh", phrasing.PARAGRAPH_ZH, payloads.TEXTS_ZH),
    ):
        for text, n in pool:
            for _ in range(2):
                paragraphs = pick(rng, texts)
                if n > len(paragraphs):
                    paragraphs = max(texts, key=len)
                body = "\n\n".join(paragraphs)
                gold = paragraphs[n - 1] if n > 0 else paragraphs[n]
                instruction = noisy(text, lang, rng, keep_case=True)
                if "that notice" in text or rng.random() < 0.5:
                    reply = "收到。" if lang == "zh" else "Got it."
                    messages = [
                        {"role": "user", "content": body},
                        {"role": "assistant", "content": reply},
                        {"role": "user", "content": instruction},
                    ]
                    form = "earlier_turn"
                else:
                    messages = [{"role": "user", "content": body + "\n\n" + instruction}]
                    form = "before"
                corpus.add(
                    "context", lang, messages, zero("text_equals", gold), form=form, phrase=text
                )
    for lang, text in phrasing.FIRST_QUESTION:
        for _ in range(2):
            pool = payloads.QUESTIONS_ZH if lang == "zh" else payloads.QUESTIONS_EN
            q1, q2 = rng.sample(pool, 2)
            messages = [
                {"role": "user", "content": q1},
                {"role": "assistant", "content": ANSWERS[q1]},
                {"role": "user", "content": q2},
                {"role": "assistant", "content": ANSWERS[q2]},
                {"role": "user", "content": noisy(text, lang, rng)},
            ]
            corpus.add(
                "context", lang, messages, zero("text_equals", q1), form="earlier_turn", phrase=text
            )


# ---------------------------------------------------------------- malformed payloads

BAD_JSON = [
    '{\n  "name": "svc",\n  "port": 8080,\n}',
    '{\n  "a": 1\n  "b": 2\n}',
    '[\n  {"id": 1},\n  {"id": 2\n]',
    "{'name': 'svc'}",
]
BAD_YAML = [
    "server:\n  host: localhost\n   port: 5432\n",
    "items:\n  - a\n  - b\n key: value\n",
    "name: [unclosed\nport: 1\n",
]


def _json_error_line(text: str) -> int:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno
    raise ValueError("payload is valid JSON")


def _yaml_error_line(text: str) -> int:
    import yaml

    try:
        yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        assert mark is not None
        return mark.line + 1
    raise ValueError("payload is valid YAML")


def bad_input(corpus: Corpus) -> None:
    rng = corpus.rng("bad_input")
    for i in range(8):
        lang = "zh" if i % 3 == 2 else "en"
        text = BAD_JSON[i % len(BAD_JSON)]
        phrase = pick(rng, by_lang(phrasing.JSON_YAML, lang))[1]
        rendered = render(
            pick(rng, ["fenced", "unfenced"]), phrase, text, "json", None, rng=rng, ui_lang=lang
        )
        expect = {
            "route": "error",
            "check": "error",
            "gold": None,
            "options": {"line": _json_error_line(text)},
        }
        corpus.add("bad_input", lang, rendered.messages, expect, form=rendered.form, phrase=phrase)
    for i in range(6):
        lang = "zh" if i % 3 == 2 else "en"
        text = BAD_YAML[i % len(BAD_YAML)]
        phrase = pick(rng, by_lang(phrasing.YAML_JSON, lang))[1]
        rendered = render("fenced", phrase, text, "yaml", None, rng=rng, ui_lang=lang)
        expect = {
            "route": "error",
            "check": "error",
            "gold": None,
            "options": {"line": _yaml_error_line(text)},
        }
        corpus.add("bad_input", lang, rendered.messages, expect, form=rendered.form, phrase=phrase)


# ---------------------------------------------------------------- negatives


RECORD_WORDS = {
    "employees": ("salary", "paid", "promot", "raise", "employee", "pay", "薪", "工资"),
    "products": ("price", "expensive", "pricing", "价格", "定价"),
}


def _records_for(rng: random.Random, text: str) -> str:
    """The record set a negative's wording is about (any, when it names none)."""
    lowered = text.lower()
    for name, words in RECORD_WORDS.items():
        if any(w in lowered for w in words):
            return name
    return str(pick(rng, list(payloads.RECORD_SETS)))


def _negative_payload(
    rng: random.Random, kind: str, lang: str, text: str = ""
) -> tuple[str, str] | None:
    if kind == "json":
        return json.dumps(pick(rng, payloads.JSON_DOCS), indent=2, ensure_ascii=False), "json"
    if kind == "yaml":
        return pick(rng, payloads.YAML_DOCS), "yaml"
    if kind == "records":
        return json.dumps(payloads.RECORD_SETS[_records_for(rng, text)], indent=2), "json"
    if kind == "sql":
        return pick(rng, payloads.SQL_QUERIES)[0], "sql"
    if kind == "md":
        return pick(rng, payloads.MARKDOWN_DOCS), "markdown"
    if kind == "py":
        return pick(rng, payloads.PYTHON_PROGRAMS), "python"
    return None


def negatives(corpus: Corpus) -> None:
    rng = corpus.rng("negatives")
    for family, lang, kind, why, text in NEGATIVES:
        category = family if family != "open" else "open"
        if kind in ("table_ctx", "text_ctx"):
            if kind == "table_ctx":
                header, rows = pick(rng, payloads.GROWTH_TABLES)
                earlier = golds.markdown_table(header, rows)
                ask = pick(rng, REQUESTS_FOR_TABLE[lang])
                messages = [
                    {"role": "user", "content": ask},
                    {"role": "assistant", "content": earlier},
                    {"role": "user", "content": text},
                ]
            else:
                body = "\n\n".join(
                    pick(rng, payloads.TEXTS_ZH if lang == "zh" else payloads.TEXTS_EN)
                )
                messages = [
                    {"role": "user", "content": body},
                    {"role": "assistant", "content": "收到。" if lang == "zh" else "Got it."},
                    {"role": "user", "content": text},
                ]
            corpus.add(
                category, lang, messages, dict(NEURAL), form="earlier_turn", phrase=text, why=why
            )
            continue
        payload = _negative_payload(rng, kind, lang, text)
        if payload is None:
            corpus.add(
                category,
                lang,
                [{"role": "user", "content": text}],
                dict(NEURAL),
                form="no_payload",
                phrase=text,
                why=why,
            )
            continue
        body, fence = payload
        forms = ["fenced", "fenced", "unfenced", "template"]
        if not points_below(text):
            forms.append("before")
        rendered = render(pick(rng, forms), text, body, fence, None, rng=rng, ui_lang=lang)
        corpus.add(
            category,
            lang,
            rendered.messages,
            dict(NEURAL),
            system=rendered.system,
            form=rendered.form,
            phrase=text,
            why=why,
        )
    # deterministic wording, but the caller asks for variety: the model answers
    families = [
        ("json_yaml", phrasing.JSON_YAML, "json"),
        ("yaml_json", phrasing.YAML_JSON, "yaml"),
        ("sql_pandas", phrasing.SQL_PANDAS, "sql"),
        ("markdown_html", phrasing.MARKDOWN_HTML, "md"),
        ("py_ts", phrasing.PY_TS, "py"),
    ]
    for i in range(12):
        family, pool, kind = families[i % len(families)]
        lang, phrase = pick(rng, pool)
        payload = _negative_payload(rng, kind, lang)
        assert payload is not None
        rendered = render("fenced", phrase, payload[0], payload[1], None, rng=rng, ui_lang=lang)
        sampling = (
            {"temperature": pick(rng, [0.7, 1.0, 0.9])}
            if i % 3
            else {"temperature": 0, "top_p": 0.9}
        )
        corpus.add(
            family,
            lang,
            rendered.messages,
            dict(NEURAL),
            form=rendered.form,
            phrase=phrase,
            why="sampling",
            **sampling,
        )


# ---------------------------------------------------------------- build and split

FAMILIES = [
    json_yaml,
    yaml_json,
    json_query,
    free_form_queries,
    sql_pandas,
    markdown_html,
    py_ts,
    compound,
    context,
    bad_input,
    negatives,
]


def build(seed: int = SEED) -> list[dict[str, Any]]:
    corpus = Corpus(seed)
    for family in FAMILIES:
        family(corpus)
    return corpus.cases


HELD_OUT_SHARE = 1 / 3


def held_out(case_id: str, seed: int = SEED) -> bool:
    """Whether a case belongs to the held-out part: a hash of its id, so a case keeps its
    side when cases are added or removed."""
    digest = hashlib.sha256(f"{seed}:{case_id}".encode()).hexdigest()
    return int(digest[:12], 16) < HELD_OUT_SHARE * 16**12


def split(
    cases: list[dict[str, Any]], seed: int = SEED
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(dev, held-out): about two thirds and one third of every category, by case id."""
    held = [c for c in cases if held_out(c["id"], seed)]
    dev = [c for c in cases if not held_out(c["id"], seed)]
    return dev, held


def write(path: Path, cases: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as f:
        for case in cases:
            f.write(json.dumps(case, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    cases = build(args.seed)
    dev, held = split(cases, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    write(args.out / "dev.jsonl", dev)
    write(args.out / "heldout.jsonl", held)
    print(f"{len(cases)} cases: {len(dev)} dev, {len(held)} held-out -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
