"""The determinism gate: preconditions a request must meet before the engine may answer.

Sampling parameters come first (temperature 0, top_p absent or 1, no disable header); the
instruction text is then checked for vague quantifiers ("about 3", "3点左右", "尽量") and
open-ended asks (opinions, creative writing, explanations, advice, real-time facts). Each
failure has a stable reason name used in traces, metrics and the lint command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from zerolayer.core.messages import EngineRequest


@dataclass(frozen=True, slots=True)
class GateFailure:
    reason: str  # stable name: gate.temperature, gate.open_ended, ...
    detail: str  # what was found, in words


def check_sampling(
    request: EngineRequest, *, absent_temperature_is_zero: bool
) -> GateFailure | None:
    """Check the request's switches and sampling parameters."""
    if request.disabled:
        return GateFailure("gate.disabled", "the caller asked for the neural route")
    if request.temperature is None:
        if not absent_temperature_is_zero:
            return GateFailure(
                "gate.temperature_absent",
                "temperature is not set, so the API default applies, which is not 0; "
                "send temperature 0 for a deterministic answer",
            )
    elif request.temperature != 0:
        return GateFailure(
            "gate.temperature", f"temperature is {request.temperature:g}; it must be 0"
        )
    if request.top_p is not None and request.top_p != 1:
        return GateFailure("gate.top_p", f"top_p is {request.top_p:g}; it must be absent or 1")
    return None


def _any(patterns: tuple[str, ...]) -> str:
    return "|".join(f"(?:{p})" for p in patterns)


def _words(*patterns: str) -> re.Pattern[str]:
    return re.compile(_any(patterns), re.IGNORECASE)


_EN = r"(?<![A-Za-z])"
_EN_END = r"(?![A-Za-z])"


def _english(*words: str) -> str:
    return rf"{_EN}(?:{'|'.join(words)}){_EN_END}"


_NUMBER_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|a few|a dozen|a couple"

_VAGUE_EN = (
    rf"{_EN}(?:about|around|approx|approximately|roughly|circa|nearly|almost)\s+"
    rf"(?:\d|(?:{_NUMBER_WORDS}){_EN_END})",
    _english(
        "roughly",
        "approximately",
        "more or less",
        "give or take",
        "or so",
        "ish",
        "a few",
        "several",
        "some number of",
        "a couple of",
        "a handful of",
        "if possible",
        "where possible",
        "if you can",
        r"as (?:much|many|few|short|long) as possible",
    ),
    r"~\s*\d",
    r"\d+\s*-?ish\b",
)
_VAGUE_ZH = (r"左右|大概|大约|约为|约\d|差不多|尽量|尽可能|适当|若干|一些|上下浮动|多少都行|随便",)
VAGUE = _words(*_VAGUE_EN, *_VAGUE_ZH)

_OPEN_EN_WORDS = (
    # opinions and judgement
    (
        "what do you think",
        "what you think",
        r"your (?:opinion|thoughts|views?|take|feedback)",
        r"do you (?:like|prefer|agree)",
        "opinion",
        "well[- ]designed",
        r"is (?:it|this) (?:good|bad|ok|okay|correct|right)",
        "pros and cons",
        "better",
        "best",
        "worse",
        "worst",
        r"should (?:i|we)",
        r"recommend\w*",
        r"suggest\w*",
        "advice",
        "advise",
        r"improve\w*",
        "critique",
        "review",
        "evaluate",
        "assess",
        "judge",
        "feasible",
        "rate this",
    ),
    # creative writing
    (
        "poem",
        "poetry",
        "haiku",
        "sonnet",
        "limerick",
        "story",
        "stories",
        "essay",
        "song",
        "lyrics",
        "joke",
        "slogan",
        "tagline",
        "creative",
        "imagine",
        "brainstorm",
        "invent",
    ),
    # explanations and summaries
    (
        r"explain\w*",
        "explanation",
        "why",
        "describe",
        "description",
        r"summar\w*",
        r"tl;?dr",
        r"interpret\w*",
        r"analy[sz]\w*",
        r"what does (?:this|it|the)\b.*\bdo",
        "teach",
        "tutorial",
        "help me understand",
    ),
    # real-time and world facts
    (
        "today",
        "today's",
        "tonight",
        "yesterday",
        "tomorrow",
        "currently",
        "latest",
        "right now",
        r"live(?!\s+in\b)",  # "live scores", not where people live ("users who live in Lyon")
        "news",
        "weather",
        "forecast",
        "stock price",
        "closing price",
        "exchange rate",
        "score of the game",
        "who won",
    ),
)
_OPEN_EN = (_english(*(w for words in _OPEN_EN_WORDS for w in words)),)
_OPEN_ZH = (
    r"你觉得|你认为|怎么看|看法|意见|评价|评估|好不好|合不合理|是否合理|哪个好|哪个更|更好|最好"
    r"|优缺点|建议|改进|优化|推荐",
    r"诗|故事|作文|散文|歌词|笑话|口号|写一[首篇个段]|创作|想象|头脑风暴",
    r"解释|说明一下|讲解|为什么|为何|总结|概括|摘要|归纳|分析|含义|作用是|做什么用",
    r"今天|今日|昨天|明天|现在|目前|最新|实时|股价|收盘|开盘|汇率|天气|新闻|比分",
)
OPEN_ENDED = _words(*_OPEN_EN, *_OPEN_ZH)

