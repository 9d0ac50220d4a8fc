"""Context and table ops: the atomic operations behind context-anchored requests.

Context ops take the engine's ``Conversation`` (type ``conversation``): the earlier turns, the
system prompt and the text of the current message before the instruction. They find what the
instruction points at ("the third paragraph of the text above", "the first question I
asked", "the table above") with the pure functions of this package, which refuse to guess.
Table ops work on a ``Table`` (type ``table``); ``table.markdown`` renders one and is the
implicit op the planner appends.

Every op accepts the marker parameters ``verbatim`` and ``alone`` (both ``true`` only): the
instruction said "verbatim", "word for word", "nothing else"; they change nothing, since
every answer here is exact and bare, but they tie such words to an op that honours them.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Literal

from zerolayer.core.errors import OpError, Unsupported
from zerolayer.core.messages import Conversation
from zerolayer.core.ops import OpSpec
from zerolayer.core.types import CONVERSATION, TABLE, TEXT
from zerolayer.plugins.context.conversation import (
    context_paragraph,
    find_table_match,
    nth_question,
    question_kind,
)
from zerolayer.plugins.context.numbers import parse_cell_number, plain
from zerolayer.plugins.context.table import (
    NumberFormat,
    Table,
    TableMatch,
    add_growth_column,
    average_column,
    column_index,
    find_tables,
    round_column,
    select_rows,
    sort_rows,
    sum_column,
    to_markdown,
)
from zerolayer.plugins.context.text import paragraph, section, sections

Turn = tuple[str, str]

# The instruction's place in the rebuilt current message (see ``_turns``).
_MARK = "\x00instruction\x00"

_MARKERS: dict[str, Any] = {
    "verbatim": {"const": True},
    "alone": {"const": True},
}
_COLUMN: dict[str, Any] = {"type": "string", "minLength": 1}
_ROLE: dict[str, Any] = {"enum": ["user", "assistant"]}
_DECIMALS: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 10}


def _schema(required: tuple[str, ...] = (), **props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {**props, **_MARKERS},
        "required": list(required),
    }


_AFTER_INSTRUCTION = re.compile(r"\n[ \t]*\n|^[ ]{0,3}(?:```|~~~)|^\s*\|.*\|\s*$", re.MULTILINE)
# Words by which an instruction points at text after it or before it.
_BELOW = re.compile(
    r"(?<![A-Za-z])(?:below|following|follows)(?![A-Za-z])|下面|以下|下列|如下|下方|下文",
    re.IGNORECASE,
)
_ABOVE = re.compile(
    r"(?<![A-Za-z])(?:above|previous|preceding|earlier)(?![A-Za-z])"
    r"|上面|上述|上文|前面|以上|上方|之前|刚才",
    re.IGNORECASE,
)


def _check_type(value: Any) -> Conversation:
    if not isinstance(value, Conversation):
        raise OpError("a context op needs the conversation as its input")
    return value


def _conversation(value: Any) -> Conversation:
    """The conversation, refusing one whose current message has a payload after the
    instruction ("Add a column to this table: …"): "above" would then be read from earlier
    turns while the user meant the text that follows."""
    value = _check_type(value)
    if value.after.strip() or (
        not value.before.strip() and _AFTER_INSTRUCTION.search(value.current.strip())
    ):
        raise Unsupported(
            "context.payload_after_instruction",
            "the message holds text after the instruction; the instruction may refer to it",
        )
    return value


def _text_below(value: Any, role: str | None) -> tuple[Conversation, str | None]:
    """The conversation, and the text after the instruction when that is the text meant.

    Text after the instruction in the same message ("Return the second paragraph of the text
    below:\n\n…", "原样返回下面文字的第2段：…") is the text, unless the instruction says
    "above" (or "your reply"): then which text is meant is not certain. An instruction that
    says "below" with nothing after it falls back too, rather than read the text above.
    """
    conv = _check_type(value)
    below = bool(_BELOW.search(conv.instruction))
    above = bool(_ABOVE.search(conv.instruction))
    if below and above:
        raise Unsupported(
            "context_ambiguous_text", "the instruction refers to text above and text below it"
        )
    if conv.after.strip():
        if above or role == "assistant":
            raise Unsupported(
                "context.payload_after_instruction",
                "the instruction refers to earlier text, but the message holds text after it",
            )
        return conv, conv.after.strip("\r\n")
    if below:
        _conversation(conv)  # text after it, but not one payload the reading cut out
        raise Unsupported(
            "context.nothing_below",
            "the instruction refers to text below it, but the message has none after it",
        )
    return _conversation(conv), None


def _turns(conv: Conversation) -> tuple[list[Turn], str]:
    """The turns for the context functions and the instruction text to find in the last.

    The current message is rebuilt as the text before the instruction followed by a marker
    standing for the instruction, so "the text above" may be in the same message.
    """
    earlier = [(m.role, m.content) for m in conv.messages]
    return [*earlier, ("user", f"{conv.before}\n\n{_MARK}")], _MARK


# --------------------------------------------------------------------------- context ops


def context_paragraph_op(value: Any, *, n: int, role: str | None = None, **_markers: bool) -> str:
    """Paragraph ``n`` (1-based; negative counts from the end) of the text above, verbatim;
    ``role`` limits "the text" to the user's or the assistant's turns."""
    conv, below = _text_below(value, role)
    if below is not None:
        return paragraph(below, n)
    turns, current = _turns(conv)
    return context_paragraph(turns, current, n, role=role)


def _section_or_none(text: str, name: str) -> str | None:
    if not sections(text):
        return None
    try:
        return section(text, name)
    except OpError:
        return None


def _places(conv: Conversation, role: str | None = None) -> list[str]:
    """The texts "above" the instruction, most recent first: the current message before the
    instruction, then earlier turns from the latest back (only ``role``'s when given)."""
    earlier = [m.content for m in reversed(conv.messages) if role is None or m.role == role]
    return [conv.before, *earlier] if role in (None, "user") else earlier


def context_section_op(value: Any, *, name: str, role: str | None = None, **_markers: bool) -> str:
    """The body of the section called ``name`` in the most recent text that has one.

    ``Unsupported`` when an older text has a section of that name with another body (which
    text is meant is not certain); ``OpError`` when no text has it. Text after the
    instruction is the text, as for paragraphs.
    """
    conv, below = _text_below(value, role)
    if below is not None:
        return section(below, name)
    bodies = [b for t in _places(conv, role) if (b := _section_or_none(t, name)) is not None]
    if not bodies:
        raise OpError(f"no text in the conversation has a section called {name!r}")
    if any(b != bodies[0] for b in bodies[1:]):
        raise Unsupported(
            "context_ambiguous_text",
            f"more than one text in the conversation has a section called {name!r}",
        )
    return bodies[0]


def context_question_op(value: Any, *, n: int, **_markers: bool) -> str:
    """The ``n``-th question the user asked before this turn (``-1``: the last), verbatim.

    Text before the instruction in the same message that holds a question makes the request
    uncertain ("Why is the sky blue? Repeat my last question."): ``Unsupported``.
    """
    conv = _conversation(value)
    if question_kind(conv.before) != "statement":
        raise Unsupported(
            "context_ambiguous_question",
            "the message asks a question before the instruction; it may be the one meant",
        )
    turns = [(m.role, m.content) for m in conv.messages]
    return nth_question([*turns, ("user", conv.current)], n)


def _table_match(turns: list[Turn], current: str) -> TableMatch:
    """``find_table_match``, with "no Markdown table" as ``Unsupported``: the table above may
    be in another form (CSV, HTML, aligned text) that a reader would still recognise."""
    try:
        return find_table_match(turns, current)
    except OpError as exc:
        raise Unsupported("context_no_table", str(exc)) from exc


def context_table_op(value: Any, **_markers: bool) -> Table:
    """The most recent Markdown table before the instruction."""
    turns, current = _turns(_conversation(value))
    return _table_match(turns, current).table


def context_table_text_op(value: Any, **_markers: bool) -> str:
    """The most recent Markdown table before the instruction, its lines verbatim.

    The table is the one ``context.table`` finds (same search, same refusals); its lines come
    back as written, trailing spaces removed.
    """
    conv = _conversation(value)
    turns, current = _turns(conv)
    match = _table_match(turns, current)
    for text in _places(conv):
        if find_tables(text):
            lines = text.split("\n")[match.start_line - 1 : match.end_line]
            return "\n".join(line.rstrip() for line in lines)
    raise OpError("there is no Markdown table earlier in the conversation")


# --------------------------------------------------------------------------- table ops


def _table(value: Any) -> Table:
    if not isinstance(value, Table):
        raise OpError("a table op needs a table as its input")
    return value


_COLUMN_SUFFIXES = ("列", "栏", " column")


def _column(table: Table, name: str) -> str | int:
    """``name`` as the table knows it: the header itself, or, when there is none, the name
    without a trailing column word ("销售额列" names the column "销售额").

    A name that is no header is ``Unsupported``: the instruction may name the column in other
    words ("价格" for "price"), which only a reader can match.
    """
    try:
        column_index(table, name)
        return name
    except OpError as exc:
        for suffix in _COLUMN_SUFFIXES:
            stem = name.removesuffix(suffix).strip()
            if stem != name and stem:
                try:
                    return column_index(table, stem)
                except OpError:
                    pass
        raise Unsupported("table_unknown_column", str(exc)) from exc


def table_markdown_op(value: Any, **_markers: bool) -> str:
    """The table as canonical Markdown."""
    return to_markdown(_table(value))


def table_growth_op(
    value: Any,
    *,
    name: str,
    decimals: int,
    format: str,
    current: str | None = None,
    previous: str | None = None,
    plus_sign: bool = False,
    **_markers: bool,
) -> Table:
    """Append column ``name``: ``(current - previous) / previous`` as a percent or ratio.

    Columns named by the instruction must be headers of the table (a year finds its one year
    header); a name that is none is ``Unsupported``, since the instruction may describe the
    columns rather than name them.
    """
    table = _table(value)
    kind: Literal["percent", "ratio"] = "percent" if format == "percent" else "ratio"
    fmt = NumberFormat(kind=kind, decimals=decimals, plus_sign=plus_sign)
    try:
        return add_growth_column(table, name=name, current=current, previous=previous, fmt=fmt)
    except OpError as exc:
        if "has no column" in str(exc):
            raise Unsupported("table_growth_columns", str(exc)) from exc
        raise


def table_sum_op(value: Any, *, column: str, **_markers: bool) -> str:
    """The exact sum of a column."""
    t = _table(value)
    return plain(sum_column(t, _column(t, column)))


def table_average_op(
    value: Any, *, column: str, decimals: int | None = None, **_markers: bool
) -> str:
    """The mean of a column, exact or rounded half up to ``decimals``."""
    t = _table(value)
    result: Decimal = average_column(t, _column(t, column), decimals=decimals)
    return plain(result)


def table_sort_op(value: Any, *, by: str, order: str = "asc", **_markers: bool) -> Table:
    """Rows sorted by a column (numbers by value, ASCII text case-insensitively)."""
    t = _table(value)
    return sort_rows(t, _column(t, by), desc=order == "desc")


def table_select_op(value: Any, *, column: str, op: str, value_: str, **_markers: bool) -> Table:
    """Rows whose cell in ``column`` compares with ``value_`` as ``op`` says.

    A text comparison that would keep other rows if letter case were ignored ("where region
    is north" with cells "North") is ``Unsupported``: the user most likely meant those rows.
    """
    t = _table(value)
    c = _column(t, column)
    out = select_rows(t, c, op, value_)  # type: ignore[arg-type]
    if op in ("==", "!=") and parse_cell_number(value_) is None:
        i = column_index(t, c)
        folded = [
            r for r in t.rows if (r[i].strip().casefold() == value_.casefold()) == (op == "==")
        ]
        if len(folded) != len(out.rows):
            raise Unsupported(
                "table_select_case",
                f"{value_!r} matches other rows of column {t.header[i]!r} when case is ignored",
            )
    return out


def _select(table: Any, /, **params: Any) -> Table:
    params["value_"] = params.pop("value")
    return table_select_op(table, **params)


def table_round_op(value: Any, *, column: str, decimals: int, **_markers: bool) -> Table:
    """A column's numbers rounded half up to ``decimals`` places, each cell keeping its style."""
    t = _table(value)
    return round_column(t, _column(t, column), decimals)


OPS: tuple[OpSpec, ...] = (
    OpSpec(
        "context.paragraph",
        CONVERSATION,
        TEXT,
        context_paragraph_op,
        params=_schema(("n",), n={"type": "integer", "not": {"const": 0}}, role=_ROLE),
        description="Paragraph n of the text above (negative: from the end), verbatim.",
    ),
    OpSpec(
        "context.section",
        CONVERSATION,
        TEXT,
        context_section_op,
        params=_schema(("name",), name={"type": "string", "minLength": 1}, role=_ROLE),
        description="The body of a named section of the text above, verbatim.",
    ),
    OpSpec(
        "context.question",
        CONVERSATION,
        TEXT,
        context_question_op,
        params=_schema(("n",), n={"type": "integer", "not": {"const": 0}}),
        description="The n-th question the user asked earlier (-1: the last), verbatim.",
    ),
    OpSpec(
        "context.table",
        CONVERSATION,
        TABLE,
        context_table_op,
        params=_schema(),
        description="The most recent Markdown table in the conversation.",
    ),
    OpSpec(
        "context.table_text",
        CONVERSATION,
        TEXT,
        context_table_text_op,
        params=_schema(),
        description="The most recent Markdown table in the conversation, verbatim.",
    ),
    OpSpec(
        "table.markdown",
        TABLE,
        TEXT,
        table_markdown_op,
        params=_schema(),
        description="Render a table as Markdown.",
        implicit=True,
        formats=("markdown",),
    ),
    OpSpec(
        "table.growth",
        TABLE,
        TABLE,
        table_growth_op,
        params=_schema(
            ("name", "decimals", "format"),
            name={"type": "string", "minLength": 1},
            current=_COLUMN,
            previous=_COLUMN,
            decimals=_DECIMALS,
            format={"enum": ["percent", "ratio"]},
            plus_sign={"type": "boolean"},
        ),
        description="Append a growth column (current - previous) / previous.",
    ),
    OpSpec(
        "table.sum",
        TABLE,
        TEXT,
        table_sum_op,
        params=_schema(("column",), column=_COLUMN),
        description="The exact sum of a column.",
    ),
    OpSpec(
        "table.average",
        TABLE,
        TEXT,
        table_average_op,
        params=_schema(("column",), column=_COLUMN, decimals=_DECIMALS),
        description="The mean of a column.",
    ),
    OpSpec(
        "table.sort",
        TABLE,
        TABLE,
        table_sort_op,
        params=_schema(("by",), by=_COLUMN, order={"enum": ["asc", "desc"]}),
        description="Sort rows by a column.",
    ),
    OpSpec(
        "table.select",
        TABLE,
        TABLE,
        _select,
        params=_schema(
            ("column", "op", "value"),
            column=_COLUMN,
            op={"enum": ["==", "!=", "<", "<=", ">", ">="]},
            value={"type": "string"},
        ),
        description="Keep the rows whose cell compares with a value.",
    ),
    OpSpec(
        "table.round",
        TABLE,
        TABLE,
        table_round_op,
        params=_schema(("column", "decimals"), column=_COLUMN, decimals=_DECIMALS),
        description="Round a column's numbers half up.",
    ),
)
