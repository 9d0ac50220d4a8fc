"""How users word their requests: phrasing lists per family, in English and Chinese.

Written as people type into a chat box (casual, terse, polite, indirect, with the target named
as a noun phrase), independently of zerolayer's grammar. Each list is composed with payloads
and message forms by ``build.py``; nothing here knows what the engine understands.
"""

from __future__ import annotations

from typing import Any

Phrase = tuple[str, str]  # (lang, text)

# ---------------------------------------------------------------- JSON → YAML

JSON_YAML: list[Phrase] = [
    ("en", "Convert this JSON to YAML"),
    ("en", "convert to yaml"),
    ("en", "Can you turn this JSON into YAML?"),
    ("en", "hey can u make this yaml"),
    ("en", "I need this in YAML"),
    ("en", "json -> yaml"),
    ("en", "JSON to YAML please"),
    ("en", "Give me the YAML version of this JSON"),
    ("en", "What's the YAML equivalent of this?"),
    ("en", "Rewrite the following JSON as YAML"),
    ("en", "pls convert json to yml"),
    ("en", "Could you translate this JSON config into YAML format"),
    ("en", "Change this from JSON to YAML"),
    ("en", "YAML please"),
    ("en", "Transform the JSON below into YAML"),
    ("en", "need a yaml version of this payload"),
    ("en", "Make this YAML instead of JSON"),
    ("en", "Re-express this as YAML"),
    ("en", "json in, yaml out"),
    ("en", "Express this JSON document in YAML syntax"),
    ("en", "I'm moving our config over to YAML, convert this for me"),
    ("en", "Output this object as YAML"),
    ("en", "Serialize this as YAML"),
    ("en", "Port this JSON over to YAML"),
    ("en", "What would this look like in YAML?"),
    ("en", "JSON ➜ YAML"),
    ("zh", "把这段JSON转成YAML"),
    ("zh", "转换成YAML格式"),
    ("zh", "帮我把下面的JSON转换为YAML"),
    ("zh", "JSON转YAML"),
    ("zh", "请将以下JSON改写成YAML"),
    ("zh", "这个json换成yaml"),
    ("zh", "给我这个的YAML版本"),
    ("zh", "把它转成yaml格式吧"),
    ("zh", "用YAML表示下面的JSON"),
    ("zh", "麻烦转成YAML"),
    ("zh", "json 转 yml"),
    ("zh", "能把这个改成YAML吗"),
]

# (lang, text, options for yaml_equals)
JSON_YAML_OPTIONS: list[tuple[str, str, dict[str, Any]]] = [
    ("en", "use 4-space indentation", {"indent": 4}),
    ("en", "indent with four spaces", {"indent": 4}),
    ("en", "nested mappings indented by 4 spaces", {"indent": 4}),
    ("en", "2 space indent", {"indent": 2}),
    ("en", "put every string in double quotes", {"quote": "double"}),
    ("en", "double-quote all the string values", {"quote": "double"}),
    ("en", "strings in single quotes", {"quote": "single"}),
    ("en", "sort the keys alphabetically", {"sort_keys": True}),
    ("en", "with the keys in alphabetical order", {"sort_keys": True}),
    ("en", "alphabetise the keys at every level", {"sort_keys": True}),
    ("en", "no inline lists, use block style", {"seq_style": "block"}),
    ("en", "don't use the [a, b] flow style for lists", {"seq_style": "block"}),
    ("en", "keep lists inline like [a, b]", {"seq_style": "flow"}),
    ("en", "use flow style for sequences", {"seq_style": "flow"}),
    ("zh", "缩进用4个空格", {"indent": 4}),
    ("zh", "四个空格缩进", {"indent": 4}),
    ("zh", "缩进两个空格就行", {"indent": 2}),
    ("zh", "字符串都用双引号", {"quote": "double"}),
    ("zh", "所有字符串值加单引号", {"quote": "single"}),
    ("zh", "键按字母顺序排序", {"sort_keys": True}),
    ("zh", "key按字母排个序", {"sort_keys": True}),
    ("zh", "列表不要用方括号那种行内写法", {"seq_style": "block"}),
    ("zh", "列表用块格式", {"seq_style": "block"}),
    ("zh", "列表用行内写法，比如 [a, b]", {"seq_style": "flow"}),
]

