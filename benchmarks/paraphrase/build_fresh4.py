"""Build ``fresh4.jsonl``: a fresh corpus of conversion and JSON-query requests shaped like
the prompt templates of public applications, to measure how much of what real templates look
like the engine recognises.

    PYTHONPATH=... python3 -m zerolayer.benchmarks.paraphrase.build_fresh4

Written on 2026-12-08 by a writer who read only ``README.md``, ``golds.py``, ``checks.py``,
``forms.py``, ``payloads.py`` and ``run.py`` of this folder and the zeroscore README and
harness (for the case format and the check kinds), never the engine, its grammars, its
lexicon, its docs on recognition, its tests or the other corpora's phrasings. The wordings
and the template shapes are the writer's own, in the styles found in public prompt
libraries, LangChain/LlamaIndex templates, GPT-store style system prompts, coding-assistant
slash commands, Dify/Flowise apps and cookbook examples: a system prompt with a role and
rules and a user turn that is only the payload (or ``Input:`` and the payload), Alpaca's
``### Instruction / ### Input / ### Response``, ``<|task|>`` markers, ``Task / Input /
Output``, XML tags, triple-quote and ``---`` delimiters, ``Text: '''…'''``, instructions
before and after the payload, numbered requirement lists, Markdown headings, few-shot
examples, a label line that the answer should follow (``YAML:``), a slash command defined
in the system prompt, and Chinese templates (角色 / 任务 / 输入 / 输出要求). Some messages have
CRLF line endings, some trailing whitespace on the instruction lines.

Families: ``json_yaml``, ``yaml_json``, ``markdown_html``, ``sql_pandas``, ``py_ts`` and
``json_query`` (sort, filter, project, count, top n, extreme, exists over a JSON record
array). Per family 28 expected-active cases (19 English, 9 Chinese) and 12 negatives (8
English, 4 Chinese): explain, review, fix, summarise, translate, "is this valid?", a
conversion plus an open ask, creative asks, vague targets, a conversion request quoted
inside the payload of another task. Options are only those the checks verify (YAML indent,
sorted keys, quote style, flow or block sequences; JSON indent, sorted keys, one line,
literal or escaped non-ASCII; JSDoc; ``DataFrame.query``; GitHub-style tables), drawn only
where the payload makes them meaningful and never two of a kind. Golds are computed by the
reference tools of ``golds.py`` (json/PyYAML, markdown-it-py, CPython's own output, the
plain-Python query runner) from the payload as written.

Halves: a case's ``half`` is ``sealed`` when the first byte of the SHA-256 of its id is
below 0.4 × 256, else ``open``. The build is deterministic (fixed seed).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from zerolayer.benchmarks.paraphrase import golds
from zerolayer.benchmarks.paraphrase import payloads as P
from zerolayer.benchmarks.paraphrase.golds import (
    Between,
    Count,
    Exists,
    Extreme,
    Filter,
    Project,
    Sort,
    Top,
)

HERE = Path(__file__).parent
OUT = HERE / "fresh4.jsonl"
SEED = 20261208
ACTIVE_EN, ACTIVE_ZH = 19, 9

# ---------------------------------------------------------------- extra payloads

MY_JSON: list[Any] = [
    {
        "service": "notifier",
        "queue": {"name": "alerts", "durable": True, "max_length": 1000},
        "channels": ["slack", "email"],
        "owner": "ops-team",
    },
    {"名称": "订单服务", "端口": 9000, "标签": ["核心", "支付"], "启用": True},
    {
        "experiment": "checkout-button",
        "variants": [{"id": "A", "weight": 50}, {"id": "B", "weight": 50}],
        "metrics": {"primary": "conversion", "guardrail": "latency_ms"},
    },
]

MY_YAML: list[str] = [
    "database:\n  engine: postgres\n  host: db.local\n  port: 5432\n"
    "feature_flags:\n  - beta_ui\n  - fast_export\nmax_upload_mb: 25\n",
    "服务:\n  名称: 网关\n  端口: 8443\n标签:\n  - 入口\n  - 公网\n",
    "job:\n  name: nightly-backup\n  schedule: every night\n  retries: 2\n"
    "  targets:\n    - path: /var/data\n      keep: 7\n    - path: /etc\n      keep: 30\n",
]

MY_MARKDOWN: list[str] = [
    "# Changelog\n\n## 1.2.0\n\n- Added *dark mode*\n- Fixed a crash on start-up\n\n"
    "See <https://example.com/changes> for details.\n",
    "## 使用说明\n\n1. 下载安装包\n2. 双击运行\n\n> 注意：需要管理员权限。\n",
    "**Status:** green\n\nAll `12` checks passed. Next run at _midnight_.\n",
]

MY_PYTHON: list[str] = [
    "def mean(values):\n    return sum(values) / len(values)\n\n\n"
    "scores = [72, 88, 95]\nprint(mean(scores))\nprint(round(mean(scores), 1))\n",
    'inventory = {"apples": 4, "pears": 0, "plums": 7}\n'
    "in_stock = [name for name, qty in inventory.items() if qty > 0]\n"
    'print(", ".join(in_stock))\nprint(len(in_stock))\n',
]

MY_SQL: list[tuple[str, tuple[str, ...]]] = [
    ("SELECT customer, amount FROM orders WHERE region = 'EU' ORDER BY amount", ("orders",)),
    ("SELECT COUNT(*) AS n FROM orders WHERE status = 'paid'", ("orders",)),
]

# ---------------------------------------------------------------- payload properties


def _walk(value: Any) -> list[Any]:
    found = [value]
    if isinstance(value, dict):
        for v in value.values():
            found += _walk(v)
    elif isinstance(value, list):
        for v in value:
            found += _walk(v)
    return found


def _keys(value: Any) -> list[str]:
    keys: list[str] = []
    for v in _walk(value):
        if isinstance(v, dict):
            keys += list(v)
    return keys


def nested_map(doc: Any) -> bool:
    return isinstance(doc, dict) and any(isinstance(v, dict) and v for v in doc.values())


def has_list(doc: Any) -> bool:
    return any(isinstance(v, list) and v for v in _walk(doc))


def has_str(doc: Any) -> bool:
    return any(isinstance(v, str) for v in _walk(doc))


def ascii_keys(doc: Any) -> bool:
    return all(k.isascii() for k in _keys(doc)) and len(_keys(doc)) > 1


def non_ascii(doc: Any) -> bool:
    return not json.dumps(doc, ensure_ascii=False).isascii()


def always(_: Any) -> bool:
    return True


# ---------------------------------------------------------------- the pieces of a template


@dataclass
class Parts:
    family: str
    lang: str
    role: str
    task: str
    sys_task: str
    reqs: list[str]
    closing: str | None
    payload: str
    kind: str  # json yaml markdown python sql text
    label: str  # what the payload is called in a template ("JSON")
    target: str  # what the answer is called ("YAML")
    user_ask: str | None = None  # in system forms, a query the user turn carries


FENCE_LANG = {
    "json": "json",
    "yaml": "yaml",
    "markdown": "markdown",
    "python": "python",
    "sql": "sql",
    "text": "",
}
RAW_SAFE = {"json", "sql"}  # may stand unfenced before a following line of the template


def _fence(payload: str, lang: str) -> str:
    """``payload`` in a backtick fence longer than any backtick run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", payload)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{payload.rstrip()}\n{fence}"


