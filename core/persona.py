"""Role sentences: a prompt's opening that says who answers, not what to do.

"You are a helpful assistant.", "Act as an expert Python developer:", "你是一个专业的数据格式转换
助手。" give the model a role. Such a sentence is benign only when every word of it is a word of
roles: an article, an adjective of skill or helpfulness, a field or a format ("a YAML
expert"), then a noun of a role (assistant, expert, developer, 助手, 专家 …). A role sentence
with any other word says what to do ("You are a converter that sorts every key", "Act as a
linter with 4-space indentation", "You are a translator who answers in French") and is not
a role sentence here (a relative clause that names the task in general, "that converts
configuration files", is a role's): its words stay for the instruction's reading, which
then does not read and falls back.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_OPENING_EN = re.compile(
    r"(?i)[ \t]*(?:you\s+are|you're|youre|you\s+will\s+act\s+as|act\s+as|acting\s+as|"
    r"pretend\s+(?:to\s+be|you\s+are)|imagine\s+you\s+are)\s+"
)
# the task said to the model in general ("You convert configuration files.")
_TASK_EN = re.compile(r"(?i)[ \t]*you\s+(?:will\s+|can\s+)?(?P<verb>[a-z]+)\b")
_OPENING_ZH = re.compile(r"[ \t]*(?:你是|你现在是|你将扮演|请你扮演|请扮演|扮演)")
# where a role sentence ends: a sentence's or clause's end mark, a colon, or a line break
_END = re.compile(r"[.!?:：。！？,，;；\n]")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ROLE_WORDS_EN = _words(
    """
    a an the my our your helpful friendly expert senior junior experienced professional
    skilled seasoned knowledgeable precise careful meticulous reliable smart intelligent
    useful diligent efficient accurate capable world-class highly very ai ai-powered
    automated data format data-format file-format conversion converting code coding
    software backend front-end frontend full-stack web technical programming developer
    documentation devops config configuration structured text markup language
    migration translation transformation formatting refactoring analytics database api
    cloud integration automation scripting machine learning ml language-model llm
    engineering science development analysis data-engineering reporting business
    """
)
_ROLE_HEADS_EN = _words(
    """
    assistant assistants expert experts developer developers engineer engineers programmer
    programmers converter converters bot chatbot tool helper specialist professional
    analyst scientist coder architect consultant agent model system formatter transformer
    utility engine service renderer renderers parser generator translator compiler linter
    """
)
_ROLE_ZH = re.compile(
    r"(?:一个|一名|一位|个|名|位)?"
    r"(?:专业的?|资深的?|有用的?|乐于助人的|智能的?|高级的?|经验丰富的|熟练的|优秀的|AI|人工智能|"
    r"数据|格式|数据格式|文件格式|代码|编程|软件|前端|后端|技术|迁移|转换|翻译|文档|运维|开发|"
    r"[A-Za-z][\w+#.-]{0,15})*"
    r"(?:转换助手|助手|专家|工程师|程序员|开发者|开发人员|转换器|转换工具|渲染器|解析器|生成器|翻译器|编译器|工具|机器人|顾问|分析师)"
)


# A relative clause of a role that names its task in general ("that converts configuration
# files", "who helps with data formats"): a verb of conversion and nouns of data, no format
# and no other word (a format named there might contradict the instruction).
_RELATIVE = _words("that who which")
_TASK_VERBS = _words(
    "converts convert translates translate transforms transform turns turn rewrites rewrite "
    "converting translating transforming rewriting "
    "reformats reformat helps help works work specialises specializes"
)
_TASK_WORDS = _words(
    "with on in between and or files file documents document data formats format "
    "configuration configurations config configs code snippets payloads text structured "
    "languages language programming markup users people developers teams"
)


def _without_direction(role: list[str], formats: Collection[str]) -> list[str]:
    """``role`` without a "to" or "into" between two formats ("a JSON to YAML converter")."""
    return [
        w
        for i, w in enumerate(role)
        if not (
            w in ("to", "into", "->", "→")
            and 0 < i < len(role) - 1
            and role[i - 1] in formats
            and role[i + 1] in formats
        )
    ]


def _says_the_task(clause: list[str]) -> bool:
    return (
        len(clause) >= 2
        and clause[1] in _TASK_VERBS
        and all(w in _TASK_WORDS or w in _ROLE_WORDS_EN for w in clause[2:])
    )


def role_end(text: str, formats: Collection[str] = ()) -> int:
    """Where a role sentence that opens ``text`` ends (after its end mark and the white
    space after it), or 0 when ``text`` does not open with one."""
    task = _TASK_EN.match(text)
    if task is not None and task["verb"].lower() in _TASK_VERBS:
        # "You convert configuration files.": the task said in general
        end = _END.search(text, task.end())
        stop = end.start() if end else len(text)
        if not _says_the_task(["you", *text[task.start("verb") : stop].lower().split()]):
            return 0
        after = stop + 1 if stop < len(text) else stop
        return after + len(text[after:]) - len(text[after:].lstrip())
    m = _OPENING_EN.match(text)
    if m is not None:
        end = _END.search(text, m.end())
        stop = end.start() if end else len(text)
        words = text[m.end() : stop].lower().split()
        cut = next((i for i, w in enumerate(words) if w in _RELATIVE), len(words))
        role, clause = words[:cut], words[cut:]
        role = _without_direction(role, formats)
        if (
            not role
            or role[-1] not in _ROLE_HEADS_EN
            or not all(w in _ROLE_WORDS_EN or w in _ROLE_HEADS_EN or w in formats for w in role)
            or (clause and not _says_the_task(clause))
        ):
            return 0
    else:
        m = _OPENING_ZH.match(text)
        if m is None:
            return 0
        role = _ROLE_ZH.match(text, m.end())
        if role is None:
            return 0
        stop = role.end()
        if stop < len(text) and not _END.match(text, stop):
            return 0
    after = stop + 1 if stop < len(text) else stop
    return after + len(text[after:]) - len(text[after:].lstrip())


def roles_only(text: str, formats: Collection[str] = ()) -> bool:
    """Whether ``text`` is role sentences alone ("You are a helpful assistant.")."""
    rest = text.strip()
    while rest:
        end = role_end(rest, formats)
        if not end:
            return False
        rest = rest[end:].strip()
    return True