# ---------------------------------------------------------------- YAML → JSON

YAML_JSON: list[Phrase] = [
    ("en", "Convert this YAML to JSON"),
    ("en", "yaml to json pls"),
    ("en", "Can you give me this as JSON?"),
    ("en", "I need the JSON version of this YAML"),
    ("en", "turn this yaml into json"),
    ("en", "YAML -> JSON"),
    ("en", "What's the JSON equivalent of the YAML below?"),
    ("en", "Rewrite this config as JSON"),
    ("en", "Convert the following YAML file into JSON format"),
    ("en", "JSON please"),
    ("en", "make it json"),
    ("en", "Could you transform this YAML snippet to JSON for me"),
    ("en", "parse this yaml and give me json"),
    ("en", "I want this in JSON instead of YAML"),
    ("en", "yml in, json out"),
    ("en", "Translate this YAML document into JSON"),
    ("en", "Express the following YAML as a JSON object"),
    ("en", "need it as json so I can paste it into my API call"),
    ("zh", "把这段YAML转成JSON"),
    ("zh", "YAML转JSON"),
    ("zh", "帮我把下面的yaml转换成json"),
    ("zh", "请将以下YAML改写为JSON格式"),
    ("zh", "转成json"),
    ("zh", "这个yml换成json格式"),
    ("zh", "给我这段配置的JSON版本"),
    ("zh", "用JSON表示下面的YAML"),
    ("zh", "能帮我转成JSON吗"),
]

# (lang, text, options for json_equals; "needs_unicode": only for payloads with non-ASCII)
YAML_JSON_OPTIONS: list[tuple[str, str, dict[str, Any]]] = [
    ("en", "indent 2 spaces", {"indent": 2}),
    ("en", "pretty-printed with 4-space indentation", {"indent": 4}),
    ("en", "use an indent of 4", {"indent": 4}),
    ("en", "sort the keys", {"sort_keys": True}),
    ("en", "keys sorted alphabetically", {"sort_keys": True}),
    ("en", "minified, on a single line", {"single_line": True}),
    ("en", "compact one-line JSON", {"single_line": True}),
    ("en", "keep non-ASCII characters as they are, don't escape them", {"ensure_ascii": False}),
    ("en", "no \\u escapes for the Chinese text", {"ensure_ascii": False}),
    ("en", "escape all non-ASCII characters", {"ascii_only": True}),
    ("zh", "缩进2个空格", {"indent": 2}),
    ("zh", "缩进用4个空格", {"indent": 4}),
    ("zh", "键按字母顺序排列", {"sort_keys": True}),
    ("zh", "压缩成一行", {"single_line": True}),
    ("zh", "中文不要转义成\\u编码", {"ensure_ascii": False}),
    ("zh", "保留中文原样，不要转义", {"ensure_ascii": False}),
]

# ---------------------------------------------------------------- SQL → pandas

SQL_PANDAS: list[Phrase] = [
    ("en", "Convert this SQL to pandas"),
    ("en", "what's the pandas equivalent of this query?"),
    ("en", "Rewrite this query in pandas"),
    ("en", "pandas code for:"),
    ("en", "How would I write this SQL in pandas?"),
    ("en", "translate this SQL into pandas dataframe code"),
    ("en", "sql -> pandas pls"),
    ("en", "Give me the pandas version of this query"),
    ("en", "I need this query as pandas code"),
    ("en", "Can you port this SQL to Python pandas?"),
    ("en", "Turn this SELECT into pandas operations"),
    ("en", "Express this query using pandas"),
    ("en", "do this in pandas instead of sql"),
    ("en", "convert the following SQL query to equivalent pandas code"),
    ("zh", "把这段SQL转成pandas代码"),
    ("zh", "用pandas实现这个SQL"),
    ("zh", "这段SQL翻成pandas"),
    ("zh", "SQL转pandas"),
    ("zh", "请把下面的查询改写成pandas"),
    ("zh", "这个查询用pandas怎么写"),
    ("zh", "帮我把SQL转换为等价的pandas代码"),
]

