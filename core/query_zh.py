"""Chinese record queries, read by the same clause classes as English ones.

The query frame reader (core/query_frames.py) reads clauses of closed-class words around slots.
A Chinese query has the same classes — 按 (by) + a field + 从高到低 (from high to low) + 排
(sort); 最低的3条 (the 3 lowest); 只要 (only); 低于 (below); 有几个 (how many); 然后 (then) —
so it is read by writing each word of a class as the English word of that class, and keeping
the slots (field names, numbers) as they are. The text is cut by longest match against this
lexicon; a field word of core/fields.GLOSSARY becomes the one key of the records it translates
to, a Chinese numeral (十万, 一千五百万) becomes its digits, and a run of Chinese that no entry
covers makes the query fall back: nothing unknown is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from decimal import Decimal

from zerolayer.core.errors import Unsupported
from zerolayer.core.fields import GLOSSARY, RECORD_NOUNS
from zerolayer.core.lexicon_zh import (
    CLASS_WORDS,
    FIELD_WORDS,
    MEASURE_WORDS,
    NUMBER_UNITS,
    UNIT_WORDS,
    VALUE_WORDS,
)
from zerolayer.core.lexicon_zh import RECORD_NOUNS as ZH_RECORD_NOUNS
from zerolayer.core.normalise import chinese_to_int

# Chinese words of the clause classes, each written as the English word(s) of its class.
_LEXICON: dict[str, str] = {
    # clause breaks
    "然后": " then ", "接着": " then ", "之后": " then ", "再": " then ", "最后": " then ",
    "并且": " then ", "并": " then ", "而且": " then ", "且": " then ",
    "，": ",", "、": ",", "。": ".", "；": ";", "？": "?",
    # sorting and direction
    "按照": " by ", "按": " by ", "根据": " by ", "依": " by ",
    "排序": " sort ", "排列": " sort ", "排好": " sort ", "排个序": " sort ", "排": " sort ",
    "从高到低": " from high to low ", "从大到小": " from high to low ",
    "从多到少": " from high to low ", "从低到高": " from low to high ",
    "从小到大": " from low to high ", "从少到多": " from low to high ",
    "降序": " descending ", "倒序": " descending ", "逆序": " descending ",
    "升序": " ascending ", "正序": " ascending ",
    # extremes and limits
    "最高": " top ", "最大": " top ", "最多": " top ",
    "最低": " bottom ", "最小": " bottom ", "最少": " bottom ",
    "前": " first ",
    "最便宜": " cheapest ", "最贵": " most expensive ", "最年轻": " youngest ",
    "最年长": " oldest ", "最长": " longest ", "最短": " shortest ", "最重": " heaviest ",
    "最轻": " lightest ", "最早": " earliest ", "最晚": " latest ",
    # comparisons
    "不低于": " at least ", "不少于": " at least ", "至少": " at least ", "不小于": " at least ",
    "不超过": " at most ", "不高于": " at most ", "不大于": " at most ", "至多": " at most ",
    # a comparison and 等于 together: the bound itself is in ("大于等于", "小于或等于")
    "大于等于": " at least ", "大于或等于": " at least ", "高于或等于": " at least ",
    "多于或等于": " at least ", "小于等于": " at most ", "小于或等于": " at most ",
    "低于或等于": " at most ", "少于或等于": " at most ",
    "低于": " below ", "少于": " below ", "小于": " below ", "不到": " below ",
    "高于": " above ", "大于": " above ", "超过": " above ", "多于": " above ",
    # projection, answer shape, counts, aggregates
    "只要": " only ", "只保留": " keep ", "只留": " keep ", "保留": " keep ", "仅保留": " keep ",
    "只给": " only ", "只输出": " only ", "只返回": " only ", "只回答": " only ",
    "数字": " number ", "整数": " integer ",
    "记录数量": " count ", "记录数": " count ", "条数": " count ", "个数": " count ",
    "有几个": " how many ", "有多少个": " how many ", "有多少": " how many ",
    "多少个": " how many ", "几个": " how many ", "是多少": " what is ",
    "平均": " average ", "总和": " total ", "总计": " total ",
    "完整记录": " full records ", "完整的记录": " full records ", "完整": " full ",
    "记录": " records ", "字段": " field ", "每条": " each ", "每个": " each ",
    "每一条": " each ", "每种": " each ",
    "每一种": " each ", "每类": " each ",
    # requests, places and conversions
    "找出": " give ", "列出": " give ", "给出": " give ", "返回": " return ", "输出": " output ",
    "取出": " give ", "显示": " show ", "给我": " give ", "筛选出": " give ", "挑出": " give ",
    "下面是一个": " here's a ", "下面的": " the ", "下面": " below ", "以下": " below ",
    "数组": " array ", "转成": " convert to ", "转为": " convert to ", "转换成": " convert to ",
    "转换为": " convert to ", "结果用": " result in ", "用": " in ", "结果": " result ",
    "格式": " format ", "直接给结果": " ", "别的不用说": " ", "不要解释": " ",
    # record nouns (core/fields.RECORD_NOUNS)
    "员工": " employees ", "城市": " cities ", "商品": " products ", "产品": " products ",
    "学生": " students ", "航班": " flights ", "用户": " users ", "书": " books ",
    "订单": " orders ", "国家": " countries ",
    # particles and measure words
    "的": " ", "一下": " ", "一个": " a ", "条": " ", "个": " ", "名": " ", "位": " ", "项": " ",
    "行": " ", "本": " ", "就行": " ", "即可": " ", "吧": " ", "谢谢": " ",
    "由高到低": " from high to low ", "由大到小": " from high to low ",
    "由多到少": " from high to low ", "由低到高": " from low to high ",
    "由小到大": " from low to high ", "由少到多": " from low to high ",
    "过滤出": " give ", "筛出": " give ", "过滤掉": " remove ", "筛掉": " remove ",
    "取": " give ", "只取": " just ", "只看": " only ", "只需要": " only ", "只显示": " only ",
    "排名": " ", "限制为": " limit to ", "后": " then ", "所有": " all ", "全部": " all ",
    "列": " field ",
    "其他字段都不要": " nothing else ", "其余字段都不要": " nothing else ",
    "别的字段都不要": " nothing else ", "其他字段不要": " nothing else ",
    "有没有": " is there any ", "是否有": " is there any ", "是否存在": " is there any ",
    "吗": " %q ", "是或否": " yes or no ", "是还是否": " yes or no ", "回答": " answer ",
    "给": " ", "不": " not ", "里": " in ", "每单": " each ",
    "数量": " count ",
    "为": " is ", "总": " total ", "总额": " total ", "不在": " not in ",
    "工作": " work ", "加起来": " sum ",
    "从新到旧": " from newest to oldest ", "从旧到新": " from oldest to newest ",
    "以": " by ", "只留下": " keep ", "留下": " keep ",
    "等于": " equals ", "不等于": " not equal to ",
    "一共": " ", "总共": " ", "共": " ", "几条": " how many ",
    "有几条": " how many ", "有多少条": " how many ", "多少条": " how many ",
    "叫什么名字": " name ", "叫什么": " name ",
    "他们": " them ", "它们": " them ", "她们": " them ",
    "这": " these ", "这些": " these ", "这几个": " these ",
    "把": " ", "岁": " ", "在": " in ", "人": " people ", "人数": " count ",
    "大的在前": " highest first ", "高的在前": " highest first ", "多的在前": " highest first ",
    "小的在前": " lowest first ", "低的在前": " lowest first ", "少的在前": " lowest first ",
    "及以上": " or more ", "或以上": " or more ", "及以下": " or less ", "或以下": " or less ",
    "去掉": " remove ", "去除": " remove ", "排除": " exclude ", "删掉": " remove ",
    "除了": " except ", "以外": " ", "之外": " ",
    "和": " and ", "以及": " and ", "是谁": " who ", "谁": " who ", "是": " is ",
    "有哪些": " which ",
    "哪个": " which ", "哪一个": " which ", "哪些": " which ", "哪位": " which ",
    # "the one" a question or a request points at (给我人口最少的那个)
    "那个": " one ", "那一个": " one ", "那条": " one ", "那位": " one ",
    # per value of a field: 各部门, 每个部门 (a count or an aggregate of each group);
    # 分别 (respectively) and 统计 (tally: a count) around it
    "各": " each ", "分别": " ", "统计": " count ",
    # grouping said before the count ("按部门分组统计人数"): the count per value says it
    "分组统计": " count ", "分组计数": " count ", "分组": " ",
    # an average per person ("人均月薪", "平均每人月薪")
    "人均": " average ", "平均每人": " average ",
    # the first of a ranking ("月薪排名第一的员工叫什么"): the highest, as 最高 (a tie falls back)
    "排名第一": " top ", "排第一": " top ", "排名第1": " top ", "排第1": " top ",
    "拥有": " have ",
    # the passive marker before a value word ("被取消的航班"): says no more
    "被": " ",
    # fewer than ("座位不足10个")
    "不足": " below ",
    # where a record goes from and to ("从 LHR 出发的", "到达 JFK 的"), before a value
    "到达": " to ", "抵达": " to ", "来自": " from ",
    # not, before a flag or a value ("非沿海的城市", "没校准的传感器")
    "非": " not ", "没": " not ",
    # a roster: the names of the records ("远程办公的员工名单": the remote employees' names)
    "名单": " names ",
}  # fmt: skip
_NUMERAL = re.compile(r"[零〇一二两三四五六七八九十百千万]+")
# "在30到40之间（含两端）", "25到35岁之间" (ages: 岁 says no more): a range; one that does not
# say whether its ends count is left as it is written ("between … and …" with no qualifier
# falls back).
_RANGE = re.compile(
    r"在?\s*(\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千万]+)\s*(?:周?岁)?\s*(?:到|至|-|~)\s*"
    r"(\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千万]+)\s*(?:周?岁)?\s*之间\s*"
    r"(?:[(（]\s*(含两端|包含两端|包括两端|含|包含|不含两端|不含|不包含)\s*[)）])?"
)
_CJK = re.compile(r"[\u3400-\u9fff]")
_RECORD_NOUN = re.compile(" (?:" + "|".join(sorted(RECORD_NOUNS)) + ") ")
# "按面积从大到小排列前三个城市": the first N after a sort is a clause of its own (then)
_SORT_THEN = re.compile(r"(?<=排序|排列|排好)(?=\s*前\s*(?:\d|[一二两三四五六七八九十]))")
# "取前2名", "前三名": the first N ranks, the N highest (名 counts ranks; 前2条 is the first 2).
_TOP_RANKS = re.compile(r"取?前\s*(\d+|[零〇一二两三四五六七八九十百千万]+)\s*名")
# "薪资前三": the first N ranks of the field just before, said with no measure word (前2条 and
# 前3个 are limits).
_FIELD_TOP = re.compile(
    r"(?<=[\u3400-\u9fffA-Za-z_])前\s*(\d+|[零〇一二两三四五六七八九十百千万]+)"
    r"(?=\s*(?:$|[，。,.;；？?！!]|的))"
)


def english_clauses(
    text: str,
    keys: Mapping[str, str],
    values: Collection[str] = frozenset(),
    dates: Mapping[str, Collection[str]] | None = None,
    flags: Collection[str] = (),
) -> str:
    """``text`` (a query with Chinese words) with each Chinese word of a clause class written
    as its English word, each Chinese field word as the key it names among ``keys`` (lower
    case → key), each text value of the records among ``values`` kept as it is, and each
    Chinese numeral as digits; a year said of one of the ``dates`` (keys holding an ISO date in
    every record, with those dates) as the dates of that year; ``Unsupported`` for Chinese no
    entry covers."""
    text = _ROUND.sub(lambda m: f" , %r{m[1] or m[2]} , ", text)
    text = _had_flags(text, keys, frozenset(flags))  # 有海景, 拿了奖学金, 不带家具, 没有营业
    text = _GLOSSED.sub(lambda m: _glossed(m, keys), text)  # 烹饪时间(cook_minutes)
    text = _NULLS.sub(" , %nn , ", text)
    text = _HOLDS.sub(" contains ", text)
    text = _HOLDS_READ.sub(" ", text)
    text = _SCALED.sub(_scaled, text)  # "6万到9万之间": the range's ends as digits first
    text = _RANGE.sub(_range, text)
    text = _SORT_THEN.sub("，", text)
    text = _TOP_RANKS.sub(lambda m: f" top {m[1]} ", text)
    text = _ZH_DATE.sub(_zh_date, text)
    text = _HAS_QUESTION.sub(r" is there any \1 ", text)
    text = _SCALED.sub(_scaled, text)
    text = _AGE.sub(_age, text)
    text = _BOUND.sub(_bound, text)
    text = _COLUMNS.sub(" fields ", text)
    text = _FIELD_TOP.sub(lambda m: f" top {m[1]} ", text)
    text = _LAST_N.sub(lambda m: f" last {m[1]} ", text)
    text = _YEAR_ON.sub(_year_on, text)  # "2018年及以后": 2018 itself too
    text = _DATE_THEN.sub(lambda m: _date_then(m, bool(dates)), text)
    text = _FROM_PLACE.sub(r" from \1 ", text)
    text = _PER_PLACE.sub(r"\1\2 ", text)
    text = _EACH.sub(" each ", text)
    text = _HOW_MANY.sub(" how many ", text)
    text = _WHICH.sub(" which ", text)
    text = _THAT_ONE.sub(" one ", text)
    text = _YEAR.sub(r" %Y\1 ", text)
    text = _COUNTED.sub(r"\1 ", text)
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if not _CJK.match(ch) and ch not in _WORDS:
            out.append(ch)
            i += 1
            continue
        unit = _unit_at(text, i, out)
        if unit:  # "30分钟": a unit after a number, of the field said before it
            key = _clause_field(out, keys)
            if key is None or not _unit_fits(unit, key):
                raise Unsupported("parse.no_match", f"'{unit}' is not said to be the unit of {key}")
            i += len(unit)
            continue
        word = _longest(text, i) or ""
        if len(word) > 1 and text[i : i + len(word) - 1] in _WORDS:
            cut = _field_word(text, i + len(word) - 1, keys)  # 不在职: not, then the key 在职
            if cut and len(cut[0]) > 1:
                word = text[i : i + len(word) - 1]
        field = _field_word(text, i, keys)
        value = _value_word(text, i, values)
        if value and len(value) >= max(len(word), len(field[0]) if field else 0):
            out.append(f" {value} ")  # 浙江: a value of the records, read as a value
            i += len(value)
            if text[i : i + 1] in _PLACE_SUFFIXES and not _value_word(text, i, values):
                i += 1  # 浙江省, 成都市: the kind of place after its name says no more
            continue
        said = _value_said(text, i, values)
        if said and len(said[0]) > max(len(word), len(field[0]) if field else 0):
            out.append(f" {said[1]} ")  # 关闭: closed, a value of the records in English
            i += len(said[0])
            continue
        noun = _record_noun(text, i, word, field, out, keys)
        if noun:  # 商品数量, issue 的数量: how many of the records (a count)
            tally = _TALLY.match(text, i + len(noun[0]))
            if tally is None:
                raise Unsupported("parse.no_match", "no tally after the records' noun")
            if _names_key(tally[1], keys):  # 数量 of a key quantity: a count, or its values?
                raise Unsupported("parse.no_match", f"'{tally[1]}': a count, or the field?")
            if noun[0]:
                out.append(f" {noun[1]} ")
            out.append(" count ")
            i = tally.end()
            continue
        if (
            field
            and word == field[0]
            and _RECORD_NOUN.fullmatch(_WORDS[word])
            and (_after_de(out) or (_after_all(out) and text.startswith("的", i + len(word))))
        ):
            field = None  # 湖北的城市, 所有门店的X: the records' noun, though a key too
        if field is not None and len(field[0]) >= len(word):  # 名字 is a field, 名 a measure
            i += len(field[0])
            predicate = _PREDICATE_END.match(text, i)
            if predicate and out and out[-1] == _WORDS["是"]:  # 是远程的: that are remote
                out[-1] = " that are "
                if len(out) > 1 and out[-2] == _WORDS["不"]:  # 不是远程的: that are not remote
                    out[-2:] = [" that are not "]
                out.append(f" {_said(field[1])} ")
                out.append(" ")  # 的 read: a records' noun that is a key may follow (门店)
                i = predicate.end()
                continue
            if out and out[-1] == _WORDS["没"] and _noun_before(out[:-1]):
                out[-1] = " that are not "  # 哪些传感器没校准: the records that are not so
            out.append(f" {_said(field[1])} ")
            i += text.startswith("过的", i)  # 校准过的: what has been done to the records
            continue
        if word in _EXTREMES and out and out[-1].strip() in keys.values():
            out.append(_EXTREMES[word])  # 飞行时间最短: the lowest of the field just said
            i += len(word)
            continue
        if word in _PRICE_EXTREMES and (price := _field_word("价格", 0, keys)):
            out.append(f" {_PRICE_EXTREMES[word]} {price[1]} ")  # 最贵: the highest price
            i += len(word)
            continue
        if word:
            out.append(_WORDS[word])
            i += len(word)
            continue
        numeral = _NUMERAL.match(text, i)
        if numeral:
            out.append(f" {chinese_to_int(numeral.group())} ")
            i = numeral.end()
            continue
        raise Unsupported("parse.no_match", f"the query frame does not know {text[i : i + 4]!r}")
    return _either(_noun_fields(_years("".join(out), dates or {}), keys), values)


# Words of a clause that counts, aggregates or ranks: "A和B的平均工资" is the average of both
# together, or of each? Values joined by 和 are read as either value only without them.
_GATHERS = re.compile(
    r"(?<![\w%])(?:average|total|sum|count|how many|top|bottom|median|each|per|cheapest"
    r"|most expensive|youngest|oldest|longest|shortest|heaviest|lightest)(?![\w])"
)


def _either(said: str, values: Collection[str]) -> str:
    """``said`` with "and" between two text values of the records (销售部和市场部, Dublin 和
    Berlin) written as "or": the records holding either, as a value filter of one field reads
    them (core/query_frames.py). Not after "contains" (标签里有 bug 和 ui: both), and not in a
    request that counts or aggregates (of both together, or of each?)."""
    if not values or " and " not in said or _GATHERS.search(said):
        return said
    names = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
    value = rf"(?<![\w.-])(?:{names})(?![\w-])"
    pair = re.compile(rf"(\s+{value}\s+)and(\s+{value}\s)")
    padded = f" {said} "

    def either(m: re.Match[str]) -> str:
        if re.search(r"#?contains\s*$", padded[: m.start()]):
            return m[0]
        return f"{m[1]}or{m[2]}"

    return pair.sub(either, padded)[1:-1]


_ASKS = re.compile(r"(?<![\w-])(?:only|keep|just|give|which|who|how many|count)(?![\w-])")


# "没有 milestone 的不算", "不算没有里程碑的", "负责人为空的除外": the records that hold no value
# of a field (it is missing or null) are left out of the query. The field is a key written as
# it is or a Chinese field word.
_FIELD_SAID = r"(?P<field>[A-Za-z_][\w.]*|[\u3400-\u9fff]{1,6}?)"
_DROPPED = r"(?:不算|不计|不统计|不计入|不算在内|除外|排除|去掉|不要)"
# the records' noun after 的 ("没有 milestone 的 issue 不算"): 记录, a Chinese noun of the lexicon
# or an English one
_ZH_NOUNS = [w for w, e in {**ZH_RECORD_NOUNS, **_LEXICON}.items() if _RECORD_NOUN.fullmatch(e)]
_THOSE = (
    r"(?:\s*(?:记录|"
    + "|".join(sorted(_ZH_NOUNS, key=len, reverse=True))
    + "|"
    + "|".join(sorted(RECORD_NOUNS, key=len, reverse=True))
    + r"))?"
)
_UNHELD = re.compile(
    rf"[，,。；;]?\s*(?:(?:没有|缺少|没填)\s*{_FIELD_SAID}\s*的{_THOSE}\s*{_DROPPED}"
    rf"|(?:不算|不计|不统计|排除|去掉|忽略|不包括)\s*(?:没有|缺少)\s*"
    rf"{_FIELD_SAID.replace('field', 'f2')}\s*的{_THOSE}"
    rf"|{_FIELD_SAID.replace('field', 'f3')}\s*(?:为空|是空的|为null|是null|缺失)的{_THOSE}"
    rf"\s*{_DROPPED})"
    r"\s*(?=$|[，,。；;？?！!])",
    re.IGNORECASE,
)


# "没有负责人的 issue", "温度为空的读数": the records whose field holds null (the clause that
# leaves them out, _UNHELD, is read first).
_NULL_HELD = re.compile(
    rf"(?:没有|缺少|没填)\s*{_FIELD_SAID}\s*(?=的)"
    rf"|{_FIELD_SAID.replace('field', 'f3')}\s*(?:为空|是空的|为null|是null)(?=的)",
    re.IGNORECASE,
)


def null_field(text: str, keys: Mapping[str, str]) -> tuple[str, str | None]:
    """``text`` with a clause that asks for the records whose field holds null (``_NULL_HELD``)
    taken out, and that field's key among ``keys`` (lower case → key: the keys every record
    has, null in some); ``text`` and None when it holds none or its field is no such key."""
    found = list(_NULL_HELD.finditer(text))
    if len(found) != 1:
        return text, None
    m = found[0]
    said = m["field"] or m["f3"]
    key = keys.get(said.lower())
    if key is None and _CJK.match(said):
        field = _field_word(said, 0, keys)
        key = field[1] if field and field[0] == said else None
    if key is None:
        return text, None
    return text[: m.start()] + text[m.end() :], key


def unheld_field(text: str, keys: Mapping[str, str]) -> tuple[str, str | None]:
    """``text`` without a clause that leaves out the records holding no value of a field
    (``_UNHELD``), with that field's key among ``keys`` (lower case → key); ``text`` and None
    when it holds no such clause. ``Unsupported`` for a clause whose field is no one key, or
    for two such clauses."""
    found = list(_UNHELD.finditer(text))
    if not found:
        return text, None
    if len(found) > 1:
        raise Unsupported("parse.no_match", "two clauses leave out records without a field")
    m = found[0]
    said = m["field"] or m["f2"] or m["f3"]
    key = keys.get(said.lower())
    if key is None and _CJK.match(said):
        field = _field_word(said, 0, keys)
        key = field[1] if field and field[0] == said else None
    if key is None:
        raise Unsupported("parse.no_match", f"'{said}' is no field the records may lack")
    return text[: m.start()] + text[m.end() :], key


# The kinds of place said after a place's name (浙江省, 成都市, 朝阳区).
_PLACE_SUFFIXES = frozenset("省市区县州")


def _noun_fields(said: str, keys: Mapping[str, str]) -> str:
    """``said`` with the fields named right after the records' noun at the end of a clause
    ("评论数不超过五条的 issue 编号", "工资最高的员工的姓名和部门") written as what to keep of
    them: the records' number, name and department."""
    names = sorted(set(keys.values()), key=len, reverse=True)
    nouns = sorted(RECORD_NOUNS - set(keys), key=len, reverse=True)
    if not names:
        return said
    field = "(?:" + "|".join(re.escape(k) for k in names) + ")"
    noun = "(?:" + "|".join(nouns) + ")"
    tail = re.compile(
        rf"(?<![\w.-])({noun})\s+({field}(?:\s+and\s+{field})*)\s*(?=$|[,;?!]|\.(?!\w))"
    )

    def keep(m: re.Match[str]) -> str:
        clause = re.split(r"[,;?!]|\.(?!\w)", said[: m.start()])[-1]
        if re.search(
            r"(?<![\w-])(?:only|keep|just|give|which|who|how many|count)(?![\w-])", clause
        ):
            return m[0]  # "只要员工姓名", "哪些员工的姓名": read as they are
        return f"{m[1]} , only {m[2]} "

    return tail.sub(keep, said)