def _sent(text: str, lang: str) -> str:
    text = text.strip()
    if lang == "zh":
        return text if text[-1:] in "。！？：" else text + "。"
    return text if text[-1:] in ".!?:" else text + "."


def _prose(p: Parts, *pieces: str | None) -> str:
    items = [_sent(x, p.lang) for x in pieces if x]
    return ("" if p.lang == "zh" else " ").join(items)


def _body(p: Parts, raw_ok: bool) -> str:
    if raw_ok:
        return p.payload.rstrip()
    return _fence(p.payload, FENCE_LANG[p.kind])


def _user_turn(p: Parts) -> str:
    """The user turn of a system-prompt form: the payload, after the query when there is one."""
    if p.user_ask is None:
        return p.payload.rstrip()
    if p.lang == "zh":
        return f"问题：{p.user_ask}\n数据：\n{p.payload.rstrip()}"
    return f"Query: {p.user_ask}\nData:\n{p.payload.rstrip()}"


Built = tuple[str | None, str]  # (system prompt, user turn)


# English forms


def f_sys_rules(p: Parts, rng: random.Random) -> Built:
    rules = [p.sys_task, *p.reqs] + ([p.closing] if p.closing else [])
    head = rng.choice(["Rules:", "Follow these rules:", "## Rules"])
    system = f"{p.role}\n\n{head}\n" + "\n".join(f"- {_sent(r, 'en')}" for r in rules)
    return system, _user_turn(p)


def f_sys_input(p: Parts, rng: random.Random) -> Built:
    system = _prose(p, p.role, p.sys_task, *p.reqs, p.closing)
    label = rng.choice(["Input:\n", "Input:\n\n"])
    if p.user_ask:
        return system, _user_turn(p)
    # a label line over Markdown would read as a paragraph of it: the Markdown is fenced
    return system, label + _body(p, p.kind != "markdown")


ALPACA = (
    "Below is an instruction that describes a task, paired with an input that provides "
    "further context. Write a response that appropriately completes the request.\n\n"
)


def f_alpaca(p: Parts, rng: random.Random) -> Built:
    pre = ALPACA if rng.random() < 0.5 else ""
    body = _body(p, p.kind != "markdown")
    ins = _prose(p, p.task, *p.reqs, p.closing)
    return None, f"{pre}### Instruction:\n{ins}\n\n### Input:\n{body}\n\n### Response:"


def f_task_io(p: Parts, rng: random.Random) -> Built:
    lines = [f"Task: {_sent(p.task, 'en')}"]
    if p.reqs:
        lines.append("Constraints: " + _prose(p, *p.reqs))
    if p.closing:
        lines.append("Format: " + _sent(p.closing, "en"))
    lines.append("Input:\n" + _body(p, p.kind in RAW_SAFE))
    lines.append("Output:")
    return None, "\n".join(lines)


XML_TAGS = {
    "json": "json",
    "yaml": "yaml",
    "markdown": "markdown",
    "python": "code",
    "sql": "sql",
    "text": "message",
}


def f_xml(p: Parts, rng: random.Random) -> Built:
    tag = XML_TAGS[p.kind] if rng.random() < 0.6 else "input"
    head = _prose(p, p.task, *p.reqs)
    text = f"{head}\n\n<{tag}>\n{p.payload.rstrip()}\n</{tag}>"
    if p.closing:
        text += "\n\n" + _sent(p.closing, p.lang)
    return None, text


def f_triple(p: Parts, rng: random.Random) -> Built:
    head = _prose(p, p.task, *p.reqs)
    text = f'{head}\n\n"""\n{p.payload.rstrip()}\n"""'
    if p.closing:
        text += "\n\n" + _sent(p.closing, p.lang)
    return None, text


def f_dashes(p: Parts, rng: random.Random) -> Built:
    head = _prose(p, p.task, *p.reqs)
    text = f"{head}\n\n---\n{p.payload.rstrip()}\n---"
    if p.closing:
        text += "\n\n" + _sent(p.closing, p.lang)
    return None, text


def f_text_quotes(p: Parts, rng: random.Random) -> Built:
    head = _prose(p, p.task, *p.reqs, p.closing)
    label = p.label if rng.random() < 0.5 else "Text"
    return None, f"{head}\n\n{label}: '''{p.payload.rstrip()}'''"


def f_sandwich(p: Parts, rng: random.Random) -> Built:
    lead = p.task if p.task.rstrip()[-1:] == "?" else p.task.rstrip(" .") + ":"
    body = _body(p, p.kind in RAW_SAFE)
    word = rng.choice(["Remember:", "Important:", "IMPORTANT:"])
    tail = _prose(p, *p.reqs, p.closing)
    return None, f"{lead}\n{body}\n{word} {tail}" if tail else f"{lead}\n{body}"


def f_requirements(p: Parts, rng: random.Random) -> Built:
    items = [*p.reqs] + ([p.closing] if p.closing else [])
    text = _sent(p.task, "en")
    if items:
        text += "\n\nRequirements:\n" + "\n".join(
            f"{i}. {x.rstrip('.')}" for i, x in enumerate(items, 1)
        )
    return None, text + "\n\n" + _fence(p.payload, FENCE_LANG[p.kind])


def _task_and_context(p: Parts) -> tuple[str, list[str]]:
    """The task with the schema of an SQL request (its first requirement) beside it, and the
    requirements left for an output section."""
    if p.family == "sql_pandas" and p.reqs:
        return _prose(p, p.task, p.reqs[0]), p.reqs[1:]
    return _sent(p.task, p.lang), p.reqs


def f_headings(p: Parts, rng: random.Random) -> Built:
    data = rng.choice(["## Data", "## Input"])
    task, reqs = _task_and_context(p)
    text = f"## Task\n{task}\n\n{data}\n{_fence(p.payload, FENCE_LANG[p.kind])}"
    tail = _prose(p, *reqs, p.closing)
    if tail:
        text += f"\n\n## Output format\n{tail}"
    return None, text


def f_special(p: Parts, rng: random.Random) -> Built:
    body = _body(p, p.kind not in ("markdown", "yaml"))
    ins = _prose(p, p.task, *p.reqs, p.closing)
    return None, f"<|task|>\n{ins}\n<|input|>\n{body}\n<|output|>"


def f_label(p: Parts, rng: random.Random) -> Built:
    """A LangChain-style template: the instruction, the payload under its name, the answer's
    name with a colon for the model to continue."""
    ins = _prose(p, p.task, *p.reqs, p.closing)
    body = _body(p, p.kind in RAW_SAFE)
    return None, f"{ins}\n\n{p.label}:\n{body}\n\n{p.target}:"


FEW_SHOT = {
    "json_yaml": ('{"name": "demo", "ports": [80, 443]}', "name: demo\nports:\n- 80\n- 443"),
    "yaml_json": ("name: demo\nports:\n  - 80\n  - 443", '{"name": "demo", "ports": [80, 443]}'),
}


