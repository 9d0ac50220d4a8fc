"""Frames and slots: conversion requests the grammar has no sentence shape for.

A conversion is a frame of three slots: the source format, the target format and options.
When the grammar does not match an instruction, the frame reader reads it word by word:

- every word is classified: a **format** (an installed op's format or an alias a plugin
  declares), a **target word** that names a target by itself ("render" → html), a
  **direction** word (to, into, as, ->, 转成 …; "instead of" and "from" name the source), a
  **benign** word (function words, politeness, request verbs, nouns for the payload or the
  answer: closed classes, in English and Chinese, extended by the plugins' lexicons), or
  **other**;
- the instruction is split into clauses at punctuation; a clause of benign words alone says
  nothing; a clause with other words and no format is an **option island**; in a clause with
  both, the span from its first other word to its last is the island and the rest must be
  frame words;
- the slots are filled: two formats are ordered by the direction words, else by the payload's
  own format (the payload parsing as JSON makes JSON the source); one format is the target,
  unless a target word names the target and the format is the source;
- the frame is written as the grammar's own sentence ("convert this JSON to YAML, <island>")
  and parsed by the grammar, so the plan is the one the grammar gives, and an island the
  grammar does not read makes the whole request fall back.

Anything else falls back: a quoted phrase, an open-ask word (explain, why, review, improve,
解释 …), a word of no class that no island parse explains, no format or three, two formats no
direction word orders, a source that contradicts the payload (checked by the engine after).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from itertools import pairwise

from zerolayer.core.errors import Unsupported
from zerolayer.core.plan import Directive, Step
from zerolayer.core.registry import Lexicon


class Kind(Enum):
    FORMAT = "format"
    TARGET = "target"  # a word naming a target format by itself
    TO = "to"  # the target follows
    FROM = "from"  # the source follows
    INSTEAD = "instead"  # "B instead of A": the source follows, the target came before
    BENIGN = "benign"
    OPEN = "open"  # an open ask: the request is not deterministic
    QUOTE = "quote"
    SEP = "sep"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Word:
    text: str  # as written
    kind: Kind
    start: int
    end: int
    value: str = ""  # the format a FORMAT or TARGET word names


@dataclass(frozen=True, slots=True)
class Frame:
    """A conversion frame with its slots filled."""

    source: str | None
    target: str
    islands: tuple[str, ...] = ()

    def sentence(self, chinese: bool = False) -> str:
        """The frame as the grammar's own sentence."""
        if chinese:
            head = f"把这段{self.source}转成{self.target}" if self.source else f"转成{self.target}"
            return "，".join((head, *self.islands))
        head = (
            f"convert this {self.source} to {self.target}"
            if self.source
            else f"convert this to {self.target}"
        )
        return ", ".join((head, *self.islands))


# ---- closed classes --------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


BENIGN_EN = _words(
    """
    a an the this that these those it its it's them they their some any my me i i'd i'm i've
    we us our you u your ya here here's there there's following below above attached pasted
    given said same whole entire full of for on at by with please pls plz kindly thanks thank
    thx ty hey hi hello yo ok okay so now just only also too again quickly quick simply is are
    be was were would will can could should may might must shall do does did what what's whats
    how's look looks like need needs want wants wanna gotta got have has give gimme show
    output return print produce generate emit write spit make turn change convert conversion
    produces gives yields yield becomes become renders generates makes outputs
    converted transform transformed translate translated translation rewrite rewritten
    re-express reexpress express expressed redo rework port ported switch serialize serialise
    serialized serialised render rendered dump reformat cast map move get put send provide
    reply respond answer format formatted formatting document doc file data object objects
    array arrays snippet snippets config payload version equivalent form representation
    counterpart one code text content input thing stuff result output markup source block
    blocks structure contents body listing instead out syntax notation but rendition love markup
    prefer changelog manifest excerpt passage section wrote written response readme
    help go ahead asap urgently parse parsed decode decoded take grab mind see bit piece
    chunk task job
    """
)
# A polite opener that asks a yes/no question only in form ("would you mind …", "would you
# be able to …", "I'd appreciate it if you could …"): benign where it opens a clause.
_OPENER = re.compile(
    r"(?i)\b(?:would|could)\s+you\s+(?:mind|be\s+able\s+to)\b"
    r"|\bi(?:'d|’d|\s+would)\s+(?:really\s+)?appreciate\s+(?:it\s+)?if\s+you\s+(?:could|can|would)\b"
    r"|\bthanks?(?:\s+you)?\s+in\s+advance\b"
    # "how would this look in TypeScript?", "how do I do this in pandas?": a question that
    # asks for the payload in another form (a request word follows), not how something works
    r"|\bhow\s+(?:would|will|does|do|can|could|should|might)\s+(?:i|we|you|one|this|it|that)"
    r"(?=\s+(?:look|do|write|express|say|render|port|convert|translate|rewrite)\b"
    r"|\s+be\s+(?:written|expressed|represented|rendered|done)\s+(?:in|as)\b)"
)
# Words that ask for something open (an explanation, an opinion, a judgement): never benign.
OPEN_EN = _words(
    """
    explain explanation explaining why how describe summarise summarize summary review improve
    improved better best worse nicer prettier cleaner idiomatic optimise optimize fix correct
    valid validate wrong mistake mistakes bug bugs difference differences compare comparison
    opinion think recommend suggest advice meaning mean means tell understand teach comment
    comments annotate document-it should which whether
    """
)
# Open-ask words a record query is asked in: not open for the query frame reader, which
# reads every word of a query itself (core/query_frames.py).
QUERY_WORDS = frozenset({"which", "how", "mean", "哪个", "哪一个", "哪些", "哪位"})
# Chinese words, longest match first; a character no word covers is OTHER.
BENIGN_ZH = _words(
    """
    这 这个 这段 这份 这些 那 那个 那段 下面 下面的 以下 以下的 如下 上面 上面的 它 它们 我 给
    给我 帮 帮我 一下 的 地 了 吧 呢 啊 呀 吗 嘛 一个 一份 想要 我想要 帮忙
    格式 版本 版 代码 对应 对应的 对应地 等价 等价的 用 表示 实现 写 重写 改写 翻译 转换 改 变
    输出 生成 返回 给出 弄 弄成 做 做成 来 下 内容 文本 数据
    对象 数组 片段 结果 形式 怎么写 可以 能 能否 请 麻烦 谢谢 就行 即可 就好 一段 把 将
    是什么 是啥 什么样 长什么样 会是 这条 这句 该 此 写出 写出来 根据
    您好 你好 嗨 哈喽 早上好 多谢 谢啦 感谢
    文件 顺便 顺手 在 里 里面 中 怎么实现 如何实现 怎么做 如何写
    """
)
# Chinese words that name the source: the format follows (从Markdown转为HTML).
FROM_ZH = _words("从 由")
# Words that make a format named alone a request ("YAML please", "JSON pls", "请给JSON"): the
# format is the target, and a payload already in it falls back (see _slots). The normalised
# instruction has lost them, so the engine asks of the words as written (asks_politely).
_POLITE = re.compile(r"(?i)\b(?:please|pls|plz|kindly)\b|请|麻烦")