# "2018年及以后", "2020年或之前": a year and the years after (before) it, itself included
_YEAR_ON = re.compile(r"(?<![\d-])(\d{4})\s*年?\s*(?:及|或)\s*(之后|以后|之前|以前)")


def _year_on(m: re.Match[str]) -> str:
    return f" {'at least' if _AFTER_WORDS[m[2]] == 'after' else 'at most'} {m[1]} "


def _date_then(m: re.Match[str], dated: bool) -> str:
    if m[1].isdigit() and not dated:
        # 2018年以后 of records with no dates (a key of years, 开业年份): the year itself in or
        # out? (the query frame falls back when a record holds it)
        return f" #x{'gt' if _AFTER_WORDS[m[2]] == 'after' else 'lt'} {m[1]} "
    year = "%Y" if m[1].isdigit() else ""  # 2015年以前: a year, read by _years
    return f" {_AFTER_WORDS[m[2]]} {year}{m[1]} "


# "2019年入职", "入职日期在2019年之后": a year, then or after the field of dates it is said of.
_YEAR_MARK = re.compile(r"(?:(?P<when>after|before)\s+)?%Y(?P<year>\d{4})")


def _years(said: str, dates: Mapping[str, Collection[str]]) -> str:
    """``said`` with each year said right before or after a key of ISO ``dates`` (with "in"
    between) written as a comparison of those dates: the year itself is from its first day to
    the next year's; after or before it (之后, 以前: the year itself in or out?) only when no
    record's date is in that year, so both readings agree. Any other year is a number."""
    for key, held in dates.items():
        name = re.escape(key)
        for pattern in (
            rf"{_YEAR_MARK.pattern}\s+(?:in\s+)?(?P<key>{name})(?![\w.])",
            rf"(?<![\w.])(?P<key>{name})\s+(?:in\s+)?{_YEAR_MARK.pattern}",
        ):
            said = re.sub(pattern, lambda m, held=held: _year_of(m, held), said)
    return said.replace("%Y", "")


