"""Payloads of the paraphrase corpus: data as users paste it, per family.

Every payload is plain data; the golds are computed from it by the reference tools in
``golds.py``. Values are chosen so that every sort has no ties and every YAML document reads
the same under YAML 1.1 and 1.2 (no dates, no yes/no, no leading zeros).
"""

from __future__ import annotations

from typing import Any

# ---------------------------------------------------------------- JSON documents (config-like)

JSON_DOCS: list[Any] = [
    {"name": "billing-service", "port": 8080, "debug": False, "replicas": 3},
    {
        "server": {"host": "0.0.0.0", "port": 443, "tls": True},
        "database": {"url": "postgres://db:5432/app", "pool": 10},
        "features": ["search", "export"],
    },
    {
        "id": 42,
        "title": "Quarterly report",
        "tags": ["finance", "q3", "internal"],
        "author": {"name": "Maria Lopez", "email": "maria@example.org"},
        "published": True,
    },
    {
        "version": "2.1",
        "services": {
            "web": {"image": "nginx:1.25", "ports": ["80:80", "443:443"]},
            "cache": {"image": "redis:7", "ports": ["6379:6379"]},
        },
    },
    {"user": "张伟", "city": "上海", "hobbies": ["篮球", "摄影"], "age": 31},
    {
        "zeta": 1,
        "alpha": {"delta": True, "beta": "x"},
        "mu": [3, 1, 2],
        "kappa": None,
    },
    {
        "order_id": "A-1009",
        "items": [
            {"sku": "KB-01", "qty": 2, "price": 49.5},
            {"sku": "MS-07", "qty": 1, "price": 19.99},
        ],
        "paid": True,
        "note": "leave at the door",
    },
    {
        "logging": {"level": "info", "format": "json", "outputs": ["stdout", "file"]},
        "retries": 5,
        "timeout_seconds": 2.5,
    },
    {"matrix": [[1, 2], [3, 4]], "label": "identity-ish", "empty": [], "nothing": {}},
    {
        "project": "atlas",
        "owners": ["kim", "ravi"],
        "limits": {"cpu": "500m", "memory": "256Mi"},
        "env": {"STAGE": "prod", "REGION": "eu-west-1"},
    },
    {"quote": 'She said "hi"', "path": "C:\\temp\\logs", "colon": "a: b", "hash": "#1"},
    {"product": "咖啡机", "price": 899, "in_stock": True, "colors": ["黑色", "银色"]},
]

# ---------------------------------------------------------------- YAML documents

YAML_DOCS: list[str] = [
    "name: billing-service\nport: 8080\ndebug: false\nreplicas: 3\n",
    "server:\n  host: localhost\n  port: 5432\ncredentials:\n  user: admin\n  password: s3cret\n",
    "fruits:\n  - apple\n  - banana\n  - cherry\ncount: 3\n",
    (
        "app:\n  name: shop\n  version: '1.4'\n  features:\n    - cart\n    - wishlist\n"
        "db:\n  host: db.internal\n  port: 3306\n"
    ),
    "城市: 北京\n人口: 21540000\n区县:\n  - 朝阳\n  - 海淀\n",
    (
        "steps:\n  - name: checkout\n    uses: actions/checkout\n"
        "  - name: test\n    run: pytest -q\non_push: true\n"
    ),
    "zebra: 1\napple: 2\nmango:\n  pear: 3\n  banana: 4\n",
    "title: Notes\nitems: []\nmeta: {}\nratio: 0.75\nenabled: true\nowner: null\n",
    "user:\n  name: 李娜\n  email: lina@example.cn\n  roles:\n    - editor\n    - reviewer\n",
    "thresholds:\n  warn: 70\n  crit: 90\nunits: percent\nchannels: [email, sms]\n",
]

# ---------------------------------------------------------------- record arrays for queries

EMPLOYEES: list[dict[str, Any]] = [
    {"id": 1, "name": "Alice", "dept": "Engineering", "salary": 125000, "age": 34},
    {"id": 2, "name": "Bob", "dept": "Sales", "salary": 68000, "age": 45},
    {"id": 3, "name": "Carmen", "dept": "Engineering", "salary": 142000, "age": 29},
    {"id": 4, "name": "Dev", "dept": "Marketing", "salary": 71000, "age": 38},
    {"id": 5, "name": "Erin", "dept": "Sales", "salary": 83000, "age": 26},
    {"id": 6, "name": "Farid", "dept": "Engineering", "salary": 99000, "age": 41},
]