def f_few_shot(p: Parts, rng: random.Random) -> Built:
    src, out = FEW_SHOT[p.family]
    if p.family == "json_yaml":
        ex = f"Input:\n{src}\nOutput:\n{out}"
        now = f"Input:\n{p.payload.rstrip()}\nOutput:"
    else:
        ex = f"Input:\n```yaml\n{src}\n```\nOutput:\n{out}"
        now = f"Input:\n{_fence(p.payload, 'yaml')}\nOutput:"
    ins = _prose(p, p.task, *p.reqs, p.closing)
    return None, f"{ins}\n\nExample\n{ex}\n\nNow the real one\n{now}"


SLASH = {"py_ts": "/to-ts", "sql_pandas": "/pandas"}


def f_slash(p: Parts, rng: random.Random) -> Built:
    cmd = SLASH.get(p.family, "/convert")
    defin = _prose(p, p.sys_task, *p.reqs, p.closing)
    system = (
        "You are an AI programming assistant inside the editor. When a message starts with a "
        f"slash command, do what the command's definition says.\n\nCommands:\n{cmd}: {defin}"
    )
    return system, f"{cmd}\n{_fence(p.payload, FENCE_LANG[p.kind])}"


# Chinese forms


def z_role(p: Parts, rng: random.Random) -> Built:
    lines = [f"角色：{p.role}", f"任务：{_sent(p.task, 'zh')}"]
    if p.reqs:
        lines.append("要求：" + "；".join(r.rstrip("。") for r in p.reqs) + "。")
    lines.append("输入：\n" + _body(p, p.kind in RAW_SAFE))
    if p.closing:
        lines.append("输出要求：" + _sent(p.closing, "zh"))
    return None, "\n".join(lines)


def z_sys(p: Parts, rng: random.Random) -> Built:
    system = _prose(p, p.role, p.sys_task, *p.reqs, p.closing)
    if p.user_ask or rng.random() < 0.5:
        return system, _user_turn(p)
    return system, "输入：\n" + _body(p, p.kind != "markdown")


def z_alpaca(p: Parts, rng: random.Random) -> Built:
    body = _body(p, p.kind != "markdown")
    ins = _prose(p, p.task, *p.reqs, p.closing)
    return None, f"### 指令：\n{ins}\n\n### 输入：\n{body}\n\n### 回答："


def z_headings(p: Parts, rng: random.Random) -> Built:
    task, reqs = _task_and_context(p)
    text = f"## 任务\n{task}\n\n## 数据\n{_fence(p.payload, FENCE_LANG[p.kind])}"
    tail = _prose(p, *reqs, p.closing)
    if tail:
        text += f"\n\n## 输出格式\n{tail}"
    return None, text


def z_requirements(p: Parts, rng: random.Random) -> Built:
    items = [*p.reqs] + ([p.closing] if p.closing else [])
    text = _sent(p.task, "zh")
    if items:
        text += "\n要求：\n" + "\n".join(f"{i}. {x}" for i, x in enumerate(items, 1))
    return None, text + "\n\n" + _fence(p.payload, FENCE_LANG[p.kind])


def z_xml(p: Parts, rng: random.Random) -> Built:
    head = _prose(p, p.task, *p.reqs)
    text = f"{head}\n<input>\n{p.payload.rstrip()}\n</input>"
    if p.closing:
        text += "\n" + _sent(p.closing, "zh")
    return None, text


def z_triple(p: Parts, rng: random.Random) -> Built:
    head = _prose(p, p.task, *p.reqs, p.closing)
    return None, f'{head}\n"""\n{p.payload.rstrip()}\n"""'


def z_sandwich(p: Parts, rng: random.Random) -> Built:
    lead = p.task if p.task.rstrip()[-1:] == "？" else p.task.rstrip("。") + "："
    body = _body(p, p.kind in RAW_SAFE)
    tail = _prose(p, *p.reqs, p.closing)
    return None, f"{lead}\n{body}\n注意：{tail}" if tail else f"{lead}\n{body}"


Form = Callable[[Parts, random.Random], Built]

EN_FORMS: dict[str, Form] = {
    "sys_rules": f_sys_rules,
    "sys_input": f_sys_input,
    "alpaca": f_alpaca,
    "task_io": f_task_io,
    "xml": f_xml,
    "triple_quote": f_triple,
    "dashes": f_dashes,
    "text_quotes": f_text_quotes,
    "sandwich": f_sandwich,
    "requirements": f_requirements,
    "headings": f_headings,
    "special_tokens": f_special,
    "label_line": f_label,
    "few_shot": f_few_shot,
    "slash": f_slash,
}
ZH_FORMS: dict[str, Form] = {
    "zh_role": z_role,
    "zh_sys": z_sys,
    "zh_alpaca": z_alpaca,
    "zh_headings": z_headings,
    "zh_requirements": z_requirements,
    "zh_xml": z_xml,
    "zh_triple": z_triple,
    "zh_sandwich": z_sandwich,
}


def forms_for(family: str, lang: str, active: bool) -> list[str]:
    names = list(EN_FORMS if lang == "en" else ZH_FORMS)
    out = []
    for n in names:
        if n == "few_shot" and (family not in FEW_SHOT or not active):
            continue
        if n == "slash" and family not in SLASH:
            continue
        if n == "dashes" and family == "markdown_html":  # a line of dashes is Markdown too
            continue
        out.append(n)
    return out


# ---------------------------------------------------------------- family wordings


@dataclass(frozen=True)
class Opt:
    key: str
    group: str
    en: str
    zh: str
    options: dict[str, Any]
    fits: Callable[[Any], bool] = always


@dataclass
class Family:
    name: str
    abbr: str
    kind: str
    label: str
    target: str
    roles: dict[str, list[str]]
    tasks: dict[str, list[str]]
    sys_tasks: dict[str, list[str]]
    closings: dict[str, list[str]]
    opts: list[Opt] = field(default_factory=list)