def _year_of(m: re.Match[str], held: Collection[str]) -> str:
    key, year, when = m["key"], int(m["year"]), m["when"]
    if when and any(d.startswith(f"{year}-") for d in held):
        raise Unsupported("parse.no_match", f"a record's {key} is in {year}: is it in or out?")
    if when == "after":
        return f" {key} at least {year + 1}-01-01 "
    if when == "before":
        return f" {key} before {year}-01-01 "
    return f" {key} at least {year}-01-01 and {key} before {year + 1}-01-01 "


# "标签里有 bug", "skills 中有 go", "商品名里包含 Lamp": what an array field (or a text) holds,
# said before a literal in Latin letters or quotes; read as "contains" right after the field
# (core/query_frames.py).
_HOLDS = re.compile(r"(?:里面?|中)(?:有|包含|含有)(?=\s*[A-Za-z0-9\"“'])")
# "商品名里包含 Lamp" with 包含 already read as "contains" (core/query_frames.py): 里 says no more
_HOLDS_READ = re.compile(r"(?:里面?|中)\s*(?=contains\b)")
# "保留两位小数", "小数点后1位": the decimals of the value asked for (read only after an
# aggregate, core/query_frames.py); normalise has written the numeral as a digit.
_ROUND = re.compile(
    r"(?:(?:四舍五入)?(?:保留|精确到)|四舍五入到)\s*(\d)\s*位小数|小数点后\s*(\d)\s*位"
)
# "（空值不算）", "忽略空值": an aggregate of a field that is null in some records leaves them out.
_NULLS = re.compile(
    r"[(（]?\s*(?:空值|null值?|缺失值)\s*(?:不算|不计|除外|不计入|不算在内)\s*[)）]?"
    r"|(?:不算|不计|忽略|跳过|排除|去掉)\s*(?:空值|null值?|缺失值)",
    re.IGNORECASE,
)
# "两列", "2个字段": how many fields, said with them ("只看name和price两列").
_COLUMNS = re.compile(r"(?:\d+|[两二三四五六七八九十])\s*(?:列|个字段)")
# "2024年3月1日之前": a date (written as ISO for the query frame) and a comparison after it.
_ZH_DATE = re.compile(
    r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]\s*(之前|以前|之后|以后|前|后)?"
)