def asks_politely(written: str) -> bool:
    """Whether the words as written hold a word that asks politely."""
    return _POLITE.search(written) is not None


# Benign words that ask for something: a frame needs one of them, a word of POLITE or a
# direction word ("YAML." alone does not say what to do with the payload).
REQUEST_EN = _words(
    """
    do give gimme show output return print produce generate emit write make turn change convert
    conversion converted transform transformed translate translated translation rewrite
    rewritten re-express reexpress express expressed redo rework port ported switch serialize
    serialise serialized serialised render rendered dump reformat cast map get put provide
    need needs want wants wanna like version equivalent form representation counterpart code
    instead out produces gives yields yield becomes become renders generates makes outputs
    rendition spit
    """
)
# Verbs of change, rendering and translation with their inflections ("porting", "compiled",
# "moves"): benign, and each asks for a conversion.
CHANGE_VERBS = _words(
    """
    convert turn change transform translate rewrite express port switch serialize serialise
    render reformat recast redo rework move compile migrate encode re-encode reencode
    transcribe transpile
    """
)


def inflections(verbs: Iterable[str]) -> frozenset[str]:
    """Each verb with its -s, -ed and -ing forms (the forms of regular English verbs)."""
    out: set[str] = set()
    for verb in verbs:
        stem = verb[:-1] if verb.endswith("e") else verb
        out |= {verb, f"{verb}s", f"{stem}ed", f"{stem}ing"}
    return frozenset(out)


CHANGE_EN = inflections(CHANGE_VERBS)
# Words that acknowledge or greet; a clause of them alone and benign words says nothing
# ("great.", "ok cool,", "perfect, thanks"). Inside a clause with other words they are
# other words ("make it look great" is not a conversion).
INTERJECTIONS = _words(
    """
    great cool nice awesome perfect alright right sure yes yeah yep ok okay thanks thank
    got gotcha good fine lovely excellent brilliant much very lot appreciated morning
    evening afternoon howdy hiya greetings
    """
)
# Words that a direction word follows in a phrasal verb ("port this over to YAML", "move it
# across into TOML", "convert it back to JSON"): benign there, other words elsewhere.
PARTICLES = _words("over across back")
# Adjectives of a target format that change nothing in the answer ("as raw HTML", "to plain
# JSON"): benign between a direction word and a format, other words elsewhere ("keep raw
# HTML" is an option).
FORMAT_ADJECTIVES = _words("raw plain pure actual proper real pretty pretty-printed")
REQUEST_ZH = _words(
    """
    用 表示 实现 写 重写 改写 翻译 转换 改 变 输出 生成 返回 给出 给 给我 版本 版 代码 对应
    对应的 等价 等价的 怎么写 弄 弄成 做成 形式 怎么实现 如何实现 怎么做 如何写
    """
)
TO_ZH = _words(
    """
    转 成 为 到 转成 转为 转换成 转换为 改成 改为 变成 变为 翻成 翻译成 写成 输出成 输出为
    """
)
OPEN_ZH = _words(
    """
    解释 为什么 为何 说明 优化 总结 评价 怎么样 区别 问题 建议 意思 含义 分析 好不好 哪个 正确
    对不对 检查 修复 改进 点评 介绍 描述
    """
)
TO_EN = frozenset({"to", "into", "as", "in", "->", "=>", "→", "⇒", ">"})
_TOKEN = re.compile(
    r"(?:[A-Za-z_]\w*)?\.?[A-Za-z_]\w*\(\s*\)"  # a call ("df.query()", ".query()", "query()")
    r"|(?<=\s)[-–—](?=\s)"  # a dash between spaces parts clauses like a comma
    r"|\[[^\]\n]*\]"  # a bracketed example ("[a, b]") stays one word
    r"|[A-Za-z][A-Za-z0-9]*(?:['’\-][A-Za-z0-9]+)*"
    r"|\d+(?:[.\-]\d+)*"
    r"|->|=>|[→⇒>]"
    r"|[\u3400-\u9fff]+"
    r"|[,;.!?:，；。！？：\n]"
    r"|[\"'`“”‘’]"
    r"|\S"
)