JSON_YAML = Family(
    "json_yaml",
    "jy",
    "json",
    "JSON",
    "YAML",
    roles={
        "en": [
            "You are a data-format converter.",
            "You are YAMLify, a precise JSON-to-YAML conversion tool.",
            "You are a DevOps assistant that converts configuration files.",
        ],
        "zh": ["你是一个数据格式转换工具。", "你是一名严谨的配置文件转换助手。"],
    },
    tasks={
        "en": [
            "Convert the following JSON to YAML.",
            "Transform this JSON object into YAML.",
            "Rewrite the JSON below as an equivalent YAML document.",
            "Turn this JSON config into YAML.",
            "Express the given JSON data in YAML format.",
            "Change the format of the input from JSON to YAML.",
        ],
        "zh": [
            "将下面的JSON转换为YAML。",
            "把这段JSON数据转成YAML格式。",
            "请把输入的JSON改写成等价的YAML。",
            "把JSON格式的配置转换为YAML格式。",
        ],
    },
    sys_tasks={
        "en": [
            "Convert every JSON document the user sends into YAML.",
            "The user will paste JSON; reply with the same data as YAML.",
            "Translate the JSON input into YAML.",
        ],
        "zh": ["把用户发来的JSON转换成YAML。", "将用户输入的JSON数据转换为YAML格式。"],
    },
    closings={
        "en": [
            "Output only the YAML, with no explanations.",
            "Return only the converted document.",
            "Respond with the YAML and nothing else.",
            "Do not add any commentary.",
            "Reply with a single YAML code block.",
        ],
        "zh": ["只输出YAML，不要任何解释。", "直接返回转换结果，不要附加说明。", "仅输出结果。"],
    },
    opts=[
        Opt(
            "indent4",
            "indent",
            "Use 4-space indentation.",
            "使用4个空格缩进。",
            {"indent": 4},
            nested_map,
        ),
        Opt(
            "indent2",
            "indent",
            "Indent with 2 spaces.",
            "缩进为2个空格。",
            {"indent": 2},
            nested_map,
        ),
        Opt(
            "sort",
            "order",
            "Sort keys alphabetically at every level.",
            "所有层级的键按字母顺序排列。",
            {"sort_keys": True},
            ascii_keys,
        ),
        Opt("keep", "order", "Keep the original key order.", "保持原有的键顺序。", {}),
        Opt(
            "dq",
            "quote",
            "Put every string value in double quotes.",
            "所有字符串值都用双引号括起来。",
            {"quote": "double"},
            has_str,
        ),
        Opt(
            "sq",
            "quote",
            "Use single quotes for all string values.",
            "字符串值一律使用单引号。",
            {"quote": "single"},
            has_str,
        ),
        Opt(
            "flow",
            "seq",
            "Write lists in flow style, like [a, b].",
            "列表采用行内（flow）写法，例如 [a, b]。",
            {"seq_style": "flow"},
            has_list,
        ),
        Opt(
            "block",
            "seq",
            "Write lists in block style, one '- ' item per line.",
            "列表使用块样式，每项单独一行，以“- ”开头。",
            {"seq_style": "block"},
            has_list,
        ),
    ],
)

YAML_JSON = Family(
    "yaml_json",
    "yj",
    "yaml",
    "YAML",
    "JSON",
    roles={
        "en": [
            "You are a configuration format converter.",
            "You are JSONify, a tool that converts YAML into JSON.",
            "You are a backend engineer's assistant.",
        ],
        "zh": ["你是一个配置格式转换器。", "你是一名后端开发助手。"],
    },
    tasks={
        "en": [
            "Convert the following YAML to JSON.",
            "Turn this YAML into JSON.",
            "Rewrite the YAML document below as JSON.",
            "Transform the YAML config into a JSON object.",
            "Parse this YAML and output it as JSON.",
        ],
        "zh": [
            "把下面的YAML转换成JSON。",
            "将这段YAML配置转为JSON格式。",
            "请把输入的YAML改写为JSON。",
        ],
    },
    sys_tasks={
        "en": [
            "Convert any YAML the user provides into JSON.",
            "The user supplies YAML; answer with the equivalent JSON.",
        ],
        "zh": ["将用户提供的YAML转换为JSON。", "把用户输入的YAML转成JSON格式。"],
    },
    closings={
        "en": [
            "Output only the JSON.",
            "Return valid JSON and nothing else.",
            "No explanations, just the JSON.",
            "Do not include any text outside the JSON.",
        ],
        "zh": ["只输出JSON。", "只返回JSON，不要解释。", "不要输出任何多余的文字。"],
    },
    opts=[
        Opt(
            "i2",
            "fmt",
            "Pretty-print it with 2-space indentation.",
            "使用2个空格缩进进行格式化。",
            {"indent": 2},
        ),
        Opt("i4", "fmt", "Indent with 4 spaces.", "缩进4个空格。", {"indent": 4}),
        Opt("min", "fmt", "Minify it onto a single line.", "压缩成一行。", {"single_line": True}),
        Opt(
            "sort",
            "order",
            "Sort the object keys alphabetically.",
            "对象的键按字母顺序排序。",
            {"sort_keys": True},
            ascii_keys,
        ),
        Opt(
            "lit",
            "ascii",
            "Keep non-ASCII characters as they are, without \\u escapes.",
            "中文字符原样保留，不要转义成\\u形式。",
            {"ensure_ascii": False},
            non_ascii,
        ),
        Opt(
            "esc",
            "ascii",
            "Escape every non-ASCII character as a \\uXXXX sequence.",
            "所有非ASCII字符都转义为\\uXXXX。",
            {"ascii_only": True},
            non_ascii,
        ),
    ],
)


def _is_table_doc(doc: str) -> bool:
    return doc in P.MARKDOWN_TABLE_DOCS


MARKDOWN_HTML = Family(
    "markdown_html",
    "md",
    "markdown",
    "Markdown",
    "HTML",
    roles={
        "en": [
            "You are a Markdown rendering service.",
            "You are a documentation build assistant.",
        ],
        "zh": ["你是一个Markdown渲染服务。", "你是一名文档排版助手。"],
    },
    tasks={
        "en": [
            "Convert the following Markdown to HTML.",
            "Render this Markdown as HTML.",
            "Turn the Markdown below into HTML markup.",
            "Transform the Markdown text into HTML.",
        ],
        "zh": [
            "把下面的Markdown转换成HTML。",
            "将这段Markdown渲染为HTML。",
            "请把输入的Markdown转为HTML代码。",
        ],
    },
    sys_tasks={
        "en": [
            "Convert the Markdown the user sends into HTML.",
            "Render the user's Markdown input as HTML.",
        ],
        "zh": ["把用户输入的Markdown转换为HTML。"],
    },
    closings={
        "en": ["Output only the HTML.", "Return the HTML and nothing else.", "No explanations."],
        "zh": ["只输出HTML代码。", "不要解释。", "只返回HTML。"],
    },
    opts=[
        Opt(
            "gfm",
            "dialect",
            "Use GitHub-flavored Markdown, so pipe tables become <table> elements.",
            "按GitHub风格（GFM）解析，表格要转换成<table>。",
            {},
            _is_table_doc,
        ),
        Opt(
            "cm",
            "dialect",
            "Follow the CommonMark spec.",
            "按CommonMark规范转换。",
            {},
            lambda d: not _is_table_doc(d),
        ),
        Opt(
            "fragment",
            "wrap",
            "Return only the HTML fragment, without <html> or <body> tags.",
            "只输出HTML片段，不要<html>和<body>标签。",
            {},
        ),
    ],
)


def _simple_where(q: tuple[str, tuple[str, ...]]) -> bool:
    sql, tables = q
    return " WHERE " in sql and len(tables) == 1 and " LIKE " not in sql and "COUNT(" not in sql


SQL_PANDAS = Family(
    "sql_pandas",
    "sp",
    "sql",
    "SQL",
    "pandas",
    roles={
        "en": [
            "You are a data engineer who translates SQL into pandas.",
            "You are a Python data assistant.",
        ],
        "zh": ["你是一名把SQL翻译成pandas的数据工程师。", "你是一个Python数据分析助手。"],
    },
    tasks={
        "en": [
            "Translate the SQL query below into pandas code.",
            "Rewrite this SQL query using pandas.",
            "Convert the following SQL to equivalent pandas.",
            "Express this SQL statement as pandas operations.",
        ],
        "zh": [
            "把下面的SQL查询翻译成pandas代码。",
            "将这条SQL改写为pandas实现。",
            "请用pandas实现下面这条SQL。",
        ],
    },
    sys_tasks={
        "en": ["Convert the SQL query the user sends into pandas code."],
        "zh": ["把用户给出的SQL语句转换为等价的pandas代码。"],
    },
    closings={
        "en": ["Output only the code.", "Return only Python code, no explanation."],
        "zh": ["只输出代码。", "不要解释，直接给代码。"],
    },
    opts=[
        Opt(
            "result",
            "result",
            "Assign the final result to a variable named result.",
            "最终结果赋值给变量result。",
            {},
        ),
        Opt(
            "query",
            "filter",
            "Use DataFrame.query() for the filtering.",
            "过滤条件请用DataFrame.query()实现。",
            {"uses_query": True},
            _simple_where,
        ),
        Opt(
            "pd", "import", "Assume pandas is imported as pd.", "假设已经import pandas as pd。", {}
        ),
    ],
)