PRODUCTS: list[dict[str, Any]] = [
    {"sku": "P-100", "name": "Desk lamp", "price": 39.9, "stock": 12},
    {"sku": "P-101", "name": "Office chair", "price": 249.0, "stock": 4},
    {"sku": "P-102", "name": "Monitor arm", "price": 89.5, "stock": 30},
    {"sku": "P-103", "name": "Keyboard", "price": 129.0, "stock": 18},
    {"sku": "P-104", "name": "Mouse pad", "price": 12.5, "stock": 55},
]

FLIGHTS: list[dict[str, Any]] = [
    {"code": "LH401", "from": "FRA", "to": "JFK", "price": 612, "hours": 8.5},
    {"code": "BA117", "from": "LHR", "to": "JFK", "price": 548, "hours": 8.0},
    {"code": "AF22", "from": "CDG", "to": "JFK", "price": 701, "hours": 8.3},
    {"code": "KL641", "from": "AMS", "to": "JFK", "price": 489, "hours": 8.7},
]

CITIES: list[dict[str, Any]] = [
    {"name": "Lagos", "country": "Nigeria", "population": 15388000},
    {"name": "Osaka", "country": "Japan", "population": 19059000},
    {"name": "Lima", "country": "Peru", "population": 10883000},
    {"name": "Cairo", "country": "Egypt", "population": 22183000},
    {"name": "Madrid", "country": "Spain", "population": 6751000},
]

RECORD_SETS: dict[str, list[dict[str, Any]]] = {
    "employees": EMPLOYEES,
    "products": PRODUCTS,
    "flights": FLIGHTS,
    "cities": CITIES,
}

# ---------------------------------------------------------------- SQL with its tables

SQL_TABLES: dict[str, dict[str, Any]] = {
    "orders": {
        "columns": ["id", "customer", "amount", "status", "region"],
        "rows": [
            [1, "acme", 250.0, "paid", "EU"],
            [2, "globex", 90.5, "open", "US"],
            [3, "acme", 410.0, "paid", "US"],
            [4, "initech", 35.0, "cancelled", "EU"],
            [5, "globex", 180.0, "paid", "EU"],
            [6, "umbrella", 720.0, "open", "APAC"],
        ],
    },
    "customers": {
        "columns": ["name", "country", "tier"],
        "rows": [
            ["acme", "DE", "gold"],
            ["globex", "US", "silver"],
            ["initech", "FR", "bronze"],
            ["umbrella", "SG", "gold"],
        ],
    },
    "employees": {
        "columns": ["emp_id", "name", "dept", "salary"],
        "rows": [
            [1, "Ana", "eng", 120],
            [2, "Ben", "ops", 80],
            [3, "Cy", "eng", 135],
            [4, "Dee", "sales", 95],
            [5, "Eli", "ops", 70],
        ],
    },
}

# (sql, tables it needs)
SQL_QUERIES: list[tuple[str, tuple[str, ...]]] = [
    ("SELECT customer, amount FROM orders WHERE amount > 100", ("orders",)),
    ("SELECT * FROM orders WHERE status = 'paid' ORDER BY amount DESC", ("orders",)),
    ("SELECT region, SUM(amount) AS total FROM orders GROUP BY region", ("orders",)),
    ("SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer ORDER BY customer", ("orders",)),
    ("SELECT name, salary FROM employees ORDER BY salary DESC LIMIT 3", ("employees",)),
    ("SELECT dept, AVG(salary) AS avg_salary FROM employees GROUP BY dept", ("employees",)),
    (
        "SELECT o.id, o.amount, c.tier FROM orders o JOIN customers c ON o.customer = c.name "
        "WHERE c.tier = 'gold'",
        ("orders", "customers"),
    ),
    ("SELECT DISTINCT region FROM orders", ("orders",)),
    ("SELECT id, customer FROM orders WHERE status IN ('open', 'cancelled')", ("orders",)),
    ("SELECT name FROM employees WHERE dept = 'ops' AND salary >= 75", ("employees",)),
    (
        "SELECT status, MAX(amount) AS biggest FROM orders GROUP BY status HAVING COUNT(*) > 1",
        ("orders",),
    ),
    ("SELECT name, country FROM customers WHERE name LIKE 'g%'", ("customers",)),
]

# ---------------------------------------------------------------- Markdown documents

