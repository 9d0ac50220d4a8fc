"""Message forms: where the payload stands relative to the instruction, as users paste it.

Each form takes the instruction, the payload, the payload's fence language and an optional
closing sentence, and returns the messages (and a system prompt for the template forms).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

Turn = dict[str, str]


@dataclass(frozen=True)
class Rendered:
    messages: list[Turn]
    system: str | None
    form: str


def _colon(instruction: str) -> str:
    """The instruction as it leads into a payload: a colon unless it ends a sentence."""
    text = instruction.rstrip()
    if text and text[-1] in ":：":
        return text
    if text and text[-1] in "?？.。!！":
        return text
    return text + ("：" if _is_cjk(text[-1]) else ":")


def _is_cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


def _fenced(payload: str, lang: str) -> str:
    """``payload`` in a backtick fence longer than any backtick run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", payload)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{payload.rstrip()}\n{fence}"


def _join(*parts: str | None) -> str:
    return "\n\n".join(p for p in parts if p)


def fenced(instruction: str, payload: str, lang: str, closing: str | None) -> Rendered:
    text = _join(_colon(instruction), _fenced(payload, lang), closing)
    return Rendered([{"role": "user", "content": text}], None, "fenced")


def fenced_bare(instruction: str, payload: str, lang: str, closing: str | None) -> Rendered:
    text = _join(_colon(instruction), _fenced(payload, ""), closing)
    return Rendered([{"role": "user", "content": text}], None, "fenced_bare")


def unfenced(instruction: str, payload: str, lang: str, closing: str | None) -> Rendered:
    text = _colon(instruction) + "\n" + payload.rstrip()
    if closing:
        text += "\n\n" + closing
    return Rendered([{"role": "user", "content": text}], None, "unfenced")


def same_line(instruction: str, payload: str, lang: str, closing: str | None) -> Rendered:
    """The payload on the instruction's line (only for one-line payloads)."""
    text = _colon(instruction) + " " + payload.strip()
    if closing:
        text += "\n" + closing
    return Rendered([{"role": "user", "content": text}], None, "same_line")


def before(instruction: str, payload: str, lang: str, closing: str | None) -> Rendered:
    """The payload first, the request after it."""
    ask = instruction.rstrip()
    if closing:
        if ask[-1:] in ".?!。？！":
            ask = ask + ("" if _is_cjk(closing[:1]) else " ") + closing
        else:
            ask = ask + ("。" if _is_cjk(ask[-1:]) else ". ") + closing
    text = _join(_fenced(payload, lang), ask)
    return Rendered([{"role": "user", "content": text}], None, "before")


def before_plain(instruction: str, payload: str, lang: str, closing: str | None) -> Rendered:
    ask = instruction.rstrip()
    if closing:
        ask = _join(ask, closing)
    text = _join(payload.rstrip(), ask)
    return Rendered([{"role": "user", "content": text}], None, "before_plain")


_TEMPLATE_HEAD = {
    "en": ["### Task\n{i}", "Task: {i}", "{i}\n\nInput:"],
    "zh": ["### 任务\n{i}", "任务：{i}", "{i}\n\n输入："],
}
_TEMPLATE_TAIL = {
    "en": ["### Output\n{c}", "Output: {c}", "{c}"],
    "zh": ["### 输出\n{c}", "输出要求：{c}", "{c}"],
}


def template(
    instruction: str,
    payload: str,
    lang: str,
    closing: str | None,
    *,
    rng: random.Random,
    ui_lang: str,
) -> Rendered:
    """A prompt template: instruction, the payload between markers, a closing line."""
    k = rng.randrange(3)
    head = _TEMPLATE_HEAD[ui_lang][k].format(i=instruction.rstrip())
    tail = _TEMPLATE_TAIL[ui_lang][k].format(c=closing) if closing else None
    text = _join(head, _fenced(payload, lang), tail)
    return Rendered([{"role": "user", "content": text}], None, "template")


def system_prompt(instruction: str, payload: str, lang: str, closing: str | None) -> Rendered:
    """An application's system prompt holds the instruction; the user turn is the payload."""
    system = instruction.rstrip()
    if closing:
        if _is_cjk(system[-1:] or "a"):
            system = system + "。" + closing
        else:
            system = system + ("" if system[-1:] in ".。?？!！" else ".") + " " + closing
    return Rendered([{"role": "user", "content": payload.rstrip()}], system, "system")


Form = Callable[[str, str, str, str | None], Rendered]

BASIC_FORMS: dict[str, Form] = {
    "fenced": fenced,
    "fenced_bare": fenced_bare,
    "unfenced": unfenced,
    "before": before,
    "before_plain": before_plain,
}


def render(
    form: str,
    instruction: str,
    payload: str,
    lang: str,
    closing: str | None,
    *,
    rng: random.Random,
    ui_lang: str,
) -> Rendered:
    if form == "template":
        return template(instruction, payload, lang, closing, rng=rng, ui_lang=ui_lang)
    if form == "system":
        return system_prompt(instruction, payload, lang, closing)
    if form == "same_line":
        return same_line(instruction, payload, lang, closing)
    return BASIC_FORMS[form](instruction, payload, lang, closing)