def _has_def(src: str) -> bool:
    return "def " in src or "class " in src


PY_TS = Family(
    "py_ts",
    "pt",
    "python",
    "Python",
    "TypeScript",
    roles={
        "en": ["You are an expert polyglot programmer.", "You are a code migration assistant."],
        "zh": ["你是一名精通多种语言的程序员。", "你是一个代码迁移助手。"],
    },
    tasks={
        "en": [
            "Translate the following Python code to TypeScript.",
            "Port this Python script to TypeScript.",
            "Convert the Python program below into TypeScript.",
            "Rewrite this Python code in TypeScript.",
        ],
        "zh": [
            "把下面的Python代码翻译成TypeScript。",
            "将这段Python程序改写为TypeScript。",
            "请把输入的Python脚本转换成TypeScript。",
        ],
    },
    sys_tasks={
        "en": ["Translate the Python code the user sends into TypeScript."],
        "zh": ["将用户提交的Python代码转换为TypeScript。"],
    },
    closings={
        "en": ["Output only the TypeScript code.", "Return the code only, no explanations."],
        "zh": ["只输出TypeScript代码。", "只给代码，不要解释。"],
    },
    opts=[
        Opt(
            "jsdoc",
            "doc",
            "Add JSDoc comments to the functions.",
            "为函数添加JSDoc注释。",
            {"jsdoc": True},
            _has_def,
        ),
        Opt(
            "same",
            "same",
            "The program must print exactly the same output.",
            "输出结果必须与原程序完全一致。",
            {},
        ),
        Opt("log", "log", "Use console.log for printing.", "使用console.log输出。", {}),
    ],
)

JSON_QUERY = Family(
    "json_query",
    "jq",
    "json",
    "JSON",
    "Result",
    roles={
        "en": ["You are a JSON query engine.", "You are a data assistant working on JSON records."],
        "zh": ["你是一个JSON数据查询助手。", "你是一名数据处理助手。"],
    },
    tasks={},
    sys_tasks={
        "en": ["Apply the user's query to the JSON records and return the exact result."],
        "zh": ["对用户给出的JSON记录执行查询，返回准确的结果。"],
    },
    closings={
        "en": ["Return the result as a JSON array.", "Output JSON only."],
        "zh": ["以JSON数组返回结果。", "只输出JSON。"],
    },
)

FAMILIES = [JSON_YAML, YAML_JSON, MARKDOWN_HTML, SQL_PANDAS, PY_TS, JSON_QUERY]

# ---------------------------------------------------------------- JSON queries


@dataclass(frozen=True)
class QueryAsk:
    lang: str
    data: str
    text: str
    ops: tuple[Any, ...]
    scalar: bool = False  # the ask states its own answer format


QUERY_ASKS: list[QueryAsk] = [
    QueryAsk(
        "en", "employees", "Sort the records by salary, highest first.", (Sort("salary", True),)
    ),
    QueryAsk(
        "en", "employees", "Keep only the employees older than 35.", (Filter("age", ">", 35),)
    ),
    QueryAsk(
        "en",
        "employees",
        "Project each record to just its name and dept fields.",
        (Project(("name", "dept")),),
    ),
    QueryAsk("en", "employees", "Return the 2 highest-paid employees.", (Top(2, "salary", True),)),
    QueryAsk(
        "en",
        "employees",
        "How many employees work in the Engineering department? Answer with the number only.",
        (Filter("dept", "==", "Engineering"), Count()),
        True,
    ),
    QueryAsk(
        "en",
        "employees",
        "What is the highest age in the list? Answer with just the number.",
        (Extreme("age", True),),
        True,
    ),
    QueryAsk(
        "en",
        "employees",
        "Select the employees whose salary is between 70000 and 100000, inclusive.",
        (Between("salary", 70000, 100000),),
    ),
    QueryAsk(
        "en",
        "employees",
        "Filter to the Sales department and keep only the name and salary fields.",
        (Filter("dept", "==", "Sales"), Project(("name", "salary"))),
    ),
    QueryAsk(
        "en", "products", "Sort the products by price in ascending order.", (Sort("price", False),)
    ),
    QueryAsk(
        "en",
        "products",
        "Which products have fewer than 20 units in stock? Return the full records.",
        (Filter("stock", "<", 20),),
    ),
    QueryAsk(
        "en",
        "products",
        "Count the products priced above 100. Reply with a single number.",
        (Filter("price", ">", 100), Count()),
        True,
    ),
    QueryAsk(
        "en", "products", "Return the 3 products with the most stock.", (Top(3, "stock", True),)
    ),
    QueryAsk(
        "en",
        "products",
        "What is the lowest price in the list? Output only the number.",
        (Extreme("price", False),),
        True,
    ),
    QueryAsk(
        "en",
        "flights",
        "Order the flights by duration in hours, shortest first.",
        (Sort("hours", False),),
    ),
    QueryAsk(
        "en",
        "flights",
        "List only the flights that cost less than 600.",
        (Filter("price", "<", 600),),
    ),
    QueryAsk(
        "en", "flights", "Reduce each flight to its code and price.", (Project(("code", "price")),)
    ),
    QueryAsk(
        "en",
        "cities",
        "Sort the cities by population, largest first, and keep only name and population.",
        (Sort("population", True), Project(("name", "population"))),
    ),
    QueryAsk(
        "en", "cities", "Give me the 2 least populated cities.", (Top(2, "population", False),)
    ),
    QueryAsk(
        "en",
        "cities",
        "Is there any city with a population above 20000000? Answer true or false.",
        (Exists("population", ">", 20000000),),
        True,
    ),
    QueryAsk("zh", "employees", "按年龄从小到大排序。", (Sort("age", False),)),
    QueryAsk("zh", "employees", "筛选出薪资高于100000的员工。", (Filter("salary", ">", 100000),)),
    QueryAsk("zh", "products", "只保留每条记录的name和stock字段。", (Project(("name", "stock")),)),
    QueryAsk(
        "zh",
        "products",
        "是否存在库存少于10的商品？只回答true或false。",
        (Exists("stock", "<", 10),),
        True,
    ),
    QueryAsk("zh", "flights", "按价格从高到低排序。", (Sort("price", True),)),
    QueryAsk(
        "zh",
        "flights",
        "飞行时间超过8.4小时的航班有几个？只回答数字。",
        (Filter("hours", ">", 8.4), Count()),
        True,
    ),
    QueryAsk("zh", "cities", "找出人口最多的3个城市。", (Top(3, "population", True),)),
    QueryAsk(
        "zh",
        "cities",
        "人口超过10000000的城市有多少个？只输出数字。",
        (Filter("population", ">", 10000000), Count()),
        True,
    ),
    QueryAsk(
        "zh",
        "cities",
        "按population升序排列，并且只保留name和population字段。",
        (Sort("population", False), Project(("name", "population"))),
    ),
]