SQL_PANDAS_OPTIONS: list[tuple[str, str, dict[str, Any]]] = [
    ("en", "use df.query() for the filter", {"uses_query": True}),
    ("en", "using the .query() method", {"uses_query": True}),
    ("zh", "过滤用df.query()", {"uses_query": True}),
]

# ---------------------------------------------------------------- Markdown → HTML

MARKDOWN_HTML: list[Phrase] = [
    ("en", "Convert this Markdown to HTML"),
    ("en", "md to html"),
    ("en", "Render this markdown as HTML"),
    ("en", "What HTML does this Markdown produce?"),
    ("en", "Give me the HTML for this"),
    ("en", "turn this markdown into html pls"),
    ("en", "I need the HTML version of this README snippet"),
    ("en", "Can you convert the following Markdown into HTML markup?"),
    ("en", "markdown -> html"),
    ("en", "Output this as HTML"),
    ("en", "Translate this MD to HTML"),
    ("en", "compile this markdown to html"),
    ("en", "what would this markdown look like as raw html"),
    ("zh", "把这段Markdown转成HTML"),
    ("zh", "markdown转html"),
    ("zh", "帮我把下面的md渲染成HTML"),
    ("zh", "请将以下Markdown转换为HTML"),
    ("zh", "转成HTML"),
    ("zh", "这段markdown对应的HTML是什么"),
]

MARKDOWN_GFM: list[tuple[str, str]] = [
    ("en", "GitHub-flavored, so the table renders"),
    ("en", "use GFM"),
    ("zh", "用GitHub风格的Markdown（GFM）"),
]

# ---------------------------------------------------------------- Python → TypeScript

PY_TS: list[Phrase] = [
    ("en", "Convert this Python to TypeScript"),
    ("en", "port this to TS"),
    ("en", "Rewrite this script in TypeScript"),
    ("en", "What's the TypeScript version of this script?"),
    ("en", "python -> typescript pls"),
    ("en", "Can you translate this Python code into TypeScript?"),
    ("en", "I need this function in TypeScript"),
    ("en", "Give me the TS equivalent of this Python"),
    ("en", "turn this py into typescript"),
    ("en", "convert the following python code to typescript"),
    ("en", "same thing but in TypeScript"),
    ("zh", "把这段Python代码转成TypeScript"),
    ("zh", "用TypeScript重写这段代码"),
    ("zh", "Python转TS"),
    ("zh", "帮我把下面的python翻译成typescript"),
    ("zh", "这段代码的TypeScript版本"),
]

PY_TS_OPTIONS: list[tuple[str, str, dict[str, Any]]] = [
    ("en", "add JSDoc comments", {"jsdoc": True}),
    ("en", "with JSDoc on the functions", {"jsdoc": True}),
    ("zh", "加上JSDoc注释", {"jsdoc": True}),
]

# ---------------------------------------------------------------- closing sentences

CLOSINGS: dict[str, list[Phrase]] = {
    "yaml": [
        ("en", "Return only the YAML."),
        ("en", "Just the YAML, no explanation."),
        ("en", "Output YAML only, nothing else."),
        ("en", "no commentary pls"),
        ("zh", "只返回YAML。"),
        ("zh", "不要解释，直接给结果。"),
        ("zh", "只要YAML，别的不用说。"),
    ],
    "json": [
        ("en", "Return only the JSON."),
        ("en", "Only output valid JSON, no prose."),
        ("en", "Reply with the JSON and nothing else."),
        ("zh", "只返回JSON"),
        ("zh", "不要解释"),
        ("zh", "直接输出JSON就行。"),
    ],
    "code": [
        ("en", "Only the code please."),
        ("en", "No explanation needed, just code."),
        ("zh", "只给代码，不要解释。"),
        ("zh", "只返回代码"),
    ],
    "html": [
        ("en", "Only return the HTML."),
        ("en", "Just the markup, no commentary."),
        ("zh", "只返回HTML"),
        ("zh", "不用解释"),
    ],
}

# ---------------------------------------------------------------- JSON queries