class FrameReader:
    """Reads conversion frames for one set of installed formats and plugin lexicons."""

    def __init__(
        self,
        formats: Iterable[str],
        lexicons: Sequence[Lexicon],
        parse: Callable[[str], Sequence[Directive]],
    ) -> None:
        self.formats = {f.lower(): f.lower() for f in formats}
        nouns: set[str] = set()
        phrases: set[str] = set()
        self.targets: dict[str, str] = {}
        for lexicon in lexicons:
            phrases.update(lexicon.phrases)
            for alias, name in lexicon.aliases.items():
                if name.lower() in self.formats:
                    self.formats.setdefault(alias.lower(), name.lower())
            nouns.update(n.lower() for n in lexicon.nouns)
            self.targets.update({w.lower(): t.lower() for w, t in lexicon.targets.items()})
        self.benign = (BENIGN_EN | CHANGE_EN | {n for n in nouns if n.isascii()}) - OPEN_EN
        self._phrases = _phrase_pattern(phrases)
        zh_words = BENIGN_ZH | TO_ZH | OPEN_ZH | FROM_ZH | {n for n in nouns if not n.isascii()}
        zh_words |= {w for w in self.targets if not w.isascii()}
        self.benign_zh = (BENIGN_ZH | {n for n in nouns if not n.isascii()}) - OPEN_ZH
        self._zh_longest = max(len(w) for w in zh_words)
        self._zh_words = zh_words
        self._parse = parse
        self._screened = lru_cache(maxsize=4096)(self._screen_text)
        self._part_only = _part_only_pattern({n for n in nouns if n.isascii()} - BENIGN_EN)
        # "what's the YAML for this JSON", "what is the HTML of this markdown": a question that
        # asks for the payload's text in a format, with a pointing word after "for" or "of"
        names = "|".join(sorted((re.escape(f) for f in self.formats), key=len, reverse=True))
        self._what_the = re.compile(
            rf"(?i)\bwhat(?:'s|’s|s|\s+is)(?=\s+the\s+(?:{names})\s+(?:for|of)\s+"
            r"(?:this|that|these|the|my|our)\b)"
        )

    # ---- words ---------------------------------------------------------------------------

    def words(self, text: str) -> list[Word]:
        low = text.lower()
        if "you" in low or "advance" in low or "how" in low:  # a polite phrase: benign
            text = _OPENER.sub(lambda m: "please".ljust(len(m.group(0))), text)
        if "what" in low:  # "what's the YAML for this JSON?": asks for the target's text
            text = self._what_the.sub(lambda m: "give".ljust(len(m.group(0))), text)
        if "的" in text or "在" in text or "到" in text:  # 从API拿到的, 同事发给我的, 放到wiki上
            text = _ASIDE_ZH.sub(self._zh_aside, text)
        out: list[Word] = []
        at = 0
        spans = self._phrases.finditer(text) if self._phrases is not None else ()
        for phrase in spans:  # an option's name is one word of its island
            out.extend(self._tokens(text, at, phrase.start()))
            out.append(Word(phrase.group(0), Kind.OTHER, phrase.start(), phrase.end()))
            at = phrase.end()
        out.extend(self._tokens(text, at, len(text)))
        return _in_context(out)

    def _zh_aside(self, m: re.Match[str]) -> str:
        """A Chinese aside blanked out, unless what it names holds a format's name, a digit
        or a word that picks a part of the data (then it is kept, and read word by word)."""
        named = (
            m.group("from") or m.group("made") or m.group("src") or m.group("to") or ""
        ).lower()
        if any(f in named for f in self.formats if len(f) > 1) or re.search(
            r"\d|第|前|每|所有|部分|字段|键|值|行|列|条|哪|什么|谁|几", named
        ):
            return m.group(0)
        return " " * len(m.group(0))

    def _tokens(self, text: str, start: int, end: int) -> list[Word]:
        out: list[Word] = []
        for m in _TOKEN.finditer(text, start, end):
            tok = m.group(0)
            if "\u3400" <= tok[0] <= "\u9fff":
                out.extend(self._chinese(tok, m.start()))
            else:
                out.append(self._word(tok, m.start(), m.end()))
        return out

    def _word(self, tok: str, start: int, end: int) -> Word:
        low = tok.lower().replace("’", "'")
        if low in self.formats:
            return Word(tok, Kind.FORMAT, start, end, self.formats[low])
        if low in self.targets:
            return Word(tok, Kind.TARGET, start, end, self.targets[low])
        if low.endswith("ify") and low.removesuffix("ify").rstrip("-") in self.formats:
            # "YAML-ify this", "jsonify it": a verb made of the target's name
            return Word(tok, Kind.TARGET, start, end, self.formats[low[:-3].rstrip("-")])
        if low in TO_EN:
            return Word(tok, Kind.TO, start, end)
        if low == "from":
            return Word(tok, Kind.FROM, start, end)
        if low == "instead":
            return Word(tok, Kind.INSTEAD, start, end)
        if low in OPEN_EN:
            return Word(tok, Kind.OPEN, start, end)
        if low in self.benign:
            return Word(tok, Kind.BENIGN, start, end)
        if low in _SEPARATORS:
            return Word(tok, Kind.SEP, start, end)
        if low in {'"', "'", "`", "“", "”", "‘", "’"}:
            return Word(tok, Kind.QUOTE, start, end)
        return Word(tok, Kind.OTHER, start, end)

    def _chinese(self, run: str, offset: int) -> list[Word]:
        """A run of Chinese characters split at the longest known word from the left; a
        character no word covers is a word of its own, of no class."""
        out: list[Word] = []
        i = 0
        while i < len(run):
            for size in range(min(self._zh_longest, len(run) - i), 0, -1):
                piece = run[i : i + size]
                if piece in self._zh_words or size == 1:
                    break
            start, end = offset + i, offset + i + len(piece)
            if piece in self.targets:
                out.append(Word(piece, Kind.TARGET, start, end, self.targets[piece]))
            elif piece in OPEN_ZH:
                out.append(Word(piece, Kind.OPEN, start, end))
            elif piece in TO_ZH:
                out.append(Word(piece, Kind.TO, start, end))
            elif piece in FROM_ZH:
                out.append(Word(piece, Kind.FROM, start, end))
            elif piece in self.benign_zh:
                out.append(Word(piece, Kind.BENIGN, start, end))
            else:
                out.append(Word(piece, Kind.OTHER, start, end))
            i += len(piece)
        return out

    # ---- frames --------------------------------------------------------------------------

    def frame(
        self,
        text: str,
        payload_formats: frozenset[str] = frozenset(),
        *,
        polite: bool = False,
        payload: str = "",
    ) -> Frame:
        """The frame of ``text``; ``Unsupported`` when it is not one (the request falls back).

        ``payload_formats``: the formats the payload is known to be in (its fence tag, the
        readers whose sniffers claim it). ``polite``: the words as written ask politely
        (``asks_politely``), so a format named alone is the target. ``payload``: its text
        (an aside that names a word of it picks a part of it, and is no aside)."""
        words, wanted = _without_readers(self.words(text), payload)
        words = _without_asides(_without_purpose(words), payload)
        self._screen(words)
        slots: list[Word] = []
        islands: list[str] = []
        for clause in _clauses(words):
            kinds = {w.kind for w in clause}
            if _acknowledges(clause) or _describes_payload(clause, payload):
                continue
            if Kind.OTHER not in kinds:
                slots.extend(clause)
                continue
            frame_words = [w for w in clause if w.kind in (Kind.FORMAT, Kind.TARGET)]
            if not frame_words:
                islands.append(_island(text, clause))
                continue
            other = [i for i, w in enumerate(clause) if w.kind is Kind.OTHER]
            lo, hi = other[0], other[-1]
            slot = (Kind.FORMAT, Kind.TARGET)
            if any(w.kind in slot for w in clause[lo : hi + 1]) or (
                any(w.kind in slot for w in clause[:lo])
                and any(w.kind in slot for w in clause[hi + 1 :])
            ):
                raise _refuse("a format stands among words the frame does not know")
            if lo > 0 and _links(clause[lo - 1]):
                lo -= 1  # "with keys sorted", "by four spaces": the word that links the option
            islands.append(text[clause[lo].start : clause[hi].end])
            slots.extend(clause[:lo] + clause[hi + 1 :])
        if (
            not islands
            and not polite
            and not any(
                w.kind in (Kind.TO, Kind.FROM, Kind.INSTEAD, Kind.TARGET)
                or w.text.lower() in REQUEST_EN
                or w.text.lower() in CHANGE_EN
                or w.text in REQUEST_ZH
                for w in slots
            )
        ):
            raise _refuse("a format name alone does not say what to do with the payload")
        if len(wanted) == 1 and not any(w.kind in (Kind.FORMAT, Kind.TARGET) for w in slots):
            # "Our frontend only reads JSON, can you convert this?": the target is the format
            # the program takes
            slots.append(Word(next(iter(wanted)), Kind.FORMAT, 0, 0, next(iter(wanted))))
        source, target = self._slots(slots, payload_formats)
        if wanted and wanted != {target}:
            raise _refuse("a program of the user's takes another format than the target")
        return Frame(source, target, tuple(islands))

    def screen(
        self, text: str, *, query: bool = False, fields: frozenset[str] = frozenset()
    ) -> None:
        """``Unsupported`` when ``text`` asks something open (an open-ask word, a question
        whether something is so): for the grammar's readings of rewritten text too. With
        ``query``, the question words a record query is asked in ("which 3 have …", "how
        many …", "the mean age") are not open: the query frame reads each of them itself;
        nor is a word that is one of the records' keys (``fields``, lower case: "the average
        comments" of records with a key ``comments``)."""
        refusal = self._screened(text, query, fields)
        if refusal is not None:
            raise _refuse(refusal)

    def forget(self) -> None:
        """Drop the screens remembered of texts seen before."""
        self._screened.cache_clear()

    def _screen_text(
        self, text: str, query: bool = False, fields: frozenset[str] = frozenset()
    ) -> str | None:
        words = self.words(text)
        if query:
            # benign, and still in place: "which is the cheapest?" asks no whether-question
            words = [
                replace(w, kind=Kind.BENIGN)
                if w.text.lower() in QUERY_WORDS or w.text.lower() in fields
                else w
                for w in words
            ]
        try:
            self._screen(words, quotes=True, query=query)
        except Unsupported as exc:
            return exc.message
        return None

    def _screen(self, words: Sequence[Word], *, quotes: bool = False, query: bool = False) -> None:
        if any(w.kind is Kind.OPEN for w in words):
            raise _refuse("the instruction asks for more than a conversion")
        if not quotes and any(w.kind is Kind.QUOTE for w in words):
            raise _refuse("the instruction quotes words; say what to do without quoting")
        # "is there any …", "does anyone …": a yes/no question of the records, which the
        # query frame reads word by word itself
        if any(
            _asks_whether(clause) and not (query and _asks_any(clause))
            for clause in _clauses(words)
        ):
            raise _refuse("the instruction asks a question about the payload")

    def _slots(
        self, words: Sequence[Word], payload_formats: frozenset[str]
    ) -> tuple[str | None, str]:
        named: list[tuple[int, str]] = []  # (index, format), repeats of one format merged
        targets = {w.value for w in words if w.kind is Kind.TARGET}
        for i, w in enumerate(words):
            if w.kind is Kind.FORMAT and (not named or named[-1][1] != w.value):
                named.append((i, w.value))
        distinct = list(dict.fromkeys(f for _, f in named))
        if len(targets) == 1 and targets <= set(distinct) and len(distinct) == 2:
            targets = set()  # "render this Markdown to HTML": the verb's target is named
        if len(targets) > 1 or len(distinct) > 2 or (targets and len(distinct) > 1):
            raise _refuse("the instruction names more formats than one conversion has")
        if targets:
            target = next(iter(targets))
            source = distinct[0] if distinct else None
            if source == target:
                return None, target
            return source, target
        if not distinct:
            raise _refuse("the instruction names no format")
        if len(distinct) == 1:
            (index, only), *_ = named
            if _marker_before(words, index) is Kind.FROM:
                raise _refuse("the instruction names a source and no target")
            if only in payload_formats and _marker_before(words, index) is not Kind.TO:
                raise _refuse(f"the payload is {only} already; say which format to make it")
            return None, only
        (ia, a), (ib, b) = named[0], next(n for n in named if n[1] != named[0][1])
        if any(f == a for _, f in named[named.index((ib, b)) :]):
            raise _refuse("the instruction names its formats in no one order")
        between = {w.kind for w in words[ia + 1 : ib]}
        before_a = _marker_before(words, ia)
        if Kind.INSTEAD in between or _names_target_first(words[ia + 1 : ib]):
            return b, a  # "B instead of A", "the B version of this A", "B code for this A"
        results = any(
            w.text.lower() in RESULT_VERBS or w.text in CORRESPONDING_ZH for w in words[ia + 1 : ib]
        )
        if Kind.TO in between or before_a is Kind.FROM or results:
            return a, b  # "A to B", "from A, B", "this A produces B"
        if _result_after(words[ib + 1 :]):
            return b, a  # "the B this A produces"
        if Kind.FROM in between:  # "B from A", "to B from A"
            return b, a
        if (a in payload_formats) != (b in payload_formats):
            return (a, b) if a in payload_formats else (b, a)
        raise _refuse("the instruction does not say which format is the source")

    def read(
        self,
        text: str,
        payload_formats: frozenset[str] = frozenset(),
        *,
        polite: bool = False,
        payload: str = "",
    ) -> list[Directive]:
        """The grammar's directives for the frame of ``text``; ``Unsupported`` when there is
        no frame or the grammar does not read its islands."""
        if self._part_only.search(text):
            raise _refuse("a part of the payload is named with 'only' (the classes only, 只给类): "
                          "the engine converts or documents all of it")  # fmt: skip
        frame = self.frame(text, payload_formats, polite=polite, payload=payload)
        chinese = any("\u3400" <= ch <= "\u9fff" for island in frame.islands for ch in island)
        tries = (False, True) if chinese else (False,)
        failure: Unsupported | None = None
        for zh in tries:
            try:
                directives = list(self._parse(frame.sentence(zh)))
            except Unsupported as exc:
                failure = failure or exc
                continue
            if any(isinstance(d, Step) for d in directives):
                return directives
        raise failure or _refuse("the frame asks for no operation")