def _zh_date(m: re.Match[str]) -> str:
    date = f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}"
    after = {"之前": "before ", "以前": "before ", "前": "before "}.get(m[4] or "", "")
    after = after or ("after " if m[4] else "")
    return f" {after}{date} "


# "有年龄大于40的员工吗": a question whether any record is so (有 … 吗), as 有没有 asks it.
_HAS_QUESTION = re.compile(r"(?:^|(?<=[，。,.;；？?]))\s*有(?!没有|多少|几)([^，。,.;；？?]+?)吗")
# "最后两名", "最后3条": the last N records (最后 alone orders the steps: then).
_LAST_N = re.compile(r"最后\s*(\d+|[两二三四五六七八九十]+)\s*(?:名|个|条|位|项|行)")
# "10万", "9.5万", "3千": digits times a Chinese unit of magnitude.
_SCALED = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(万|千|亿)")
_SCALES = {"千": 1000, "万": 10000, "亿": 100000000}


# "30岁以下", "100元以上", "在零度以下": a bound whose inclusion is not said (core/query_frames.py
# reads it only when no record holds the bound); 岁 says the field of age, and a unit of
# NUMBER_UNITS is left for the reader to check against the field it is said of
_UNITS = "|".join(sorted(NUMBER_UNITS, key=len, reverse=True))
_BOUND = re.compile(
    r"(?:在\s*)?(?<![\d.])(\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千万]+)\s*"
    rf"({_UNITS}|岁|分|人|个|本)?\s*(以下|以上)(?!的?(?:数据|内容|JSON|json))"
    # "（不含30岁）", "(含本数)": whether the bound itself is in, said right after it
    rf"(?:\s*[(（]\s*(不含|不包含|不包括|含|包含|包括)\s*"
    rf"(本数|\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千万]+)?\s*(?:{_UNITS}|岁|分|人|个|本)?\s*[)）])?"
)


