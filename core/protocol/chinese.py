"""Chinese structure phrases: counted lists ("用3点总结", "列出3个方案", "问我3个问题"),
several lists ("3个优点和2个缺点", "优缺点各3点"), titled sections ("按'问题-影响-方案-风险'4段式
输出", "分为背景、分析、结论三部分") and the words of step chains ("先…,再…,最后…").
Chinese numerals the normaliser leaves alone ("分三步", "三部分") are read here."""

from __future__ import annotations

import re
from collections.abc import Iterator

from zerolayer.core.protocol.model import Kind, Slot
from zerolayer.core.protocol.phrases import (
    Found,
    Refused,
    Rule,
    Signals,
    checked_count,
    section_slots,
    split_titles,
    to_int,
)
from zerolayer.core.protocol.vocabulary import (
    ZH_AFTER_CLASSIFIER,
    ZH_CLASSIFIER_KINDS,
    ZH_CLASSIFIERS,
    ZH_NOUNS,
    ZH_VERBS,
)

_ZH_NUM = r"(?:\d{1,3}|[一二两三四五六七八九十]{1,3})"
_ZH_NOUN = "|".join(sorted(ZH_NOUNS, key=lambda w: (-len(w), w)))
_ZH_ALONE = "|".join(ZH_CLASSIFIER_KINDS)
# A classifier used alone names the items when a verb of speech follows ("用3条总结"); 点, 段
# and 步 also at the end of a clause ("总结成3点", "分3段"). "给出3条" alone is a row count.
_ZH_ALONE_AFTER = rf"\s*(?:{ZH_AFTER_CLASSIFIER})|(?<=[点段步])\s*(?:$|[,.;:!?'\")\]])"
_ZH_CP = (
    rf"{_ZH_NUM}\s*(?:(?:{ZH_CLASSIFIERS})\s*)?(?:[^\s,.;:!?'\"()]{{1,8}}?的)?(?:{_ZH_NOUN})"
    rf"|{_ZH_NUM}\s*(?:{_ZH_ALONE})(?={_ZH_ALONE_AFTER})"
)
_ZH_CP_ONE = re.compile(
    rf"(?P<n>{_ZH_NUM})\s*(?:(?P<cls>{ZH_CLASSIFIERS})\s*)?"
    rf"(?:(?P<adj>[^\s,.;:!?'\"()]{{1,8}}?)的)?(?P<noun>{_ZH_NOUN})"
    rf"|(?P<n2>{_ZH_NUM})\s*(?P<alone>{_ZH_ALONE})(?={_ZH_ALONE_AFTER})"
)
_ZH_NOUN_ANY = re.compile(_ZH_NOUN)
_ZH_JOIN = r"\s*(?:和|与|及|以及|,)\s*"
_ZH_LIST = re.compile(
    rf"(?P<lead>{ZH_VERBS})\s*(?:出\s*)?(?P<cps>(?:{_ZH_CP})(?:{_ZH_JOIN}(?:{_ZH_CP}))*)"
)
_ZH_PAIR = re.compile(rf"(?P<cps>(?:{_ZH_CP})(?:{_ZH_JOIN}(?:{_ZH_CP}))+)")
_ZH_EACH = re.compile(
    rf"(?:优缺点|利弊|优劣势?|好处和坏处)\s*各\s*(?:列出?|写出?|给出?|举出?)?\s*"
    rf"(?P<n>{_ZH_NUM})\s*(?:个|条|点|项)"
)
VAGUE = re.compile(
    r"(?:至少|最多|不超过|不少于|最少|起码|顶多|超过|少于|不到|不低于|不高于|大概|大约|约|差不多"
    rf"|将近|接近|~)\s*{_ZH_NUM}"
    rf"|{_ZH_NUM}\s*(?:{ZH_CLASSIFIERS})?\s*(?:以上|以内|以下|之内|上下|左右)"
    rf"|{_ZH_NUM}\s*(?:多|来|余)\s*(?:{ZH_CLASSIFIERS})"
    rf"|{_ZH_NUM}\s*(?:到|至|-|~|或)\s*{_ZH_NUM}\s*(?:{ZH_CLASSIFIERS})"
)
_ZH_TITLE = r"[^\s'\",.;:!?()\-/|<>\[\]]{1,12}?"
_ZH_SECTION_WORD = r"(?:段式|部分式|个部分|部分|段|方面)"
_ZH_SHAPE_WORD = r"(?:的?(?:结构|格式|框架|模板|形式|顺序))?"
_ZH_AFTER_VERB = r"(?:\s*(?:输出|回答|作答|回复|展开|组织|写|来写|来回答|阐述|说明))?"
# Titles need a lead word or quotes, and "段" counts only after a number ("4段", "四段式"):
# "只返回id和name字段" holds no sections.
_ZH_SECTIONS = re.compile(
    rf"(?:(?:按照|按|以|用|采用|使用|分为|分成|包括|包含)\s*(?P<q>['\"]?)|(?P<q2>['\"]))"
    rf"(?P<titles>{_ZH_TITLE}(?P<sep>[-/,|]){_ZH_TITLE}(?:(?P=sep){_ZH_TITLE}){{0,10}})"
    rf"(?:(?P=q)|(?P=q2))\s*(?:的)?\s*"
    rf"(?:(?P<n>{_ZH_NUM})\s*(?:个)?{_ZH_SECTION_WORD}|段式|部分式|个?部分)"
    rf"{_ZH_SHAPE_WORD}{_ZH_AFTER_VERB}"
)
_ZH_SECTIONS_AFTER = re.compile(
    rf"分(?:为|成)?\s*(?P<n>{_ZH_NUM})\s*(?:个)?(?:部分|段|方面)\s*:\s*"
    rf"(?P<titles>{_ZH_TITLE}(?:(?P<sep>[-/,|]){_ZH_TITLE}(?:(?P=sep){_ZH_TITLE}){{0,10}})?)"
    r"(?=\s*(?:$|[.;!?\n]))"
)
_ZH_EACH_SLOT = re.compile(
    rf"\s*,?\s*每(?:个)?(?:部分|段|节|方面)\s*(?:各)?\s*(?:用|列|写|给出|列出|包含)?\s*"
    rf"(?P<cp>{_ZH_CP})"
)
STEP_BY_STEP = re.compile(r"一步一步|一步步|逐步|分步骤?|循序渐进")
FIRST = re.compile(r"(?:^|(?<=[\s,.;:!?]))(?P<first>首先|第1步|先)\s*[,:]?\s*")
NEXT = re.compile(r"\s*[,;.]\s*(?:然后|再|接着|其次|之后|随后|最后|第[2-9]步)\s*[,:]?\s*")
LEAD_BEFORE = re.compile(
    r"(?:请)?(?:一步一步|一步步|逐步|分步骤?|循序渐进)(?:地)?(?:思考|推理|分析|回答|来)?"
    r"\s*[:,.;]?\s*$"
)