# Field words per language (English keys shown as users name them).
FIELD_WORDS: dict[str, dict[str, list[str]]] = {
    "salary": {"en": ["salary", "pay"], "zh": ["薪资", "工资", "salary"]},
    "age": {"en": ["age"], "zh": ["年龄", "age"]},
    "price": {"en": ["price", "cost"], "zh": ["价格", "price"]},
    "stock": {"en": ["stock", "stock level"], "zh": ["库存", "stock"]},
    "population": {"en": ["population"], "zh": ["人口", "population"]},
    "hours": {"en": ["flight time", "hours"], "zh": ["飞行时长", "hours"]},
    "id": {"en": ["id"], "zh": ["id"]},
}

SORT_DESC: list[Phrase] = [
    ("en", "sort by {f} descending"),
    ("en", "order by {f}, highest first"),
    ("en", "sort these by {f} from high to low"),
    ("en", "can you sort the list by {f} desc"),
    ("en", "arrange them by {f} in descending order"),
    ("en", "{f} descending pls"),
    ("en", "sort it so the biggest {f} comes first"),
    ("zh", "按{f}降序排序"),
    ("zh", "按{f}从高到低排"),
    ("zh", "根据{f}倒序排列"),
    ("zh", "按{f}从大到小排一下"),
]

SORT_ASC: list[Phrase] = [
    ("en", "sort by {f} ascending"),
    ("en", "order by {f}, lowest first"),
    ("en", "sort by {f} low to high"),
    ("en", "sort them by {f}, smallest first"),
    ("en", "put them in ascending order of {f}"),
    ("en", "sort by {f} asc"),
    ("zh", "按{f}升序排序"),
    ("zh", "按{f}从低到高排"),
    ("zh", "按{f}从小到大排一下"),
]

TOP_DESC: list[Phrase] = [
    ("en", "top {n} by {f}"),
    ("en", "give me the {n} entries with the highest {f}"),
    ("en", "which {n} have the highest {f}? return the full records"),
    ("en", "the {n} with the biggest {f}, highest first"),
    ("zh", "{f}最高的{n}条"),
    ("zh", "按{f}取前{n}名"),
    ("zh", "找出{f}最高的{n}个，完整记录"),
]

TOP_ASC: list[Phrase] = [
    ("en", "the {n} with the lowest {f}"),
    ("en", "bottom {n} by {f}"),
    ("en", "give me the {n} records with the smallest {f}, lowest first"),
    ("zh", "{f}最低的{n}条"),
    ("zh", "{f}最少的{n}个"),
]

PROJECT: list[Phrase] = [
    ("en", "keep only {fs}"),
    ("en", "just the {fs} fields"),
    ("en", "only return {fs} for each item"),
    ("en", "drop everything except {fs}"),
    ("en", "strip each object down to {fs}"),
    ("zh", "只保留{fs}字段"),
    ("zh", "只要{fs}"),
    ("zh", "每条只留{fs}"),
]

FILTER_GT: list[Phrase] = [
    ("en", "only the ones with {f} over {v}"),
    ("en", "filter to {f} > {v}"),
    ("en", "where {f} is greater than {v}"),
    ("en", "just the items whose {f} is above {v}"),
    ("zh", "{f}大于{v}的"),
    ("zh", "只要{f}超过{v}的"),
]

FILTER_LT: list[Phrase] = [
    ("en", "only those with {f} under {v}"),
    ("en", "where {f} < {v}"),
    ("en", "filter for {f} less than {v}"),
    ("zh", "{f}小于{v}的"),
    ("zh", "只要{f}低于{v}的"),
]

FILTER_EQ: list[Phrase] = [
    ("en", "only the ones where {f} is {v}"),
    ("en", "filter by {f} = {v}"),
    ("en", "just the {v} ones"),
    ("zh", "只要{f}是{v}的"),
    ("zh", "筛选{f}为{v}的记录"),
]

LIMIT: list[Phrase] = [
    ("en", "first {n} only"),
    ("en", "just the first {n} entries"),
    ("en", "limit to {n}"),
    ("zh", "只要前{n}条"),
    ("zh", "取前{n}个"),
]

COUNT_Q: list[Phrase] = [
    ("en", "How many {things} have {f} over {v}? Just the number."),
    ("en", "count the {things} with {f} above {v}, bare integer please"),
    ("zh", "{f}大于{v}的{things}有几个？只回答数字。"),
]