def _bound(m: re.Match[str]) -> str:
    number = m[1] if m[1][0].isdigit() else str(chinese_to_int(m[1]))
    field = " age " if m[2] == "岁" else " "
    unit = m[2] if m[2] in NUMBER_UNITS else ""  # read by the field it is said of
    if m[4]:  # the bound's inclusion said: of this bound only
        said = (
            m[5] if not m[5] or m[5][0].isdigit() or m[5] == "本数" else str(chinese_to_int(m[5]))
        )
        if said not in (None, "本数") and Decimal(said) != Decimal(number):
            raise Unsupported("parse.no_match", f"'{m[4]}{said}' is not the bound {number}")
        inside = not m[4].startswith("不")
        word = (
            ("at most" if inside else "below")
            if m[3] == "以下"
            else ("at least" if inside else "above")
        )
        return f"{field}{word} {number} {unit}"
    return f"{field}#{'xlt' if m[3] == '以下' else 'xgt'} {number} {unit}"


# An age said by 岁 (周岁) after a number, with the word that compares it: "不到30岁", "未满18
# 周岁" (below), "年满18岁" (at least: reached), "超过40岁", "30岁及以下" (at most). 30岁以下
# alone is a bound whose inclusion is not said (_BOUND).
_NUM = r"(\d+|[零〇一二两三四五六七八九十百]+)"
_AGE = re.compile(
    r"(?P<before>未满|不满|不到|小于|低于|少于|年满|已满|满|超过|大于|高于|多于|不超过|不低于|至少)"
    rf"\s*(?P<n1>{_NUM[1:-1]})\s*周?岁"
    rf"|(?P<n2>{_NUM[1:-1]})\s*周?岁\s*(?P<after>及以下|或以下|及以上|或以上)"
    rf"|(?P<n3>{_NUM[1:-1]})\s*周岁(?=\s*(?:以下|以上))"
)
_AGE_WORDS = {
    **dict.fromkeys(("未满", "不满", "不到", "小于", "低于", "少于"), "below"),
    **dict.fromkeys(("年满", "已满", "满", "至少", "不低于", "及以上", "或以上"), "at least"),
    **dict.fromkeys(("超过", "大于", "高于", "多于"), "above"),
    **dict.fromkeys(("不超过", "及以下", "或以下"), "at most"),
}