MARKDOWN_DOCS: list[str] = [
    "# Release notes\n\nThis release fixes **two** bugs and adds *one* feature.\n",
    "## Setup\n\n1. Install Python\n2. Run `pip install -r requirements.txt`\n3. Start the app\n",
    "Read the [docs](https://example.com/docs) before you start.\n\n> Note: the API is in beta.\n",
    "### Shopping list\n\n- milk\n- eggs\n- bread\n",
    "Here is a snippet:\n\n```python\nprint('hello')\n```\n\nThat's all.\n",
    "# 项目简介\n\n这是一个**开源**项目。\n\n- 快速\n- 稳定\n",
    "Line one\n\n---\n\nLine two with `code` and _emphasis_.\n",
    "## FAQ\n\n**Q:** Is it free?\n\n**A:** Yes, under the MIT license.\n",
    "1. First\n   - nested a\n   - nested b\n2. Second\n",
    'An image: ![logo](logo.png "Logo")\n',
]

# Markdown with a pipe table (rendered with tables only when the user asks for GitHub style).
MARKDOWN_TABLE_DOCS: list[str] = [
    "| name | score |\n| --- | --- |\n| Ann | 91 |\n| Raj | 78 |\n",
    "### Prices\n\n| item | price |\n| --- | --- |\n| tea | 3 |\n| cake | 5 |\n",
]

# ---------------------------------------------------------------- Python programs

PYTHON_PROGRAMS: list[str] = [
    'def greet(name):\n    return "Hello, " + name + "!"\n\n\nprint(greet("Ada"))\n',
    "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n"
    "    return a\n\n\nfor i in range(8):\n    print(fib(i))\n",
    "nums = [5, 3, 8, 1]\ntotal = 0\nfor n in nums:\n    total += n\nprint(total)\n"
    "print(max(nums), min(nums))\n",
    "def is_even(n: int) -> bool:\n    return n % 2 == 0\n\n\n"
    "print([x for x in range(10) if is_even(x)])\n",
    "class Counter:\n    def __init__(self):\n        self.count = 0\n\n"
    "    def inc(self):\n        self.count += 1\n        return self.count\n\n\n"
    "c = Counter()\nc.inc()\nc.inc()\nprint(c.count)\n",
    'words = ["pear", "fig", "banana"]\nfor w in sorted(words):\n    print(w.upper(), len(w))\n',
    "def area(w, h=2):\n    return w * h\n\n\nprint(area(3))\nprint(area(3, 5))\n",
    'prices = {"tea": 3, "cake": 5}\nfor k in prices:\n    print(f"{k}: {prices[k]}")\n',
    "i = 10\nwhile i > 0:\n    i -= 3\nprint(i)\n",
    'def label(score):\n    if score >= 90:\n        return "A"\n    elif score >= 75:\n'
    '        return "B"\n    return "C"\n\n\nfor s in [95, 80, 60]:\n    print(label(s))\n',
]

# ---------------------------------------------------------------- tables and texts for context

# (header, rows): last-year / this-year style columns
GROWTH_TABLES: list[tuple[list[str], list[list[str]]]] = [
    (
        ["product", "last year", "this year"],
        [["Widgets", "1200", "1500"], ["Gadgets", "800", "740"]],
    ),
    (
        ["region", "2023", "2024"],
        [["North", "400", "460"], ["South", "250", "230"], ["West", "90", "117"]],
    ),
    (
        ["store", "last year", "this year"],
        [["Berlin", "2,400", "2,760"], ["Munich", "1,600", "1,712"]],
    ),
    (["渠道", "去年", "今年"], [["线上", "500", "640"], ["线下", "300", "270"]]),
    (
        ["team", "2022", "2023"],
        [["Alpha", "75", "84"], ["Beta", "60", "57"], ["Gamma", "30", "41"]],
    ),
]

TEXTS_EN: list[list[str]] = [
    [
        "Our office will be closed on Monday for maintenance.",
        "During the closure, support requests will be answered by email only.",
        "Normal opening hours resume on Tuesday at 9am.",
    ],
    [
        "The first step is to collect the raw data from every branch.",
        "Next, the data is cleaned: duplicates are removed and missing values flagged.",
        "Finally, the cleaned data is loaded into the warehouse every night.",
        "Questions about the pipeline go to the data team.",
    ],
]

TEXTS_ZH: list[list[str]] = [
    [
        "本周五下午三点将进行系统升级。",
        "升级期间，所有在线服务将暂停约两小时。",
        "如有疑问，请联系运维部门。",
    ],
    [
        "公司年会定于十二月二十日举行。",
        "请各部门在本月底前提交节目名单。",
        "年会当天提供晚餐和交通补贴。",
    ],
]

QUESTIONS_EN: list[str] = [
    "How do I reverse a list in Python?",
    "What is the capital of Australia?",
    "Can you recommend a good book on statistics?",
]

QUESTIONS_ZH: list[str] = [
    "怎么在Python里反转一个列表？",
    "澳大利亚的首都是哪里？",
]
