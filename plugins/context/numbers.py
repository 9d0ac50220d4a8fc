"""Numbers in table cells: exact parsing with ``Decimal`` and rounding to N decimals.

A numeric cell is, after Unicode NFKC (full-width digits become ASCII) and trimming:

    [sign] [currency] digits [. digits]      or      ( [currency] digits [. digits] )

- sign: ``-``, ``+`` or the Unicode minus ``−``; parentheses mean a negative number (the
  accounting convention, ``(1,200)`` is −1200);
- currency: one of ``$ € £ ¥ ￥`` before the digits; it does not change the value;
- digits: plain (``1234``) or grouped by thousands with commas (``1,234,567``); a grouped
  number must use commas between every group of three.

A cell without any digit (``N/A``, ``—``, empty) is *not a number* (``OpError`` at the call
site). A cell that has digits but another shape (``12%``, ``1e5``, ``1.234,5``, ``1 234``,
``12 kg``) raises ``Unsupported``: it is probably a number, but not one read here exactly.

Rounding is exact with an explicit tie rule: ``half_up`` (ties away from zero, the default, as
in school arithmetic and spreadsheets) or ``half_even`` (banker's rounding). ``is_tie`` tells
when the rule matters, for callers that prefer to refuse ties.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from fractions import Fraction
from typing import Literal

from zerolayer.core.errors import OpError, Unsupported

Rounding = Literal["half_up", "half_even"]
_MODES = {"half_up": ROUND_HALF_UP, "half_even": ROUND_HALF_EVEN}
CURRENCY_SYMBOLS = "$€£¥￥"
MAX_DECIMALS = 20

_NUM_RE = re.compile(
    r"^(?P<sign>[-+−]?)(?P<cur>[$€£¥￥]?)(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d+))?$"
)
_PAREN_RE = re.compile(
    r"^\((?P<cur>[$€£¥￥]?)(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d+))?\)$"
)


@dataclass(frozen=True, slots=True)
class CellNumber:
    """A parsed numeric cell: its exact value and how it was written."""

    value: Decimal
    currency: str = ""
    grouped: bool = False  # written with thousands separators
    parens: bool = False  # negative written in parentheses
    plus: bool = False  # written with an explicit "+"


def has_digit(cell: str) -> bool:
    """True when the cell holds at least one decimal digit (after NFKC)."""
    return any(ch.isdigit() for ch in unicodedata.normalize("NFKC", cell))


def parse_cell_number(cell: str) -> CellNumber | None:
    """The number in ``cell``, or ``None`` when the cell holds no digit at all.

    Raises ``Unsupported`` for a cell that has digits but not one of the shapes above.
    """
    text = unicodedata.normalize("NFKC", cell).strip()
    if m := _NUM_RE.match(text):
        digits = m.group("int").replace(",", "")
        frac = m.group("frac")
        value = Decimal(f"{digits}.{frac}" if frac is not None else digits)
        if m.group("sign") in ("-", "−"):
            value = -value
        return CellNumber(
            value, m.group("cur"), "," in m.group("int"), False, m.group("sign") == "+"
        )
    if m := _PAREN_RE.match(text):
        digits = m.group("int").replace(",", "")
        frac = m.group("frac")
        value = -Decimal(f"{digits}.{frac}" if frac is not None else digits)
        return CellNumber(value, m.group("cur"), "," in m.group("int"), True, False)
    if not has_digit(text):
        return None
    raise Unsupported("table_number_format", f"cannot read {cell.strip()!r} as an exact number")


def check_decimals(decimals: int) -> None:
    """Raise ``OpError`` unless ``decimals`` is a sensible number of decimal places."""
    if isinstance(decimals, bool) or not isinstance(decimals, int):
        raise OpError(f"the number of decimals must be an integer, not {decimals!r}")
    if not 0 <= decimals <= MAX_DECIMALS:
        raise OpError(f"the number of decimals must be between 0 and {MAX_DECIMALS}")


def round_fraction(value: Fraction, decimals: int, rounding: Rounding = "half_up") -> Decimal:
    """``value`` rounded to ``decimals`` places with the given tie rule, as an exact Decimal."""
    check_decimals(decimals)
    if rounding not in _MODES:
        raise OpError(f"unknown rounding {rounding!r}; use 'half_up' or 'half_even'")
    scaled = value * 10**decimals
    floor = scaled.numerator // scaled.denominator
    rest = scaled - floor  # 0 <= rest < 1
    if rest > Fraction(1, 2):
        n = floor + 1
    elif rest < Fraction(1, 2):
        n = floor
    elif rounding == "half_even":
        n = floor if floor % 2 == 0 else floor + 1
    else:  # half_up: ties away from zero
        n = floor + 1 if value >= 0 else floor
    with localcontext() as ctx:
        ctx.prec = max(28, len(str(abs(n))) + 5)
        return Decimal(n).scaleb(-decimals)


def is_tie(value: Fraction | Decimal, decimals: int) -> bool:
    """True when ``value`` lies exactly halfway between two numbers of ``decimals`` places,
    the only case where half-up, half-even and float formatting can disagree."""
    return (Fraction(value) * 10**decimals).denominator == 2


def round_decimal(value: Decimal, decimals: int, rounding: Rounding = "half_up") -> Decimal:
    """``value`` rounded to ``decimals`` places with the given tie rule."""
    check_decimals(decimals)
    if rounding not in _MODES:
        raise OpError(f"unknown rounding {rounding!r}; use 'half_up' or 'half_even'")
    with localcontext() as ctx:
        ctx.prec = max(28, value.adjusted() + decimals + 5)
        try:
            return value.quantize(Decimal(1).scaleb(-decimals), rounding=_MODES[rounding])
        except InvalidOperation as exc:  # pragma: no cover - guarded by the precision above
            raise OpError(f"cannot round {value} to {decimals} decimals") from exc


def plain(value: Decimal) -> str:
    """A Decimal written out in plain positional notation (never ``1E+3``)."""
    return f"{value:f}"


def format_like(number: CellNumber, value: Decimal) -> str:
    """``value`` written in the same style as ``number`` (currency, grouping, parentheses)."""
    body = f"{abs(value):,f}" if number.grouped else f"{abs(value):f}"
    body = f"{number.currency}{body}"
    if value < 0:
        return f"({body})" if number.parens else f"-{body}"
    return f"+{body}" if number.plus and value > 0 else body
