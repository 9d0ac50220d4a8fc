"""Property tests: verbatim paragraphs, growth against Fraction arithmetic, table round trip."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.context.table import (
    NumberFormat,
    Table,
    add_growth_column,
    parse_markdown_table,
    to_markdown,
)
from zerolayer.plugins.context.text import paragraph, split_paragraphs

settings.register_profile("context", max_examples=150, deadline=None)
settings.load_profile("context")

# A prose line: letters, digits, CJK and punctuation, starting with "A" (no leading markup
# makes it a heading, list, quote, table or fence). A paragraph's inner lines end with a word
# (it is wrapped prose, not one sentence per line) and its last line with "." (no block is a
# lead-in or sign-off), so every block is an unambiguous prose paragraph.
_WORD = st.text(
    alphabet=st.sampled_from(list("abcdefghijXYZ0123456789,.;'\"()?!春夏秋冬天地人和。，、？")),
    min_size=1,
    max_size=12,
)
_LINE = st.lists(_WORD, min_size=1, max_size=6).map(lambda ws: "A" + " ".join(ws))
_PARA = st.lists(_LINE, min_size=1, max_size=3).map(lambda ls: " w\n".join(ls) + ".")
_SEP = st.sampled_from(["\n\n", "\n\n\n", "\n  \n", "\n\t\n\n"])


@given(paras=st.lists(_PARA, min_size=2, max_size=8), seps=st.lists(_SEP, min_size=8,
       max_size=8), data=st.data())  # fmt: skip
def test_paragraph_n_is_verbatim(paras: list[str], seps: list[str], data: st.DataObject) -> None:
    text = paras[0]
    for p, sep in zip(paras[1:], seps, strict=False):
        text += sep + p
    text = data.draw(st.sampled_from(["", "\n", "\n\n"])) + text + "\n"
    assert split_paragraphs(text) == paras
    n = data.draw(st.integers(1, len(paras)))
    assert paragraph(text, n) == paras[n - 1]
    assert paragraph(text, -n) == paras[-n]


def _independent_percent(cur: int, prev: int, decimals: int, rounding: str) -> str:
    """Growth in percent, rounded with integer arithmetic on a Fraction (no Decimal)."""
    exact = Fraction(cur - prev, prev) * 100 * 10**decimals
    mag = abs(exact)
    whole, rest = divmod(mag.numerator, mag.denominator)
    twice = 2 * rest
    if twice > mag.denominator or (
        twice == mag.denominator and (rounding == "half_up" or whole % 2 == 1)
    ):
        whole += 1
    digits = str(whole).rjust(decimals + 1, "0")
    body = digits if decimals == 0 else f"{digits[:-decimals]}.{digits[-decimals:]}"
    return ("-" if exact < 0 and whole != 0 else "") + body + "%"


@given(
    pairs=st.lists(
        st.tuples(st.integers(-(10**7), 10**7), st.integers(1, 10**7)),
        min_size=1,
        max_size=6,
    ),
    decimals=st.integers(0, 4),
    rounding=st.sampled_from(["half_up", "half_even"]),
)
@example(pairs=[(161, 160), (159, 160), (163, 160)], decimals=2, rounding="half_up")
@example(pairs=[(161, 160), (159, 160), (163, 160)], decimals=2, rounding="half_even")
@example(pairs=[(9, 8), (7, 8), (11, 8)], decimals=0, rounding="half_even")
def test_growth_matches_fraction(
    pairs: list[tuple[int, int]], decimals: int, rounding: str
) -> None:
    def refused(c: int, p: int) -> bool:  # -0 vs 0 is refused: leave those rows out
        e = _independent_percent(c, p, decimals, rounding)
        return Fraction(c - p, p) < 0 and not e.strip("-0.%")

    pairs = [(c, p) for c, p in pairs if not refused(c, p)]
    expected = [_independent_percent(c, p, decimals, rounding) for c, p in pairs]
    table = Table(
        ["name", "2022", "2023"],
        [[f"r{i}", f"{p:,}", str(c)] for i, (c, p) in enumerate(pairs)],
    )
    fmt = NumberFormat("percent", decimals, rounding)  # type: ignore[arg-type]
    out = add_growth_column(table, name="YoY", fmt=fmt)
    assert [row[-1] for row in out.rows] == expected
    assert [row[:-1] for row in out.rows] == table.rows


@given(cur=st.integers(-(10**4), 10**4), prev=st.integers(1, 10**4), decimals=st.integers(0, 3))
@example(cur=161, prev=160, decimals=2)
@example(cur=7, prev=8, decimals=0)
def test_ties_refused_exactly_when_halfway(cur: int, prev: int, decimals: int) -> None:
    table = Table(["k", "last year", "this year"], [["a", str(prev), str(cur)]])
    halfway = (Fraction(cur - prev, prev) * 100 * 10**decimals).denominator == 2
    fmt = NumberFormat("percent", decimals, ties="refuse")
    try:
        add_growth_column(table, name="g", fmt=fmt)
    except Unsupported as exc:
        assert exc.reason in ("table_rounding_tie", "table_negative_zero")
        assert halfway or exc.reason == "table_negative_zero"
    else:
        assert not halfway


_CELL = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\\\n\r"
    ),
    max_size=10,
).map(str.strip)
_HEADER_CELL = _CELL.filter(lambda c: c != "" and set(c) - set("-: "))


@given(data=st.data(), width=st.integers(1, 5), height=st.integers(0, 5))
def test_markdown_round_trip(data: st.DataObject, width: int, height: int) -> None:
    header = data.draw(st.lists(_HEADER_CELL, min_size=width, max_size=width))
    rows = data.draw(
        st.lists(st.lists(_CELL, min_size=width, max_size=width), min_size=height,
                 max_size=height)
    )  # fmt: skip
    align = data.draw(
        st.lists(st.sampled_from(["left", "right", "center", None]), min_size=width,
                 max_size=width)
    )  # fmt: skip
    table = Table(header, rows, align)
    text = to_markdown(table)
    back = parse_markdown_table(text)
    assert (back.header, back.rows, back.alignment) == (header, rows, align)
    assert to_markdown(back) == text
