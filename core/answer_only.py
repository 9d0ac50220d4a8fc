"""Answer-only clauses: the words that ask for the answer alone, not for more work.

"No explanation needed.", "Output YAML only, nothing else.", "no prose",
"skip the commentary", 不要解释，直接给结果, 别的不用说, 只要YAML: a user who writes these asks
for a terse answer, which is what the engine always gives. A clause is read word by word
against closed classes rather than matched as a phrase:

- **negators** (no, without, don't, skip, omit, nothing, 不要, 无需, 别 …) and
  **restrictors** (only, just, 只, 仅, 直接);
- **extra** words, what a terse answer leaves out (explanation, commentary, prose, notes,
  anything else, 解释, 说明, 废话, 别的 …);
- **answer** words, the verbs and nouns of giving the answer (output, return, give, reply, the
  result, 返回, 输出, 结果 …);
- **benign** words (please, thanks, the, me, needed, valid, 请, 就行, 即可 …);
- a **format** name.

A clause of these classes alone is answer-only when its extra words are negated ("no
prose", 别的不用说; "just explain" asks for the extra) or, with none, when it restricts the
answer and negates nothing ("just the result"; "no output" is no request for it). "only the
code" is left to the grammar: an option of the ops that write code. Without a format it is
dropped; with one format it restates the target: dropped when the instruction names that
format elsewhere, else read as "output FORMAT" (so "just the YAML" alone still names a
target). A clause with any other word is left to the grammar; so is its tail when only the
tail is answer-only ("convert to YAML with no commentary" keeps "convert to YAML"). Negation
stays meaningful: "no quotes", "without indentation" hold words of no class and are options.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Iterator


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NEG_EN = _words("no without zero don't dont not never skip omit avoid nothing")
_ONLY_EN = _words("only just solely simply alone")
_EXTRA_EN = _words(
    "explanation explanations explain explaining explained commentary comment comments "
    "prose preamble chit-chat chitchat chatter notes note remarks remark talk intro "
    "introduction fluff filler description descriptions anything else more other extra "
    "additional further details reasoning fancy"
)
# "text" and "words" are extras after a word that makes them so ("no other text"); alone
# ("text only") they may name what the user wants.
_EXTRA_AFTER = _words("other extra additional more any surrounding explanatory")
_EXTRA_NOUNS = _words("text words")
_ANSWER_EN = _words(
    "output outputs return give reply respond print show send provide write paste produce "
    "answer result results markup snippet version document doc file block add adding include "
    "including"
)
_BENIGN_EN = _words(
    "please pls plz kindly thanks thank thx ty you the a an me us it this that here now ok "
    "okay and with but so i can could would will be is are needed necessary required need "
    "want wanted any all back your my as of for to in valid raw plain pure final converted "
    "resulting exact exactly directly straight away right whole entire full do yes at"
)

# Chinese words by class, read longest first (别的 "other" before 别 "don't").
_ZH_CLASSES = {
    "only": "只 仅 只要 只需 只需要 仅需 直接 即可 就行 就行了 就好 就可以 就可以了",
    "neg": "不要 不用 无需 无须 不需要 不必 不需 别 勿 请勿 省略 免",
    "extra": "解释 说明 注释 评论 废话 多余 额外 其他 其它 别的 任何 话 文字 描述 介绍 分析 过程",
    "answer": "返回 输出 回复 发 发给我 写 提供 打印 展示 显示 说 讲 贴 给出 "
    "结果 答案 内容 文本 版本",
    "benign": "请 谢谢 的 了 吧 啊 哦 呢 就 可以 一下 给我 给 我 出来 都 一律 格式 "
    # the answer as the result of the conversion ("converted", "final"): 转换后的YAML
    "转换后 转换好 转换完 转好 转完 转换之后 最终 完整",
}
_ZH_WORDS = {word: cls for cls, words in _ZH_CLASSES.items() for word in words.split()}
_ZH_LONGEST = max(len(w) for w in _ZH_WORDS)

_CLAUSE_BREAK = re.compile(r"[,;!?]\s*|[.:](?=\s|$)\s*|\s+[-–—]+\s+|[，。；！？、：\n]\s*")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'\-]*|[\u3400-\u9fff]+|\S")
_CJK = re.compile(r"[\u3400-\u9fff]")


def _cjk_classes(run: str) -> list[str] | None:
    """The classes of a run of Chinese characters read longest match first, or None when a
    character is of no class."""
    out: list[str] = []
    i = 0
    while i < len(run):
        for size in range(min(_ZH_LONGEST, len(run) - i), 0, -1):
            cls = _ZH_WORDS.get(run[i : i + size])
            if cls is not None:
                out.append(cls)
                i += size
                break
        else:
            return None
    return out


# The answer's shape as one fenced block: "a single yaml code block", "one json code block".
# "code" is an answer noun before "block" (alone, "only the code" is a code option); "single"
# and "one" restrict the answer to that one block, nothing else.
_BLOCK_NOUNS = _words("block blocks fence fences snippet")
_ONE_EN = _words("single one 1")


def _token_classes(
    token: str,
    before: str | None,
    formats: frozenset[str],
    fields: Container[str],
    after: str | None = None,
) -> list[str] | None:
    """The classes of one token (a format as "format:NAME"; a run of Chinese characters may
    hold several words) after the token ``before`` it, or None when it is of no class (a key
    of the data, ``fields``, is a field: "只输出code" asks for the records' code)."""
    low = token.lower()
    if low in fields:
        return None
    if _CJK.match(token):
        return _cjk_classes(token)
    if low in formats:
        return [f"format:{token}"]
    if low in _NEG_EN:
        return ["neg"]
    if low in _ONLY_EN:
        return ["only"]
    if low in _EXTRA_EN or (
        low in _EXTRA_NOUNS and before is not None and before.lower() in _EXTRA_AFTER
    ):
        return ["extra"]
    if low in _ANSWER_EN:
        return ["answer"]
    if low in _BENIGN_EN:
        return ["benign"]
    nxt = (after or "").lower()
    if low == "code" and nxt in _BLOCK_NOUNS:
        return ["answer"]
    if low in _ONE_EN and (nxt in formats or nxt == "code" or nxt in _BLOCK_NOUNS):
        return ["only"]
    return None


def _classes(
    tokens: list[str], formats: frozenset[str], fields: Container[str] = frozenset()
) -> list[str] | None:
    """The class of each token, or None when one is of no class."""
    out: list[str] = []
    for i, token in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        classes = _token_classes(token, tokens[i - 1] if i else None, formats, fields, after)
        if classes is None:
            return None
        out += classes
    return out


def _answer_only(
    tokens: list[str], formats: frozenset[str], fields: Container[str] = frozenset()
) -> tuple[str, ...] | None:
    """The formats an answer-only clause names (``()`` for none), or None when the clause
    is not answer-only."""
    classes = _classes(tokens, formats, fields)
    return None if classes is None else _verdict(tokens, classes)


def _verdict(tokens: list[str], classes: list[str]) -> tuple[str, ...] | None:
    """The formats an answer-only clause of ``tokens`` in ``classes`` names (``()`` for
    none), or None when the clause is not answer-only."""
    if not classes:
        return None
    if "extra" in classes:
        if "neg" not in classes:
            return None  # "just explain" asks for the extra
    elif "neg" in classes or "only" not in classes:
        return None  # "no code" is no request for the answer
    if len(tokens) == 1 and tokens[0].lower() in _ONLY_EN:
        return None  # "only" alone restricts what comes before it
    named = tuple(dict.fromkeys(c[7:] for c in classes if c.startswith("format:")))
    if len({n.lower() for n in named}) < len(named):
        named = named[:1]  # one format, written twice ("JSON only, valid json")
    if len(named) > 1:
        return None
    if named and "extra" in classes:
        # "no JSON comments" says something of the format's content, not of the answer
        first_neg = classes.index("neg")
        if any(c.startswith("format:") for c in classes[first_neg:]):
            return None
    return named


def _clauses(text: str) -> Iterator[tuple[int, int]]:
    """The spans of the clauses of ``text`` (between clause breaks)."""
    start = 0
    for m in _CLAUSE_BREAK.finditer(text):
        if m.start() > start:
            yield start, m.start()
        start = m.end()
    if start < len(text):
        yield start, len(text)


def _tail(
    clause: str,
    formats: frozenset[str],
    outside: str,
    named_elsewhere: Callable[[str, str], bool],
    fields: Container[str],
) -> tuple[int, tuple[str, ...]] | None:
    """Where the longest answer-only tail of a clause begins ("convert to YAML with no
    commentary", "转成YAML不要解释", "sort by age only output JSON") and the format it names,
    if any; else None."""
    tokens = list(_TOKEN.finditer(clause))
    words = [m.group(0) for m in tokens]
    first = max(1, len(tokens) - _TAIL_MAX_TOKENS)  # a tail is short: the cost stays linear
    # each word's classes after the word before it, once: a tail is its first word's classes
    # (read alone) and these of the words after it, and none begins before a word of no class
    after: list[list[str] | None] = [None] * len(words)
    for k in range(len(words) - 1, first, -1):
        nxt = words[k + 1] if k + 1 < len(words) else None
        after[k] = _token_classes(words[k], words[k - 1], formats, fields, nxt)
        if after[k] is None:
            first = k
            break
    for i, m in enumerate(tokens[first:], first):
        word = words[i]
        if _CJK.match(word):
            # it may turn answer-only at any of its last characters
            offsets: Iterable[int] = range(max(0, len(word) - _TAIL_MAX_CHARS), len(word))
        elif word.lower() in _TAIL_OPENERS or word.lower() in formats:
            offsets = (0,)
        else:
            continue
        for j in offsets:
            nxt = words[i + 1] if i + 1 < len(words) else None
            opening = _token_classes(word[j:], None, formats, fields, nxt)
            if opening is None:
                continue
            rest = [word[j:], *words[i + 1 :]]
            classes = opening + [c for k in range(i + 1, len(words)) for c in after[k] or ()]
            named = _verdict(rest, classes)
            if named is None:
                continue
            cut = m.start() + j
            if not named or named_elsewhere(f"{outside} {clause[:cut]}", named[0]):
                return cut, ()
            if word.lower() not in formats:  # "… only output JSON": it names the target
                return cut, named
    return None


_TAIL_MAX_TOKENS = 12
_TAIL_MAX_CHARS = 16
# The words an answer-only tail of a clause opens with: a connective, a negator, a restrictor
# or a verb of answering ("… with no commentary", "… only output JSON").
_TAIL_OPENERS = _words("and with but so please pls") | _NEG_EN | _ONLY_EN | _ANSWER_EN


def is_answer_only(text: str, formats: frozenset[str]) -> bool:
    """Whether ``text`` is answer-only clauses alone, besides clauses of benign words
    ("just the result, thanks")."""
    return answer_only_formats(text, formats) is not None


def answer_only_formats(text: str, formats: frozenset[str]) -> tuple[str, ...] | None:
    """The formats ``text`` names, as written and in order, when it is answer-only clauses
    alone besides clauses of benign words ("Return only the JSON." names JSON); else None."""
    terse = False
    named: list[str] = []
    for a, b in _clauses(text):
        tokens = _TOKEN.findall(text[a:b])
        found = _answer_only(tokens, formats)
        if found is not None:
            terse = True
            named += found
            continue
        classes = _classes(tokens, formats)
        if classes is None or any(c != "benign" and not c.startswith("format:") for c in classes):
            return None
        # a clause naming a format alone ("typescript please, no commentary"): the answer's
        named += [c.removeprefix("format:") for c in classes if c.startswith("format:")]
    return tuple(dict.fromkeys(named)) if terse else None


def words(text: str) -> list[str]:
    """The tokens the answer-only reading looks at: words, CJK runs, other characters."""
    return _TOKEN.findall(text)


_FUNCTION_EN = _NEG_EN | _ONLY_EN | _BENIGN_EN


def naming_words(text: str) -> list[str]:
    """The tokens of ``text`` that may name a key of the data (lower case): words and CJK
    runs, but not the English negators, restrictors and benign words ("only", "the")."""
    return [
        low
        for token in _TOKEN.findall(text)
        if (token[0].isalpha() or _CJK.match(token)) and (low := token.lower()) not in _FUNCTION_EN
    ]


def answer_formats(text: str, formats: frozenset[str]) -> tuple[str, ...]:
    """The formats the answer-only clauses of ``text`` name, in order ("Return only the
    YAML." names YAML)."""
    found: list[str] = []
    for a, b in _clauses(text):
        clause = text[a:b]
        named = _answer_only(_TOKEN.findall(clause), formats)
        if named is None:  # an answer-only tail ("convert to JSON only output JSON")
            tail = _tail(clause, formats, "", _named_nowhere, frozenset())
            named = tail[1] if tail is not None else ()
        found += named
    return tuple(dict.fromkeys(found))


def _named_nowhere(_text: str, _name: str) -> bool:
    return False


def drop_answer_only(
    text: str,
    formats: frozenset[str],
    named_elsewhere: Callable[[str, str], bool],
    fields: Container[str] = frozenset(),
) -> str:
    """``text`` with its answer-only clauses dropped (with the break before each), and a
    clause that names one format and asks for it alone read as "output FORMAT" when the rest
    of the text does not name it."""
    pieces: list[str] = []
    last = prev_end = 0
    for start, end in _clauses(text):
        clause = text[start:end]
        named = _answer_only(_TOKEN.findall(clause), formats, fields)
        outside = text[:start] + text[end:]
        if named is None:
            tail = _tail(clause, formats, outside, named_elsewhere, fields)
            if tail is not None:
                cut, named = tail
                restated = f" output {named[0]} " if named else " "
                pieces += [text[last : start + cut], restated]
                last = end
            prev_end = end
            continue
        if named and not named_elsewhere(outside, named[0]):
            restated = f"输出{named[0]}" if _CJK.search(clause) else f"output {named[0]}"
            pieces += [text[last:start], restated]
        else:
            pieces.append(text[last:prev_end])
        last = prev_end = end
    if not last:
        return text
    pieces.append(text[last:])
    return _EDGE_BREAKS.sub("", "".join(pieces)).replace(" .", ".").replace(" 。", "。")


_EDGE_BREAKS = re.compile(r"^[\s,;.!:，；。！、：]+|[\s,;!:，；！、：]+$")


# Words and characters without which no clause of a text is answer-only (a cheap first test).
CUES = re.compile(
    r"(?i)\b(?:" + "|".join(sorted(w for w in _NEG_EN | _ONLY_EN if w.isalpha())) + r"|don'?t)\b"
    r"|[只仅直不无别勿省免即就]"
    # the answer as one fenced block ("a single yaml code block", "one json block")
    r"|(?i:\bcode\s+(?:block|fence|snippet)s?\b|\b(?:single|one|1)\s+[A-Za-z]+\s+(?:block|fence)s?\b)"
)
