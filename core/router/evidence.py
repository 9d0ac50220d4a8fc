"""What a paraphrase must share with the example it is routed to, word for word.

Similarity (of sentence embeddings or character n-grams) only says two instructions are
about the same thing; it is blind to what decides the answer: "JSON to YAML" and "YAML to
JSON" embed almost alike (cosine 0.99). So an instruction may take an example's place only
when they agree on their *evidence*:

- **formats**, in the order they are named (json, yaml, csv, markdown, html, sql, pandas,
  table, and every format an installed op reads or writes; other formats such as XML or
  TOML count too, so "JSON to TOML" never matches "JSON to YAML");
- **meaning words**: negation, direction ("from", "out of", "back"), order, selection,
  style, clause links ("and", "then") and question words — the words that change what is
  asked, compared as stems (sorted = sort);
- **values**: numbers, quoted strings and the payload's field names, carried over by
  ``slots.py``.

The remaining words are the frame (verbs such as convert, turn, express; fillers such as
this, the, following); they may differ freely, which is what the similarity is for, up to
``unknown`` words that no example, no grammar keyword and no frame list knows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[a-z][a-z0-9_]*(?:'[a-z]+)?|\d+(?:\.\d+)?")
_QUOTED = re.compile(r"\"([^\"]{1,80})\"|'([^']{1,80})'|`([^`]{1,80})`")
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Formats people name in instructions besides those of installed ops (which are added from
# the registry): a request that names one of them never matches an example that does not.
OTHER_FORMATS = _word_set(
    "xml toml ini protobuf excel xlsx latex tex rst restructuredtext asciidoc pdf docx "
    "python typescript javascript java rust ruby php bash shell powershell graphql json5 "
    "jsonl ndjson tsv parquet avro polars spark dplyr kotlin swift scala perl lua haskell "
    "plaintext hcl terraform dockerfile makefile regex"
)
FORMAT_ALIASES = {
    "yml": "yaml",
    "md": "markdown",
    "htm": "html",
    "xhtml": "html",
    "py": "python",
    "ts": "typescript",
    "js": "javascript",
    "表格": "table",
}
# Type names and op families that are not formats a user names.
NOT_FORMATS = frozenset({"text", "conversation", "context", "value", "source"})

# Words that change what is asked. Compared as stems between request and example.
MEANING_WORDS = _word_set(
    """
    not no non never without except excluding exclude neither nor none nothing instead rather
    unless but nor
    from out back reverse reversed invert inverse opposite
    ascending descending asc desc increasing decreasing largest smallest biggest highest
    lowest greatest least newest oldest latest earliest first last top bottom alphabetical
    alphabetically order ordered sort sorted unsorted rank ranked
    only keep drop remove delete omit strip include filter where each every all any unique
    distinct group grouped count sum total average avg mean max min maximum minimum limit
    rename add append insert merge split flatten nest nested combine join extract replace
    fix validate verify check compare diff explain describe comment comments summarise
    summarize annotate highlight lint optimise optimize simplify shorten expand
    quote quotes quoted unquoted double single plain indent indentation indented space
    spaces tab tabs minified minify compact pretty prettify beautify flow block inline style
    key keys ascii escape escaped unicode line lines multiline oneline header headers title
    heading headings anchor anchors gfm github flavoured flavored commonmark safe sanitise
    sanitize full standalone complete query dataframe variable dialect postgres postgresql
    mysql sqlite duckdb mariadb decimal decimals round rounded percent percentage ratio sign
    yoy growth column columns row rows schema type types
    and then also plus after before afterwards finally additionally too
    is are was were does do did what which how why when who whether valid correct right
    wrong better best should
    english french german spanish italian portuguese russian chinese japanese korean arabic
    hindi dutch swedish polish turkish language
    """
)
# Frame words: verbs and fillers a paraphrase may swap for others.
FRAME_WORDS = _word_set(
    """
    a an the this that these those it its following below above here there given attached
    provided pasted my our your me us you i we i'd i'm id im can could would will please
    kindly just simply need want like wish love get give make produce output return show
    print display write rewrite render rendered convert converted conversion turn transform
    change translate translated translation port migrate express expressed reformat format
    formatted emit dump serialise serialize export generate create put take use using into
    to as in of for with on at by version form representation equivalent counterpart data
    content contents document file snippet code input payload thing stuff something one
    now then so ok okay thanks thank be been being have has had let lets let's see
    """
)
ZH_MEANING = (
    "不要",
    "不",
    "别",
    "勿",
    "无需",
    "没有",
    "除了",
    "除",
    "从",
    "倒序",
    "逆序",
    "反",
    "升序",
    "降序",
    "只",
    "仅",
    "双引号",
    "单引号",
    "引号",
    "缩进",
    "排序",
    "压缩",
    "最",
    "前",
    "删",
    "去掉",
    "添加",
    "加上",
    "增加",
    "注释",
    "解释",
    "说明",
    "检查",
    "验证",
    "合并",
    "拆分",
    "每",
    "并",
    "然后",
    "再",
    "以及",
    "和",
    "吗",
    "是否",
    "什么",
    "为什么",
    "怎么",
    "如何",
    "字段",
    "列名",
    "每列",
    "每行",
    "行数",
    "英文",
    "中文",
    "日文",
    "语言",
    "键",
    "查询",
    "变量",
)

# Characters of Chinese instructions that carry no meaning of their own: particles, pointers
# ("这段", "下面的"), verbs of making and converting, words for data and format.
ZH_FRAME = set(
    "把将请帮给我你您下面以列这那个段份些的得地了吧呢啊嘛数据内容文本件格式成为转换改写整理"
    "输出生变弄做用实现代码一下能否可以麻烦就好里中后形版本示翻译渲染到按照要需编程语言是个"
    "其所如及与作来去上把它们该此份条"
)


def has_cjk(text: str) -> bool:
    return CJK.search(text) is not None


def stem(word: str) -> str:
    """A crude English stem, enough to compare word forms (sorted, sorting → sort)."""
    w = word.lower()
    if w.endswith("n't"):
        return "not"
    w = w.removesuffix("'s")
    for suffix, repl, keep in (("ied", "y", 3), ("ies", "y", 3), ("ing", "", 3), ("ed", "", 3)):
        if w.endswith(suffix) and len(w) - len(suffix) >= keep:
            w = w[: len(w) - len(suffix)] + repl
            break
    else:
        if (w.endswith("ly") and len(w) > 5) or (
            w.endswith("es") and len(w) > 4 and w[-3] in "sxz"
        ):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
            w = w[:-1]
    return w.removesuffix("e") if len(w) > 3 else w


def words(text: str) -> list[str]:
    """Lower-case Latin words and numbers of a text, in order (CJK characters are left out)."""
    return _WORD.findall(text.lower())


def quoted(text: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(text)]


def numbers(text: str) -> list[str]:
    return NUMBER.findall(text)


@dataclass(frozen=True)
class Vocabulary:
    """The word classes of one engine: its formats, and every word it knows."""

    formats: frozenset[str]
    known: frozenset[str]  # stems of example words, grammar keywords and the frame
    meaning: frozenset[str]  # stems of the meaning words
    frame: frozenset[str]
    known_chars: frozenset[str] = frozenset()  # Chinese characters of the examples and frame

    @classmethod
    def build(
        cls, formats: Iterable[str], example_texts: Iterable[str], keywords: Iterable[str] = ()
    ) -> Vocabulary:
        fmts = {f.lower() for f in formats if f and f.lower() not in NOT_FORMATS}
        fmts |= OTHER_FORMATS | set(FORMAT_ALIASES.values()) - {"table"}
        fmts |= {f for f in formats if f == "table"}
        meaning = frozenset(stem(w) for w in MEANING_WORDS)
        frame = frozenset(stem(w) for w in FRAME_WORDS)
        known = set(frame) | set(meaning)
        chars = set(ZH_FRAME)
        for text in example_texts:
            known.update(stem(w) for w in words(text))
            chars.update(CJK.findall(text))
        known.update(stem(w) for w in keywords)
        return cls(frozenset(fmts), frozenset(known), meaning, frame, frozenset(chars))

    def format_of(self, word: str) -> str | None:
        w = FORMAT_ALIASES.get(word.lower(), word.lower())
        return w if w in self.formats else None


@dataclass(frozen=True)
class Evidence:
    """What an instruction says that a paraphrase must say too."""

    formats: tuple[str, ...]
    meaning: frozenset[str]
    unknown: tuple[str, ...]  # words no list knows (not counting field names and numbers)


def evidence(text: str, vocab: Vocabulary, fields: Iterable[str] = ()) -> Evidence:
    """The evidence of an instruction; ``fields`` are words that name payload fields."""
    field_set = {f.lower() for f in fields}
    formats: list[str] = []
    meaning: set[str] = set()
    unknown: list[str] = []
    # Quoted strings are values, compared by slots.py; keep their words out of the classes.
    bare = _QUOTED.sub(" ", text)
    for word in words(bare):
        fmt = vocab.format_of(word)
        if fmt is not None:
            formats.append(fmt)
            continue
        if word[0].isdigit() or word in field_set:
            continue
        s = stem(word)
        if s in vocab.meaning:
            meaning.add(s)
        elif s not in vocab.known:
            unknown.append(word)
    if has_cjk(text):
        formats = _with_cjk_formats(bare, formats, vocab)
        found, rest = _zh_meaning(bare)
        meaning |= {f"zh:{w}" for w in found}
        for name in field_set:
            rest = rest.replace(name, " ")
        unknown.extend(c for c in CJK.findall(rest) if c not in vocab.known_chars)
    return Evidence(tuple(formats), frozenset(meaning), tuple(unknown))


ZH_FRAME_WORDS = ("下列", "以下", "下面", "如下", "前面的", "上面")


def _zh_meaning(text: str) -> tuple[set[str], str]:
    """The Chinese meaning words of a text, and the text without them."""
    found: set[str] = set()
    rest = text
    for word in ZH_FRAME_WORDS:
        rest = rest.replace(word, " ")
    for word in sorted(ZH_MEANING, key=len, reverse=True):
        if word in rest:
            found.add(word)
            rest = rest.replace(word, " ")
    return found, rest


def _with_cjk_formats(text: str, latin: list[str], vocab: Vocabulary) -> list[str]:
    """Formats in order of appearance, Chinese format words (表格) included."""
    found: list[tuple[int, str]] = []
    for m in re.finditer(r"[A-Za-z][A-Za-z0-9_]*|表格", text):
        fmt = vocab.format_of(m.group(0))
        if fmt is not None:
            found.append((m.start(), fmt))
    return [f for _, f in found] if found else latin