# ---------------------------------------------------------------- negatives


@dataclass(frozen=True)
class Neg:
    lang: str
    phrase: str
    text: str
    why: str
    payload: str | None = None  # a payload of its own (a message quoting a request)
    data: str | None = None  # json_query: the record set


GENERIC_ROLES = {
    "en": [
        "You are a helpful assistant.",
        "You are the support assistant of a developer-tools company.",
    ],
    "zh": ["你是一个乐于助人的助手。", "你是一家开发者工具公司的客服助手。"],
}

_EX_JSON = json.dumps(P.JSON_DOCS[0])
_EX_YAML = P.YAML_DOCS[2].rstrip()

NEGATIVES: dict[str, list[Neg]] = {
    "json_yaml": [
        Neg(
            "en", "explain", "Explain what each field in this JSON configuration is for.", "explain"
        ),
        Neg(
            "en",
            "plus_comments",
            "Convert this JSON to YAML and add a comment above every key describing what it does.",
            "conversion plus an open ask (comments)",
        ),
        Neg(
            "en",
            "valid",
            "Is this valid JSON? If it is not, point out the errors.",
            "validity question",
        ),
        Neg(
            "en",
            "review",
            "Review this configuration for security issues and list your findings.",
            "review",
        ),
        Neg(
            "en",
            "translate",
            "Translate all string values in this JSON into French, then output it as YAML.",
            "translation of values",
        ),
        Neg(
            "en",
            "vague",
            "Convert this into a more readable format of your choice.",
            "vague target",
        ),
        Neg("en", "creative", "Write a short limerick about this config.", "creative ask"),
        Neg(
            "en",
            "quoted",
            "Classify the customer's message as one of: question, bug_report, feature_request. "
            "Reply with the label only.",
            "a conversion request quoted inside a classification task",
            payload=f"Hi team, please convert this JSON to YAML for me: {_EX_JSON}",
        ),
        Neg("zh", "explain", "解释一下这个JSON中每个字段的含义。", "explain"),
        Neg(
            "zh",
            "plus_comments",
            "把这个JSON转成YAML，并给每个字段加上中文注释说明用途。",
            "conversion plus an open ask (comments)",
        ),
        Neg("zh", "valid", "帮我看看这个JSON格式对不对。", "validity question"),
        Neg(
            "zh",
            "improve",
            "把这份配置改得更合理一些，再用YAML输出。",
            "open rewrite before converting",
        ),
    ],
    "yaml_json": [
        Neg("en", "explain", "Describe what this configuration does in plain English.", "explain"),
        Neg("en", "fix", "Find and fix any mistakes in this YAML.", "fix"),
        Neg(
            "en",
            "plus_schema",
            "Convert this YAML to JSON and also write a JSON Schema that validates it.",
            "conversion plus an open ask (schema)",
        ),
        Neg(
            "en",
            "defaults",
            "Convert this YAML to JSON, filling in sensible defaults for any settings that "
            "are missing.",
            "conversion plus invented content",
        ),
        Neg(
            "en",
            "valid",
            "Is this YAML valid? Answer yes or no and explain why.",
            "validity question",
        ),
        Neg("en", "summarise", "Summarise this YAML file in one paragraph.", "summarise"),
        Neg(
            "en",
            "translate",
            "Translate the values in this YAML into French and give me JSON.",
            "translation",
        ),
        Neg(
            "en",
            "quoted",
            "Write a polite reply to the customer ticket below.",
            "a conversion request quoted inside a reply-writing task",
            payload=f"Hi, your converter keeps failing. I need this YAML turned into JSON:\n"
            f"{_EX_YAML}\nThanks, Priya",
        ),
        Neg("zh", "security", "这份YAML配置有什么安全隐患？", "review"),
        Neg(
            "zh",
            "plus_explain",
            "把YAML转换为JSON，并逐项说明每个字段的作用。",
            "conversion plus explain",
        ),
        Neg("zh", "optimize", "帮我优化一下这个配置文件。", "open rewrite"),
        Neg(
            "zh",
            "quoted",
            "把下面这段用户反馈翻译成英文。",
            "a conversion request quoted inside a translation task",
            payload=f"请把这段YAML转换成JSON，谢谢：\n{_EX_YAML}",
        ),
    ],
    "markdown_html": [
        Neg(
            "en",
            "proofread",
            "Proofread this Markdown and correct any spelling or grammar mistakes.",
            "proofread",
        ),
        Neg(
            "en",
            "plus_css",
            "Convert this Markdown to HTML and add CSS so the page looks modern.",
            "conversion plus an open ask (styling)",
        ),
        Neg("en", "summarise", "Summarise the following document in two sentences.", "summarise"),
        Neg(
            "en",
            "translate",
            "Translate this Markdown document into French, keeping the formatting.",
            "translation",
        ),
        Neg("en", "vague", "Make this look nicer.", "vague target"),
        Neg("en", "creative", "Expand these notes into a full blog post.", "creative ask"),
        Neg(
            "en",
            "valid",
            "Is this valid Markdown? Tell me if anything will render incorrectly.",
            "validity question",
        ),
        Neg(
            "en",
            "quoted",
            "Reply to the following chat message in a friendly tone.",
            "a conversion request quoted inside a reply task",
            payload="hey, can you render this markdown as html for me?\n\n# Hi there\n\nthanks!",
        ),
        Neg("zh", "translate", "把这段Markdown翻译成英文。", "translation"),
        Neg("zh", "polish", "润色一下这段文字，让它更专业。", "polish"),
        Neg(
            "zh",
            "plus_style",
            "把Markdown转成HTML，并加上好看的页面样式。",
            "conversion plus styling",
        ),
        Neg("zh", "summarise", "总结一下这份文档的要点。", "summarise"),
    ],
    "sql_pandas": [
        Neg("en", "explain", "Explain what this SQL query does, step by step.", "explain"),
        Neg(
            "en",
            "slow",
            "Why might this query be slow? Suggest indexes that would help.",
            "why slow",
        ),
        Neg("en", "optimise", "Optimise this SQL query.", "optimise"),
        Neg("en", "correct", "Is this SQL query correct?", "validity question"),
        Neg(
            "en",
            "plus_explain",
            "Convert this SQL to pandas and explain each line of the code.",
            "conversion plus explain",
        ),
        Neg("en", "vague", "Rewrite this query in whatever way runs fastest.", "vague target"),
        Neg(
            "en",
            "open",
            "Using the same tables, write a query that finds our most valuable customers.",
            "open ask (what is valuable)",
        ),
        Neg(
            "en",
            "quoted",
            "Classify the developer question below as one of: pandas, sql, other. "
            "Reply with the label only.",
            "a conversion request quoted inside a classification task",
            payload="How do I turn SELECT customer, amount FROM orders WHERE amount > 100 "
            "into pandas?",
        ),
        Neg("zh", "explain", "解释这条SQL语句的含义。", "explain"),
        Neg("zh", "perf", "这条SQL有没有性能问题？", "why slow"),
        Neg(
            "zh",
            "plus_comments",
            "把SQL转换成pandas代码，并加上详细注释解释每一步。",
            "conversion plus explain",
        ),
        Neg("zh", "design", "根据这个查询帮我设计一个合适的索引方案。", "open design"),
    ],
    "py_ts": [
        Neg("en", "review", "Review this Python code and suggest improvements.", "review"),
        Neg("en", "fix", "Find and fix the bug in this code.", "fix"),
        Neg("en", "explain", "Explain what this script prints and why.", "explain"),
        Neg(
            "en",
            "plus_tests",
            "Translate this to TypeScript and add Jest unit tests for every function.",
            "conversion plus an open ask (tests)",
        ),
        Neg("en", "docstrings", "Add docstrings to every function in this code.", "open edit"),
        Neg(
            "en",
            "refactor",
            "Convert this to TypeScript and refactor it to be more idiomatic and object-oriented.",
            "conversion plus refactor",
        ),
        Neg("en", "vague", "Rewrite this in a better language.", "vague target"),
        Neg(
            "en",
            "quoted",
            "Summarise the following Slack message in one line.",
            "a conversion request quoted inside a summary task",
            payload="@dev could someone translate this Python to TypeScript before Friday?\n\n"
            "def double(x):\n    return x * 2\n\nprint(double(21))",
        ),
        Neg("zh", "explain", "解释一下这段Python代码。", "explain"),
        Neg("zh", "optimize", "这段代码有哪些可以优化的地方？", "optimise"),
        Neg(
            "zh",
            "plus_tests",
            "把这段Python翻译成TypeScript，并补充完整的单元测试。",
            "conversion plus tests",
        ),
        Neg("zh", "comments", "把代码里的注释和字符串翻译成中文。", "translation"),
    ],
    "json_query": [
        Neg(
            "en",
            "opinion",
            "Which of these employees deserves a promotion?",
            "opinion",
            data="employees",
        ),
        Neg(
            "en",
            "predict",
            "Sort these products by how popular they will be next year.",
            "prediction",
            data="products",
        ),
        Neg(
            "en",
            "vague",
            "Roughly how many cities have about 10 million people?",
            "vague quantity",
            data="cities",
        ),
        Neg(
            "en",
            "analyse",
            "Analyse the salary distribution and point out anything unusual.",
            "analysis",
            data="employees",
        ),
        Neg(
            "en",
            "plus_pick",
            "Sort the flights by price and tell me which one you would book and why.",
            "query plus an opinion",
            data="flights",
        ),
        Neg(
            "en",
            "generate",
            "Generate five more records in the same shape.",
            "creative",
            data="products",
        ),
        Neg(
            "en",
            "translate",
            "Translate the product names into French.",
            "translation",
            data="products",
        ),
        Neg(
            "en",
            "valid",
            "Is this JSON array well-formed? Explain any problems.",
            "validity",
            data="flights",
        ),
        Neg("zh", "travel", "这些城市中哪个最适合旅游？", "opinion", data="cities"),
        Neg("zh", "fair", "分析一下这些员工的薪资结构是否合理。", "analysis", data="employees"),
        Neg("zh", "advice", "按价格排序，并给出购买建议。", "query plus advice", data="flights"),
        Neg("zh", "vague", "大概有几个城市人口在一千万左右？", "vague quantity", data="cities"),
    ],
}

