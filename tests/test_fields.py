"""Field names from instructions resolved against the keys of the data."""

from __future__ import annotations

import pytest

from zerolayer.core.errors import Unsupported
from zerolayer.core.fields import data_record_nouns, resolve

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


@pytest.mark.parametrize(
    ("written", "keys", "key"),
    [
        ("area", ["城市", "人口", "面积"], "面积"),
        ("population", ["城市", "人口", "面积"], "人口"),
        ("areas", ["城市", "面积"], "面积"),
    ],
)
def test_a_chinese_key_is_read_from_its_english_word_in_reverse(
    written: str, keys: list[str], key: str
) -> None:
    assert resolve(written, keys, reverse=True) == key


@pytest.mark.parametrize(
    ("written", "keys", "reverse"),
    [
        ("area", ["城市", "面积"], False),  # the grammar's own reading: no reverse
        ("price", ["cost", "name"], True),  # an English key is not read in reverse
        ("price", ["价格", "单价"], True),  # two Chinese keys for one word
        ("colour", ["城市", "面积"], True),
    ],
)
def test_reverse_reading_falls_back_unless_one_chinese_key(
    written: str, keys: list[str], reverse: bool
) -> None:
    with pytest.raises(Unsupported):
        resolve(written, keys, reverse=reverse)


@pytest.mark.parametrize(
    ("written", "keys", "key"),
    [
        ("joined", ["firstName", "startYear"], "startYear"),
        ("hired", ["name", "hire_date"], "hire_date"),
        ("department", ["name", "dept"], "dept"),
        ("dept", ["name", "department"], "department"),
        ("earn", ["name", "pay"], "pay"),
    ],
)
def test_glossary_words_of_people_records(written: str, keys: list[str], key: str) -> None:
    assert resolve(written, keys) == key


def test_the_data_names_its_records() -> None:
    records = [
        {"roomNumber": 1, "roomType": "suite", "rate": 90},
        {"roomNumber": 2, "roomType": "twin", "rate": 80},
    ]
    nouns = data_record_nouns(records)
    assert nouns == {
        "room": ("record", ("number", "type")),
        "rooms": ("records", ("number", "type")),
    }
    assert set(data_record_nouns([{"id": 1, "x": 2}], "parcels")) == {"parcel", "parcels"}
    # no noun: a first key that does not identify, a head that is a key or a value's word
    assert data_record_nouns([{"city": "Oslo", "cityId": 1}]) == {}
    assert data_record_nouns([{"boxId": 1, "box": 2}]) == {}
    assert data_record_nouns([{"boxId": 1, "kind": "box"}]) == {}
