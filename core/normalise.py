"""Normalisation of instruction text (never of payloads).

Unicode NFKC (full-width letters, digits and punctuation become ASCII), the CJK punctuation
NFKC leaves alone mapped to ASCII, Chinese numerals in counting positions turned into digits
(两个 → 2个, 第三段 → 第3段, 保留两位小数 → 保留2位小数), polite filler dropped, "use" opening
a clause read as the grammar's "using", and white space collapsed. The result is what the
grammar parses and what the cache key is made of.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_PUNCT = str.maketrans(
    {
        "。": ".",
        "、": ",",
        "“": '"',
        "”": '"',
        "‘": "'",
        "’": "'",
        "「": '"',
        "」": '"',
        "『": '"',
        "』": '"',
        "《": '"',
        "》": '"',
        "【": "[",
        "】": "]",
        "〈": "<",
        "〉": ">",
        "～": "~",
        "—": "-",
        "–": "-",
        "\u3000": " ",
        "➜": "->",
        "➔": "->",
        "➝": "->",
        "➞": "->",
        "➡": "->",
        "⇨": "->",
        "⟹": "->",
    }
)

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_DIGITS.update({"七": 7, "八": 8, "九": 9})
_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_NUMERAL = "零〇一二两三四五六七八九十百千万"
# A numeral counts when it follows an ordinal or range word or precedes a classifier.
_BEFORE = "第前后末保留缩进取"
_AFTER = "个位名本条项段行列格次页篇章节种件份张句点空"
_CN_NUMBER = re.compile(rf"(?<=[{_BEFORE}])([{_NUMERAL}]+)|([{_NUMERAL}]+)(?=[{_AFTER}])")
# 一个/一下/一种 are articles and particles, not counts.
_NOT_A_COUNT = re.compile(r"^一$")

_FILLER = re.compile(
    # a filler closing a clause leaves the clause's comma: "only name and salary pls, in yaml"
    r"(?i)(?:(?<=\w)[ \t]+(?:please|pls|kindly)\b(?=[ \t]*[,;](?![ \t]*(?:and|but|then)\b))"
    r"|\b(?:please|pls|kindly)\b[,]?\s*|(?<![A-Za-z])(?:thanks|thank you)[.!]?\s*$"
    r"|请你|请帮我|请|帮我|帮忙|麻烦你|麻烦|劳驾|谢谢[。!]?)"
)
# A separable verb with a measure word or particle inside it (排个序, 排下序, 排一下序): the verb.
_SEPARATED_VERB = re.compile(r"排(?:一?下|个)序")
# Words without one of which an ASCII text has no filler.
_FILLER_CUES = ("please", "pls", "kindly", "thank")
# "use" opening an option clause ("…, use 4-space indentation", "… — use GFM", "…, but use
# flow style"): the grammar's verb for an option there is "using".
_USE_OPTION = re.compile(
    r"(?i)(?:(?<=[,;.!?:])|^|(?<=\band)|(?<=\bbut)|(?<=\s-))([ \t]*)use[ \t]+", re.MULTILINE
)
_EN_NUMBERS = {
    w: str(i)
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}
# A number word counts when a word follows it: "two decimal places", "four spaces".
_EN_NUMBER = re.compile(r"(?i)(?<![A-Za-z0-9_'])(" + "|".join(_EN_NUMBERS) + r")(?=[\s-]+[A-Za-z])")
_SPACES = re.compile(r"[ \t\r\f\v]+")


def chinese_to_int(numeral: str) -> int:
    """Value of a Chinese numeral: 三 → 3, 十二 → 12, 二十五 → 25, 一百零三 → 103; a last
    digit right after 百, 千 or 万 counts the next lower unit, as it is said (一万五 → 15000,
    两千五 → 2500, 三百五 → 350; 一万零五 → 10005)."""
    if all(ch in _DIGITS for ch in numeral):  # digit by digit: 二〇二四 → 2024
        if len(numeral) > 1:
            return int("".join(str(_DIGITS[ch]) for ch in numeral))
        return _DIGITS[numeral]
    total, section, digit, unit = 0, 0, 0, 0
    for ch in numeral:
        if ch in _DIGITS:
            digit = _DIGITS[ch]
            unit = unit if digit else 0  # 零 between: the digit is units (一百零五)
            continue
        if ch == "万":
            total += (section + digit) * 10000
            section, digit = 0, 0
        else:
            section += (digit or 1) * _UNITS[ch]
            digit = 0
        unit = _UNITS[ch]
    if digit and unit >= 100:
        digit *= unit // 10
    return total + section + digit


def _replace_numeral(match: re.Match[str]) -> str:
    numeral = match.group(1) or match.group(2)
    after = match.string[match.end() : match.end() + 1]
    if match.group(2) and _NOT_A_COUNT.match(numeral) and after in "个下种":
        return numeral
    return str(chinese_to_int(numeral))


_CACHED_CHARS = 512  # instructions up to this length are remembered (they recur)


def normalise(text: str) -> str:
    """Normalise instruction text for parsing and cache keys."""
    if len(text) <= _CACHED_CHARS:
        return _normalise_cached(text)
    return _normalise(text)


@lru_cache(maxsize=4096)
def _normalise_cached(text: str) -> str:
    return _normalise(text)


def forget_normalised() -> None:
    """Empty the cache of normalised instructions."""
    _normalise_cached.cache_clear()


def _normalise(text: str) -> str:
    # ASCII text has nothing for NFKC, the CJK punctuation or the Chinese numerals to do,
    # and each English pattern runs only where its words occur (case ignored)
    ascii_only = text.isascii()
    if not ascii_only:
        text = unicodedata.normalize("NFKC", text).translate(_PUNCT)
        text = _CN_NUMBER.sub(_replace_numeral, text)
        if "序" in text:
            text = _SEPARATED_VERB.sub("排序", text)
    low = text.lower() if ascii_only else ""
    if not ascii_only or any(word in low for word in _EN_NUMBERS):
        text = _EN_NUMBER.sub(lambda m: _EN_NUMBERS[m.group(1).lower()], text)
    if not ascii_only or any(cue in low for cue in _FILLER_CUES):
        text = _FILLER.sub("", text)
    if not ascii_only or "use" in low:
        text = _USE_OPTION.sub(r"\1using ", text)
    text = _SPACES.sub(" ", text)
    return "\n".join(line.strip() for line in text.split("\n")).strip()