# ---------------------------------------------------------------- payload pools and golds


def _schema(tables: tuple[str, ...], lang: str) -> str:
    desc = ", ".join(f"{t}({', '.join(P.SQL_TABLES[t]['columns'])})" for t in tables)
    if lang == "zh":
        return f"每张表都是同名的DataFrame：{desc}。"
    return f"Each table is a pandas DataFrame of the same name: {desc}."


def _render_json(doc: Any, rng: random.Random) -> str:
    if rng.random() < 0.25:
        return json.dumps(doc, ensure_ascii=False)
    return json.dumps(doc, ensure_ascii=False, indent=2)


def _render_records(records: list[dict[str, Any]], rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "[\n" + ",\n".join("  " + json.dumps(r) for r in records) + "\n]"
    return json.dumps(records, indent=2)


def _pool(family: str) -> list[Any]:
    if family == "json_yaml":
        return [*P.JSON_DOCS, *MY_JSON]
    if family == "yaml_json":
        return [*P.YAML_DOCS, *MY_YAML]
    if family == "markdown_html":
        return [*P.MARKDOWN_DOCS, *MY_MARKDOWN, *P.MARKDOWN_TABLE_DOCS]
    if family == "sql_pandas":
        return [*P.SQL_QUERIES, *MY_SQL]
    if family == "py_ts":
        return [*P.PYTHON_PROGRAMS, *MY_PYTHON]
    raise KeyError(family)


def _fit_value(family: str, item: Any) -> Any:
    """What the options' predicates look at."""
    if family == "yaml_json":
        return golds.yaml_load(item)
    return item


def _payload_text(family: str, item: Any, rng: random.Random) -> str:
    if family == "json_yaml":
        return _render_json(item, rng)
    if family == "sql_pandas":
        return item[0]
    return item


def _gold(family: str, item: Any, chosen: list[Opt]) -> tuple[str, Any]:
    if family == "json_yaml":
        return "yaml_equals", item
    if family == "yaml_json":
        return "json_equals", golds.yaml_load(item)
    if family == "markdown_html":
        return "html_equals", golds.markdown_html(item, tables=any(o.key == "gfm" for o in chosen))
    if family == "sql_pandas":
        sql, tables = item
        return "pandas_equals", {"tables": {t: P.SQL_TABLES[t] for t in tables}, "sql": sql}
    if family == "py_ts":
        return "ts_stdout", golds.python_stdout(item)
    raise KeyError(family)


def _draw_opts(fam: Family, value: Any, rng: random.Random) -> list[Opt]:
    fitting = [o for o in fam.opts if o.fits(value)]
    need = [o for o in fitting if o.key == "gfm"]  # a table document is asked for with tables
    r = rng.random()
    n = 0 if r < 0.3 else 1 if r < 0.7 else 2
    rng.shuffle(fitting)
    chosen: list[Opt] = list(need)
    for o in fitting:
        if len(chosen) >= max(n, len(need)):
            break
        if o in chosen or any(c.group == o.group for c in chosen):
            continue
        chosen.append(o)
    return chosen


# ---------------------------------------------------------------- composing the cases


def _half(case_id: str) -> str:
    if case_id in READ:
        return "open"
    return "sealed" if hashlib.sha256(case_id.encode()).digest()[0] < 0.4 * 256 else "open"


# Sealed cases read to fix a wrong answer of the engine's, and so no longer sealed.
READ = {
    "f4-jy-009": "read on 2026-12-08 to fix its false error (a few-shot example before the data)",
    "f4-sp-005": "read on 2026-12-08 to fix its false error (a paragraph of rules under SQL)",
}


def _variant(system: str | None, user: str, rng: random.Random) -> tuple[str | None, str, str]:
    """CRLF line endings or trailing whitespace on some messages (only outside payloads that
    the whitespace could change: a trailing blank line and spaces after the last line)."""
    r = rng.random()
    if r < 0.12:
        crlf = "\r\n".join
        return (crlf(system.split("\n")) if system else None), crlf(user.split("\n")), "+crlf"
    if r < 0.22:
        return system, user + "\n\n  ", "+trailing_ws"
    return system, user, ""


def _case(
    fam: Family,
    n: int,
    lang: str,
    form: str,
    parts: Parts,
    rng: random.Random,
    expect: dict[str, Any],
    phrase: str,
    why: str | None = None,
) -> dict[str, Any]:
    fn = (EN_FORMS if lang == "en" else ZH_FORMS)[form]
    system, user = fn(parts, rng)
    system, user, suffix = _variant(system, user, rng)
    case_id = f"f4-{fam.abbr}-{n:03d}"
    request: dict[str, Any] = {"model": "any", "max_tokens": 2048, "temperature": 0}
    if system:
        request["system"] = system
    request["messages"] = [{"role": "user", "content": user}]
    case: dict[str, Any] = {
        "id": case_id,
        "category": fam.name,
        "lang": lang,
        "request": request,
        "headers": {},
        "expect": expect,
        "form": form + suffix,
        "phrase": phrase,
        "half": _half(case_id),
        **({"read": READ[case_id]} if case_id in READ else {}),
    }
    if why:
        case["why"] = why
    return case


class Cycle:
    """Items in a shuffled order, reshuffled each time round."""

    def __init__(self, items: list[Any], rng: random.Random) -> None:
        self.items = list(items)
        self.rng = rng
        self.queue: list[Any] = []

    def next(self) -> Any:
        if not self.queue:
            self.queue = list(self.items)
            self.rng.shuffle(self.queue)
        return self.queue.pop()


def _base_parts(fam: Family, lang: str, rng: random.Random) -> dict[str, Any]:
    return {
        "family": fam.name,
        "lang": lang,
        "role": rng.choice(fam.roles[lang]),
        "sys_task": rng.choice(fam.sys_tasks[lang]),
        "label": fam.label,
        "target": fam.target,
    }


def build_converter(fam: Family, rng: random.Random) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    pool = Cycle(_pool(fam.name), rng)
    n = 0
    for lang, count in (("en", ACTIVE_EN), ("zh", ACTIVE_ZH)):
        forms = Cycle(forms_for(fam.name, lang, True), rng)
        tasks = Cycle(list(enumerate(fam.tasks[lang])), rng)
        for _ in range(count):
            n += 1
            item = pool.next()
            form = forms.next()
            ti, task = tasks.next()
            chosen = [] if form == "few_shot" else _draw_opts(fam, _fit_value(fam.name, item), rng)
            reqs = [getattr(o, lang) for o in chosen]
            if fam.name == "sql_pandas":
                reqs.insert(0, _schema(item[1], lang))
            closing = rng.choice(fam.closings[lang]) if rng.random() < 0.75 else None
            if form in ("sandwich", "zh_sandwich", "zh_role") and not closing:
                closing = rng.choice(fam.closings[lang])
            check, gold = _gold(fam.name, item, chosen)
            options: dict[str, Any] = {}
            for o in chosen:
                options.update(o.options)
            parts = Parts(
                **_base_parts(fam, lang, rng),
                task=task,
                reqs=reqs,
                closing=closing,
                payload=_payload_text(fam.name, item, rng),
                kind=fam.kind,
            )
            expect = {"route": "zero", "check": check, "gold": gold, "options": options}
            phrase = f"{lang}-task{ti}" + "".join(f"+{o.key}" for o in chosen)
            cases.append(_case(fam, n, lang, form, parts, rng, expect, phrase))
    cases += build_negatives(fam, rng, n, pool)
    return cases


def build_negatives(
    fam: Family, rng: random.Random, n: int, pool: Cycle | None
) -> list[dict[str, Any]]:
    cases = []
    forms = {lang: Cycle(forms_for(fam.name, lang, False), rng) for lang in ("en", "zh")}
    for neg in NEGATIVES[fam.name]:
        n += 1
        form = forms[neg.lang].next()
        user_ask = None
        sys_task = neg.text
        reqs: list[str] = []
        if neg.payload is not None:
            payload, kind, label = neg.payload, "text", "Message"
        elif fam.name == "json_query":
            payload = _render_records(P.RECORD_SETS[neg.data or "employees"], rng)
            kind, label = "json", "JSON"
            if form in ("sys_rules", "sys_input", "zh_sys"):
                user_ask, sys_task = neg.text, rng.choice(fam.sys_tasks[neg.lang])
        else:
            assert pool is not None
            item = pool.next()
            payload, kind, label = _payload_text(fam.name, item, rng), fam.kind, fam.label
            if fam.name == "sql_pandas":
                reqs = [_schema(item[1], neg.lang)]
        base = _base_parts(fam, neg.lang, rng)
        base.update(label=label, sys_task=sys_task)
        if neg.payload is not None:
            base["role"] = rng.choice(GENERIC_ROLES[neg.lang])
        parts = Parts(
            **base,
            task=neg.text,
            reqs=reqs,
            closing=None,
            payload=payload,
            kind=kind,
            user_ask=user_ask,
        )
        parts = replace(parts, target="Answer" if neg.lang == "en" else "回答")
        expect = {"route": "neural", "check": "route_only"}
        cases.append(
            _case(
                fam, n, neg.lang, form, parts, rng, expect, f"{neg.lang}-neg-{neg.phrase}", neg.why
            )
        )
    return cases


def build_query(fam: Family, rng: random.Random) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    n = 0
    for lang in ("en", "zh"):
        forms = Cycle(forms_for(fam.name, lang, True), rng)
        for qi, ask in enumerate(a for a in QUERY_ASKS if a.lang == lang):
            n += 1
            form = forms.next()
            records = P.RECORD_SETS[ask.data]
            gold = golds.run_query(records, list(ask.ops))
            closing = None if ask.scalar else rng.choice(fam.closings[lang])
            payload = _render_records(records, rng)
            base = _base_parts(fam, lang, rng)
            user_ask = None
            if form in ("sys_rules", "sys_input", "zh_sys"):
                user_ask = ask.text
            else:
                base["sys_task"] = ask.text
            parts = Parts(
                **base,
                task=ask.text,
                reqs=[],
                closing=closing,
                payload=payload,
                kind="json",
                user_ask=user_ask,
            )
            expect = {"route": "zero", "check": "json_equals", "gold": gold, "options": {}}
            cases.append(_case(fam, n, lang, form, parts, rng, expect, f"{lang}-q{qi}-{ask.data}"))
    cases += build_negatives(fam, rng, n, None)
    return cases


def build() -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    cases: list[dict[str, Any]] = []
    for fam in FAMILIES:
        if fam.name == "json_query":
            cases += build_query(fam, rng)
        else:
            cases += build_converter(fam, rng)
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for c in cases:
        if c["expect"]["route"] == "zero":
            assert c["expect"]["gold"] is not None, c["id"]
    return cases


def main() -> int:
    cases = build()
    with OUT.open("w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    halves = {h: sum(c["half"] == h for c in cases) for h in ("open", "sealed")}
    print(f"wrote {len(cases)} cases to {OUT.name} {halves}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