# The gate's own scan matches the same words faster: English and Chinese apart (one
# pattern of both is tried at every place of the text; each alone passes at once over
# the places where it cannot start), case-sensitively on the text in lower case.
_VAGUE_SCAN = (re.compile(_any(_VAGUE_EN)), re.compile(_any(_VAGUE_ZH)))
_OPEN_SCAN = (re.compile(_any(_OPEN_EN)), re.compile(_any(_OPEN_ZH)))


_QUOTED = re.compile(r""""[^"\n]*"|`[^`\n]*`|'[^'\n]*'(?![A-Za-z])""")


# "目前在职的员工", "现在打开的 issue": of records in the payload, "now" says the data as it is,
# a word that asks no real-time fact (the record reader reads every other word itself).
_NOW = frozenset({"现在", "目前"})
_RECORDS = re.compile(r"\s*(?:\[\s*\{|-\s+[\w\u3400-\u9fff\"']+\s*:)")


def _is_records(payload: str) -> bool:
    """Whether a payload opens as a list of objects (JSON ``[{``, YAML ``- key:``)."""
    return _RECORDS.match(payload) is not None


def _is_key(word: str, payloads: tuple[str, ...]) -> bool:
    """Whether ``word`` is a key of a payload ("keep only id and summary")."""
    key = re.compile(rf"""(?:^|[\s{{,"'])["']?{re.escape(word)}["']?\s*:""", re.MULTILINE)
    return any(key.search(p) for p in payloads)


def check_text(instruction: str, payloads: tuple[str, ...] = ()) -> GateFailure | None:
    """Check normalised instruction text (payloads excluded) for vague or open asks.

    Quoted literals ("summary", `name`) are names and values, not words of the ask, and so
    are words that are keys of the payload.
    """
    scan = _scan if len(instruction) <= _CACHED_CHARS else _scan.__wrapped__
    vague, open_words = scan(instruction)
    if vague is not None:
        return GateFailure(
            "gate.vague_quantifier",
            f"the instruction is not exact ({vague!r}); state an exact amount",
        )
    for word in open_words:
        if _is_key(word, payloads) or (word.strip() in _NOW and any(map(_is_records, payloads))):
            continue
        return GateFailure(
            "gate.open_ended",
            f"the instruction asks for something open-ended ({word.strip()!r}); "
            "a model must answer it",
        )
    return None


_CACHED_CHARS = 512  # instructions up to this length are remembered (they recur)


def forget_gate_readings() -> None:
    """Empty the cache of instructions' gate readings."""
    _scan.cache_clear()


@lru_cache(maxsize=4096)
def _scan(instruction: str) -> tuple[str | None, tuple[str, ...]]:
    """(the first vague quantifier, the open-ended words not quoted) of an instruction; the
    payload-dependent part of the check is left to the caller. Remembered: instructions
    recur."""
    quoted = {q.strip("\"'`").lower() for q in _QUOTED.findall(instruction)}
    instruction = _QUOTED.sub(" ", instruction)
    text = instruction.lower()
    if len(text) != len(instruction):  # a letter whose lower case is longer ("İ")
        return _scan_words(instruction, (VAGUE,), (OPEN_ENDED,), quoted)
    return _scan_words(instruction, _VAGUE_SCAN, _OPEN_SCAN, quoted, text)


def _scan_words(
    instruction: str,
    vague: tuple[re.Pattern[str], ...],
    open_ended: tuple[re.Pattern[str], ...],
    quoted: set[str],
    text: str | None = None,
) -> tuple[str | None, tuple[str, ...]]:
    """``_scan`` with the patterns matched on ``text`` (``instruction`` when None; the words
    are taken from ``instruction`` at the same places)."""
    text = instruction if text is None else text
    first = min((m for p in vague if (m := p.search(text))), key=_start, default=None)
    if first is not None:
        return instruction[first.start() : first.end()].strip(), ()
    found = sorted((m for p in open_ended for m in p.finditer(text)), key=_start)
    words = (instruction[m.start() : m.end()] for m in found)
    return None, tuple(w for w in words if w.lower() not in quoted)


def _start(match: re.Match[str]) -> int:
    return match.start()