def _age(m: re.Match[str]) -> str:
    if m["n3"]:  # "30周岁以上": 周岁 is 岁, for _BOUND to read
        return f"{m['n3']}岁"
    said = m["n1"] or m["n2"]
    number = said if said.isdigit() else str(chinese_to_int(said))
    return f" age {_AGE_WORDS[m['before'] or m['after']]} {number} "


def _scaled(m: re.Match[str]) -> str:
    value = Decimal(m[1]) * _SCALES[m[2]]
    return f" {value.normalize():f} "


def _unit_at(text: str, i: int, out: list[str]) -> str:
    """The unit word at ``i`` right after a number already read (30分钟, 零度); "" for none."""
    if not re.search(r"\d\s*$", "".join(out[-3:])):
        return ""
    return next((u for u in _UNITS.split("|") if text.startswith(u, i)), "")


def _clause_field(out: list[str], keys: Mapping[str, str]) -> str | None:
    """The last key named in the clause read so far; None for none."""
    clause = re.split(r"[,;?!]|\.(?!\w)|\bthen\b", "".join(out))[-1]
    named = [keys[w.lower()] for w in re.findall(r"[^\s\d#]+", clause) if w.lower() in keys]
    return named[-1] if named else None


def _unit_fits(unit: str, key: str) -> bool:
    """Whether ``key`` holds numbers in ``unit``: its last word is that unit (delay_minutes,
    temperature_c), or it says no unit and is a field the lexicon says is in it (price in 元)."""
    units, fields = NUMBER_UNITS[unit]
    words = _words_of(key)
    if len(words) > 1 and words[-1] in UNIT_WORDS | units:
        return words[-1] in units
    return bool(set(words) & fields)


# "商品数量", "issue 的个数", "员工总数": how many of the records, said by their noun and a word
# of tally (数 alone not before 据, 字, 组, 值: 数据 is data, 数组 an array).
_TALLY = re.compile(r"\s*的?\s*(数量|个数|总数|数目|数(?![据字组值额码]))")


def _record_noun(
    text: str,
    i: int,
    word: str,
    field: tuple[str, str] | None,
    out: list[str],
    keys: Mapping[str, str],
) -> tuple[str, str] | None:
    """The records' noun at ``i`` (商品) or just read in Latin letters (issue), with its English
    noun, when a word of tally follows it (商品数量, issue 的数量); "" for the noun already read.
    None otherwise, or when the noun is a key of the records."""
    if (
        word
        and _RECORD_NOUN.fullmatch(_WORDS[word])
        and (field is None or len(field[0]) < len(word))
    ):
        noun = _WORDS[word].strip()
        if noun not in keys and _TALLY.match(text, i + len(word)):
            return word, noun
        return None
    latin = re.search(r"(?<![\w.-])([A-Za-z]+)\s*$", "".join(out))
    if latin and latin[1].lower() in RECORD_NOUNS and latin[1].lower() not in keys:
        return ("", "") if _TALLY.match(text, i) else None
    return None


def _names_key(word: str, keys: Mapping[str, str]) -> bool:
    """Whether the field word ``word`` names a key of the records in full (数量: quantity, qty,
    unit_count), not only by the last word of a longer key (stockCount)."""
    names = {_words_of(n) for n in _GLOSSARY.get(word, ())}
    return any(_unitless(_words_of(k)) in names for k in keys.values())


