"""The words of the protocol recogniser: nouns that name items, verbs that ask for them.

English nouns are matched singular or plural; Chinese nouns as written. Each noun maps to
the slot kind it asks for. Data words ("items", "rows", "fields", "记录", "字段") are left
out on purpose: "list 3 items of this JSON" is a query on a payload, not a protocol.
"""

from __future__ import annotations

from zerolayer.core.protocol.model import Kind

# English: singular → kind (plural forms are derived in ``english_noun_pattern``).
EN_NOUNS: dict[str, Kind] = {
    "question": Kind.QUESTION,
    "option": Kind.OPTION,
    "choice": Kind.OPTION,
    "alternative": Kind.OPTION,
    "approach": Kind.OPTION,
    "solution": Kind.OPTION,
    "candidate": Kind.OPTION,
    "bullet point": Kind.BULLET,
    "bulleted point": Kind.BULLET,
    "bullet": Kind.BULLET,
    "point": Kind.ITEM,
    "takeaway": Kind.ITEM,
    "reason": Kind.ITEM,
    "idea": Kind.ITEM,
    "tip": Kind.ITEM,
    "example": Kind.ITEM,
    "argument": Kind.ITEM,
    "suggestion": Kind.ITEM,
    "recommendation": Kind.ITEM,
    "fact": Kind.ITEM,
    "lesson": Kind.ITEM,
    "way": Kind.ITEM,
    "benefit": Kind.BULLET,
    "advantage": Kind.BULLET,
    "pro": Kind.BULLET,
    "strength": Kind.BULLET,
    "upside": Kind.BULLET,
    "con": Kind.BULLET,
    "disadvantage": Kind.BULLET,
    "drawback": Kind.BULLET,
    "weakness": Kind.BULLET,
    "downside": Kind.BULLET,
    "risk": Kind.ITEM,
    "concern": Kind.ITEM,
    "step": Kind.STEP,
    "paragraph": Kind.PARAGRAPH,
}

_EN_PLURALS = {"approach": "approaches", "weakness": "weaknesses", "pro": "pros", "con": "cons"}


def english_plural(noun: str) -> str:
    return _EN_PLURALS.get(noun, noun + "s")


def english_singular(phrase: str) -> str:
    """ "challenging questions" → "challenging question"; other words are left as they are."""
    words = " ".join(phrase.split())
    for singular in sorted(EN_NOUNS, key=len, reverse=True):
        plural = english_plural(singular)
        if words.lower().endswith(plural):
            cut = len(words) - len(plural)
            if cut == 0 or words[cut - 1] == " ":
                return words[:cut] + singular
    return words


def english_kind(noun: str) -> Kind:
    """The kind of a noun as written ("Bullet Points" → BULLET)."""
    words = " ".join(noun.lower().split())
    for singular, kind in EN_NOUNS.items():
        if words in (singular, english_plural(singular)):
            return kind
    raise KeyError(noun)


def english_noun_pattern() -> str:
    """Every noun, singular or plural, longest first (so "bullet points" beats "bullet")."""
    forms = sorted(
        {form for noun in EN_NOUNS for form in (noun, english_plural(noun))},
        key=lambda f: (-len(f), f),
    )
    return "|".join(form.replace(" ", r"\s+") for form in forms)


# Verbs that ask for a counted list: "list 3 options", "ask me 3 questions".
EN_VERBS = (
    r"list|give|provide|name|suggest|propose|offer|write|generate|come\s+up\s+with|ask|pose"
    r"|raise|share|outline|identify|present|produce|prepare|draft|compose|create|brainstorm"
    r"|recommend|return|show|tell|include|cover|highlight|summari[sz]e|explain|describe"
)
# Prepositions that give the answer's form: "answer in 5 bullet points".
EN_FORM_PREPOSITIONS = r"in|as|with|using|into|via|through"

# Chinese: noun → kind.
ZH_NOUNS: dict[str, Kind] = {
    "问题": Kind.QUESTION,
    "备选方案": Kind.OPTION,
    "选项": Kind.OPTION,
    "方案": Kind.OPTION,
    "选择": Kind.OPTION,
    "要点": Kind.ITEM,
    "观点": Kind.ITEM,
    "论点": Kind.ITEM,
    "理由": Kind.ITEM,
    "原因": Kind.ITEM,
    "建议": Kind.ITEM,
    "想法": Kind.ITEM,
    "例子": Kind.ITEM,
    "示例": Kind.ITEM,
    "措施": Kind.ITEM,
    "做法": Kind.ITEM,
    "方法": Kind.ITEM,
    "结论": Kind.ITEM,
    "注意事项": Kind.ITEM,
    "风险": Kind.ITEM,
    "优点": Kind.BULLET,
    "好处": Kind.BULLET,
    "优势": Kind.BULLET,
    "缺点": Kind.BULLET,
    "坏处": Kind.BULLET,
    "劣势": Kind.BULLET,
    "不足": Kind.BULLET,
    "步骤": Kind.STEP,
    "段落": Kind.PARAGRAPH,
}

# Classifiers that name the items themselves: "用3点总结", "分3段", "分三步".
ZH_CLASSIFIER_KINDS: dict[str, Kind] = {
    "点": Kind.ITEM,
    "条": Kind.ITEM,
    "项": Kind.ITEM,
    "段": Kind.PARAGRAPH,
    "步": Kind.STEP,
}
ZH_CLASSIFIERS = "个|条|点|项|种|段|步"

# Verbs that ask for a counted list ("列出3个方案", "用3点总结", "问我3个问题"), longest first.
ZH_VERBS = (
    "向我提出|总结出|总结成|总结为|归纳为|归纳成|归纳出|概括为|概括成|概括出|整理成|整理出"
    "|列出|列举|给出|给我|提出|写出|问我|举出|说出|想出|推荐|提供|分成|分为"
    "|用|以|分|列|给|提|写|问|举"
)
# Words that may follow a classifier used alone as the kind ("用3点总结", "分3段输出").
ZH_AFTER_CLASSIFIER = (
    "总结|概括|归纳|说明|回答|输出|介绍|描述|阐述|分析|列出|讲|写|来|进行|展开|论述|作答"
    "|回复|解释|答复|整理|表述"
)