def _part_only_pattern(parts: Iterable[str]) -> re.Pattern[str]:
    """Words that restrict a request to parts of the payload the plugins name ("JSDoc for the
    classes only", "only the functions", 只给类加JSDoc): no frame reads a scope."""
    names = "|".join(sorted((re.escape(p) for p in parts), key=len, reverse=True)) or "(?!)"
    return re.compile(
        rf"(?i)\bonly\s+(?:[a-z']+\s+){{0,2}}(?:{names})\b"
        rf"|\b(?:{names})\s+only\b|(?:只|仅)(?:给|为|对|把)?(?:函数|类|方法)"
    )


_SEPARATORS = frozenset(",;.!?:，；。！？：\n-–—")


def _phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for the option names of the lexicons, longest first; spaces and hyphens
    between their words match any spaces and hyphens."""
    if not phrases:
        return None
    alternatives = [
        r"[\s\-]*".join(re.escape(part) for part in re.split(r"[\s\-]+", phrase))
        for phrase in sorted(phrases, key=len, reverse=True)
    ]
    return re.compile(r"(?i)(?<![A-Za-z0-9])(?:" + "|".join(alternatives) + r")(?![A-Za-z0-9])")


_GIVEN = _words("me us it them")
# "the JSON that corresponds to this YAML", "the HTML equivalent to this Markdown": the
# format before the direction word is the target.
_CORRESPONDING_EN = _words("corresponds correspond corresponding equivalent matches matching")


def _asks(word: Word) -> bool:
    """Whether ``word`` is a verb that asks for the answer ("give", "convert", "render")."""
    low = word.text.lower()
    return word.kind in (Kind.BENIGN, Kind.TARGET) and (low in REQUEST_EN or low in CHANGE_EN)


def _in_context(words: list[Word]) -> list[Word]:
    """Words whose class depends on their neighbours: a particle before a direction word
    ("over to") or after the one given to ("give me back"), an adjective between a direction
    word and a format ("as raw HTML", "into valid JSON"), a word of correspondence before a
    direction word ("the JSON that corresponds to this YAML"), and "and" before a verb that
    asks for the answer, which opens a clause ("parse this YAML and give me the JSON")."""
    out = list(words)
    for i, w in enumerate(words):
        if w.kind is Kind.OPEN and w.text.lower() == "should" and _states_option(words, i):
            # "lists should be block style": an option stated of a part of the answer, read
            # by the grammar as the island's words
            out[i] = Word(w.text, Kind.OTHER, w.start, w.end)
            continue
        if w.kind is not Kind.OTHER and w.text.lower() != "valid":
            continue
        low = w.text.lower()
        after = words[i + 1].kind if i + 1 < len(words) else None
        before = words[i - 1].kind if i > 0 else None
        given = words[i - 1].text.lower() in _GIVEN if i > 0 else False
        if low == "and" and i + 1 < len(words) and _asks(words[i + 1]):
            # "parse this YAML and give me the JSON", "go ahead and convert": a new clause
            out[i] = Word(w.text, Kind.SEP, w.start, w.end)
        elif (
            (low in PARTICLES and after is Kind.TO)
            or (low == "back" and given)  # "give me back the JSON"
            or (low in _CORRESPONDING_EN and after is Kind.TO)  # "that corresponds to"
            or (
                (low in FORMAT_ADJECTIVES or low == "valid")  # "into valid JSON"
                and before is Kind.TO
                and after is Kind.FORMAT
            )
        ):
            out[i] = Word(w.text, Kind.BENIGN, w.start, w.end)
    return out


# What an option is stated of ("lists should be block style", "keys should be sorted"): the
# parts of a converted document an option of the grammar shapes.
_OPTION_SUBJECTS = _words(
    "lists arrays sequences items keys strings values indentation indent quotes output"
)


def _states_option(words: Sequence[Word], i: int) -> bool:
    """Whether "should" at ``words[i]`` states an option: right after a part of the answer,
    right before "be", with no question mark ending the clause."""
    if i < 1 or words[i - 1].text.lower() not in _OPTION_SUBJECTS:
        return False
    if i + 1 >= len(words) or words[i + 1].text.lower() != "be":
        return False
    end = next((j for j in range(i, len(words)) if words[j].kind is Kind.SEP), len(words))
    return end == len(words) or words[end].text not in "?？"


def _island(text: str, clause: Sequence[Word]) -> str:
    """The option island of a clause with no format: from its first word that is not an
    English benign word to its last, with the benign word that links it ("convert it for me
    with the keys sorted" → "with the keys sorted")."""
    kept = [i for i, w in enumerate(clause) if not (w.kind is Kind.BENIGN and w.text.isascii())]
    lo, hi = kept[0], kept[-1]
    if lo > 0 and _links(clause[lo - 1]):
        lo -= 1
    return text[clause[lo].start : clause[hi].end]


# Words that join a clause to the one before ("…, but use flow style"): they link no option,
# so the option's island starts after them.
_CONJUNCTIONS = _words("but yet though however")


def _links(word: Word) -> bool:
    """Whether ``word``, an English benign word before an option, links the option to the
    frame ("with", "by"), rather than joining its clause to the one before ("but")."""
    return (
        word.kind is Kind.BENIGN and word.text.isascii() and word.text.lower() not in _CONJUNCTIONS
    )


# A purpose clause that says where the user puts the answer ("so I can paste it into my API
# call", "so we can load it in the deploy script"): it changes nothing in the answer. Its shape
# is closed: so (that) I/we can/could/will + a verb of using + (it) + into/in/to/onto + a
# determiner + one to three words, none of them a format, a number, an open ask or a quote.
_PURPOSE_SUBJECTS = _words("i we i'll we'll")
_PURPOSE_MODALS = _words("can could will")
_USE_VERBS = _words(
    """
    paste use load import send feed copy commit upload deploy store save submit post share
    embed pass ship plug drop put include add
    """
)
_PLACES = _words("into in to onto inside")
_READER_OWNERS = _words("our my the")
_RELATIVE = _words("that which i we")
# What a program does with the answer: a purpose that ends its clause ("so our parser can
# read it").
_READ_VERBS = _words("read parse consume ingest load import process handle use")
_DETERMINERS = _words("my our the a an your their this")


def _without_purpose(words: list[Word]) -> list[Word]:
    """``words`` less a purpose clause that ends its clause (see ``_PURPOSE_SUBJECTS``)."""
    for i, w in enumerate(words):
        after_format = i > 0 and words[i - 1].kind is Kind.FORMAT
        if w.text.lower() != "so" and not (after_format and w.text.lower() in _RELATIVE):
            continue
        if w.text.lower() != "so":  # "the HTML (that) I can paste into our CMS"
            end = next((j for j in range(i, len(words)) if words[j].kind is Kind.SEP), len(words))
            if _is_purpose([x.text.lower() for x in words[i:end]], words[i:end]):
                return words[:i] + words[end:]
            continue
        end = next((j for j in range(i, len(words)) if words[j].kind is Kind.SEP), len(words))
        if _is_purpose([x.text.lower() for x in words[i + 1 : end]], words[i + 1 : end]):
            return words[:i] + words[end:]
    return words


def _is_purpose(low: list[str], words: Sequence[Word]) -> bool:
    at = 1 if low[:1] == ["that"] else 0
    if low[at : at + 1] and low[at] in {"i'll", "we'll"}:
        at += 1
    elif len(low) > at + 1 and low[at] in _PURPOSE_SUBJECTS and low[at + 1] in _PURPOSE_MODALS:
        at += 2
    elif (reader := _reader_end(low, words, at)) is not None:
        at = reader  # "so our frontend can read it": a program of ours that reads the answer
        if low[at : at + 1] == [] or low[at] not in _READ_VERBS:
            return False
        at += 1
        if low[at : at + 1] and low[at] in {"it", "this", "them", "that"}:
            at += 1
        return at == len(low)
    else:
        return False
    if low[at : at + 1] == [] or low[at] not in _USE_VERBS:
        return False
    at += 1
    if low[at : at + 1] and low[at] in {"it", "this", "them", "that"}:
        at += 1
    if len(low) < at + 3 or low[at] not in _PLACES or low[at + 1] not in _DETERMINERS:
        return False
    rest = words[at + 2 :]
    return 1 <= len(rest) <= 3 and all(
        w.kind in (Kind.BENIGN, Kind.OTHER) and w.text.isalpha() for w in rest
    )


def _reader_end(low: list[str], words: Sequence[Word], at: int) -> int | None:
    """After "so (that)": where the modal after "our/my/the" and one or two words naming a
    program ends ("our frontend can", "the deploy script will"), or None."""
    if low[at : at + 1] == [] or low[at] not in _READER_OWNERS:
        return None
    for modal in (at + 2, at + 3):
        if modal < len(low) and low[modal] in _PURPOSE_MODALS:
            named = words[at + 1 : modal]
            if all(w.kind in (Kind.BENIGN, Kind.OTHER) and w.text.isalpha() for w in named):
                return modal + 1
    return None


# Asides that say where the payload comes from or where the answer goes ("a JSON response
# from our API", "this YAML from our Ansible playbook", "(exported from Postman)", "my
# colleague sent me this YAML", "for our wiki"): they change nothing in a conversion. Their
# shape is closed: a marker ("from", after a verb of getting it or not; "for"; an agent and
# a verb of sending), a determiner, at most two words, and a head noun of a closed class (or
# a name written with a capital for "from" and the agent); the aside ends its clause or stands
# before a direction word. A word of the aside that is a format, a number, a word that picks
# a part of the data (first, rows, only …) or a word of the payload itself ("the config for
# staging" of a config with a staging section picks that part) keeps it: the request falls
# back as before.
_ORIGINS = _words(
    """
    api apis endpoint endpoints service services server servers backend backends frontend
    app apps application applications system systems database databases db vendor vendors
    client clients customer customers partner partners colleague colleagues coworker
    coworkers co-worker teammate teammates team boss manager lead repo repos repository
    repositories project projects codebase website site wiki docs documentation log logs
    tool tools script scripts pipeline pipelines playbook playbooks cluster clusters
    deployment deployments environment production prod staging cms crm webhook webhooks
    library package packages sdk cli console dashboard portal notebook tutorial course
    article blog post email emails ticket chat friend company org organisation organization
    department office machine laptop computer phone browser devtools terminal export exports
    response responses integration provider platform stack monolith microservice
    microservices container pod framework device devices sensor sensors firmware upstream
    internet web somewhere someone somebody work folder folders directory directories drive
    engine config configs configuration file files
    """
)
# Places the answer goes (not people: "for my boss" may ask for it made to suit a reader).
_DESTINATIONS = _words(
    """
    wiki docs documentation blog website site homepage readme repo repository project app
    service config configs deployment pipeline cluster notes slides newsletter ticket pr
    codebase frontend backend dashboard portal cms server servers environment post posts
    engine newsletter email emails page pages site
    """
)
_AGENTS = _words(
    """
    colleague coworker co-worker teammate boss manager lead client customer vendor friend
    team partner admin developer dev designer someone somebody support
    """
)
_GETTING = _words(
    """
    came comes coming got get gets received exported copied pulled fetched downloaded dumped
    grabbed taken took extracted generated returned sent shared forwarded pasted scraped
    captured saved loaded retrieved obtained is was straight directly right back
    """
)
_SENDING = _words("sent gave shared forwarded passed emailed handed posted showed")
_GOING = _words("goes go going")
_RECIPIENTS = _words("me us")
# What the assistant did with a payload it gave: "the JSON you gave me", "the yaml you wrote".
_YOU_MADE = _SENDING | _words("wrote made generated produced provided created drafted")
# Words that pick a part of the data: an aside holding one of them is no aside.
_PICKING = _words(
    """
    first second third last top bottom only each every all except without not no page pages
    row rows line lines column columns part parts half section sections entry entries item
    items record records field fields key keys value values element elements node nodes
    sheet sheets tab tabs table tables
    """
)
_ASIDE_DETERMINERS = _DETERMINERS | _words("his her some")
_PAYLOAD_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")


@lru_cache(maxsize=4)  # one request reads it twice; keep few payloads alive
def _payload_words(payload: str) -> frozenset[str]:
    """The lower-cased words of ``payload``'s first 64 KB: an aside or a reader's sentence
    never takes a word the data holds (a key named "client" is not "our client")."""
    return frozenset(m.group(0).lower() for m in _PAYLOAD_WORD.finditer(payload[:65536]))


# The same asides in Chinese: 从 + ours + a place + a verb of getting it + 的 ("从我们API拿到的"),
# 是 + ours + a place + a verb of making it + 的 at a clause's end ("是我们接口返回的"), an agent
# and a verb of sending ("同事发给我的"), where the answer goes ("要放到我们的wiki上").
_ZH_OURS = r"(?:我们|咱们|我|公司|团队)的?"
_ZH_END = r"(?=[\s，。；！？,.;!?]|$)"
_ZH_PLACE = r"[A-Za-z\u3400-\u9fff]{1,8}?"
# a place named before 返回的 + a format ("接口返回的JSON"): no pointing or direction word in it
_ZH_BARE_PLACE = r"(?:(?![把将这那段个份下以的转成为从是给])[A-Za-z\u3400-\u9fff]){1,8}?"
_ASIDE_ZH = re.compile(
    rf"(?:这|它)?是?从(?:{_ZH_OURS})?(?P<from>{_ZH_PLACE})(?:里|中|上)?"
    r"(?:拿到|获取|导出|复制|下载|得到|返回|取到|拉到|拷出来|复制出来|拿出来|导出来|拷过来|拿|拷)的"
    rf"|(?:这|它)?是(?:{_ZH_OURS})?(?P<made>{_ZH_PLACE})(?:返回|导出|生成|给|发)的(?:数据|内容)?{_ZH_END}"
    rf"|(?P<src>{_ZH_BARE_PLACE})(?:返回|导出|生成)的(?=[A-Za-z])"
    r"|(?:同事|老板|客户|朋友|供应商|领导|同学|组长|后端|前端|运维)刚?(?:发给我|发来|给我|传给我|发我)的"
    rf"|要?(?:放到|贴到|放在|贴在|用在|发到|发布到)(?:{_ZH_OURS})?(?P<to>{_ZH_PLACE})(?:上|里|中)?{_ZH_END}"
)


# A sentence that says a program of the user's takes the target format ("Our dashboard only
# imports JSON", "our email tool wants HTML", "the frontend reads JSON"): an owner, one or two
# words naming the program, "only" or "just" or none, a verb of taking in its -s form and one
# format, ending its clause. It names where the answer goes: its format must be the target.
_TAKING = _words(
    """
    reads imports accepts wants takes expects needs understands supports speaks handles ingests
    consumes parses loads eats
    """
)
_ONLY = _words("only just")


def _without_readers(words: list[Word], payload: str) -> tuple[list[Word], frozenset[str]]:
    """``words`` less the sentences that say a program of the user's takes a format (see
    ``_TAKING``), and the formats they name."""
    if not any(w.text.lower() in _TAKING for w in words):
        return words, frozenset()
    in_payload = _payload_words(payload)
    out: list[Word] = []
    wanted: set[str] = set()
    i = 0
    while i < len(words):
        end = _reader_clause_end(words, i, in_payload)
        if end is None:
            out.append(words[i])
            i += 1
            continue
        wanted.add(str(words[end - 1].value))
        i = end
    return out, frozenset(wanted)


def _reader_clause_end(words: Sequence[Word], i: int, in_payload: frozenset[str]) -> int | None:
    """Where a sentence of a program that takes a format, starting at ``words[i]``, ends."""
    if words[i].text.lower() not in _READER_OWNERS or (i > 0 and words[i - 1].kind is not Kind.SEP):
        return None
    for verb in (i + 2, i + 3):
        named = words[i + 1 : verb]
        if not named or not all(
            w.kind in (Kind.BENIGN, Kind.OTHER)
            and w.text.isalpha()
            and w.text.lower() not in _PICKING
            and w.text.lower() not in in_payload
            and w.text.lower() not in _ONLY
            for w in named
        ):
            continue
        at = verb + 1 if verb < len(words) and words[verb].text.lower() in _ONLY else verb
        if at < len(words) and words[at].text.lower() in _TAKING:
            fmt = at + 1
            if (
                fmt < len(words)
                and words[fmt].kind is Kind.FORMAT
                and (fmt + 1 == len(words) or words[fmt + 1].kind is Kind.SEP)
            ):
                return fmt + 1
    return None


def _without_asides(words: list[Word], payload: str) -> list[Word]:
    """``words`` less the asides of provenance and destination (see ``_ORIGINS``), and the
    brackets an aside filled ("(exported from Postman)")."""
    if not any(
        w.text.lower() in ("from", "for", "you")
        or w.text.lower() in _SENDING
        or w.text.lower() in _GOING
        for w in words
    ):
        return words
    in_payload = _payload_words(payload)
    out: list[Word] = []
    i = 0
    while i < len(words):
        end = _aside_end(words, i, in_payload)
        if end is None:
            out.append(words[i])
            i += 1
            continue
        while out and out[-1].text.lower() in _GETTING:
            out.pop()  # "exported from …", "came straight from …"
        i = end
    return [
        w
        for k, w in enumerate(out)
        if not (w.text == "(" and k + 1 < len(out) and out[k + 1].text == ")")
        and not (w.text == ")" and k > 0 and out[k - 1].text == "(")
    ]


def _aside_end(words: Sequence[Word], i: int, in_payload: frozenset[str]) -> int | None:
    """Where an aside that starts at ``words[i]`` ends (the index after it), or None."""
    low = words[i].text.lower()
    if low in _GOING and i + 1 < len(words) and words[i + 1].text.lower() in _PLACES:
        # "this goes into the company newsletter": where the answer goes, ending its clause
        for end in reversed(_noun_phrases(words, i + 2, _DESTINATIONS, False, in_payload)):
            if end == len(words) or words[end].kind is Kind.SEP:
                return end
        return None
    if low in ("from", "for"):
        heads = _ORIGINS if low == "from" else _DESTINATIONS
        for end in reversed(_noun_phrases(words, i + 1, heads, low == "from", in_payload)):
            after = words[end] if end < len(words) else None
            if after is None or after.kind in (Kind.SEP, Kind.TO) or after.text == ")":
                return end
        return None
    if low == "you" and i > 0 and words[i - 1].kind is Kind.FORMAT:
        # "that JSON you gave me", "the yaml you wrote": the reply the payload came from
        j = i + 1 + (i + 1 < len(words) and words[i + 1].text.lower() == "just")
        if j < len(words) and words[j].text.lower() in _YOU_MADE:
            j += 1 + (j + 1 < len(words) and words[j + 1].text.lower() in _RECIPIENTS)
            after = words[j] if j < len(words) else None
            if after is None or after.kind in (Kind.SEP, Kind.TO):
                return j
        return None
    if low in _ASIDE_DETERMINERS and low != "this":
        # "my colleague sent me", "our vendor gave us": the agent, the verb, the recipient
        for end in _noun_phrases(words, i, _AGENTS, True, in_payload):
            if (
                end + 1 < len(words)
                and words[end].text.lower() in _SENDING
                and words[end + 1].text.lower() in _RECIPIENTS
            ):
                return end + 2
    return None


def _noun_phrases(
    words: Sequence[Word], at: int, heads: frozenset[str], names: bool, in_payload: frozenset[str]
) -> list[int]:
    """The ends of the phrases of a determiner, at most two words and a head of ``heads``
    (or a capitalised name, with ``names``) from ``words[at]``, shortest first."""
    ends: list[int] = []
    j = at
    if j < len(words) and words[j].text.lower() in _ASIDE_DETERMINERS:
        j += 1
    for last in range(j, min(j + 3, len(words))):
        w = words[last]
        low = w.text.lower()
        if (
            w.kind in (Kind.FORMAT, Kind.TARGET, Kind.TO, Kind.FROM, Kind.OPEN, Kind.SEP)
            or not w.text.replace("-", "").replace("'", "").isalpha()
            or low in _PICKING
            or low in in_payload
        ):
            break
        if low in heads or (names and w.text[:1].isupper()):
            ends.append(last + 1)
    return ends


def _acknowledges(clause: Sequence[Word]) -> bool:
    """A clause of acknowledgements and benign words alone that asks for nothing ("great.",
    "ok cool,", "looks good"; not "make it nice")."""
    low = [w.text.lower() for w in clause]
    return (
        any(w in INTERJECTIONS for w in low)
        and all(
            w in INTERJECTIONS or c.kind is Kind.BENIGN for w, c in zip(low, clause, strict=True)
        )
        and not any(w in REQUEST_EN or w in CHANGE_EN for w in low)
    )


# A clause that only says what the payload is ("It's a small helper", "this is an old
# config", and what is left of one whose aside of provenance or destination was dropped:
# "It's [from our docs folder]", "This is [for a Node service]", "Copied it [from the wiki]"):
# a subject and a form of "be", then at most a determiner, two describing words of a closed
# class and a head noun of a closed class; or a verb of getting it and a pronoun. It changes
# nothing in a conversion. Any other word (a format, a word of the data, "broken", "not")
# keeps the clause, which then falls back as before.
_DESCRIBED_SUBJECTS = _words("it this that")
_DESCRIBED_BE = _words("is was")
_DESCRIBED_CONTRACTED = _words("it's that's it’s that’s")
_DESCRIBED_HEADS = _words(
    """
    helper helpers tool tools utility utilities function functions script scripts snippet
    snippets module modules file files config configs configuration query queries report
    reports page pages doc docs document documents export dump sample samples example
    examples class classes program programs component components handler job migration
    template schema fixture fixtures note notes readme piece bit thing one
    """
)
_DESCRIBING = _words("small little tiny short quick simple old legacy internal basic")
_DESCRIBED_DETERMINERS = _words("a an the our my")
_GOT_IT = _words("copied pasted exported grabbed pulled taken took got fetched downloaded dumped")


def _describes_payload(clause: Sequence[Word], payload: str) -> bool:
    """Whether ``clause`` only says what the payload is (see ``_DESCRIBED_HEADS``)."""
    low = [w.text.lower() for w in clause]
    if low[0] in _GOT_IT:
        return len(low) == 1 or (len(low) == 2 and low[1] in _PRONOUNS)
    if low[0] in _DESCRIBED_CONTRACTED:
        rest = low[1:]
    elif len(low) >= 2 and low[0] in _DESCRIBED_SUBJECTS and low[1] in _DESCRIBED_BE:
        rest = low[2:]
    else:
        # "This [is for a Node service]": the aside took the verb with it
        return len(low) == 1 and low[0] in _DESCRIBED_SUBJECTS
    if not rest:
        return True
    if rest[0] not in _DESCRIBED_DETERMINERS or rest[-1] not in _DESCRIBED_HEADS:
        return False
    describing = rest[1:-1]
    in_payload = _payload_words(payload)
    return len(describing) <= 2 and all(
        w in _DESCRIBING and w not in in_payload for w in describing
    )


def _clauses(words: Sequence[Word]) -> list[list[Word]]:
    out: list[list[Word]] = [[]]
    for w in words:
        if w.kind is Kind.SEP:
            out.append([])
        else:
            out[-1].append(w)
    return [c for c in out if c]


# A clause that opens with one of these and not with "you" next asks whether something is so
# ("is this valid", "does this have a YAML equivalent", "can this be YAML"), not for an answer.
_AUXILIARIES = _words("is are was were does did do has have can could would will may might")
_ADDRESSEES = _words("you u ya ye")
# "is there any …", "does anyone …", "are all of them …", "does every employee …"
_ANY_WORDS = _words("there any anyone anybody anything some someone somebody we at the")
_ANY_WORDS |= _words("all every each")
_PRONOUNS = _words("this it that these them")
_MODALS = _words("can could may")
_SPEAKERS = _words("i we")
_RECEIVING = _words("get have see")
_WISHES = _words("love like prefer appreciate")


def _asks_any(clause: Sequence[Word]) -> bool:
    """Whether a clause opens as a question whether any record is so ("is there any …",
    "does anyone …", "are any of them …") or whether every record is ("are all of them …",
    "does every employee …"); the query frame reads the rest word by word."""
    follows = clause[1].text.lower() if len(clause) > 1 else ""
    return follows in _ANY_WORDS


def _asks_whether(clause: Sequence[Word]) -> bool:
    first = clause[0].text.lower()
    follows = clause[1].text.lower() if len(clause) > 1 else ""
    then = clause[2].text.lower() if len(clause) > 2 else ""
    if first == "do" and follows in _PRONOUNS and len(clause) > 2 and clause[2].kind is Kind.TO:
        return False  # "do this in pandas", "do it as YAML": a request
    if first == "would" and follows in _WISHES:
        return False  # "would love this as YAML": a request
    if first in _MODALS and follows in _SPEAKERS and then in _RECEIVING:
        return False  # "can I get the HTML", "could we have it as JSON": a request
    return first in _AUXILIARIES and follows not in _ADDRESSEES


def _marker_before(words: Sequence[Word], index: int) -> Kind | None:
    """The direction word nearest before ``words[index]`` with only benign words between."""
    for w in reversed(words[:index]):
        if w.kind in (Kind.TO, Kind.FROM, Kind.INSTEAD):
            return w.kind
        if w.kind is not Kind.BENIGN:
            return None
    return None


# "the YAML version of this JSON", "pandas code for this query": the first format is the target.
_OF_NOUNS = frozenset(
    {
        *("version", "equivalent", "form", "representation", "counterpart", "translation"),
        *("code", "rendition"),
    }
)
# Verbs of a result named before its source: "the HTML this Markdown produces", "the JSON
# this YAML gives", "the YAML that JSON becomes".
RESULT_VERBS = frozenset(
    {"produces", "produce", "gives", "give", "yields", "yield", "becomes", "become",
     "renders", "render", "generates", "generate", "makes", "make", "outputs", "output"}
)  # fmt: skip


# "这段Markdown对应的HTML", "这条SQL等价的pandas代码": the format before is the source.
CORRESPONDING_ZH = frozenset({"对应", "对应的", "等价", "等价的"})


def _names_target_first(between: Sequence[Word]) -> bool:
    low = [w.text.lower() for w in between]
    if any(w.kind is Kind.TO for w in between):
        return any(
            b.kind is Kind.TO and a.text.lower() in _CORRESPONDING_EN for a, b in pairwise(between)
        )
    if "for" in low:
        return True
    return any(a in _OF_NOUNS and b == "of" for a, b in pairwise(low))


def _result_after(after: Sequence[Word]) -> bool:
    """Whether the words after the second format are a verb of its result and nothing more
    than benign words ("… Markdown produces", "… YAML would give me")."""
    return any(w.text.lower() in RESULT_VERBS for w in after) and all(
        w.kind is Kind.BENIGN or w.text.lower() in RESULT_VERBS for w in after
    )


def _refuse(message: str) -> Unsupported:
    return Unsupported("parse.no_match", message)


def payload_formats(
    lang: str | None, text: str | None, sniffers: Mapping[str, Sequence[Callable[[str], bool]]]
) -> frozenset[str]:
    """The formats a payload may be in: its fence tag, else the formats a reader of which
    claims it (its sniffer says yes)."""
    if lang:
        return frozenset({lang})
    if text is None:
        return frozenset()
    return frozenset(f for f, sniffs in sniffers.items() if any(s(text) for s in sniffs))