EXTREME_Q: list[Phrase] = [
    ("en", "What's the highest {f} in this list? number only"),
    ("en", "what is the max {f}? reply with just the value"),
    ("zh", "最高的{f}是多少？只给数字"),
]

EXTREME_MIN_Q: list[Phrase] = [
    ("en", "What's the lowest {f}? just the number"),
    ("zh", "最低的{f}是多少？只回答数字"),
]

THINGS: dict[str, dict[str, str]] = {
    "employees": {"en": "employees", "zh": "员工"},
    "products": {"en": "products", "zh": "商品"},
    "flights": {"en": "flights", "zh": "航班"},
    "cities": {"en": "cities", "zh": "城市"},
}

QUERY_INTROS: list[Phrase] = [
    ("en", "Here's a JSON array."),
    ("en", "Given this data,"),
    ("en", "From the list below,"),
    ("zh", "下面是一个JSON数组。"),
    ("zh", "对下面的数据，"),
]

JOIN_EN = [", then ", " and ", ", ", ". Then "]
JOIN_ZH = ["，然后", "，再", "，"]

# "as YAML" tails that make a query a compound request
AS_YAML: list[Phrase] = [
    ("en", "and give me the result as YAML"),
    ("en", "then output YAML"),
    ("en", "then convert it to yaml"),
    ("en", "return it in YAML format"),
    ("zh", "最后转成YAML"),
    ("zh", "结果用YAML输出"),
]

AS_JSON: list[Phrase] = [
    ("en", "and give me JSON"),
    ("en", "then output it as JSON"),
    ("zh", "然后转成JSON"),
    ("zh", "输出JSON"),
]

# compound conversions: conversion + an option clause joined as a second step
COMPOUND_JSON_YAML: list[tuple[str, str, dict[str, Any]]] = [
    ("en", "convert to YAML and sort keys", {"sort_keys": True}),
    ("en", "turn this into YAML, then sort all the keys alphabetically", {"sort_keys": True}),
    ("en", "sort the keys and then give me YAML", {"sort_keys": True}),
    ("en", "convert it to yaml and put the strings in double quotes", {"quote": "double"}),
    ("zh", "转成YAML，并且把键按字母排序", {"sort_keys": True}),
    ("zh", "先把key排序，再转成yaml", {"sort_keys": True}),
    ("zh", "转成YAML，字符串全部用双引号", {"quote": "double"}),
]

COMPOUND_YAML_JSON: list[tuple[str, str, dict[str, Any]]] = [
    ("en", "convert to JSON and sort the keys", {"sort_keys": True}),
    ("en", "yaml to json, then indent it with 2 spaces", {"indent": 2}),
    ("en", "sort keys alphabetically and output as JSON", {"sort_keys": True}),
    ("zh", "转成JSON，然后键排序", {"sort_keys": True}),
    ("zh", "转JSON并缩进4个空格", {"indent": 4}),
]

# ---------------------------------------------------------------- context

GROWTH: list[tuple[str, str, str | None, int]] = [
    # (lang, text, column name the user gives or None, decimals)
    ("en", "add a YoY column to the table above, 2 decimals", "YoY", 2),
    ("en", "Can you add a YoY column to that table? 1 decimal place", "YoY", 1),
    ("en", "add a column called Growth with the year-over-year change, two decimals", "Growth", 2),
    ("en", "to the table you just gave me, add YoY % rounded to 2 decimals", "YoY", 2),
    (
        "en",
        "add YoY growth to the table from earlier, (this year - last year) / last year, 2dp",
        None,
        2,
    ),
    ("en", "append a YoY column, whole percentages", "YoY", 0),
    ("zh", "在上面的表格里加一列同比，保留两位小数", "同比", 2),
    ("zh", "给刚才的表加一列同比增长率，保留1位小数", None, 1),
    ("zh", "上表新增一列YoY，两位小数", "YoY", 2),
]

PARAGRAPH_EN: list[tuple[str, int]] = [
    ("Return the second paragraph of the text above verbatim.", 2),
    ("what's paragraph 3 of what I pasted? word for word", 3),
    ("give me the last paragraph of the text I pasted, exactly as written", -1),
    ("Quote the first paragraph above, nothing else.", 1),
    ("paragraph two of that notice, verbatim pls", 2),
]

