"""Build ``fresh3.jsonl``: a fresh corpus of context and compound requests.

    PYTHONPATH=... python3 -m zerolayer.benchmarks.paraphrase.build_fresh3 [--out FILE]

Written without reading the engine (core, plugins, grammars, rules_api, docs, the test cases)
nor the other corpora's phrasing lists: the wordings are the way people type into a chat app
(casual, indirect, typos, "pls", questions, prompt templates with text before and after the
payload, Chinese).

- ``context``: multi-turn conversations where the data sits in an earlier turn (a Markdown
  table the assistant produced, a notice it wrote, a text the user pasted, a JSON or YAML
  document it gave, the user's own earlier questions) and the last user turn refers back to
  it. Exactly one earlier payload fits each active request.
- ``compound``: one payload (a JSON or YAML record array) with two or three deterministic
  steps: sort (no ties), filter (clear threshold), project (named keys), top n, convert
  (with an option).

Golds come from ``golds.py`` (exact fractions for growth columns, plain Python for queries,
json/PyYAML). Each case's ``half`` is ``sealed`` when the first byte of the sha256 of its id
is below 0.4 × 256, else ``open``. The builder is deterministic (fixed seed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

from zerolayer.benchmarks.paraphrase import payloads
from zerolayer.benchmarks.paraphrase.forms import render
from zerolayer.benchmarks.paraphrase.golds import (
    Filter,
    Project,
    Sort,
    Top,
    growth_table,
    markdown_table,
    run_query,
    yaml_block,
    yaml_load,
)

SEED = 33030
HERE = Path(__file__).parent
SEALED_SHARE = 0.4

Turn = dict[str, str]


def half(case_id: str) -> str:
    """``sealed`` when the first byte of sha256(id) is below 0.4 × 256, else ``open``."""
    return "sealed" if hashlib.sha256(case_id.encode()).digest()[0] < SEALED_SHARE * 256 else "open"


def zero(check: str, gold: Any, options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"route": "zero", "check": check, "gold": gold, "options": options or {}}


NEURAL = {"route": "neural", "check": "route_only", "gold": None, "options": {}}


class Corpus:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cases: list[dict[str, Any]] = []
        self.counters: Counter[str] = Counter()

    def add(
        self,
        category: str,
        lang: str,
        messages: list[Turn],
        expect: dict[str, Any],
        *,
        form: str,
        phrase: str,
        system: str | None = None,
        why: str | None = None,
    ) -> None:
        self.counters[category] += 1
        case_id = f"f3-{category}-{self.counters[category]:02d}"
        request: dict[str, Any] = {"model": "any", "max_tokens": 2048, "messages": messages}
        if self.rng.random() < 0.8:
            request["temperature"] = 0
        if system is not None:
            request["system"] = system
        case: dict[str, Any] = {
            "id": case_id,
            "category": category,
            "lang": lang,
            "request": request,
            "headers": {},
            "expect": expect,
            "form": form,
            "phrase": phrase,
            "half": half(case_id),
        }
        if why:
            case["why"] = why
        self.cases.append(case)


# ====================================================================== context payloads

# (header, rows): key column, previous period, current period. Chosen so that the growth
# cells have no rounding ties at 0, 1 and 2 decimals where they are used (checked below).
TABLES_EN: list[tuple[list[str], list[list[str]]]] = [
    payloads.GROWTH_TABLES[0],
    payloads.GROWTH_TABLES[1],
    payloads.GROWTH_TABLES[2],
    payloads.GROWTH_TABLES[4],
    (
        ["category", "2023", "2024"],
        [["Books", "1,250", "1,410"], ["Music", "980", "905"], ["Games", "2,100", "2,562"]],
    ),
    (
        ["plan", "last month", "this month"],
        [["Pro", "125", "151"], ["Basic", "340", "379"], ["Team", "48", "44"]],
    ),
    (
        ["product line", "FY23", "FY24"],
        [["Cloud", "5,400", "6,372"], ["Support", "760", "817"], ["On-prem", "3,100", "2,790"]],
    ),
    (
        ["channel", "Q1", "Q2"],
        [["Email", "1,830", "2,045"], ["Social", "2,610", "2,377"], ["Search", "940", "1,163"]],
    ),
]

TABLES_ZH: list[tuple[list[str], list[list[str]]]] = [
    payloads.GROWTH_TABLES[3],
    (
        ["城市", "2023年", "2024年"],
        [["上海", "760", "812"], ["北京", "820", "905"], ["广州", "430", "401"]],
    ),
    (
        ["产品", "去年销量", "今年销量"],
        [["保温杯", "3,200", "3,710"], ["电热水壶", "1,450", "1,322"], ["咖啡机", "610", "787"]],
    ),
]

TABLE_ASKS_EN = [
    "can you put those numbers in a table? {key}, {prev}, {cur}",
    "Could you make me a quick table comparing {prev} and {cur} by {key}?",
    "pls format the figures I gave you as a markdown table",
    "table please — {key} vs {prev} vs {cur}",
]
TABLE_ASKS_ZH = [
    "帮我把这些数字整理成表格",
    "能做个表对比一下{prev}和{cur}吗？",
    "把数据列成一个表格吧",
]
TABLE_LEADS_EN = ["Here you go:", "Sure! Here's the table:", "Here's the comparison:", ""]
TABLE_TAILS_EN = [
    "Let me know if you want any changes.",
    "Happy to tweak the layout if needed.",
    "",
]
TABLE_LEADS_ZH = ["好的，整理如下：", "表格如下：", ""]
TABLE_TAILS_ZH = ["如需调整请告诉我。", "还需要别的格式吗？", ""]

CHITCHAT_EN = [
    ("thanks!", "You're welcome! Anything else?"),
    ("perfect, that's what I needed", "Great, glad it helps."),
    ("ok cool. one sec", "Sure, take your time."),
]
CHITCHAT_ZH = [("谢谢！", "不客气，还有什么需要帮忙的吗？"), ("好的，稍等", "好的。")]

# Notices the assistant wrote: (the user's ask, paragraphs)
NOTICES_EN: list[tuple[str, list[str]]] = [
    (
        "can you write a short notice for staff that the office is closed monday?",
        payloads.TEXTS_EN[0],
    ),
    (
        "Write a short explainer of our nightly data pipeline for the wiki, a few paragraphs",
        payloads.TEXTS_EN[1],
    ),
    (
        "draft a notice about the parking garage being resurfaced next week pls",
        [
            "The parking garage will be resurfaced from Monday 14 to Wednesday 16.",
            "Levels B1 and B2 will be closed during the work; level B3 stays open.",
            "Staff who usually park on B1 or B2 can use the visitor lot on Elm Street.",
            "We apologise for the inconvenience and thank you for your patience.",
        ],
    ),
    (
        "Could you write an announcement about the new password rules?",
        [
            "From next month, all passwords must be at least 14 characters long.",
            "Passwords will expire every 180 days, and the last five cannot be reused.",
            "The IT help desk can reset a forgotten password within one working hour.",
        ],
    ),
    (
        "write a holiday schedule notice for the customer support team",
        [
            "Support will run with a reduced team between 24 December and 2 January.",
            "Live chat will be available from 10am to 4pm on working days only.",
            "Urgent tickets marked P1 will still be answered within two hours.",
        ],
    ),
]
NOTICES_ZH: list[tuple[str, list[str]]] = [
    ("帮我写一个系统升级的通知", payloads.TEXTS_ZH[0]),
    ("写一份年会通知，几段就行", payloads.TEXTS_ZH[1]),
    (
        "帮忙起草一个关于办公室搬迁的通知",
        [
            "公司将于下月一日搬迁至新办公地点。",
            "搬迁前一周，请各位同事整理好个人物品并贴好标签。",
            "新办公室地址和门禁卡领取方式将另行通知。",
        ],
    ),
]

# Texts the user pasted: (lead-in or "", paragraphs)
PASTED_EN: list[tuple[str, list[str]]] = [
    (
        "here's the email from facilities, fyi:",
        [
            "Hi all, the water supply on floors 3 and 4 will be off on Thursday morning.",
            "Kitchens and restrooms on those floors will be unavailable until noon.",
            "Please use the facilities on floor 2 in the meantime.",
        ],
    ),
    (
        "My landlord sent me this, can you take a look later",
        [
            "Dear tenant, the annual boiler inspection is scheduled for next Tuesday.",
            "A technician will need access to your flat between 9am and 1pm.",
            "If this time does not suit you, please reply by Friday to rearrange.",
        ],
    ),
    (
        "",
        [
            "The conference starts at 9:30 with a keynote in the main hall.",
            "Workshops run in parallel after lunch in rooms A to D.",
            "The closing panel begins at 5pm, followed by drinks on the terrace.",
        ],
    ),
    (
        "",
        [
            "Thank you for your order. Your parcel left our warehouse this morning.",
            "Delivery usually takes three to five working days.",
            "You can track the parcel with the link in your account.",
            "For returns, please use the form included in the box.",
        ],
    ),
]
PASTED_ZH: list[tuple[str, list[str]]] = [
    (
        "这是物业发的通知：",
        [
            "本小区将于周六上午进行消防设备检查。",
            "检查期间电梯将暂停使用约一小时。",
            "给您带来不便，敬请谅解。",
        ],
    ),
    (
        "",
        [
            "本次培训分为上午和下午两场。",
            "上午主要介绍新系统的基本操作。",
            "下午安排实际练习和答疑。",
        ],
    ),
]

# Question-and-answer exchanges for "what did I ask first"
QA_EN: list[tuple[str, str]] = [
    (payloads.QUESTIONS_EN[0], "Use `my_list.reverse()` in place, or `my_list[::-1]` for a copy."),
    (payloads.QUESTIONS_EN[1], "The capital of Australia is Canberra."),
    (payloads.QUESTIONS_EN[2], "*The Art of Statistics* by David Spiegelhalter is a good start."),
    ("whats the difference between a list and a tuple", "Lists are mutable; tuples are not."),
    ("how many ounces in a pound?", "There are 16 ounces in a pound."),
    ("Is it safe to delete the node_modules folder?", "Yes, `npm install` recreates it."),
]
QA_ZH: list[tuple[str, str]] = [
    (
        payloads.QUESTIONS_ZH[0],
        "可以用 `my_list.reverse()` 原地反转，或者 `my_list[::-1]` 得到副本。",
    ),
    (payloads.QUESTIONS_ZH[1], "澳大利亚的首都是堪培拉。"),
    ("一斤等于多少克？", "一斤等于500克。"),
    ("Excel里怎么冻结首行？", "在“视图”选项卡里选择“冻结窗格”→“冻结首行”。"),
]

# Documents the assistant gave: (the user's ask, document)
GIVEN_JSON: list[tuple[str, Any]] = [
    ("give me a sample server config as json", payloads.JSON_DOCS[1]),
    (
        "can you show me what a docker-compose-ish service map looks like in JSON?",
        payloads.JSON_DOCS[3],
    ),
    ("example logging config in json pls", payloads.JSON_DOCS[7]),
    ("I need a JSON example for a project with owners and env vars", payloads.JSON_DOCS[9]),
    ("json for an order with two line items?", payloads.JSON_DOCS[6]),
]
GIVEN_JSON_ZH: list[tuple[str, Any]] = [
    ("给我一个用户信息的JSON示例", payloads.JSON_DOCS[4]),
    ("写一个商品的JSON例子", payloads.JSON_DOCS[11]),
    ("给个服务器配置的JSON示例", payloads.JSON_DOCS[1]),
]
GIVEN_YAML: list[tuple[str, str]] = [
    ("what would a db connection config look like in yaml?", payloads.YAML_DOCS[1]),
    ("show me an app config in YAML with a couple of features", payloads.YAML_DOCS[3]),
    ("给一个带告警阈值的YAML配置", payloads.YAML_DOCS[9]),
]


# ====================================================================== context helpers


def _num(cell: str) -> Fraction:
    return Fraction(cell.replace(",", ""))


def _table_turns(
    table: tuple[list[str], list[list[str]]], lang: str, rng: random.Random, chat: bool
) -> list[Turn]:
    header, rows = table
    fill = {"key": header[0], "prev": header[1], "cur": header[2]}
    asks, leads, tails = (
        (TABLE_ASKS_ZH, TABLE_LEADS_ZH, TABLE_TAILS_ZH)
        if lang == "zh"
        else (TABLE_ASKS_EN, TABLE_LEADS_EN, TABLE_TAILS_EN)
    )
    body = "\n\n".join(
        p for p in (rng.choice(leads), markdown_table(header, rows), rng.choice(tails)) if p
    )
    turns = [
        {"role": "user", "content": rng.choice(asks).format(**fill)},
        {"role": "assistant", "content": body},
    ]
    if chat:
        u, a = rng.choice(CHITCHAT_ZH if lang == "zh" else CHITCHAT_EN)
        turns += [{"role": "user", "content": u}, {"role": "assistant", "content": a}]
    return turns


def _ask(turns: list[Turn], text: str) -> list[Turn]:
    return [*turns, {"role": "user", "content": text}]


def _fill(phrase: str, table: tuple[list[str], list[list[str]]]) -> str:
    header = table[0]
    return phrase.format(key=header[0], prev=header[1], cur=header[2])


# (phrase, decimals, column name or None)
GROWTH_EN: list[tuple[str, int, str | None]] = [
    ("can u add a yoy growth column w/ 2 decimals", 2, None),
    ("Add a column with the % change from {prev} to {cur}, 1 decimal place please.", 1, None),
    ("could you tack on a growth column? round to whole percents", 0, None),
    ("nice. now add a 'Growth' column showing the change vs {prev} in %, 2 dp", 2, "Growth"),
    ("pls add another column w the percentage growth (1 decimal)", 1, None),
    ("Can you extend that table with a growth % column called YoY? two decimals", 2, "YoY"),
    ("add growth % vs {prev}, rounded to 1 decimal, same table otherwise", 1, None),
    ("ok now same table but with a column for the growth rate, 2 decimals pls", 2, None),
    ("what would that table look like with a percent change column? no decimals", 0, None),
    (
        'Hey, can you add a column "Change %" = ({cur} - {prev}) / {prev}, one decimal?',
        1,
        "Change %",
    ),
    ("add the growth percentage as a last column, rounded to 2 decimals thx", 2, None),
    ("redo the table above with an extra column for growth from {prev} to {cur} (1dp)", 1, None),
]
GROWTH_ZH: list[tuple[str, int, str | None]] = [
    ("加一列同比增长率，保留两位小数", 2, None),
    ("在上面的表格后面加一列增长率，保留一位小数，谢谢", 1, None),
    ("帮我给这个表加个增长率的列，百分比取整就行", 0, None),
    ("能不能给表格加一列“增长率”？保留2位小数", 2, "增长率"),
    ("表格再加一列{cur}相比{prev}的增长百分比吧，一位小数", 1, None),
]

# (phrase, column: 1 previous / 2 current, descending)
SORT_EN: list[tuple[str, int, bool]] = [
    ("sort that by {cur} highest first", 2, True),
    ("can you reorder the table by {prev}, smallest to largest?", 1, False),
    ("pls sort teh table descending by {cur}", 2, True),
    ("Same table, but ordered by {cur} from low to high.", 2, False),
    ("order the rows by {prev} desc thx", 1, True),
    ("could u put the rows in order of {cur}? biggest at the top", 2, True),
    ("sort the table you just made by {cur} ascending", 2, False),
]
SORT_ZH: list[tuple[str, int, bool]] = [
    ("把上面那个表按{cur}从高到低排一下", 2, True),
    ("表格按{prev}升序排列", 1, False),
    ("按{cur}降序重新排一下这个表吧", 2, True),
]

# (phrase, paragraph index: 0-based, -1 last)
NOTICE_EN: list[tuple[str, int]] = [
    ("paragraph two of the notice you wrote, verbatim pls", 1),
    ("can you give me just the 3rd paragraph again, word for word? need to paste it in slack", 2),
    ("whats the first paragraph of that again (exact wording)", 0),
    ("Copy me the last paragraph from what you wrote, exactly as written", -1),
    ("send me only the second paragraph of your text, unchanged", 1),
    ("I only need the third para of what you drafted. exactly as is pls", 2),
    ("repeat the 2nd paragraph of your draft verbatim", 1),
]
NOTICE_ZH: list[tuple[str, int]] = [
    ("把你写的通知第二段原文发我", 1),
    ("刚才那份通知的最后一段，一字不改地再给我一下", -1),
    ("通知的第一段原样复制给我", 0),
]

# (phrase, paragraph index, needs a text without a lead-in)
PASTED_ASKS_EN: list[tuple[str, int, bool]] = [
    ("what's the last paragraph of what I pasted? exact text pls", -1, False),
    ("just give me back the final paragraph of that, as-is", -1, False),
    ("quote the last paragraph of the text I sent you", -1, False),
    ("paste back paragraph 2 of what I sent earlier, verbatim", 1, True),
    ("the second paragraph of my text, word for word?", 1, True),
    ("can u send me the last para from my message above exactly", -1, False),
]
PASTED_ASKS_ZH: list[tuple[str, int, bool]] = [
    ("我刚才贴的那段文字，最后一段原文是什么？", -1, False),
    ("把我发的内容第二段原样给我", 1, True),
]
PASTED_REPLIES_EN = [
    "Got it. Let me know what you'd like me to do with it.",
    "Thanks for sharing — what would you like to do with this?",
]
PASTED_REPLIES_ZH = ["收到，需要我怎么处理？", "好的，已经看到了。"]

FIRST_EN = [
    "remind me what I asked first?",
    "wait what was my first question again",
    "what did I ask you at the very start? exact words pls",
    "scroll up for me — what was the first thing I asked?",
]
FIRST_ZH = ["提醒我一下我最开始问的是什么", "我第一个问题是啥来着？"]

# (phrase, direction json2yaml | yaml2json, options)
CONVERT_EN: list[tuple[str, str, dict[str, Any]]] = [
    ("convert that JSON you gave me to YAML", "json2yaml", {}),
    ("can I get that in yaml instead?", "json2yaml", {}),
    (
        "cool, now the same thing as YAML pls, keys sorted alphabetically",
        "json2yaml",
        {"sort_keys": True},
    ),
    ("turn the json above into yaml w/ 4 space indent", "json2yaml", {"indent": 4}),
    ("yaml version of that config?", "json2yaml", {}),
    ("convert the yaml you wrote to json", "yaml2json", {}),
    ("give me that yaml as json, 2-space indent pls", "yaml2json", {"indent": 2}),
]
CONVERT_ZH: list[tuple[str, str, dict[str, Any]]] = [
    ("把你刚才给的JSON转成YAML", "json2yaml", {}),
    ("上面那个JSON能换成YAML格式吗", "json2yaml", {}),
    ("你给的YAML转成JSON，缩进4个空格", "yaml2json", {"indent": 4}),
]


def _growth_fits(table: tuple[list[str], list[list[str]]], decimals: int) -> bool:
    try:
        growth_table(table[0], table[1], "g", decimals)
    except ValueError:
        return False
    return True


def _sort_fits(table: tuple[list[str], list[list[str]]], col: int) -> bool:
    values = [_num(r[col]) for r in table[1]]
    if len(set(values)) != len(values) or len(values) < 2:
        return False
    # the sort must change the order (both directions are asked for)
    return values != sorted(values) and values != sorted(values, reverse=True)


def build_context(c: Corpus, rng: random.Random) -> None:
    cat = "context"
    # -------- growth columns
    for lang, specs, tables in (("en", GROWTH_EN, TABLES_EN), ("zh", GROWTH_ZH, TABLES_ZH)):
        start = rng.randrange(len(tables))
        for i, (phrase, decimals, name) in enumerate(specs):
            k = start + i
            while not _growth_fits(tables[k % len(tables)], decimals):
                k += 1
            table = tables[k % len(tables)]
            chat = rng.random() < 0.35
            gold = growth_table(table[0], table[1], name or "growth", decimals)
            options = {} if name else {"new_column_named": False}
            msgs = _ask(_table_turns(table, lang, rng, chat), _fill(phrase, table))
            c.add(
                cat,
                lang,
                msgs,
                zero("table_equals", gold, options),
                form="earlier_turn+chat" if chat else "earlier_turn",
                phrase=phrase,
            )
    # -------- sorting the table
    for lang, specs, tables in (("en", SORT_EN, TABLES_EN), ("zh", SORT_ZH, TABLES_ZH)):
        start = rng.randrange(len(tables))
        for i, (phrase, col, desc) in enumerate(specs):
            k = start + i
            while not _sort_fits(tables[k % len(tables)], col):
                k += 1
                if k > start + i + len(tables):
                    raise ValueError(f"no table fits {phrase!r}")
            table = tables[k % len(tables)]
            rows = sorted(table[1], key=lambda r, col=col: _num(r[col]), reverse=desc)
            chat = rng.random() < 0.35
            msgs = _ask(_table_turns(table, lang, rng, chat), _fill(phrase, table))
            c.add(
                cat,
                lang,
                msgs,
                zero("table_equals", [table[0], *rows]),
                form="earlier_turn+chat" if chat else "earlier_turn",
                phrase=phrase,
            )
    # -------- a paragraph of a notice the assistant wrote
    for lang, specs, notices, chats in (
        ("en", NOTICE_EN, NOTICES_EN, CHITCHAT_EN),
        ("zh", NOTICE_ZH, NOTICES_ZH, CHITCHAT_ZH),
    ):
        start = rng.randrange(len(notices))
        for i, (phrase, idx) in enumerate(specs):
            k = start + i
            while idx >= len(notices[k % len(notices)][1]):
                k += 1
            ask, paras = notices[k % len(notices)]
            msgs = [
                {"role": "user", "content": ask},
                {"role": "assistant", "content": "\n\n".join(paras)},
            ]
            chat = rng.random() < 0.4
            if chat:
                u, a = rng.choice(chats)
                msgs += [{"role": "user", "content": u}, {"role": "assistant", "content": a}]
            c.add(
                cat,
                lang,
                _ask(msgs, phrase),
                zero("text_equals", paras[idx]),
                form="assistant_text+chat" if chat else "assistant_text",
                phrase=phrase,
            )
    # -------- a paragraph of a text the user pasted
    for lang, specs, texts, replies in (
        ("en", PASTED_ASKS_EN, PASTED_EN, PASTED_REPLIES_EN),
        ("zh", PASTED_ASKS_ZH, PASTED_ZH, PASTED_REPLIES_ZH),
    ):
        plain = [t for t in texts if not t[0]]
        led = [t for t in texts if t[0]]
        for i, (phrase, idx, bare) in enumerate(specs):
            pool = plain if bare else (led if i % 2 == 0 else texts)
            lead, paras = pool[(i + rng.randrange(len(pool))) % len(pool)]
            pasted = "\n\n".join([lead, *paras] if lead else paras)
            msgs = [
                {"role": "user", "content": pasted},
                {"role": "assistant", "content": rng.choice(replies)},
            ]
            c.add(
                cat,
                lang,
                _ask(msgs, phrase),
                zero("text_equals", paras[idx]),
                form="pasted_turn+lead" if lead else "pasted_turn",
                phrase=phrase,
            )
    # -------- what did I ask first
    for lang, specs, qa in (("en", FIRST_EN, QA_EN), ("zh", FIRST_ZH, QA_ZH)):
        for phrase in specs:
            picked = rng.sample(qa, rng.choice((2, 3)))
            msgs: list[Turn] = []
            for q, a in picked:
                msgs += [{"role": "user", "content": q}, {"role": "assistant", "content": a}]
            c.add(
                cat,
                lang,
                _ask(msgs, phrase),
                zero("text_equals", picked[0][0]),
                form=f"history{len(picked)}",
                phrase=phrase,
            )
    # -------- convert a document the assistant gave
    yaml_en = [g for g in GIVEN_YAML if not any("\u4e00" <= ch <= "\u9fff" for ch in g[0])]
    yaml_zh = [g for g in GIVEN_YAML if g not in yaml_en]
    for lang, specs, jsons, yamls in (
        ("en", CONVERT_EN, GIVEN_JSON, yaml_en),
        ("zh", CONVERT_ZH, GIVEN_JSON_ZH, yaml_zh),
    ):
        for i, (phrase, direction, options) in enumerate(specs):
            if direction == "json2yaml":
                pool = jsons
                if options.get("indent"):  # a nested mapping, so the indent shows
                    pool = [g for g in jsons if any(isinstance(v, dict) for v in g[1].values())]
                ask, doc = pool[(i + rng.randrange(len(pool))) % len(pool)]
                body = "```json\n" + json.dumps(doc, indent=2, ensure_ascii=False) + "\n```"
                check, gold = "yaml_equals", doc
            else:
                ask, text = yamls[(i + rng.randrange(len(yamls))) % len(yamls)]
                if lang == "en" and options.get("indent"):
                    ask, text = GIVEN_YAML[0]
                body = "```yaml\n" + text.rstrip() + "\n```"
                check, gold = "json_equals", yaml_load(text)
            lead = rng.choice(
                ["好的，示例如下：", "给你："]
                if lang == "zh"
                else ["Sure:", "Here's an example:", ""]
            )
            tail = rng.choice(
                ["可以根据需要修改。", ""] if lang == "zh" else ["Adjust the values as needed.", ""]
            )
            reply = "\n\n".join(p for p in (lead, body, tail) if p)
            msgs = [{"role": "user", "content": ask}, {"role": "assistant", "content": reply}]
            c.add(
                cat,
                lang,
                _ask(msgs, phrase),
                zero(check, gold, options),
                form="assistant_doc",
                phrase=phrase,
            )
    build_context_negatives(c, rng)


# (lang, setting, phrase, why)
CONTEXT_NEGATIVES: list[tuple[str, str, str, str]] = [
    (
        "en",
        "table",
        "can you summarise the table you gave me in a sentence or two?",
        "a summary is open-ended",
    ),
    ("en", "table", "what does this trend mean for next year?", "an interpretation"),
    ("en", "table", "add a column with your forecast for next year", "a forecast is a judgement"),
    ("en", "notice", "translate the notice to French", "a translation"),
    (
        "en",
        "two_tables",
        "add a yoy growth column to the table, 1 decimal",
        "two earlier tables fit the reference",
    ),
    ("en", "two_tables", "sort the table by {cur} desc pls", "two earlier tables fit"),
    ("en", "notice", "rewrite paragraph two so it sounds friendlier", "a rewrite"),
    ("en", "notice", "which paragraph is the most important one?", "an opinion"),
    ("en", "json", "is that JSON config you gave me ok to use in production?", "a review"),
    (
        "en",
        "table",
        'my boss just replied "add a YoY column with 2 decimals" - what does YoY even stand for?',
        "a quoted instruction; the ask is an explanation",
    ),
    (
        "en",
        "table",
        "add a growth column and tell me which one did best and why",
        "an extra open clause",
    ),
    (
        "en",
        "history",
        "what did I ask first, and did you actually answer it properly?",
        "a judgement on the answer",
    ),
    ("en", "two_json", "convert that JSON to YAML", "two earlier JSON documents fit"),
    ("en", "table", "add a column with some useful stats", "the column is not specified"),
    ("zh", "table", "总结一下你给的这个表", "a summary"),
    ("zh", "table", "这个趋势说明了什么？", "an interpretation"),
    ("zh", "notice", "把这份通知翻译成英文", "a translation"),
    ("zh", "table", "加一列你预测的明年数字", "a forecast"),
    ("zh", "notice", "第二段改写得更正式一点", "a rewrite"),
    ("zh", "two_tables", "给表格加一列增长率，保留两位小数", "two earlier tables fit"),
]


def build_context_negatives(c: Corpus, rng: random.Random) -> None:
    for lang, setting, phrase, why in CONTEXT_NEGATIVES:
        tables = TABLES_ZH if lang == "zh" else TABLES_EN
        table = rng.choice(tables)
        if setting == "table":
            msgs = _table_turns(table, lang, rng, rng.random() < 0.3)
        elif setting == "two_tables":
            # two tables with the same columns (two data sets) in one reply: neither is
            # "the" table
            rest = rng.choice([t for t in tables if t is not table])
            other = (table[0], rest[1])
            ask = (
                "把两组数据分别做成表格"
                if lang == "zh"
                else "can you make one table for each of the two data sets I sent?"
            )
            first, second = ("表一：", "表二：") if lang == "zh" else ("Set A:", "Set B:")
            reply = "\n\n".join([first, markdown_table(*table), second, markdown_table(*other)])
            msgs = [{"role": "user", "content": ask}, {"role": "assistant", "content": reply}]
        elif setting == "notice":
            ask, paras = rng.choice(NOTICES_ZH if lang == "zh" else NOTICES_EN)
            msgs = [
                {"role": "user", "content": ask},
                {"role": "assistant", "content": "\n\n".join(paras)},
            ]
        elif setting == "json":
            ask, doc = rng.choice(GIVEN_JSON)
            body = "```json\n" + json.dumps(doc, indent=2) + "\n```"
            msgs = [{"role": "user", "content": ask}, {"role": "assistant", "content": body}]
        elif setting == "two_json":
            # two documents in one reply: neither is "that JSON"
            (_, d1), (_, d2) = rng.sample(GIVEN_JSON, 2)
            blocks = [
                "```json\n" + json.dumps(d, indent=2, ensure_ascii=False) + "\n```"
                for d in (d1, d2)
            ]
            reply = "\n\n".join(["Option 1:", blocks[0], "Option 2:", blocks[1]])
            msgs = [
                {"role": "user", "content": "give me two example configs in json"},
                {"role": "assistant", "content": reply},
            ]
        else:  # history
            msgs = []
            for q, a in rng.sample(QA_EN, 2):
                msgs += [{"role": "user", "content": q}, {"role": "assistant", "content": a}]
        c.add(
            "context",
            lang,
            _ask(msgs, _fill(phrase, table)),
            NEURAL,
            form=setting,
            phrase=phrase,
            why=why,
        )


# ====================================================================== compound payloads

ACCOUNTS: list[dict[str, Any]] = [
    {"user": "mia", "status": "active", "plan": "pro", "seats": 12},
    {"user": "jon", "status": "inactive", "plan": "free", "seats": 1},
    {"user": "lea", "status": "active", "plan": "team", "seats": 25},
    {"user": "omar", "status": "suspended", "plan": "pro", "seats": 7},
    {"user": "zoe", "status": "active", "plan": "free", "seats": 3},
    {"user": "raj", "status": "inactive", "plan": "team", "seats": 18},
]
ORDERS: list[dict[str, Any]] = [
    {"order": "A-101", "customer": "acme", "total": 250.0, "status": "paid"},
    {"order": "A-102", "customer": "globex", "total": 90.5, "status": "open"},
    {"order": "A-103", "customer": "initech", "total": 410.0, "status": "cancelled"},
    {"order": "A-104", "customer": "acme", "total": 132.75, "status": "paid"},
    {"order": "A-105", "customer": "umbrella", "total": 720.0, "status": "open"},
    {"order": "A-106", "customer": "globex", "total": 58.2, "status": "paid"},
]
STUDENTS: list[dict[str, Any]] = [
    {"name": "Ana", "score": 88, "age": 17},
    {"name": "Ben", "score": 72, "age": 18},
    {"name": "Chloe", "score": 95, "age": 16},
    {"name": "Diego", "score": 64, "age": 19},
    {"name": "Emma", "score": 81, "age": 15},
]
SERVERS: list[dict[str, Any]] = [
    {"host": "web-1", "cpu": 72, "mem_gb": 16, "region": "eu"},
    {"host": "web-2", "cpu": 35, "mem_gb": 8, "region": "us"},
    {"host": "db-1", "cpu": 88, "mem_gb": 64, "region": "eu"},
    {"host": "cache-1", "cpu": 21, "mem_gb": 32, "region": "us"},
    {"host": "worker-1", "cpu": 54, "mem_gb": 12, "region": "eu"},
]
BOOKS: list[dict[str, Any]] = [
    {"title": "Dune", "author": "Frank Herbert", "year": 1965, "pages": 412},
    {"title": "Neuromancer", "author": "William Gibson", "year": 1984, "pages": 271},
    {"title": "Solaris", "author": "Stanislaw Lem", "year": 1961, "pages": 204},
    {"title": "Hyperion", "author": "Dan Simmons", "year": 1989, "pages": 482},
    {"title": "Foundation", "author": "Isaac Asimov", "year": 1951, "pages": 255},
]
ZH_STAFF: list[dict[str, Any]] = [
    {"姓名": "王芳", "部门": "销售", "年龄": 32, "工资": 9800},
    {"姓名": "李强", "部门": "技术", "年龄": 41, "工资": 12500},
    {"姓名": "张敏", "部门": "财务", "年龄": 27, "工资": 8600},
    {"姓名": "刘洋", "部门": "技术", "年龄": 36, "工资": 15200},
    {"姓名": "陈静", "部门": "行政", "年龄": 29, "工资": 7300},
]
ZH_GOODS: list[dict[str, Any]] = [
    {"name": "保温杯", "price": 59, "sales": 320},
    {"name": "电热水壶", "price": 129, "sales": 185},
    {"name": "咖啡机", "price": 899, "sales": 42},
    {"name": "蓝牙耳机", "price": 199, "sales": 510},
    {"name": "台灯", "price": 75, "sales": 268},
]

RECORDS: dict[str, list[dict[str, Any]]] = {
    "employees": payloads.EMPLOYEES,
    "products": payloads.PRODUCTS,
    "flights": payloads.FLIGHTS,
    "cities": payloads.CITIES,
    "accounts": ACCOUNTS,
    "orders": ORDERS,
    "students": STUDENTS,
    "servers": SERVERS,
    "books": BOOKS,
    "zh_staff": ZH_STAFF,
    "zh_goods": ZH_GOODS,
}

S, F, P, T = Sort, Filter, Project, Top

# (lang, records, input json|yaml, phrase, ops, output json|yaml, options, form or None)
# A phrase with {data} is a message of its own with the payload in it (form "inline");
# otherwise the form is drawn from those that suit the input.
COMPOUND: list[tuple[str, str, str, str, list[Any], str, dict[str, Any], str | None]] = [
    (
        "en",
        "employees",
        "json",
        "sort these records by age descending, keep only name and age, and give it as YAML",
        [S("age", True), P(("name", "age"))],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "employees",
        "json",
        "hey can u filter to people making over 90k, sort by salary high→low and output yaml",
        [F("salary", ">", 90000), S("salary", True)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "employees",
        "json",
        "I need just name + dept for everyone older than 35, as JSON",
        [F("age", ">", 35), P(("name", "dept"))],
        "json",
        {},
        None,
    ),
    (
        "en",
        "employees",
        "json",
        "top 3 earners, only name and salary pls, in yaml",
        [T(3, "salary", True), P(("name", "salary"))],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "employees",
        "json",
        "Drop everyone under 30 then sort by name A-Z. json please",
        [F("age", ">=", 30), S("name", False)],
        "json",
        {},
        None,
    ),
    (
        "en",
        "employees",
        "yaml",
        "can you convert this to JSON but only the Engineering folks, sorted by salary ascending?",
        [F("dept", "==", "Engineering"), S("salary", False)],
        "json",
        {},
        None,
    ),
    (
        "en",
        "products",
        "json",
        "sort by price (cheapest first) and convert to yaml",
        [S("price", False)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "products",
        "json",
        "filter the products with stock below 20 then give me JSON with just sku and stock",
        [F("stock", "<", 20), P(("sku", "stock"))],
        "json",
        {},
        None,
    ),
    (
        "en",
        "products",
        "json",
        "which items cost more than 50? list them as yaml, name and price only",
        [F("price", ">", 50), P(("name", "price"))],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "products",
        "json",
        "sort by stock desc, then to YAML with the keys sorted",
        [S("stock", True)],
        "yaml",
        {"sort_keys": True},
        None,
    ),
    (
        "en",
        "flights",
        "json",
        "give me the flights under 600 sorted by duration, shortest first, as YAML",
        [F("price", "<", 600), S("hours", False)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "flights",
        "json",
        "only code and price, cheapest to most expensive, json on a single line pls",
        [S("price", False), P(("code", "price"))],
        "json",
        {"single_line": True},
        None,
    ),
    (
        "en",
        "flights",
        "yaml",
        "convert to json and sort by price descending, 4 space indent",
        [S("price", True)],
        "json",
        {"indent": 4},
        None,
    ),
    (
        "en",
        "cities",
        "json",
        "cities over 12 million, biggest first, yaml pls",
        [F("population", ">", 12000000), S("population", True)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "cities",
        "json",
        "sort by population ascending and keep only name and population. output as JSON",
        [S("population", False), P(("name", "population"))],
        "json",
        {},
        None,
    ),
    (
        "en",
        "cities",
        "json",
        "just the names and countries sorted by name, as yaml with double quotes around strings",
        [S("name", False), P(("name", "country"))],
        "yaml",
        {"quote": "double"},
        None,
    ),
    (
        "en",
        "accounts",
        "yaml",
        "filter the rows where status is active then convert to JSON",
        [F("status", "==", "active")],
        "json",
        {},
        None,
    ),
    (
        "en",
        "accounts",
        "json",
        "show me only the active accounts, sorted by seats high to low, in YAML",
        [F("status", "==", "active"), S("seats", True)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "accounts",
        "json",
        "remove the inactive ones (keep active + suspended), keep user and plan, give json",
        [F("status", "!=", "inactive"), P(("user", "plan"))],
        "json",
        {},
        None,
    ),
    (
        "en",
        "accounts",
        "json",
        "accounts with more than 10 seats -> yaml, just user + seats",
        [F("seats", ">", 10), P(("user", "seats"))],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "orders",
        "json",
        "get rid of cancelled orders, sort by total desc, yaml please",
        [F("status", "!=", "cancelled"), S("total", True)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "orders",
        "yaml",
        "paid orders only, order id and total, json pls",
        [F("status", "==", "paid"), P(("order", "total"))],
        "json",
        {},
        None,
    ),
    (
        "en",
        "orders",
        "json",
        "orders of 100 or more, sorted ascending by total, then convert the whole thing to YAML",
        [F("total", ">=", 100), S("total", False)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "students",
        "json",
        "sort the students by score highest first and only show name + score. YAML",
        [S("score", True), P(("name", "score"))],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "students",
        "yaml",
        "who scored at least 80? give me their names and scores as json, sorted by score desc",
        [F("score", ">=", 80), S("score", True), P(("name", "score"))],
        "json",
        {},
        None,
    ),
    (
        "en",
        "students",
        "json",
        "students younger than 18, as yaml",
        [F("age", "<", 18)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "servers",
        "json",
        "filter servers where cpu > 70, sort by cpu desc, JSON",
        [F("cpu", ">", 70), S("cpu", True)],
        "json",
        {},
        None,
    ),
    (
        "en",
        "servers",
        "json",
        "just host and region, sorted by host, as YAML",
        [S("host", False), P(("host", "region"))],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "servers",
        "yaml",
        "servers in eu only, sort by mem_gb ascending, yaml pls",
        [F("region", "==", "eu"), S("mem_gb", False)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "books",
        "json",
        "books published before 1970 sorted by year (oldest first) — json with title + year",
        [F("year", "<", 1970), S("year", False), P(("title", "year"))],
        "json",
        {},
        None,
    ),
    (
        "en",
        "books",
        "json",
        "sort by pages desc and convert to yaml",
        [S("pages", True)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "books",
        "json",
        "the 2 longest books, title only, in JSON",
        [T(2, "pages", True), P(("title",))],
        "json",
        {},
        None,
    ),
    (
        "en",
        "employees",
        "json",
        "Hi! Exported this from our HR tool:\n\n{data}\n\nCould you sort it by salary (highest "
        "first) and convert it to YAML? Only keep name and salary. Thanks!!",
        [S("salary", True), P(("name", "salary"))],
        "yaml",
        {},
        "inline",
    ),
    (
        "en",
        "products",
        "json",
        "{data}\n\n^ need this as yaml, sorted by price low to high, and drop the sku field pls",
        [S("price", False), P(("name", "price", "stock"))],
        "yaml",
        {},
        "inline",
    ),
    (
        "en",
        "accounts",
        "json",
        "### Task\nFilter the records where seats >= 5 and output JSON.\n\n### Input\n{data}\n\n"
        "### Output\nJSON only, no commentary.",
        [F("seats", ">=", 5)],
        "json",
        {},
        "inline",
    ),
    (
        "en",
        "cities",
        "json",
        "You are a data formatter. Sort the user's records by population descending and return "
        "them as YAML. Output only YAML.",
        [S("population", True)],
        "yaml",
        {},
        "system",
    ),
    (
        "en",
        "flights",
        "json",
        "sorting question: I have this\n{data}\nI want it by hours ascending, only code and "
        "hours, and in yaml format. possible?",
        [S("hours", False), P(("code", "hours"))],
        "yaml",
        {},
        "inline",
    ),
    (
        "en",
        "servers",
        "json",
        "plz sort thsi by cpu decending n giv me yaml wiht only host and cpu",
        [S("cpu", True), P(("host", "cpu"))],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "employees",
        "json",
        "convert to yaml (sorted keys) after sorting the list by id descending",
        [S("id", True)],
        "yaml",
        {"sort_keys": True},
        None,
    ),
    (
        "en",
        "products",
        "json",
        "json→yaml, but first filter out anything priced over 200",
        [F("price", "<=", 200)],
        "yaml",
        {},
        None,
    ),
    (
        "en",
        "books",
        "yaml",
        "filter for books with more than 300 pages, sort them by title, and give me compact "
        "one-line JSON",
        [F("pages", ">", 300), S("title", False)],
        "json",
        {"single_line": True},
        None,
    ),
    (
        "en",
        "students",
        "json",
        "quick one:\n{data}\nkeep only the ones with score under 85, sort by age ascending, "
        "and send it back as yaml. ty",
        [F("score", "<", 85), S("age", False)],
        "yaml",
        {},
        "inline",
    ),
    # ---------------------------------------------------------------- Chinese
    (
        "zh",
        "employees",
        "json",
        "把这些记录按年龄从大到小排序，只保留name和age，输出YAML",
        [S("age", True), P(("name", "age"))],
        "yaml",
        {},
        None,
    ),
    (
        "zh",
        "accounts",
        "yaml",
        "筛选出status是active的行，然后转成JSON",
        [F("status", "==", "active")],
        "json",
        {},
        None,
    ),
    (
        "zh",
        "products",
        "json",
        "按价格从低到高排序，再转成YAML",
        [S("price", False)],
        "yaml",
        {},
        None,
    ),
    (
        "zh",
        "zh_staff",
        "json",
        "工资高于9000的筛出来，按工资降序，给我JSON",
        [F("工资", ">", 9000), S("工资", True)],
        "json",
        {},
        None,
    ),
    (
        "zh",
        "zh_staff",
        "json",
        "只要姓名和部门两列，按年龄升序排，转YAML",
        [S("年龄", False), P(("姓名", "部门"))],
        "yaml",
        {},
        None,
    ),
    (
        "zh",
        "zh_goods",
        "json",
        "帮我把销量超过300的商品挑出来，按销量从高到低排，输出成YAML格式",
        [F("sales", ">", 300), S("sales", True)],
        "yaml",
        {},
        None,
    ),
    (
        "zh",
        "cities",
        "json",
        "人口超过1500万的城市，按人口降序，只留name和population，JSON格式",
        [F("population", ">", 15000000), S("population", True), P(("name", "population"))],
        "json",
        {},
        None,
    ),
    (
        "zh",
        "flights",
        "json",
        "把航班按价格升序排一下然后转成yaml，只要code和price",
        [S("price", False), P(("code", "price"))],
        "yaml",
        {},
        None,
    ),
    (
        "zh",
        "orders",
        "json",
        "去掉cancelled的订单，按total从大到小排序，输出JSON，缩进2个空格",
        [F("status", "!=", "cancelled"), S("total", True)],
        "json",
        {"indent": 2},
        None,
    ),
    (
        "zh",
        "students",
        "json",
        "分数80分以上的学生，按分数降序，YAML格式，谢谢",
        [F("score", ">", 80), S("score", True)],
        "yaml",
        {},
        None,
    ),
    (
        "zh",
        "servers",
        "yaml",
        "先按cpu降序排序，再只保留host和cpu，最后转成JSON",
        [S("cpu", True), P(("host", "cpu"))],
        "json",
        {},
        None,
    ),
    (
        "zh",
        "zh_goods",
        "json",
        "以下是导出的数据：\n{data}\n请按price降序排列并转换为YAML，只输出YAML。",
        [S("price", True)],
        "yaml",
        {},
        "inline",
    ),
    (
        "zh",
        "zh_staff",
        "json",
        "年龄小于35岁的员工，只要姓名和工资，转成yaml",
        [F("年龄", "<", 35), P(("姓名", "工资"))],
        "yaml",
        {},
        None,
    ),
    (
        "zh",
        "books",
        "json",
        "按year从早到晚排序，保留title和author，输出json",
        [S("year", False), P(("title", "author"))],
        "json",
        {},
        None,
    ),
    (
        "zh",
        "accounts",
        "json",
        "seats大于等于10的账户按seats升序排列，转成YAML",
        [F("seats", ">=", 10), S("seats", False)],
        "yaml",
        {},
        None,
    ),
    (
        "zh",
        "products",
        "json",
        "价格最高的3个商品，只要name和price，JSON",
        [T(3, "price", True), P(("name", "price"))],
        "json",
        {},
        None,
    ),
    (
        "zh",
        "servers",
        "json",
        "筛选region为eu的服务器，然后转YAML，键按字母顺序排",
        [F("region", "==", "eu")],
        "yaml",
        {"sort_keys": True},
        None,
    ),
    (
        "zh",
        "cities",
        "json",
        "{data}\n\n上面的数据按人口从少到多排序，转成JSON，单行输出",
        [S("population", False)],
        "json",
        {"single_line": True},
        "inline",
    ),
]

# (lang, records, input, phrase, form or None, why)
COMPOUND_NEGATIVES: list[tuple[str, str, str, str, str | None, str]] = [
    (
        "en",
        "employees",
        "json",
        "sort them by salary and tell me who deserves a raise",
        None,
        "an open step",
    ),
    ("en", "products", "json", "give me the top few by price as yaml", None, "a vague quantity"),
    (
        "en",
        "products",
        "yaml",
        "filter out the expensive ones and convert to JSON",
        None,
        "no threshold",
    ),
    (
        "en",
        "employees",
        "json",
        "sort by age and explain what the age spread says about our hiring",
        None,
        "an explanation",
    ),
    (
        "en",
        "accounts",
        "json",
        "convert to YAML and add a comment above each field explaining what it is",
        None,
        "comments are written text",
    ),
    (
        "en",
        "flights",
        "json",
        "keep only the important fields and give it as json",
        None,
        "the fields are not named",
    ),
    (
        "en",
        "cities",
        "json",
        'My PM wrote in the ticket: "sort the records by population desc and output YAML". '
        "Is that a reasonable acceptance criterion?\n\n{data}",
        "inline",
        "a quoted instruction; the ask is an opinion",
    ),
    (
        "en",
        "flights",
        "json",
        "sort these by price and recommend which flight I should book",
        None,
        "a recommendation",
    ),
    (
        "en",
        "cities",
        "json",
        "filter the cities in Asia and convert to yaml",
        None,
        "needs world knowledge",
    ),
    (
        "en",
        "employees",
        "json",
        "remove outliers from the salaries then convert to JSON",
        None,
        "outliers are a judgement",
    ),
    (
        "en",
        "books",
        "json",
        "sort by whatever makes most sense and give me yaml",
        None,
        "no sort key",
    ),
    (
        "en",
        "accounts",
        "yaml",
        "filter the active accounts and write a short welcome email for each",
        None,
        "a creative step",
    ),
    (
        "en",
        "books",
        "json",
        "sort the books by how good they are and json it",
        None,
        "an opinion as a sort key",
    ),
    (
        "en",
        "employees",
        "json",
        "group these by dept, average the salary and write a one-line summary per dept",
        None,
        "an open summary",
    ),
    ("zh", "zh_staff", "json", "按工资排序，然后告诉我谁应该加薪", None, "an open step"),
    ("zh", "zh_goods", "json", "把贵一点的商品挑出来转成JSON", None, "no threshold"),
    ("zh", "zh_goods", "json", "排个序然后分析一下销量趋势", None, "an analysis"),
    ("zh", "servers", "json", "转成YAML，并给每个字段加上中文注释说明", None, "written comments"),
    ("zh", "cities", "json", "挑几个有代表性的城市，输出YAML", None, "a vague choice"),
    ("zh", "zh_staff", "json", "把名字翻译成英文后按年龄排序，输出JSON", None, "a translation"),
]

JSON_FORMS = ["fenced", "fenced", "fenced_bare", "unfenced", "before", "before_plain", "template"]
YAML_FORMS = ["fenced", "fenced", "fenced_bare", "before", "template"]
CLOSINGS = {
    ("en", "yaml"): ["Only the YAML please.", "just the yaml, no explanation", "Return only YAML."],
    ("en", "json"): [
        "Only the JSON please.",
        "no explanation needed, just json",
        "Return only JSON.",
    ],
    ("zh", "yaml"): ["只返回YAML。", "不用解释，直接给结果"],
    ("zh", "json"): ["只返回JSON。", "直接给结果就行"],
}


def _payload_text(records: list[dict[str, Any]], fmt: str, rng: random.Random) -> str:
    if fmt == "yaml":
        return yaml_block(records)
    roll = rng.random()
    if roll < 0.6:
        return json.dumps(records, indent=2, ensure_ascii=False)
    if roll < 0.8:
        return json.dumps(records, indent=4, ensure_ascii=False)
    return json.dumps(records, ensure_ascii=False)


def _message(
    lang: str,
    fmt: str,
    phrase: str,
    form: str | None,
    text: str,
    rng: random.Random,
    closing_ok: bool,
) -> tuple[list[Turn], str | None, str]:
    """(messages, system, form) of one compound request."""
    if form == "inline":
        fenced = rng.random() < 0.7
        data = f"```{fmt}\n{text.rstrip()}\n```" if fenced else text.rstrip()
        if not fenced and fmt == "yaml":
            data = f"```{fmt}\n{text.rstrip()}\n```"
            fenced = True
        return (
            [{"role": "user", "content": phrase.format(data=data)}],
            None,
            ("inline" if fenced else "inline_unfenced"),
        )
    if form == "system":
        r = render("system", phrase, text, fmt, None, rng=rng, ui_lang=lang)
        return r.messages, r.system, r.form
    form = rng.choice(YAML_FORMS if fmt == "yaml" else JSON_FORMS)
    closing = None
    out_fmt = phrase_output(phrase)
    if closing_ok and out_fmt and rng.random() < 0.3:
        closing = rng.choice(CLOSINGS[(lang, out_fmt)])
    r = render(form, phrase, text, fmt, closing, rng=rng, ui_lang=lang)
    return r.messages, r.system, r.form


def phrase_output(phrase: str) -> str | None:
    """The output format a phrasing names (for a closing sentence that agrees with it)."""
    low = phrase.lower()
    has_yaml, has_json = "yaml" in low, "json" in low
    if has_yaml and not has_json:
        return "yaml"
    if has_json and not has_yaml:
        return "json"
    return None


def build_compound(c: Corpus, rng: random.Random) -> None:
    for lang, key, fmt, phrase, ops, out, options, form in COMPOUND:
        records = RECORDS[key]
        gold = run_query(records, ops)
        text = _payload_text(records, fmt, rng)
        msgs, system, form_name = _message(lang, fmt, phrase, form, text, rng, True)
        check = "yaml_equals" if out == "yaml" else "json_equals"
        c.add(
            "compound",
            lang,
            msgs,
            zero(check, gold, options),
            form=form_name,
            phrase=phrase,
            system=system,
        )
    for lang, key, fmt, phrase, form, why in COMPOUND_NEGATIVES:
        text = _payload_text(RECORDS[key], fmt, rng)
        msgs, system, form_name = _message(lang, fmt, phrase, form, text, rng, False)
        c.add("compound", lang, msgs, NEURAL, form=form_name, phrase=phrase, system=system, why=why)


def build(seed: int = SEED) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    c = Corpus(rng)
    build_context(c, rng)
    build_compound(c, rng)
    return c.cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "fresh3.jsonl")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    cases = build(args.seed)
    with args.out.open("w", encoding="utf-8") as f:
        for case in cases:
            f.write(json.dumps(case, ensure_ascii=False) + "\n")
    tally = Counter((c["category"], c["expect"]["route"], c["half"], c["lang"]) for c in cases)
    print(f"{len(cases)} cases -> {args.out}")
    for k in sorted(tally):
        print(" ", *k, tally[k])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
