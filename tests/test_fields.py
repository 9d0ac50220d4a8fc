"""Field names from instructions resolved against the keys of the data."""

from __future__ import annotations

import pytest

from zerolayer.core.errors import Unsupported
from zerolayer.core.fields import resolve

KEYS = ["id", "name", "price", "score", "class", "created_at"]


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("name", "name"),
        ("Name", "name"),
        ("names", "name"),
        ("ids", "id"),
        ("scored", "score"),
        ("scoring", "score"),
        ("priced", "price"),
        ("pricing", "price"),
        ("cost", "price"),  # another word for the field
        ("costing", "price"),
        ("价格", "price"),
        ("分", "score"),
        ("班", "class"),
    ],
)
def test_written_names_resolve_to_one_key(written: str, key: str) -> None:
    assert resolve(written, KEYS) == key


@pytest.mark.parametrize(
    ("written", "keys", "reason"),
    [
        ("cost", ["id", "name"], "field.unknown"),  # no price either
        ("worth", ["price", "value"], "field.unknown"),  # two candidates: neither is taken
        ("colour", KEYS, "field.unknown"),
    ],
)
def test_names_with_no_single_key_fall_back(written: str, keys: list[str], reason: str) -> None:
    with pytest.raises(Unsupported) as info:
        resolve(written, keys)
    assert info.value.reason == reason


def test_an_exact_key_wins_over_another_word_for_it() -> None:
    assert resolve("cost", ["cost", "price"]) == "cost"