def _noun_before(out: list[str]) -> bool:
    """Whether the last word read is the records' noun (传感器: records)."""
    said = [w for w in out if w.strip()]
    return bool(said) and _RECORD_NOUN.fullmatch(f" {said[-1].strip()} ") is not None


def _after_all(out: list[str]) -> bool:
    """Whether the last word read says all the records (所有, 全部: "all")."""
    said = [w.strip() for w in out if w.strip()]
    return bool(said) and said[-1] == "all"


def _after_de(out: list[str]) -> bool:
    """Whether the words read so far end with a word read as nothing (的, a measure word)
    after a word: 湖北的城市. Not after "each" (每个城市: each value of the key 城市)."""
    return (
        len(out) > 1
        and out[-1] == " "
        and out[-2].strip() != ""
        and not "".join(out).rstrip().endswith("each")
    )


def _longest(text: str, i: int) -> str | None:
    for size in range(min(_LONGEST, len(text) - i), 0, -1):
        if text[i : i + size] in _WORDS:
            return text[i : i + size]
    return None


# Verbs of having before a flag's field word ("有海景", "拿了奖学金", "带阳台"): the flag true;
# their negations ("没有", "不带", "无"): false. A Chinese key "是否X" (是否营业) is a flag named
# by X as well. Before a word of any other field the verb stays (and the request falls back).
_HAVING = re.compile(r"(没有|不带|带有|带|具有|拥有|有|拿了|拿到了?|获得了?|得到了?|领了)")
_NOT_HAVING = frozenset({"没有", "不带"})
# Last words of a Chinese key that say it holds a point in time (开业年份, 入职日期)
_ZH_TIME_ENDS = ("年份", "日期", "时间", "年")


def _had_flags(text: str, keys: Mapping[str, str], flags: frozenset[str]) -> str:
    """``text`` with each verb of having before a flag's field word written as 是 (the flag
    true) or 不是 (false), and a flag's key 是否X said as X written as the key."""
    for key in flags:
        if key.startswith("是否") and len(key) > 3:
            text = re.sub(f"(?<!是否){re.escape(key[2:])}", key, text)
    for key in keys.values():  # 开业 for 开业年份: a key of a point in time by its head
        end = next((e for e in _ZH_TIME_ENDS if key.endswith(e)), "")
        head = key[: -len(end)] if end else ""
        if len(head) >= 2 and sum(k.startswith(head) for k in keys.values()) == 1:
            text = re.sub(f"{re.escape(head)}(?!{re.escape(end)})", key, text)
    out: list[str] = []
    at = skip = 0
    for m in _HAVING.finditer(text):
        known = _longest(text, m.start()) or ""
        if len(known) > len(m[1]):
            skip = max(skip, m.start() + len(known))
        if m.start() < max(at, skip):
            continue  # 有库存, 有没有: a word of its own
        field = _field_word(text, m.end(), keys)
        if field is None or field[1] not in flags:
            continue
        out.append(text[at : m.start()])
        out.append("不是" if m[1] in _NOT_HAVING else "是")
        at = m.end()
    return "".join(out) + text[at:]


# A key in brackets right after a Chinese word ("烹饪时间(cook_minutes)"): the word's gloss
_GLOSSED = re.compile(r"(?<=[\u3400-\u9fff])\s*[(（]\s*([A-Za-z_][\w.]*)\s*[)）]")


def _glossed(m: re.Match[str], keys: Mapping[str, str]) -> str:
    """Nothing, when the Chinese field word right before the brackets names the key in them
    (the gloss says it again); the brackets as written (a word of no class) otherwise."""
    key = keys.get(m[1].lower())
    for size in range(min(6, m.start()), 0, -1):
        found = _field_word(m.string, m.start() - size, keys)
        if key is not None and found == (m.string[m.start() - size : m.start()], key):
            return ""
    return m[0]


def _field_word(text: str, i: int, keys: Mapping[str, str]) -> tuple[str, str] | None:
    """The longest key of the records written as it is (人口), or glossary word that names
    exactly one key of the records, at ``i``, with that key; two glossary words that name one
    key together (库存数量: stock and count, stockCount) before either alone."""
    compound = _compound_field(text, i, keys)
    if compound is not None:
        return compound
    return _one_field_word(text, i, keys)


def _compound_field(text: str, i: int, keys: Mapping[str, str]) -> tuple[str, str] | None:
    """Two glossary words at ``i`` whose English names, one after the other, are the words of
    exactly one key of the records (库存数量 for stockCount, 出版年份 for publish_year); None
    for none or several."""
    for first in range(min(6, len(text) - i), 1, -1):
        names1 = _GLOSSARY.get(text[i : i + first], ())
        if not names1:
            continue
        for second in range(min(6, len(text) - i - first), 1, -1):
            names2 = _GLOSSARY.get(text[i + first : i + first + second], ())
            if not names2:
                continue
            said = {_words_of(a) + _words_of(b) for a in names1 for b in names2}
            found = {k for k in keys.values() if _unitless(_words_of(k)) in said}
            if len(found) == 1:
                return text[i : i + first + second], found.pop()
        return None
    return None


def _one_field_word(text: str, i: int, keys: Mapping[str, str]) -> tuple[str, str] | None:
    for size in range(min(max([6, *map(len, keys)]), len(text) - i), 0, -1):
        word = text[i : i + size]
        if word in keys and _CJK.match(word):
            return word, keys[word]
        names = _GLOSSARY.get(word, ())
        named = [k for k in names if k.lower() in keys]
        if len(named) == 1:
            return word, keys[named[0].lower()]
        shaped = _by_words(names, keys) if _CJK.match(word) else []
        if len(shaped) == 1:  # 单价 for unitPrice (unit_price), 金额 for total_amount
            return word, shaped[0]
    return None


def _words_of(key: str) -> tuple[str, ...]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    return tuple(w for w in re.split(r"[_\s-]+", spaced.lower()) if w)