PARAGRAPH_ZH: list[tuple[str, int]] = [
    ("原样返回上面文字的第二段", 2),
    ("上面那段话的第3段是什么？原文给我", 3),
    ("把上文最后一段原封不动地发给我", -1),
    ("给我上面文字的第一段，原文", 1),
]

FIRST_QUESTION: list[Phrase] = [
    ("en", "What was the first question I asked in this conversation?"),
    ("en", "remind me what I asked first"),
    ("en", "repeat my first question exactly"),
    ("en", "Quote my very first question back to me, verbatim."),
    ("zh", "我问的第一个问题是什么？原样给我"),
    ("zh", "重复一下我最开始问的问题"),
]

# ---------------------------------------------------------------- earlier-turn payloads

EARLIER_TURN_JSON_YAML: list[Phrase] = [
    ("en", "Great. Now convert that JSON to YAML"),
    ("en", "ok, can you give me the JSON I pasted as YAML"),
    ("zh", "把刚才那段JSON转成YAML"),
]

EARLIER_TURN_YAML_JSON: list[Phrase] = [
    ("en", "Thanks. Now turn that YAML into JSON"),
    ("zh", "把刚才那段YAML转成JSON"),
]

EARLIER_ASSISTANT_REPLIES: list[Phrase] = [
    ("en", "Got it, I have your data. What would you like me to do with it?"),
    ("en", "Thanks, that looks like a valid document."),
    ("zh", "好的，收到了。需要我做什么？"),
]

# ---------------------------------------------------------------- free-form queries

BETWEEN: list[Phrase] = [
    ("en", "only the {things} with {f} between {lo} and {hi} inclusive"),
    ("en", "filter to {f} from {lo} to {hi}, both ends included"),
    ("zh", "{f}在{lo}到{hi}之间（含两端）的{things}"),
]

EXCEPT: list[Phrase] = [
    ("en", "everyone except {v}"),
    ("en", "all the records where dept isn't {v}"),
    ("zh", "除了{v}部门以外的所有人"),
]

EXISTS_Q: list[Phrase] = [
    ("en", "Are there any {things} with {f} over {v}? JSON boolean only"),
    ("en", "is any {f} above {v}? answer true or false"),
    ("zh", "有没有{f}超过{v}的{things}？只回答true或false"),
]

PICK_RECORD: list[Phrase] = [
    ("en", "the full record of the one with the lowest {f}"),
    ("en", "Which entry has the highest {f}? Give me its whole object."),
    ("zh", "{f}最高的那一条完整记录"),
]

PICK_VALUE: list[tuple[str, str, str, str, bool]] = [
    # (lang, text, records, field compared, highest?) -> the answer is the record's key value
    ("en", "Which flight is the cheapest? Output its code only.", "flights", "price", False),
    ("en", "who earns the most? just the name", "employees", "salary", True),
    (
        "en",
        "Which city has the biggest population? reply with the name",
        "cities",
        "population",
        True,
    ),
    ("zh", "哪个航班最便宜？只输出code", "flights", "price", False),
    ("zh", "工资最高的是谁？只回答name", "employees", "salary", True),
]

# Chinese numerals inside numbers: (text, records, field, op, value)
ZH_NUMERAL_FILTERS: list[tuple[str, str, str, str, int]] = [
    ("薪资超过十万的员工", "employees", "salary", ">", 100000),
    ("只要工资低于八万的", "employees", "salary", "<", 80000),
    ("库存少于二十的商品", "products", "stock", "<", 20),
    ("人口超过一千五百万的城市", "cities", "population", ">", 15000000),
    ("年龄大于三十五岁的员工", "employees", "age", ">", 35),
]

# queries over a nested document, with paths: (lang, text, answer kind)
NESTED_QUERIES: list[tuple[str, str, str]] = [
    ("en", "list every sku: $.data.items[*].sku", "skus"),
    ("en", "Pull out data.items[*].sku as a JSON array", "skus"),
    ("en", "what's meta.page? just the value", "page"),
    ("en", "sort data.items by qty descending and return just that array", "items_by_qty"),
    ("zh", "取出 $.data.items[*].sku，返回JSON数组", "skus"),
    ("zh", "meta.total 是多少？只回答数字", "total"),
]