def _zh_slots(cps: str, titled: bool | None = None) -> list[Slot]:
    found = list(_ZH_CP_ONE.finditer(cps))
    titled = len(found) > 1 if titled is None else titled
    slots = []
    for m in found:
        if m["alone"]:
            if titled:
                raise Refused("a bare classifier cannot title a section")
            kind = ZH_CLASSIFIER_KINDS[m["alone"]]
            slots.append(Slot(kind, checked_count(to_int(m["n2"])), None, m["alone"]))
            continue
        noun = (m["adj"] + "的" if m["adj"] else "") + m["noun"]
        kind = ZH_NOUNS[m["noun"]]
        slots.append(Slot(kind, checked_count(to_int(m["n"])), m["noun"] if titled else None, noun))
    return slots


def rule_list(text: str, sig: Signals) -> Iterator[Found]:
    if not sig.cjk:
        return
    for m in _ZH_LIST.finditer(text):
        yield Found(m.start(), m.end(), tuple(_zh_slots(m["cps"])))


def rule_pair(text: str, sig: Signals) -> Iterator[Found]:
    if not sig.cjk or not _ZH_NOUN_ANY.search(text):
        return
    for m in _ZH_PAIR.finditer(text):
        yield Found(m.start(), m.end(), tuple(_zh_slots(m["cps"])))


def rule_each(text: str, sig: Signals) -> Iterator[Found]:
    if "各" not in text:
        return
    for m in _ZH_EACH.finditer(text):
        n = checked_count(to_int(m["n"]))
        slots = (Slot(Kind.BULLET, n, "优点", "优点"), Slot(Kind.BULLET, n, "缺点", "缺点"))
        yield Found(m.start(), m.end(), slots)


def _each_zh(text: str, end: int) -> tuple[int, Slot | None]:
    m = _ZH_EACH_SLOT.match(text, end)
    if m is None:
        return end, None
    return m.end(), _zh_slots(m["cp"], titled=False)[0]


def rule_sections(text: str, sig: Signals) -> Iterator[Found]:
    if not sig.cjk or not any(w in text for w in ("段", "部分", "方面")):
        return
    for pattern in (_ZH_SECTIONS, _ZH_SECTIONS_AFTER):
        for m in pattern.finditer(text):
            expected = to_int(m["n"]) if m["n"] else None
            titles = split_titles(m["titles"], expected, "zh")
            end, each = _each_zh(text, m.end())
            yield Found(m.start(), end, section_slots(titles, each))


RULES: tuple[Rule, ...] = (rule_sections, rule_each, rule_list, rule_pair)


def step_title(i: int, step: str) -> str:
    return f"第{i}步：{step}"
