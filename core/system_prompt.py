"""A system prompt's statements of what the user sends.

A prompt template's system prompt often says what each user message holds before or after
it says what to do with it: "The user sends Python.", "The user will paste YAML.", "Every
user message is a JSON document;", 用户会发YAML给你. Such a clause says nothing to do; it
restates the payload's format. It is read by one closed shape rather than listed:

- English: (the/each/every) user(s) + an optional modal (will, may, can, always …) + a verb
  of giving (send, paste, provide, give, share, submit, post, enter, supply, upload) +
  optional "you" + an optional determiner + a format name and/or a noun of the payload (code,
  document, snippet, query, file, data, text, input, config …); or (each/every) (user)
  message/input/request + is/contains/holds/will be + a determiner + a format name + an
  optional noun; or "the input is/will be" + a determiner + a format name + an optional noun;
- Chinese: 用户 + an optional modal (会, 将, 每次, 都会) + a verb of giving (发, 发送, 贴, 粘贴,
  提供, 给, 输入) + optional 给你 + an optional measure word (一段, 一份 …) + a format name
  and/or a noun (代码, 文档, 数据 …) + optional 给你/过来; or 每条(用户)消息都是 + a format.

A statement must be a whole clause (between clause breaks or the text's edges) and must name
a format or a noun. ``without_statements`` drops those clauses and returns the formats they
name; the engine then requires each named format to be the reading's source or a format the
payload reads as (a statement that contradicts the payload falls back).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

_BREAK = r"[,，;；.。!?！？:：\n]"
_EN_NOUNS = (
    r"code|source(?:\s+code)?|documents?|docs?|snippets?|quer(?:y|ies)|files?|data|text|input|"
    r"configs?|configuration|statements?|scripts?|programs?|markup|content|payloads?|objects?|"
    r"messages?"
)
_ZH_NOUNS = r"代码|源码|文档|数据|文件|配置|查询|语句|脚本|内容|文本|程序"


@lru_cache(maxsize=16)
def _statement(formats: frozenset[str]) -> re.Pattern[str]:
    names = "|".join(sorted((re.escape(f) for f in formats), key=lambda w: -len(w)))
    fmt = rf"(?<![A-Za-z0-9_])(?P<{{g}}>{names})(?![A-Za-z0-9_])"
    en_give = (
        r"(?:(?:the|each|every|our|your)\s+)?users?\s+"
        r"(?:(?:will|may|can|would|might|always|usually|often|is\s+going\s+to)\s+)*"
        r"(?:send|paste|provide|give|share|submit|post|enter|supply|upload)s?\s+"
        r"(?:(?:to\s+)?you\s+)?(?:(?:a|an|some|one|their|the|its|his|her)\s+)?"
        rf"(?:(?:{fmt.format(g='f1')})(?:\s+(?:{_EN_NOUNS}))?|(?:{_EN_NOUNS}))"
    )
    en_is = (
        r"(?:(?:each|every|the)\s+)?(?:user\s+)?(?:message|input|request|turn)s?\s+"
        r"(?:is|are|contains?|holds?|will\s+be|will\s+contain)\s+"
        r"(?:(?:a|an|one|some|valid|plain)\s+)*"
        rf"{fmt.format(g='f2')}(?:\s+(?:{_EN_NOUNS}))?"
    )
    zh_give = (
        r"用户(?:会|将|每次|都|通常|一般|经常)*(?:发送|发|粘贴|贴|提供|给出|给|输入)(?:给你|你)?"
        r"(?:一段|一份|一个|一些|一条|的)?"
        rf"(?:(?:{fmt.format(g='f3')})(?:{_ZH_NOUNS})?|(?:{_ZH_NOUNS}))(?:给你|过来|来)?"
    )
    zh_is = (
        r"(?:每条|每个|每段)(?:用户)?(?:消息|输入)(?:都)?(?:是|为)(?:一段|一份|一个)?"
        rf"{fmt.format(g='f4')}(?:{_ZH_NOUNS})?"
    )
    return re.compile(
        rf"(?i)(?:^|(?<={_BREAK}))[ \t]*(?:{en_give}|{en_is}|{zh_give}|{zh_is})"
        rf"[ \t]*(?:{_BREAK}+[ \t]*|$)"
    )


def without_statements(text: str, formats: Iterable[str]) -> tuple[str, tuple[str, ...]]:
    """``text`` less its clauses that state what the user sends, and the format names those
    clauses give (lower case, as written: aliases are the caller's to resolve)."""
    names = frozenset(f.lower() for f in formats)
    if not names or not re.search(r"(?i)\buser|用户|\b(?:message|input)", text):
        return text, ()
    named: list[str] = []

    def drop(m: re.Match[str]) -> str:
        for group in ("f1", "f2", "f3", "f4"):
            if m.group(group):
                named.append(m.group(group).lower())
        return ""

    out = _statement(names).sub(drop, text).strip()
    return out, tuple(dict.fromkeys(named))