def _by_words(names: Collection[str], keys: Mapping[str, str]) -> list[str]:
    """The keys the glossary's English ``names`` name by their words: the same words in
    another style (unit_price, unitPrice), or the last word of a key (amount, total_amount);
    the keys for the first name that names any."""
    for name in names:
        said = _words_of(name)
        found = [
            key
            for key in keys.values()
            if (words := _unitless(_words_of(key))) == said
            or (len(said) == 1 and words[-1:] == said)
        ]
        if found:
            return found
    return []


def _value_word(text: str, i: int, values: Collection[str]) -> str:
    """The longest Chinese text value of the records at ``i``; "" for none."""
    found = [v for v in values if _CJK.match(v[:1]) and text.startswith(v, i)]
    return max(found, key=len, default="")


def _value_said(text: str, i: int, values: Collection[str]) -> tuple[str, str] | None:
    """The longest Chinese word for a value at ``i`` (core/lexicon_zh.VALUE_WORDS) with the
    one of its English values the records hold; None for none, or for a word two of whose
    values they hold."""
    for size in range(min(_VALUE_LONGEST, len(text) - i), 0, -1):
        held = [v for v in VALUE_WORDS.get(text[i : i + size], ()) if v in values]
        if held:
            return (text[i : i + size], held[0]) if len(held) == 1 else None
    return None


def _range(m: re.Match[str]) -> str:
    ends = m[3] or ""  # 在30到40之间: both ends included, unless 不含
    word = "exclusive" if ends.startswith("不") else "inclusive"
    low, high = (n if n[0].isdigit() else str(chinese_to_int(n)) for n in (m[1], m[2]))
    return f" between {low} and {high} {word} "


# The words of every class: core/query_zh's own and core/lexicon_zh's (which adds, never
# overrides), with the Chinese field words of both glossaries.
_WORDS: dict[str, str] = {**CLASS_WORDS, **ZH_RECORD_NOUNS, **_LEXICON}
_LONGEST = max(map(len, _WORDS))
_VALUE_LONGEST = max(map(len, VALUE_WORDS))
_GLOSSARY: dict[str, tuple[str, ...]] = {
    word: tuple(dict.fromkeys((*GLOSSARY.get(word, ()), *FIELD_WORDS.get(word, ()))))
    for word in (*GLOSSARY, *FIELD_WORDS)
}
# "哪本", "哪一班": which, with a measure word, asking first ("哪本书最便宜"), or after 是 as
# the question's last word ("最贵的航班是哪一班？": is which, as 是哪个); 是哪 with anything
# after it is left to the lexicon.
_WHICH = re.compile(
    f"(?<!是)哪一?[{MEASURE_WORDS}]|(?<=是)哪一?[{MEASURE_WORDS}](?=\\s*(?:$|[？?]))"
)
# "那本", "那一台", "那班": the one a question or a request points at (as 那个, 那条)
_THAT_ONE = re.compile(f"那一?[{MEASURE_WORDS}]")
# "有几名", "多少位", "几本": how many, with a measure word (a closed class); "前几名" (the first
# few) is no count.
_HOW_MANY = re.compile(f"(?<!前)(?:有\\s*)?(?:几|多少)\\s*[{MEASURE_WORDS}]")
# "从 LHR 出发的航班", "从 FRA 起飞": where a record sets out from, a value in Latin letters
_FROM_PLACE = re.compile(r"从\s*([A-Za-z][\w .-]*?)\s*(?:出发|起飞|始发)")
# "每家", "每位", "每一本": each, with a measure word (a closed class)
_EACH = re.compile(f"每一?[{MEASURE_WORDS}]")
# "每个 milestone 下面有几个 issue", "各部门里": a place word after the field of each group says
# nothing more than the group (下面 is no "below" there).
_PER_PLACE = re.compile(
    rf"((?:每一?[{MEASURE_WORDS}]|各个?)\s*)([^，。,.;；？?！!\s][^，。,.;；？?！!]{{0,30}}?)\s*"
    r"(?:下面|下边|底下|里面|里边|当中|之中|中|下|里)(?=\s*(?:有|分别|各|的))"
)
# "是远程的", "是校准过的": a field said as what the records are (a flag), then 的.
_PREDICATE_END = re.compile(r"\s*过?\s*的")
# "2024-03-15 之后", "2015年以前": a point in time, then whether after or before it.
_DATE_THEN = re.compile(
    r"(?<![\d-])(\d{4}-\d{2}-\d{2}|\d{4}(?=\s*年))\s*年?\s*(之后|以后|之前|以前)"
)
_AFTER_WORDS = {"之后": "after", "以后": "after", "之前": "before", "以前": "before"}


def _unitless(words: tuple[str, ...]) -> tuple[str, ...]:
    """A key's words without a unit after them (price_usd: price; duration_min: duration)."""
    return words[:-1] if len(words) > 1 and words[-1] in UNIT_WORDS else words


def _said(key: str) -> str:
    """A key named by a Chinese word, as the query frame reads it: a flag's key (isRemote,
    hasGarden) by its adjective's words (remote, garden), any other key as it is."""
    words = _words_of(key)
    if len(words) > 1 and words[0] in ("is", "has", "can"):
        return " ".join(words[1:])
    return key


# A superlative said right after a field: the field's highest or lowest (飞行时间最短,
# 重量最轻); 最贵 and 最便宜 alone: of the one price field the glossary names.
_EXTREMES = {
    **dict.fromkeys(("最长", "最重", "最贵", "最晚"), " top "),
    **dict.fromkeys(("最短", "最轻", "最便宜", "最早"), " bottom "),
}
_PRICE_EXTREMES = {"最贵": "top", "最便宜": "bottom"}
# "2015年": a year alone (not a date: 2024年3月1日 is read by _ZH_DATE first).
_YEAR = re.compile(r"(?<!\d)(\d{4})\s*年(?!\s*\d)")
# "两台", "3架": a count with its measure word (a closed class; 班 after a number is a class).
_COUNTED = re.compile(
    r"(\d|[零〇一二两三四五六七八九十百千万])\s*[台架只件辆张篇首家部款座所道间趟]"
)
