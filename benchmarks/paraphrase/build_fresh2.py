"""Build ``fresh2.jsonl``: a second fresh corpus of conversion requests worded the way chat
users and prompt templates word them, written without reading the engine, its grammars, its
lexicon or the other corpora's phrasings.

    PYTHONPATH=... python3 -m zerolayer.benchmarks.paraphrase.build_fresh2

The wordings below (requests, option clauses, closings, asides, system prompts, template
wrappers, negatives) were written for this file alone. Payloads come from ``payloads.py``
plus a few written here; every expected answer is computed by the reference tools in
``golds.py`` (PyYAML, json, markdown-it-py, CPython, SQLite through the zeroscore check).
Each case's ``half`` (``open`` or ``sealed``) is chosen by the first byte of the SHA-256 of
its id: below 0.4 × 256 is sealed. The build is deterministic (fixed seed).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from zerolayer.benchmarks.paraphrase import golds, payloads
from zerolayer.benchmarks.paraphrase.forms import Rendered, _fenced, _is_cjk, _join, render

HERE = Path(__file__).parent
OUT = HERE / "fresh2.jsonl"
SEED = 20261208
SEALED_SHARE = 0.4

# ==================================================================== payloads written here

NEW_JSON_DOCS: list[Any] = [
    {
        "service": "payments",
        "endpoints": [
            {"path": "/charge", "method": "POST"},
            {"path": "/refund", "method": "POST"},
        ],
        "rate_limit": {"per_minute": 120, "burst": 20},
    },
    {
        "title": "Team offsite",
        "location": {"city": "Lisbon", "venue": "Casa Azul"},
        "attendees": 14,
        "catering": True,
    },
    {"sensor": "t-17", "readings": [21.5, 22.25, 21.75], "unit": "celsius", "calibrated": False},
    {"姓名": "王芳", "部门": "市场部", "技能": ["写作", "数据分析"], "工号": 1024},
    {
        "browser": {"headless": True, "viewport": {"width": 1280, "height": 720}},
        "retries": 2,
        "baseUrl": "https://staging.example.com",
    },
    [
        {"name": "web-1", "ip": "10.0.0.11", "role": "frontend"},
        {"name": "web-2", "ip": "10.0.0.12", "role": "frontend"},
        {"name": "db-1", "ip": "10.0.0.21", "role": "database"},
    ],
]

NEW_YAML_DOCS: list[str] = [
    (
        "name: nightly-backup\nschedule: '0 3 * * *'\nretain_days: 14\ntargets:\n"
        "  - /var/lib/postgres\n  - /etc/nginx\nnotify:\n  email: ops@example.com\n"
        "  on_failure: true\n"
    ),
    (
        "replicas: 2\nimage: ghcr.io/acme/api:3.2.1\nresources:\n  requests:\n    cpu: 250m\n"
        "    memory: 128Mi\n  limits:\n    cpu: '1'\n    memory: 512Mi\n"
    ),
    "商品:\n  名称: 保温杯\n  价格: 129\n  标签:\n    - 不锈钢\n    - 500毫升\n库存: 42\n",
    "- id: 1\n  task: write tests\n  done: false\n- id: 2\n  task: fix login bug\n  done: true\n",
    (
        "database:\n  engine: postgres\n  host: 10.0.0.5\n  port: 5432\n  options:\n"
        "    sslmode: require\n    connect_timeout: 10\ndebug: false\n"
    ),
    'greeting: "Hello, world"\nmultiline: |\n  first line\n  second line\nempty_value: null\n',
]

NEW_MARKDOWN_DOCS: list[str] = [
    "# Changelog\n\n## 1.2.0\n\n- Added dark mode\n- Fixed *crash* on startup\n",
    "Use `git rebase -i` to squash commits.\n\n**Warning:** this rewrites history.\n",
    "## 安装步骤\n\n1. 下载安装包\n2. 双击运行\n3. 按提示完成安装\n\n更多信息见[官网](https://example.cn)。\n",
    "> To be, or not to be\n>\n> that is the question\n\nA *famous* line.\n",
    "Visit **our store** at [shop.example](https://shop.example) today!\n",
]

NEW_MARKDOWN_TABLE_DOCS: list[str] = [
    "## Team\n\n| name | role |\n| --- | --- |\n| Lea | design |\n| Tom | backend |\n",
    "| 城市 | 区号 |\n| --- | --- |\n| 北京 | 010 |\n| 上海 | 021 |\n",
]

NEW_SQL_QUERIES: list[tuple[str, tuple[str, ...]]] = [
    (
        "SELECT customer, SUM(amount) AS spent FROM orders WHERE status = 'paid' "
        "GROUP BY customer ORDER BY spent DESC",
        ("orders",),
    ),
    (
        "SELECT name, dept FROM employees WHERE salary BETWEEN 80 AND 120 ORDER BY name",
        ("employees",),
    ),
    ("SELECT COUNT(*) AS open_orders FROM orders WHERE status = 'open'", ("orders",)),
    (
        "SELECT c.name, c.country, o.amount FROM customers c JOIN orders o ON o.customer = c.name "
        "WHERE o.amount < 100",
        ("customers", "orders"),
    ),
    (
        "SELECT region, COUNT(*) AS n_orders FROM orders GROUP BY region ORDER BY region",
        ("orders",),
    ),
    ("SELECT * FROM customers WHERE tier <> 'bronze'", ("customers",)),
]

NEW_PYTHON_PROGRAMS: list[str] = [
    'def shout(word, times=2):\n    return " ".join([word.upper()] * times)\n\n\n'
    'print(shout("hey"))\nprint(shout("go", 3))\n',
    "total = 0\nfor i in range(1, 6):\n    if i % 2 == 1:\n        total += i * i\n"
    'print("sum of odd squares:", total)\n',
    "class Stack:\n    def __init__(self):\n        self.items = []\n\n"
    "    def push(self, x):\n        self.items.append(x)\n\n"
    "    def pop(self):\n        return self.items.pop()\n\n"
    "    def size(self):\n        return len(self.items)\n\n\n"
    "s = Stack()\ns.push(1)\ns.push(2)\ns.push(3)\nprint(s.pop())\nprint(s.size())\n",
    'def count_vowels(text):\n    return sum(1 for ch in text.lower() if ch in "aeiou")\n\n\n'
    'print(count_vowels("Hello World"))\n',
    "print(sum(range(1, 11)))\n",
    "def max_of(a, b):\n    if a > b:\n        return a\n    return b\n\n\n"
    "print(max_of(4, 9))\nprint(max_of(-1, -5))\n",
    'name = "小明"\nage = 12\nprint(f"{name}今年{age}岁")\n',
]

# A commented program (for the "translate the comments" negatives; also used actively).
COMMENTED_PROGRAM = (
    "# compute the average of the scores\nscores = [70, 85, 90]\n"
    "# integer division keeps it whole\navg = sum(scores) // len(scores)\nprint(avg)\n"
)

JSON_DOCS = payloads.JSON_DOCS + NEW_JSON_DOCS
YAML_DOCS = payloads.YAML_DOCS + NEW_YAML_DOCS
MD_DOCS = payloads.MARKDOWN_DOCS + NEW_MARKDOWN_DOCS
MD_TABLE_DOCS = payloads.MARKDOWN_TABLE_DOCS + NEW_MARKDOWN_TABLE_DOCS
SQL_QUERIES = payloads.SQL_QUERIES + NEW_SQL_QUERIES
# Programs whose output a faithful TypeScript port prints the same way (no list, dict or
# float printing, whose text differs between Python and JavaScript).
PY_PROGRAMS = (
    [p for i, p in enumerate(payloads.PYTHON_PROGRAMS) if i != 3]
    + NEW_PYTHON_PROGRAMS
    + [COMMENTED_PROGRAM]
)

# ==================================================================== wordings: active requests

REQUESTS: dict[str, dict[str, list[str]]] = {
    "json_yaml": {
        "en": [
            "yo turn this into yaml",
            "Can you convert this JSON to YAML?",
            "What would this look like as YAML?",
            "json -> yaml",
            "I need the YAML version of this",
            "Convert the JSON below into YAML.",
            "pls make this yaml",
            "Could you rewrite this config in YAML format, please?",
            "Give me this as YAML",
            "Translate this JSON into YAML for me",
            "Change this from JSON to YAML.",
            "YAML equivalent of the following JSON",
            "hey, quick one: JSON to YAML",
            "turn this json into ymal",
            "Would you mind converting this to yaml?",
            "Output this JSON as YAML.",
            "Reformat as YAML:",
            "Serialize this object to YAML",
            "How would this be written in YAML?",
            "Need this in yml",
            "Convert to YAML",
            "Express the following JSON document in YAML syntax.",
            "from json to yaml please",
            "Can I get a YAML version of this payload?",
            "Please convert this JSON file into a YAML file.",
            "turn teh json into yaml",
            "Rewrite the JSON as YAML",
            "make it YAML",
            "JSON→YAML, thanks!",
            "I'd like this converted to YAML so I can drop it into a compose file",
            "Help me convert this JSON into YAML",
            "Transform the following into YAML.",
            "what's the yaml for this json",
            "Convert this JSON object to YAML, please",
        ],
        "zh": [
            "把这个JSON转成YAML",
            "帮我把下面的JSON转换为YAML格式",
            "这段JSON用YAML怎么写？",
            "转成yaml",
            "请将以下JSON转换成YAML。",
            "json 转 yaml",
            "麻烦转成YAML格式，谢谢",
            "能帮我把这个配置改写成YAML吗？",
            "给我这个的YAML版本",
            "把下面这段接口返回的JSON转成YAML",
            "JSON -> YAML",
            "我们的配置仓库只收YAML，帮忙把这个转一下",
            "请把它转换为 YAML",
            "把这段 json 变成 yml",
            "以YAML格式输出下面的JSON",
        ],
    },
    "yaml_json": {
        "en": [
            "convert this yaml to json",
            "What would this look like as JSON?",
            "yaml -> json pls",
            "Can you give me the JSON equivalent of this YAML?",
            "I need this as JSON for an API request body",
            "Turn this YAML into JSON.",
            "JSON version please",
            "Please rewrite the following YAML as JSON.",
            "Convert the YAML below to JSON",
            "how would this YAML look in json?",
            "Parse this YAML and give me JSON",
            "Change this yml to json",
            "Could you translate this config from YAML into JSON?",
            "make this json",
            "YAML to JSON:",
            "Our frontend only reads JSON, can you convert this?",
            "Need the JSON for this, thanks",
            "turn this ymal into json",
            "Output the following YAML document as JSON.",
            "convert to JSOn",
            "Serialize this YAML as JSON",
            "Give me this in JSON format",
            "Could you help me convert this YAML file into JSON?",
            "Transform the YAML into JSON, please.",
            "what's this in json",
            "Reformat this as JSON",
            "Rewrite as json",
            "I'd like a JSON copy of this config",
            "Switch this from YAML to JSON",
            "Convert it to JSON",
        ],
        "zh": [
            "把这个YAML转成JSON",
            "这段yaml转json",
            "帮我转换成JSON格式",
            "请将下面的YAML转换为JSON。",
            "这个用JSON表示是什么样的？",
            "yml 转 json，谢谢",
            "给我对应的JSON",
            "前端只认JSON，帮忙把这段配置转一下",
            "YAML → JSON",
            "麻烦把它改成JSON",
            "以JSON格式输出以下YAML",
            "把这个配置文件从YAML转为JSON",
            "能不能转成json？",
            "请输出这段YAML对应的JSON",
        ],
    },
    "markdown_html": {
        "en": [
            "Convert this markdown to HTML",
            "Can you render this as HTML?",
            "md -> html",
            "What's the HTML for this markdown?",
            "I need this as HTML for our newsletter",
            "Turn this Markdown into HTML please",
            "Give me the HTML version",
            "Please convert the following Markdown document into HTML.",
            "convert this markdwon to html",
            "Render to HTML:",
            "How would this look in HTML markup?",
            "Could you convert my README snippet to HTML?",
            "I'm pasting this into a CMS that only accepts HTML, can you convert it?",
            "Make this HTML",
            "Transform this markdown into html markup.",
            "The HTML equivalent of this, please",
            "Convert to html",
            "Output the HTML for the Markdown below.",
            "Compile this markdown to HTML",
            "hey can u turn this md into html",
            "Rewrite this Markdown as HTML.",
            "Markdown to HTML, thanks",
            "Can I get this in HTML?",
            "Generate HTML from this Markdown",
            "Please render the markdown below as HTML",
            "convert the following md file to html",
        ],
        "zh": [
            "把这段Markdown转成HTML",
            "markdown 转 html",
            "请将以下Markdown渲染为HTML。",
            "帮我把这个md转换成html",
            "这段Markdown对应的HTML是什么？",
            "转成HTML",
            "我要贴到只支持HTML的后台，帮忙转一下",
            "请输出下面Markdown的HTML代码",
            "能把它转换成HTML格式吗？",
            "MD → HTML",
            "把这个README片段转成网页用的HTML",
            "麻烦把下面的文档转为HTML",
        ],
    },
    "sql_pandas": {
        "en": [
            "Convert this SQL to pandas",
            "What's the pandas equivalent of this query?",
            "sql -> pandas",
            "How would I write this in pandas?",
            "the pandas version of this query please",
            "Can you translate this SQL query into pandas code?",
            "Rewrite this query using pandas. "
            "The tables are already loaded as DataFrames with the same names.",
            "I'm moving this report off the database into a notebook, convert the SQL to pandas",
            "pandas equivalent:",
            "turn this sql into pandsa",
            "Give me pandas code that does the same as this SQL",
            "Convert the following SQL statement to pandas",
            "Port this query to pandas",
            "How do I do this query with DataFrames?",
            "Please express this SQL in pandas.",
            "SQL to pandas, please",
            "Translate to pandas",
            "could you write this query in pandas instead",
            "Same query but in pandas please",
            "Convert this to Python pandas code",
            "Write the pandas code for this query",
            "I need this SELECT as pandas",
            "Can you do this in pandas rather than SQL?",
            "convert to pandas pls",
            "Pandas please:",
            "Redo this SQL with pandas",
        ],
        "zh": [
            "把这个SQL转成pandas",
            "这条SQL用pandas怎么写？",
            "sql 转 pandas",
            "帮我把下面的查询改写成pandas代码",
            "请将以下SQL翻译为pandas。",
            "给我这段SQL对应的pandas写法",
            "这个查询在pandas里怎么实现？表已经读成同名的DataFrame了",
            "转成pandas",
            "报表要从数据库挪到notebook里，帮忙把SQL转成pandas",
            "用pandas实现这条SQL",
            "SQL → pandas",
            "请把它改成 pandas 代码",
        ],
    },
    "py_ts": {
        "en": [
            "Convert this Python to TypeScript",
            "What's the TS equivalent of this?",
            "py -> ts",
            "Can you port this script to TypeScript?",
            "TypeScript version please",
            "Rewrite this in TypeScript.",
            "How would this look in TypeScript?",
            "Translate the following Python code into TypeScript.",
            "We're moving this helper to our Node backend, convert it to TypeScript",
            "turn this python into typescirpt",
            "Give me this in TS",
            "Please convert this Python snippet to TypeScript, keeping the same output.",
            "python to typescript pls",
            "Can I get a TypeScript port of this?",
            "Convert to TS",
            "I need the TypeScript equivalent of this code",
            "Redo this in TypeScript",
            "Port to TypeScript:",
            "could you translate this from python to ts",
            "Write this program in TypeScript instead",
            "Make this TypeScript",
            "Convert the code below from Python to TypeScript.",
            "same thing but typescript",
            "Rewrite the Python below as TypeScript code",
            "What would this be in TypeScript?",
            "Convert this .py file to .ts",
        ],
        "zh": [
            "把这段Python转成TypeScript",
            "python 转 ts",
            "这段代码用TypeScript怎么写？",
            "请将以下Python代码翻译成TypeScript。",
            "帮我改写成TS",
            "后端要换成Node，帮忙把这个脚本转成TypeScript",
            "给我TypeScript版本",
            "转成typescript",
            "Python → TypeScript",
            "请用TypeScript重写下面的代码",
            "能把它转换为TS代码吗？",
            "把这个py文件改成ts",
        ],
    },
}

# Instructions an application puts in its system prompt (the user turn is the payload).
SYSTEM_PROMPTS: dict[str, dict[str, list[str]]] = {
    "json_yaml": {
        "en": [
            "You are a JSON to YAML converter. Convert whatever JSON the user sends into YAML.",
            "Convert the user's JSON input to YAML.",
            "You are a config assistant. Every user message is a JSON document; "
            "reply with the same data as YAML.",
        ],
        "zh": [
            "你是一个JSON转YAML的工具。把用户发来的JSON转换成YAML。",
            "将用户输入的JSON转换为YAML。",
        ],
    },
    "yaml_json": {
        "en": [
            "You convert YAML to JSON. The user will paste YAML.",
            "Convert the YAML the user provides into JSON.",
            "You are a format converter: the input is YAML, the output is the equivalent JSON.",
        ],
        "zh": [
            "你是YAML转JSON助手，用户会发YAML给你，请转换成JSON。",
            "把用户输入的YAML转换为JSON。",
        ],
    },
    "markdown_html": {
        "en": [
            "You are a Markdown renderer. Convert the user's Markdown into HTML.",
            "Render the Markdown in the user message as HTML.",
            "You turn Markdown into HTML for our blog engine.",
        ],
        "zh": [
            "你是Markdown渲染器，把用户的Markdown转换为HTML。",
            "将用户消息中的Markdown转成HTML。",
        ],
    },
    "sql_pandas": {
        "en": [
            "You translate SQL queries into pandas. "
            "Each table is a DataFrame with the table's name.",
            "Convert the SQL query in the user message to pandas code.",
            "You are a data engineering assistant. "
            "The user sends SQL; reply with equivalent pandas code.",
        ],
        "zh": [
            "你负责把SQL查询翻译成pandas代码，每张表都是同名的DataFrame。",
            "把用户发来的SQL转换成pandas代码。",
        ],
    },
    "py_ts": {
        "en": [
            "You port Python code to TypeScript. The user sends Python.",
            "Convert the user's Python program into TypeScript.",
            "You are a code migration assistant: rewrite the given Python as TypeScript.",
        ],
        "zh": [
            "你是代码迁移助手，把用户发来的Python代码改写成TypeScript。",
            "将用户提供的Python代码转换为TypeScript。",
        ],
    },
}

# Template wrappers: a role line before the instruction, the payload between markers, a
# closing line after it.
PREAMBLES = {
    "en": [
        "You are a converter.",
        "You are a data formatting assistant.",
        "Act as a format conversion tool.",
        "",
        "System: conversion task.",
    ],
    "zh": ["你是一个格式转换助手。", "你是数据格式转换工具。", ""],
}

CLOSINGS: dict[str, dict[str, list[str]]] = {
    "json_yaml": {
        "en": [
            "Return only the YAML.",
            "no explanation",
            "Just the yaml, nothing else.",
            "Only output the converted YAML, no commentary.",
            "Respond with the YAML only.",
            "Don't explain, just give me the result.",
            "Thanks in advance!",
            "Reply with a single yaml code block.",
        ],
        "zh": [
            "只返回YAML。",
            "不要解释。",
            "直接给结果，不用说明。",
            "只输出转换后的YAML",
            "谢谢！",
        ],
    },
    "yaml_json": {
        "en": [
            "Return only the JSON.",
            "just the json",
            "No explanation needed.",
            "Output valid JSON only.",
            "Respond with the JSON and nothing else.",
            "thx",
            "Reply with one json code block, no prose.",
        ],
        "zh": ["只返回JSON。", "不要解释", "只要结果", "只输出JSON，不要多余的话。", "多谢"],
    },
    "markdown_html": {
        "en": [
            "Return only the HTML.",
            "just the html, no explanation",
            "Output the HTML fragment only.",
            "No commentary please.",
            "Respond with the HTML code only.",
            "Thanks!",
        ],
        "zh": ["只返回HTML代码。", "不要解释。", "只要HTML", "直接输出结果"],
    },
    "sql_pandas": {
        "en": [
            "Just the code.",
            "Only the code, no explanation.",
            "Respond with the Python code only.",
            "no prose please",
            "Thanks!",
        ],
        "zh": ["只返回代码", "不要解释", "只要代码", "直接给代码就行"],
    },
    "py_ts": {
        "en": [
            "Just the code.",
            "no explanation",
            "Only the TypeScript, please.",
            "Respond with the TypeScript code only.",
            "cheers",
        ],
        "zh": ["只返回代码", "不要解释", "只给代码就行", "只输出TypeScript代码。"],
    },
}

# Provenance and purpose asides, said before or after the request.
ASIDES: dict[str, dict[str, list[str]]] = {
    "json_yaml": {
        "en": [
            "This came from our API.",
            "It's the response body from our staging server.",
            "It's for our config repo.",
            "Need it for a Helm values file.",
            "A colleague sent me this.",
        ],
        "zh": ["这是接口返回的数据。", "是给配置仓库用的。", "同事发给我的。"],
    },
    "yaml_json": {
        "en": [
            "This is from our Kubernetes setup.",
            "It's for a REST call.",
            "Copied it from the project's CI config.",
            "Our dashboard only imports JSON.",
        ],
        "zh": ["这是CI里的配置。", "要用在接口请求里。", "从旧项目里拷出来的。"],
    },
    "markdown_html": {
        "en": [
            "It's from our docs folder.",
            "This goes into the company newsletter.",
            "Our email tool wants HTML.",
            "Copied from the wiki.",
        ],
        "zh": ["这是从文档目录里拿的。", "要放到公司邮件里。", "是wiki上的内容。"],
    },
    "sql_pandas": {
        "en": [
            "This runs in our reporting DB today.",
            "We're migrating off Postgres for this report.",
            "It's from an old dashboard.",
            "The tables are DataFrames with the same names.",
        ],
        "zh": ["这条查询现在跑在报表库上。", "表都已经是同名的DataFrame了。", "是旧看板里的查询。"],
    },
    "py_ts": {
        "en": [
            "It's a small helper from our scripts folder.",
            "We're rewriting the tooling in TypeScript.",
            "This is for a Node service.",
            "Found it in an old repo.",
        ],
        "zh": ["这是脚本目录里的小工具。", "我们在把工具链改成TypeScript。", "要放到Node服务里。"],
    },
}

GREETINGS = {"en": ["Hi! ", "hey, ", "Hello, ", "Morning! "], "zh": ["你好，", "您好，", "嗨，"]}

# Earlier-turn form: the payload in the first user turn, the request in the last.
LEADS = {
    "json": {
        "en": [
            "Here's the JSON our API returns:",
            "This is the config I mentioned:",
            "ok here's the file",
        ],
        "zh": ["这是接口返回的JSON：", "这是我说的那个配置："],
    },
    "yaml": {
        "en": ["Here's the YAML file:", "This is our current config:", "pasting the yaml first"],
        "zh": ["这是那个YAML文件：", "先贴一下配置："],
    },
    "markdown": {
        "en": ["Here's the doc:", "This is the section from our README:", "pasting the markdown"],
        "zh": ["这是文档内容：", "先贴一下README片段："],
    },
    "sql": {
        "en": ["Here's the query:", "This is the SQL from the dashboard:", "the query:"],
        "zh": ["这是那条查询：", "看板里的SQL如下："],
    },
    "python": {
        "en": ["Here's the script:", "This is the function I was talking about:", "the code:"],
        "zh": ["这是那段脚本：", "代码如下："],
    },
}
ACKS = {
    "en": [
        "Got it. What would you like me to do with it?",
        "Thanks! How can I help with this?",
        "Sure, what next?",
    ],
    "zh": ["收到，需要我怎么处理？", "好的，要做什么呢？"],
}

# ==================================================================== options

# option key -> (expect options, en clauses, zh clauses); a clause is lower-case, no full stop
OPTIONS: dict[str, dict[str, tuple[dict[str, Any], list[str], list[str]]]] = {
    "json_yaml": {
        "indent2": (
            {"indent": 2},
            ["use 2-space indentation", "indent with 2 spaces"],
            ["缩进用2个空格"],
        ),
        "indent4": (
            {"indent": 4},
            ["indent nested keys by 4 spaces", "4 space indent please"],
            ["用4个空格缩进", "缩进4格"],
        ),
        "sort": (
            {"sort_keys": True},
            ["sort the keys alphabetically", "keys in alphabetical order pls"],
            ["键按字母顺序排序", "key排个序"],
        ),
        "flow": (
            {"seq_style": "flow"},
            ["put lists inline like [a, b]", "use flow style for the lists"],
            ["列表用行内写法，比如 [a, b]"],
        ),
        "block": (
            {"seq_style": "block"},
            ["lists should be block style with dashes"],
            ["列表用短横线的块格式"],
        ),
        "single": (
            {"quote": "single"},
            ["single-quote all string values", "wrap the string values in single quotes"],
            ["字符串值都用单引号"],
        ),
        "double": (
            {"quote": "double"},
            ["wrap every string value in double quotes", "double quotes around strings please"],
            ["所有字符串值加双引号"],
        ),
    },
    "yaml_json": {
        "indent2": (
            {"indent": 2},
            ["indent with 2 spaces", "pretty-print it with 2-space indent"],
            ["缩进2个空格"],
        ),
        "indent4": (
            {"indent": 4},
            ["use 4 spaces for indentation", "pretty print, indent 4"],
            ["用4个空格缩进"],
        ),
        "sort": ({"sort_keys": True}, ["sort the keys", "alphabetize the keys"], ["键按字母排序"]),
        "minify": (
            {"single_line": True},
            ["minify it", "put it all on one line", "compact single-line output please"],
            ["压缩成一行", "输出成单行"],
        ),
        "keep_unicode": (
            {"ensure_ascii": False},
            [
                "keep the Chinese characters as they are, don't escape them",
                "no \\u escapes for non-English text",
            ],
            ["中文不要转义", "保留中文原样"],
        ),
        "ascii": (
            {"ascii_only": True},
            [
                "escape non-ASCII characters as \\u sequences",
                "make the output pure ASCII (escape the Chinese)",
            ],
            ["中文转成\\u转义", "非ASCII字符都要转义"],
        ),
    },
    "markdown_html": {
        "gfm": (
            {},
            [
                "it's GitHub-flavored markdown, so render the table too",
                "treat it as GFM, tables included",
            ],
            ["按GitHub风格的Markdown处理，表格也要转", "这是GFM，表格要渲染成table"],
        ),
    },
    "sql_pandas": {
        "query": (
            {"uses_query": True},
            ["use df.query for the filter", "do the WHERE part with .query()"],
            ["筛选部分用 query 方法", "过滤条件用DataFrame.query写"],
        ),
    },
    "py_ts": {
        "jsdoc": (
            {"jsdoc": True},
            ["add JSDoc comments to the functions", "with JSDoc on each function please"],
            ["给函数加上 JSDoc 注释", "顺便写上JSDoc"],
        ),
    },
}

# ==================================================================== negatives

# (lang, instruction, why, payload index or None) -- the payload index is into the family's
# payload list; None draws one.
NEGATIVES: dict[str, list[tuple[str, str, str, int | None]]] = {
    "json_yaml": [
        ("en", "Can you explain what each field in this JSON does?", "explain", 1),
        ("en", "Is this valid JSON?", "validity question", None),
        ("en", "Convert this to YAML and explain each field.", "conversion plus an open ask", None),
        ("en", "Should I store this config as YAML or keep it as JSON?", "opinion", None),
        (
            "en",
            "Convert this to YAML and add a `timeout` field set to 30.",
            "adds a field not in the data",
            0,
        ),
        (
            "en",
            'My lead wrote "just convert the JSON to YAML" in the ticket. '
            "What do you think she wants me to check before doing it?",
            "quoted instruction being discussed",
            3,
        ),
        ("en", "convert this", "no target format", None),
        ("en", "Summarise what this config sets up.", "summarise", 7),
        ("en", "Review this JSON and tell me if anything looks off.", "review", None),
        ("en", "Can you make this better?", "vague ask", None),
        (
            "en",
            "Write a Python script that converts files like this from JSON to YAML.",
            "asks for a program",
            None,
        ),
        (
            "en",
            "Why would a YAML parser read the version field of this differently after conversion?",
            "why question",
            3,
        ),
        ("zh", "解释一下这个JSON里每个字段的含义", "explain", None),
        ("zh", "这个JSON格式对吗？", "validity question", None),
        ("zh", "转成YAML，并且给每个字段加上注释说明", "conversion plus an open ask", None),
        ("zh", "YAML和JSON哪个更适合写配置？就拿这个举例", "opinion", None),
    ],
    "yaml_json": [
        ("en", "Why is this YAML failing to parse in our CI?", "why question", None),
        ("en", "Fix the indentation in this YAML.", "fix", None),
        ("en", "What does this YAML config do?", "explain", None),
        (
            "en",
            "Convert to JSON and add a created_at timestamp.",
            "adds a field not in the data",
            None,
        ),
        (
            "en",
            "Convert this to JSON, then tell me which settings are risky in production.",
            "conversion plus an open ask",
            None,
        ),
        ("en", "Is this valid YAML?", "validity question", None),
        ("en", "Translate the values in this YAML into French.", "translate", 3),
        (
            "en",
            'Someone on our team said "YAML to JSON is always lossless". '
            "Is that true for this file?",
            "quoted claim being discussed",
            None,
        ),
        ("en", "Can you convert this?", "no target format", None),
        ("en", "Write a JSON Schema for this config.", "asks for a schema, not a conversion", None),
        ("en", "Which of these settings could I safely drop?", "opinion", None),
        ("zh", "这段YAML为什么报错？", "why question", None),
        ("zh", "帮我检查一下这个YAML有没有问题", "review", None),
        ("zh", "转成JSON，顺便解释一下每一项是干什么的", "conversion plus an open ask", None),
        ("zh", "给这个配置写一个JSON Schema", "asks for a schema, not a conversion", None),
    ],
    "markdown_html": [
        ("en", "Proofread this markdown and fix any typos.", "fix", None),
        ("en", "Summarize this document in one sentence.", "summarise", None),
        (
            "en",
            "Convert this to HTML and add some nice CSS styling.",
            "conversion plus an open ask",
            None,
        ),
        ("en", "Translate this markdown into French.", "translate", 0),
        ("en", "Why isn't my nested list rendering correctly on GitHub?", "why question", 8),
        ("en", "Is this valid Markdown?", "validity question", None),
        ("en", "Make this README more engaging.", "creative ask", None),
        (
            "en",
            "What's the difference between rendering this with CommonMark and with GFM?",
            "explain",
            None,
        ),
        (
            "en",
            "Convert to HTML and add a table of contents.",
            "adds content not in the document",
            None,
        ),
        ("en", "Turn this into a nice looking web page", "vague target", None),
        (
            "en",
            'My PM\'s note says "render the release notes as HTML". '
            "Does that mean a full page or just a fragment?",
            "quoted instruction being discussed",
            0,
        ),
        ("zh", "帮我润色一下这段文档", "rewrite", 5),
        ("zh", "把这段Markdown翻译成英文", "translate", 5),
        ("zh", "转成HTML，再加上好看的样式", "conversion plus an open ask", None),
        ("zh", "这段Markdown写得规范吗？", "opinion", None),
    ],
    "sql_pandas": [
        ("en", "Why is this query so slow on a big table?", "why slow", None),
        ("en", "Optimise this SQL.", "optimise", None),
        ("en", "Explain what this query returns.", "explain", None),
        ("en", "Is this valid SQL?", "validity question", None),
        (
            "en",
            "Convert this to pandas and add a column with 19% tax on the amount.",
            "adds a column",
            0,
        ),
        ("en", "Convert to pandas and explain each step.", "conversion plus an open ask", None),
        ("en", "Rewrite this query for MongoDB.", "other target", None),
        ("en", "Fix the bug in this query, it returns duplicates.", "fix", 6),
        ("en", "Should I do this in SQL or in pandas?", "opinion", None),
        (
            "en",
            'A reviewer commented "just do this in pandas". Do you agree with them?',
            "quoted instruction being discussed",
            None,
        ),
        ("en", "Can you convert this?", "no target", None),
        ("zh", "这条SQL为什么这么慢？", "why slow", None),
        ("zh", "帮我优化一下这个查询", "optimise", None),
        ("zh", "解释一下这条SQL的意思", "explain", None),
        ("zh", "转成pandas，再画一个柱状图", "conversion plus an open ask", None),
    ],
    "py_ts": [
        ("en", "What does this code do?", "explain", None),
        ("en", "Find the bug in this function.", "fix", None),
        (
            "en",
            "Convert this to TypeScript and translate the comments into French.",
            "conversion plus a translation",
            -1,
        ),
        ("en", "Translate the comments into French.", "translate comments", -1),
        ("en", "Review this Python code.", "review", None),
        ("en", "Make this faster.", "optimise", None),
        ("en", "Convert this to TypeScript and add input validation.", "adds behaviour", None),
        ("en", "Is TypeScript a better choice than Python for this?", "opinion", None),
        ("en", "Write unit tests for this.", "asks for tests", None),
        ("en", "Rewrite this in Rust.", "other target", None),
        (
            "en",
            'My teammate\'s PR description says "ported the script to TypeScript". '
            "What should I check when reviewing a port like that?",
            "quoted instruction being discussed",
            None,
        ),
        ("zh", "这段代码是干什么的？", "explain", None),
        ("zh", "帮我找找这段代码的bug", "fix", None),
        ("zh", "把注释翻译成法语", "translate comments", -1),
        ("zh", "转成TypeScript，并解释每一行", "conversion plus an open ask", None),
    ],
}

# Expected active cases per family.
N_ACTIVE = {"json_yaml": 48, "yaml_json": 46, "markdown_html": 44, "sql_pandas": 44, "py_ts": 46}
ZH_SHARE = 0.3

FORM_WEIGHTS = {
    "fenced": 20,
    "fenced_bare": 7,
    "unfenced": 11,
    "before": 10,
    "before_plain": 7,
    "same_line": 12,
    "template": 8,
    "wrap": 11,
    "system": 10,
    "earlier_turn": 8,
}

# ==================================================================== payload helpers


def _has_nested_mapping(doc: Any) -> bool:
    if isinstance(doc, dict):
        return any(isinstance(v, dict) and v for v in doc.values()) or any(
            _has_nested_mapping(v) for v in doc.values()
        )
    if isinstance(doc, list):
        return any(_has_nested_mapping(v) for v in doc)
    return False


def _lists(doc: Any) -> list[list[Any]]:
    if isinstance(doc, dict):
        return [x for v in doc.values() for x in _lists(v)]
    if isinstance(doc, list):
        return [doc, *[x for v in doc for x in _lists(v)]]
    return []


def _strings(doc: Any) -> bool:
    if isinstance(doc, dict):
        return any(_strings(v) for v in doc.values())
    if isinstance(doc, list):
        return any(_strings(v) for v in doc)
    return isinstance(doc, str)


def _non_ascii(doc: Any) -> bool:
    return not json.dumps(doc, ensure_ascii=False).isascii()


def json_options_ok(key: str, doc: Any) -> bool:
    """Whether a JSON → YAML option is meaningful (and checkable) for ``doc``."""
    if key in ("indent2", "indent4"):
        return _has_nested_mapping(doc)
    if key == "flow":
        lists = [x for x in _lists(doc) if x]
        return bool(lists) and all(not isinstance(v, dict) for lst in lists for v in lst)
    if key == "block":
        return any(x for x in _lists(doc))
    if key in ("single", "double"):
        return _strings(doc)
    if key == "sort":
        return isinstance(doc, dict) and len(doc) > 1
    return False


def yaml_options_ok(key: str, doc: Any) -> bool:
    if key in ("keep_unicode", "ascii"):
        return _non_ascii(doc)
    if key == "sort":
        return isinstance(doc, dict) and len(doc) > 1
    return True


# option sets that may be drawn together
COMPATIBLE = {
    "json_yaml": [
        ("sort", "indent2"),
        ("sort", "indent4"),
        ("sort", "block"),
        ("indent4", "double"),
    ],
    "yaml_json": [
        ("sort", "indent2"),
        ("sort", "indent4"),
        ("minify", "sort"),
        ("indent2", "keep_unicode"),
        ("minify", "ascii"),
    ],
}

# ==================================================================== composition


def _sentence_join(text: str, extra: str, lang: str) -> str:
    """``extra`` (a clause) after ``text`` as the user would write it."""
    text = text.rstrip()
    if lang == "zh" or _is_cjk(extra[:1]):
        if text[-1:] in "。？！.?!，,":
            return text + extra + "。"
        return text + "，" + extra + "。"
    if text[-1:] in ".?!":
        return text + " " + extra[0].upper() + extra[1:] + "."
    return text + ", " + extra


def with_option(phrase: str, clause: str, lang: str) -> str:
    if phrase.rstrip()[-1:] in ":：":
        # the request leads into the payload: say the option first
        if lang == "zh":
            return clause + "。" + phrase
        return clause[0].upper() + clause[1:] + ". " + phrase
    return _sentence_join(phrase, clause, lang)


def with_aside(text: str, aside: str, lang: str, rng: random.Random) -> str:
    if rng.random() < 0.5 or text.rstrip()[-1:] in ":：":
        return aside + ("" if lang == "zh" else " ") + text
    end = text.rstrip()
    if lang == "zh":
        return end + ("" if end[-1:] in "。？！" else "。") + aside
    return end + ("" if end[-1:] in ".?!" else ".") + " " + aside


def greet(instruction: str, lang: str, rng: random.Random) -> str:
    """A greeting before the request (the request's first letter lower-cased in English)."""
    hello = rng.choice(GREETINGS[lang])
    first = instruction.split(" ", 1)[0]
    if (
        lang == "en"
        and first not in ("I", "I'd", "I'm")
        and not first.isupper()
        and hello.endswith(", ")
    ):
        instruction = instruction[0].lower() + instruction[1:]
    return hello + instruction


def wrap(
    instruction: str,
    payload: str,
    lang: str,
    closing: str,
    *,
    rng: random.Random,
    ui_lang: str,
    markers_ok: bool,
) -> Rendered:
    """A prompt template with text before and after the payload."""
    pre = rng.choice(PREAMBLES[ui_lang])
    head = (
        _join(pre, instruction.rstrip())
        if rng.random() < 0.5
        else (
            (pre + (" " if pre and ui_lang == "en" else "") + instruction.rstrip())
            if pre
            else instruction.rstrip()
        )
    )
    style = rng.choice(["fence", "tags", "quotes", "label"] if markers_ok else ["fence", "label"])
    body = payload.rstrip()
    if style == "fence":
        block = _fenced(body, lang)
    elif style == "tags":
        block = f"<input>\n{body}\n</input>"
    elif style == "quotes":
        block = f'"""\n{body}\n"""'
    else:
        label = "Input:" if ui_lang == "en" else "输入："
        block = f"{label}\n{_fenced(body, lang)}"
    return Rendered([{"role": "user", "content": _join(head, block, closing)}], None, "wrap")


def earlier_turn(
    instruction: str,
    payload: str,
    lang: str,
    closing: str | None,
    *,
    rng: random.Random,
    ui_lang: str,
    kind: str,
) -> Rendered:
    lead = rng.choice(LEADS[kind][ui_lang])
    first = _join(lead, _fenced(payload, lang))
    ask = instruction.rstrip()
    if closing:
        if ui_lang == "zh":
            ask = ask + ("" if ask[-1:] in "。？！?!" else "。") + closing
        else:
            ask = ask + ("" if ask[-1:] in ".?!" else ".") + " " + closing
    messages = [
        {"role": "user", "content": first},
        {"role": "assistant", "content": rng.choice(ACKS[ui_lang])},
        {"role": "user", "content": ask},
    ]
    return Rendered(messages, None, "earlier_turn")


class Cycle:
    """Draws from a list in shuffled rounds, so every item is used before any repeats."""

    def __init__(self, items: list[Any], rng: random.Random) -> None:
        self.items, self.rng, self.pool = list(items), rng, []

    def next(self) -> Any:
        if not self.pool:
            self.pool = list(self.items)
            self.rng.shuffle(self.pool)
        return self.pool.pop()


# Payload of each family: (text, fence language, kind, gold, properties)
def family_payloads(family: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if family == "json_yaml":
        for doc in JSON_DOCS:
            out.append({"doc": doc, "kind": "json", "lang": "json", "non_ascii": _non_ascii(doc)})
    elif family == "yaml_json":
        for text in YAML_DOCS:
            doc = golds.yaml_load(text)
            out.append(
                {
                    "text": text,
                    "doc": doc,
                    "kind": "yaml",
                    "lang": "yaml",
                    "non_ascii": _non_ascii(doc),
                }
            )
    elif family == "markdown_html":
        for text in MD_DOCS:
            out.append(
                {
                    "text": text,
                    "kind": "markdown",
                    "lang": "markdown",
                    "table": False,
                    "non_ascii": not text.isascii(),
                }
            )
        for text in MD_TABLE_DOCS:
            out.append(
                {
                    "text": text,
                    "kind": "markdown",
                    "lang": "markdown",
                    "table": True,
                    "non_ascii": not text.isascii(),
                }
            )
    elif family == "sql_pandas":
        for sql, tables in SQL_QUERIES:
            out.append(
                {"text": sql, "tables": tables, "kind": "sql", "lang": "sql", "non_ascii": False}
            )
    elif family == "py_ts":
        for text in PY_PROGRAMS:
            out.append(
                {"text": text, "kind": "python", "lang": "python", "non_ascii": not text.isascii()}
            )
    return out


def payload_text(p: dict[str, Any], rng: random.Random, *, one_line: bool = False) -> str:
    if p["kind"] == "json":
        if one_line:
            return json.dumps(p["doc"], ensure_ascii=False)
        return json.dumps(p["doc"], ensure_ascii=False, indent=rng.choice([2, 2, 4]))
    return p["text"]


def is_one_line(p: dict[str, Any]) -> bool:
    if p["kind"] == "json":
        return len(json.dumps(p["doc"], ensure_ascii=False)) <= 110
    return "\n" not in p["text"].strip()


def fence_lang(p: dict[str, Any], rng: random.Random) -> str:
    alts = {
        "json": ["json"],
        "yaml": ["yaml", "yaml", "yml"],
        "markdown": ["markdown", "md"],
        "sql": ["sql"],
        "python": ["python", "python", "py"],
    }
    return rng.choice(alts[p["kind"]])


def expect_for(
    family: str, p: dict[str, Any], options: dict[str, Any], gfm: bool
) -> dict[str, Any]:
    if family == "json_yaml":
        e = {"route": "zero", "check": "yaml_equals", "gold": p["doc"]}
    elif family == "yaml_json":
        e = {"route": "zero", "check": "json_equals", "gold": p["doc"]}
    elif family == "markdown_html":
        e = {
            "route": "zero",
            "check": "html_equals",
            "gold": golds.markdown_html(p["text"], tables=gfm),
        }
    elif family == "sql_pandas":
        tables = {t: payloads.SQL_TABLES[t] for t in p["tables"]}
        e = {
            "route": "zero",
            "check": "pandas_equals",
            "gold": {"sql": p["text"], "tables": tables},
        }
    else:
        e = {"route": "zero", "check": "ts_stdout", "gold": golds.python_stdout(p["text"])}
    if options:
        e["options"] = options
    return e


def draw_options(family: str, p: dict[str, Any], rng: random.Random) -> list[str]:
    if family == "markdown_html":
        return ["gfm"] if p.get("table") else []
    if family == "sql_pandas":
        return ["query"] if " WHERE " in p["text"] and rng.random() < 0.3 else []
    if family == "py_ts":
        has_def = "def " in p["text"] or "class " in p["text"]
        return ["jsdoc"] if has_def and rng.random() < 0.3 else []
    ok = json_options_ok if family == "json_yaml" else yaml_options_ok
    r = rng.random()
    # option sets and single options are drawn in shuffled rounds, so every one is used
    if r < 0.45:
        cycle = OPTION_CYCLES[family]["pairs" if r < 0.13 else "single"]
        for _ in range(len(cycle.items)):
            keys = cycle.next()
            keys = keys if isinstance(keys, tuple) else (keys,)
            if all(ok(k, p["doc"]) for k in keys):
                return list(keys)
    return []


OPTION_CYCLES: dict[str, dict[str, Cycle]] = {}


def init_option_cycles(rng: random.Random) -> None:
    for family in ("json_yaml", "yaml_json"):
        OPTION_CYCLES[family] = {
            "pairs": Cycle(COMPATIBLE[family], rng),
            "single": Cycle(list(OPTIONS[family]), rng),
        }


def choose_form(p: dict[str, Any], rng: random.Random) -> str:
    forms = dict(FORM_WEIGHTS)
    if not is_one_line(p):
        forms.pop("same_line")
    if p["kind"] not in ("json", "sql"):
        forms.pop("before_plain")  # a text payload followed by plain sentences is ambiguous
    names = list(forms)
    return rng.choices(names, weights=[forms[n] for n in names])[0]


def render_case(
    family: str,
    form: str,
    instruction: str,
    p: dict[str, Any],
    closing: str | None,
    lang: str,
    rng: random.Random,
    system_instruction: str | None = None,
) -> Rendered:
    flang = fence_lang(p, rng)
    text_payload = p["kind"] in ("yaml", "markdown", "python")
    multi_line = not is_one_line(p)
    if form == "same_line":
        return render(
            "same_line",
            instruction,
            payload_text(p, rng, one_line=True),
            flang,
            closing,
            rng=rng,
            ui_lang=lang,
        )
    body = payload_text(p, rng)
    if form == "unfenced" and text_payload and multi_line:
        closing = None  # the closing could belong to the payload
    if form == "wrap":
        closing = closing or rng.choice(CLOSINGS[family][lang])
        return wrap(
            instruction,
            body,
            flang,
            closing,
            rng=rng,
            ui_lang=lang,
            markers_ok=p["kind"] != "markdown",
        )
    if form == "earlier_turn":
        return earlier_turn(
            instruction, body, flang, closing, rng=rng, ui_lang=lang, kind=p["kind"]
        )
    if form == "system":
        return render(
            "system", system_instruction or instruction, body, flang, closing, rng=rng, ui_lang=lang
        )
    return render(form, instruction, body, flang, closing, rng=rng, ui_lang=lang)


def points_ahead(phrase: str) -> bool:
    """Whether the request points at a payload after it ("below", 以下, a closing colon)."""
    low = phrase.lower()
    return (
        any(w in low for w in ("below", "following", "下面", "以下"))
        or phrase.rstrip()[-1:] in ":："
    )


def half_of(case_id: str) -> str:
    return (
        "sealed"
        if hashlib.sha256(case_id.encode("utf-8")).digest()[0] < SEALED_SHARE * 256
        else "open"
    )


def build_family(family: str, rng: random.Random) -> list[dict[str, Any]]:
    plist = family_payloads(family)
    n = N_ACTIVE[family]
    n_zh = round(n * ZH_SHARE)
    langs = ["zh"] * n_zh + ["en"] * (n - n_zh)
    rng.shuffle(langs)
    phrases = {lg: Cycle(REQUESTS[family][lg], rng) for lg in ("en", "zh")}
    systems = {lg: Cycle(SYSTEM_PROMPTS[family][lg], rng) for lg in ("en", "zh")}
    closings = {lg: Cycle(CLOSINGS[family][lg], rng) for lg in ("en", "zh")}
    asides = {lg: Cycle(ASIDES[family][lg], rng) for lg in ("en", "zh")}
    # table documents only with the GitHub-style ask: keep them a small, fixed share
    plain = [p for p in plist if not p.get("table")]
    tables = [p for p in plist if p.get("table")]
    zh_first = [p for p in plain if p["non_ascii"]]
    pay = {
        "en": Cycle(plain, rng),
        "zh": Cycle(plain, rng),
        "zh_native": Cycle(zh_first or plain, rng),
    }
    table_cycle = Cycle(tables, rng) if tables else None
    cases: list[dict[str, Any]] = []
    for i, lang in enumerate(langs):
        if table_cycle and i % 6 == 5:
            p = table_cycle.next()
        elif lang == "zh" and rng.random() < 0.35:
            p = pay["zh_native"].next()
        else:
            p = pay[lang].next()
        form = choose_form(p, rng)
        phrase = phrases[lang].next()
        if form in ("before", "before_plain", "earlier_turn", "same_line") and points_ahead(phrase):
            form = rng.choice(["fenced", "template", "wrap"])  # "below" needs the payload after it
        system_instruction = systems[lang].next() if form == "system" else None
        opt_keys = draw_options(family, p, rng)
        options: dict[str, Any] = {}
        instruction = phrase
        base_for_system = system_instruction
        for key in opt_keys:
            opts, en, zh = OPTIONS[family][key]
            options.update(opts)
            clause = rng.choice(en if lang == "en" else zh)
            instruction = with_option(instruction, clause, lang)
            if base_for_system:
                base_for_system = _sentence_join(base_for_system, clause, lang)
        if rng.random() < 0.22:
            aside = asides[lang].next()
            instruction = with_aside(instruction, aside, lang, rng)
        if rng.random() < 0.08 and form not in ("system", "wrap"):
            instruction = greet(instruction, lang, rng)
        closing = closings[lang].next() if rng.random() < 0.45 else None
        rendered = render_case(family, form, instruction, p, closing, lang, rng, base_for_system)
        gfm = "gfm" in opt_keys
        cases.append(
            {
                "category": family,
                "lang": lang,
                "request": _request(rendered),
                "expect": expect_for(family, p, {k: v for k, v in options.items()}, gfm),
                "form": rendered.form,
                "phrase": system_instruction if form == "system" else phrase,
            }
        )
    neg_forms = [
        "fenced",
        "fenced",
        "fenced_bare",
        "unfenced",
        "before",
        "template",
        "earlier_turn",
        "wrap",
    ]
    for lang, instruction, why, index in NEGATIVES[family]:
        p = plist[index] if index is not None else rng.choice(plain)
        form = rng.choice(neg_forms)
        if form == "unfenced" and p["kind"] in ("yaml", "markdown", "python"):
            form = "fenced"
        if form == "wrap":
            rendered = wrap(
                instruction,
                payload_text(p, rng),
                fence_lang(p, rng),
                "",
                rng=rng,
                ui_lang=lang,
                markers_ok=p["kind"] != "markdown",
            )
        else:
            rendered = render_case(family, form, instruction, p, None, lang, rng)
        cases.append(
            {
                "category": family,
                "lang": lang,
                "request": _request(rendered),
                "expect": {"route": "neural", "check": "route_only"},
                "form": rendered.form,
                "phrase": instruction,
                "why": why,
            }
        )
    rng.shuffle(cases)
    out = []
    for number, case in enumerate(cases, 1):
        case_id = f"f2-{family}-{number:02d}"
        out.append({"id": case_id, **case, "half": half_of(case_id)})
    return out


def _request(rendered: Rendered) -> dict[str, Any]:
    body: dict[str, Any] = {"max_tokens": 1024, "messages": rendered.messages}
    if rendered.system:
        body["system"] = rendered.system
    return body


def build() -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    init_option_cycles(rng)
    cases: list[dict[str, Any]] = []
    for family in ("json_yaml", "yaml_json", "markdown_html", "sql_pandas", "py_ts"):
        cases += build_family(family, rng)
    return cases


def main() -> int:
    cases = build()
    with OUT.open("w", encoding="utf-8") as f:
        for case in cases:
            f.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
