"""Build probes4.yaml: an independent corpus of record queries for zerolayer.

Written without reading the engine (core/, plugins/, grammars/, rules_api/), its docs, the
paraphrase benchmark or the other case files; only the file format of probes3.yaml was
copied, so that tests/test_query_probes.py reads this file with the same harness.

* Ten record sets of my own (shipments, hotel rooms, students' grades, repositories,
  invoices, trains, recipes, support tickets, flat listings, and shops keyed in Chinese),
  5-15 records each, keys in camelCase, snake_case, lowercase and Chinese, with nested
  objects, arrays, nulls and missing keys. Two of them are pasted as an object holding the
  array ({"shipments": [...]}, {"exported_at": ..., "invoices": [...]}).
* Active probes: a deterministic engine could answer them exactly. Each one's answer is
  computed here by a small function over the records, so the golds are right by
  construction; the helpers assert there is no tie where a superlative, a sort or a top-N
  cut needs none.
* Fallback probes: must go to the model (open asks, vague quantities, ties, ambiguous
  fields, world knowledge, a deterministic ask joined to an open one, quoted instructions
  being discussed, creative asks).
* Halves: per language, round(60%) open and the rest sealed, shuffled with random.Random(4),
  first for the active list and then, with the same generator, for the fallback list.
* Answer conventions as in probes3.yaml: a count is an int; a single value is the value; a
  yes/no is a JSON boolean; a list of names (or ids) is a list of those values in record order
  unless the request orders it; a projection is a list of objects with the records' own keys;
  a group count is an object {value: count}; one whole record is that object.
* Each probe also carries ``form``: where the data stands in the message. The harness of
  tests/test_query_probes.py always sends ``words`` then a fenced JSON block (the form
  "fenced_after"); a harness that wants to vary it can build the message with ``compose``
  below. Forms are drawn with random.Random(44), a generator apart from the halves'.

Run:  python3 build_probes4.py   (writes probes4.yaml beside this file).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
OUT = HERE / "probes4.yaml"

# --------------------------------------------------------------------------- records

SHIPMENTS = {
    "shipments": [
        {
            "shipment_id": "SHP-1001",
            "carrier": "DHL",
            "origin": "Rotterdam",
            "destination": {"city": "Berlin", "country": "DE"},
            "weight_kg": 12.5,
            "status": "delivered",
            "shipped_on": "2024-03-02",
            "delivered_on": "2024-03-05",
            "insured": True,
            "cost_usd": 84.2,
        },
        {
            "shipment_id": "SHP-1002",
            "carrier": "UPS",
            "origin": "Hamburg",
            "destination": {"city": "Paris", "country": "FR"},
            "weight_kg": 3.2,
            "status": "in_transit",
            "shipped_on": "2024-03-10",
            "delivered_on": None,
            "insured": False,
            "cost_usd": 27.5,
        },
        {
            "shipment_id": "SHP-1003",
            "carrier": "FedEx",
            "origin": "Antwerp",
            "destination": {"city": "Madrid", "country": "ES"},
            "weight_kg": 45.0,
            "status": "delivered",
            "shipped_on": "2024-02-20",
            "delivered_on": "2024-02-26",
            "insured": True,
            "cost_usd": 212.0,
        },
        {
            "shipment_id": "SHP-1004",
            "carrier": "DHL",
            "origin": "Rotterdam",
            "destination": {"city": "Vienna", "country": "AT"},
            "weight_kg": 7.8,
            "status": "delayed",
            "shipped_on": "2024-03-01",
            "delivered_on": None,
            "insured": False,
            "cost_usd": 56.1,
        },
        {
            "shipment_id": "SHP-1005",
            "carrier": "DPD",
            "origin": "Lyon",
            "destination": {"city": "Milan", "country": "IT"},
            "weight_kg": 19.4,
            "status": "delivered",
            "shipped_on": "2024-01-15",
            "delivered_on": "2024-01-18",
            "insured": False,
            "cost_usd": 98.75,
        },
        {
            "shipment_id": "SHP-1006",
            "carrier": "UPS",
            "origin": "Hamburg",
            "destination": {"city": "Berlin", "country": "DE"},
            "weight_kg": 1.1,
            "status": "delivered",
            "shipped_on": "2024-03-12",
            "delivered_on": "2024-03-13",
            "insured": False,
            "cost_usd": 14.9,
        },
        {
            "shipment_id": "SHP-1007",
            "carrier": "FedEx",
            "origin": "Antwerp",
            "destination": {"city": "Warsaw", "country": "PL"},
            "weight_kg": 60.3,
            "status": "in_transit",
            "shipped_on": "2024-03-14",
            "delivered_on": None,
            "insured": True,
            "cost_usd": 265.4,
        },
        {
            "shipment_id": "SHP-1008",
            "carrier": "DHL",
            "origin": "Lyon",
            "destination": {"city": "Paris", "country": "FR"},
            "weight_kg": 9.6,
            "status": "delivered",
            "shipped_on": "2024-02-02",
            "delivered_on": "2024-02-04",
            "insured": True,
            "cost_usd": 61.0,
        },
        {
            "shipment_id": "SHP-1009",
            "carrier": "GLS",
            "origin": "Rotterdam",
            "destination": {"city": "Munich", "country": "DE"},
            "weight_kg": 23.7,
            "status": "lost",
            "shipped_on": "2024-01-28",
            "delivered_on": None,
            "insured": True,
            "cost_usd": 131.3,
        },
        {
            "shipment_id": "SHP-1010",
            "carrier": "DPD",
            "origin": "Hamburg",
            "destination": {"city": "Prague", "country": "CZ"},
            "weight_kg": 5.5,
            "status": "delayed",
            "shipped_on": "2024-03-08",
            "delivered_on": None,
            "insured": False,
            "cost_usd": 39.9,
        },
    ]
}


def _room(
    number: int,
    kind: str,
    floor: int,
    rate: int,
    guests: int,
    balcony: bool,
    sea: bool,
    amenities: list[str],
    cleaned: str,
    guest: str | None,
) -> dict[str, Any]:
    return {
        "roomNumber": number,
        "roomType": kind,
        "floor": floor,
        "nightlyRate": rate,
        "maxGuests": guests,
        "hasBalcony": balcony,
        "seaView": sea,
        "amenities": amenities,
        "lastCleaned": cleaned,
        "occupied": guest is not None,
        "guestName": guest,
    }


HOTEL_ROOMS = [
    _room(101, "single", 1, 89, 1, False, False, ["wifi"], "2024-06-03T10:15:00", "M. Okafor"),
    _room(102, "double", 1, 129, 2, False, False, ["wifi", "minibar"], "2024-06-03T11:02:00", None),
    _room(
        205,
        "double",
        2,
        142,
        2,
        True,
        False,
        ["wifi", "minibar", "safe"],
        "2024-06-02T14:40:00",
        "L. Brandt",
    ),
    _room(208, "twin", 2, 135, 2, False, True, ["wifi", "safe"], "2024-06-03T09:20:00", "K. Sato"),
    _room(
        301,
        "suite",
        3,
        310,
        4,
        True,
        True,
        ["wifi", "minibar", "safe", "bathtub"],
        "2024-06-01T16:05:00",
        None,
    ),
    _room(
        304,
        "family",
        3,
        198,
        5,
        True,
        False,
        ["wifi", "bathtub"],
        "2024-06-03T12:30:00",
        "R. Alvarez",
    ),
    _room(310, "double", 3, 155, 2, True, True, ["wifi", "minibar"], "2024-06-02T08:45:00", None),
    _room(
        402,
        "suite",
        4,
        365,
        4,
        True,
        True,
        ["wifi", "minibar", "safe", "bathtub", "espresso"],
        "2024-06-03T13:10:00",
        "A. Novak",
    ),
    _room(405, "single", 4, 95, 1, False, False, ["wifi"], "2024-05-31T15:55:00", None),
    _room(
        410,
        "twin",
        4,
        149,
        2,
        True,
        True,
        ["wifi", "minibar", "safe"],
        "2024-06-02T10:00:00",
        None,
    ),
]

STUDENTS = [
    {
        "name": "Ana Petrova",
        "class": "10A",
        "math": 92,
        "physics": 88,
        "english": 75,
        "attendance": 97,
        "scholarship": True,
        "mentor": "Mr. Hale",
    },
    {
        "name": "Ben Carter",
        "class": "10B",
        "math": 67,
        "physics": 71,
        "english": 84,
        "attendance": 89,
        "scholarship": False,
        "mentor": None,
    },
    {
        "name": "Chen Wei",
        "class": "10A",
        "math": 98,
        "physics": 95,
        "english": 81,
        "attendance": 99,
        "scholarship": True,
        "mentor": "Ms. Ortiz",
    },
    {
        "name": "Dana Kim",
        "class": "10C",
        "math": 74,
        "physics": 62,
        "english": 93,
        "attendance": 92,
        "scholarship": False,
        "mentor": "Mr. Hale",
    },
    {
        "name": "Eli Brooks",
        "class": "10B",
        "math": 55,
        "physics": 60,
        "english": 70,
        "attendance": 78,
        "scholarship": False,
    },
    {
        "name": "Farah Nadeem",
        "class": "10C",
        "math": 88,
        "physics": 91,
        "english": 90,
        "attendance": 95,
        "scholarship": True,
        "mentor": "Ms. Ortiz",
    },
    {
        "name": "Gus Lindqvist",
        "class": "10A",
        "math": 81,
        "physics": 77,
        "english": 66,
        "attendance": 85,
        "scholarship": False,
        "mentor": None,
    },
    {
        "name": "Hana Mori",
        "class": "10B",
        "math": 90,
        "physics": 84,
        "english": 97,
        "attendance": 100,
        "scholarship": True,
        "mentor": "Mr. Diaz",
    },
    {
        "name": "Ivan Popov",
        "class": "10C",
        "math": 63,
        "physics": 70,
        "english": 58,
        "attendance": 81,
        "scholarship": False,
    },
    {
        "name": "Jade Wu",
        "class": "10A",
        "math": 79,
        "physics": 86,
        "english": 88,
        "attendance": 94,
        "scholarship": False,
        "mentor": "Mr. Diaz",
    },
]


def _repo(
    name: str,
    login: str,
    kind: str,
    language: str,
    stars: int,
    forks: int,
    issues: int,
    archived: bool,
    license_: str | None,
    topics: list[str],
    pushed: str,
) -> dict[str, Any]:
    return {
        "name": name,
        "owner": {"login": login, "type": kind},
        "language": language,
        "stars": stars,
        "forks": forks,
        "open_issues": issues,
        "archived": archived,
        "license": license_,
        "topics": topics,
        "last_push": pushed,
    }


REPOS = [
    _repo(
        "fastgrid",
        "nadia-k",
        "User",
        "Rust",
        4820,
        312,
        41,
        False,
        "MIT",
        ["grid", "layout", "wasm"],
        "2025-01-14",
    ),
    _repo(
        "pyledger",
        "acme-labs",
        "Organization",
        "Python",
        1290,
        88,
        12,
        False,
        "Apache-2.0",
        ["accounting", "cli"],
        "2024-11-02",
    ),
    _repo(
        "tinyhttp-c",
        "jlo",
        "User",
        "C",
        356,
        40,
        3,
        True,
        "BSD-3-Clause",
        ["http", "embedded"],
        "2021-06-30",
    ),
    _repo(
        "mapforge",
        "acme-labs",
        "Organization",
        "TypeScript",
        9310,
        1104,
        208,
        False,
        "MIT",
        ["maps", "gis", "webgl"],
        "2025-02-01",
    ),
    _repo(
        "quillnote",
        "sora-dev",
        "User",
        "Go",
        775,
        61,
        19,
        False,
        None,
        ["notes", "markdown"],
        "2024-08-19",
    ),
    _repo(
        "datadrift",
        "acme-labs",
        "Organization",
        "Python",
        2045,
        190,
        33,
        False,
        "MIT",
        ["ml", "monitoring"],
        "2025-01-27",
    ),
    _repo(
        "legacy-soap",
        "oldcorp",
        "Organization",
        "Java",
        98,
        22,
        0,
        True,
        None,
        ["soap", "xml"],
        "2019-03-11",
    ),
    _repo(
        "kelp",
        "nadia-k",
        "User",
        "Rust",
        612,
        35,
        7,
        False,
        "Apache-2.0",
        ["cli", "parsing"],
        "2024-12-09",
    ),
    _repo(
        "orbitdb-lite",
        "sora-dev",
        "User",
        "TypeScript",
        1520,
        140,
        26,
        False,
        "MIT",
        ["database", "p2p"],
        "2023-10-05",
    ),
    _repo(
        "wavelet", "jlo", "User", "C", 243, 17, 5, False, "GPL-3.0", ["audio", "dsp"], "2024-05-22"
    ),
]


def _invoice(
    no: str,
    customer: str,
    city: str,
    country: str,
    issued: str,
    due: str,
    amount: float,
    currency: str,
    paid_on: str | None,
) -> dict[str, Any]:
    return {
        "invoiceNo": no,
        "customer": {"name": customer, "address": {"city": city, "country": country}},
        "issueDate": issued,
        "dueDate": due,
        "amount": amount,
        "currency": currency,
        "paid": paid_on is not None,
        "paidOn": paid_on,
    }


INVOICES = {
    "exported_at": "2024-04-30",
    "invoices": [
        _invoice(
            "INV-2024-001",
            "Bluefin Foods",
            "Oslo",
            "NO",
            "2024-01-05",
            "2024-02-04",
            1250.0,
            "EUR",
            "2024-01-30",
        ),
        _invoice(
            "INV-2024-002",
            "Harbor & Co",
            "Bergen",
            "NO",
            "2024-01-12",
            "2024-02-11",
            480.5,
            "EUR",
            None,
        ),
        _invoice(
            "INV-2024-003",
            "Kito Design",
            "Lisbon",
            "PT",
            "2024-02-01",
            "2024-03-02",
            3200.0,
            "EUR",
            "2024-02-20",
        ),
        _invoice(
            "INV-2024-004",
            "Bluefin Foods",
            "Oslo",
            "NO",
            "2024-02-14",
            "2024-03-15",
            760.25,
            "EUR",
            None,
        ),
        _invoice(
            "INV-2024-005",
            "Marlow Print",
            "Leeds",
            "GB",
            "2024-02-19",
            "2024-03-20",
            2150.0,
            "GBP",
            "2024-03-18",
        ),
        _invoice(
            "INV-2024-006",
            "Kito Design",
            "Lisbon",
            "PT",
            "2024-03-03",
            "2024-04-02",
            95.0,
            "EUR",
            "2024-03-05",
        ),
        _invoice(
            "INV-2024-007",
            "Northwind Tools",
            "Gothenburg",
            "SE",
            "2024-03-10",
            "2024-04-09",
            1875.4,
            "EUR",
            None,
        ),
        _invoice(
            "INV-2024-008",
            "Marlow Print",
            "Leeds",
            "GB",
            "2024-03-22",
            "2024-04-21",
            640.0,
            "GBP",
            None,
        ),
        _invoice(
            "INV-2024-009",
            "Harbor & Co",
            "Bergen",
            "NO",
            "2024-04-02",
            "2024-05-02",
            2990.1,
            "EUR",
            "2024-04-25",
        ),
    ],
}

TRAINS = [
    {
        "train": "IC 512",
        "from": "Zurich",
        "to": "Geneva",
        "departs": "07:02",
        "arrives": "09:45",
        "minutes": 163,
        "fare": 88.0,
        "seats": 42,
        "wifi": True,
        "stops": ["Bern", "Lausanne"],
    },
    {
        "train": "IR 2318",
        "from": "Zurich",
        "to": "Lucerne",
        "departs": "07:35",
        "arrives": "08:20",
        "minutes": 45,
        "fare": 26.0,
        "seats": 0,
        "wifi": False,
        "stops": ["Zug"],
    },
    {
        "train": "EC 151",
        "from": "Zurich",
        "to": "Milan",
        "departs": "08:33",
        "arrives": "11:50",
        "minutes": 197,
        "fare": 74.5,
        "seats": 15,
        "wifi": True,
        "stops": ["Arth-Goldau", "Lugano"],
    },
    {
        "train": "ICE 278",
        "from": "Basel",
        "to": "Frankfurt",
        "departs": "09:13",
        "arrives": "12:05",
        "minutes": 172,
        "fare": 59.9,
        "seats": 120,
        "wifi": True,
        "stops": ["Freiburg", "Karlsruhe", "Mannheim"],
    },
    {
        "train": "IC 817",
        "from": "Bern",
        "to": "Brig",
        "departs": "10:04",
        "arrives": "11:09",
        "minutes": 65,
        "fare": 39.0,
        "seats": 8,
        "wifi": True,
        "stops": ["Spiez", "Visp"],
    },
    {
        "train": "RE 4411",
        "from": "Lucerne",
        "to": "Bern",
        "departs": "11:35",
        "arrives": "12:57",
        "minutes": 82,
        "fare": 34.4,
        "seats": 63,
        "wifi": False,
        "stops": ["Langnau"],
    },
    {
        "train": "TGV 9218",
        "from": "Geneva",
        "to": "Paris",
        "departs": "12:29",
        "arrives": "15:37",
        "minutes": 188,
        "fare": 112.0,
        "seats": 4,
        "wifi": True,
        "stops": [],
    },
    {
        "train": "IC 925",
        "from": "Basel",
        "to": "Zurich",
        "departs": "13:07",
        "arrives": "14:00",
        "minutes": 53,
        "fare": 33.0,
        "seats": 77,
        "wifi": True,
        "stops": [],
    },
]


def _recipe(
    name: str,
    cuisine: str,
    prep: int,
    cook: int,
    servings: int,
    veg: bool,
    spice: int | None,
    ingredients: list[str],
    calories: int,
    protein: int,
) -> dict[str, Any]:
    return {
        "recipe_name": name,
        "cuisine": cuisine,
        "prep_minutes": prep,
        "cook_minutes": cook,
        "servings": servings,
        "vegetarian": veg,
        "spice_level": spice,
        "ingredients": ingredients,
        "nutrition": {"calories": calories, "protein_g": protein},
    }


RECIPES = [
    _recipe(
        "Shakshuka",
        "Middle Eastern",
        10,
        25,
        4,
        True,
        2,
        ["eggs", "tomatoes", "peppers", "cumin", "onion"],
        310,
        17,
    ),
    _recipe(
        "Pad Thai",
        "Thai",
        22,
        15,
        2,
        False,
        2,
        ["rice noodles", "shrimp", "egg", "peanuts", "tamarind"],
        610,
        28,
    ),
    _recipe(
        "Margherita Pizza",
        "Italian",
        90,
        12,
        4,
        True,
        0,
        ["flour", "tomatoes", "mozzarella", "basil"],
        720,
        29,
    ),
    _recipe(
        "Chicken Tikka Masala",
        "Indian",
        30,
        40,
        6,
        False,
        3,
        ["chicken", "yogurt", "tomatoes", "garam masala", "cream"],
        540,
        38,
    ),
    _recipe(
        "Miso Soup", "Japanese", 5, 10, 2, True, 0, ["miso", "tofu", "wakame", "scallions"], 90, 7
    ),
    _recipe(
        "Beef Bourguignon",
        "French",
        35,
        180,
        6,
        False,
        None,
        ["beef", "red wine", "carrots", "onion", "mushrooms"],
        680,
        46,
    ),
    _recipe(
        "Falafel Wrap",
        "Middle Eastern",
        25,
        20,
        4,
        True,
        1,
        ["chickpeas", "parsley", "tahini", "flatbread"],
        480,
        18,
    ),
    _recipe(
        "Caesar Salad",
        "American",
        18,
        0,
        2,
        False,
        0,
        ["romaine", "anchovies", "parmesan", "croutons", "egg"],
        390,
        14,
    ),
    _recipe(
        "Mapo Tofu",
        "Chinese",
        12,
        18,
        3,
        False,
        3,
        ["tofu", "pork", "chili bean paste", "sichuan pepper"],
        430,
        24,
    ),
]


def _ticket(
    tid: str,
    subject: str,
    priority: str,
    status: str,
    assignee: str | None,
    created: str,
    resolved: str | bool | None,
    tier: str,
    tags: list[str],
    reopened: int,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ticketId": tid,
        "subject": subject,
        "priority": priority,
        "status": status,
        "assignee": assignee,
        "createdAt": created,
    }
    if resolved is not False:  # False: the key is missing altogether
        out["resolvedAt"] = resolved
    out.update({"customerTier": tier, "tags": tags, "reopenCount": reopened})
    return out


TICKETS = [
    _ticket(
        "T-3001",
        "Cannot reset password",
        "high",
        "closed",
        "priya",
        "2024-05-02T09:14:00Z",
        "2024-05-02T11:40:00Z",
        "gold",
        ["auth", "login"],
        0,
    ),
    _ticket(
        "T-3002",
        "Invoice shows wrong VAT",
        "medium",
        "open",
        None,
        "2024-05-03T13:05:00Z",
        None,
        "silver",
        ["billing"],
        1,
    ),
    _ticket(
        "T-3003",
        "App crashes on upload",
        "urgent",
        "pending",
        "marco",
        "2024-05-03T16:22:00Z",
        None,
        "gold",
        ["mobile", "crash"],
        2,
    ),
    _ticket(
        "T-3004",
        "Feature request: dark mode",
        "low",
        "open",
        None,
        "2024-05-04T08:00:00Z",
        False,
        "free",
        ["feature"],
        0,
    ),
    _ticket(
        "T-3005",
        "Export to CSV times out",
        "high",
        "closed",
        "marco",
        "2024-05-05T10:45:00Z",
        "2024-05-07T15:10:00Z",
        "silver",
        ["export", "performance"],
        0,
    ),
    _ticket(
        "T-3006",
        "Two-factor codes not arriving",
        "urgent",
        "closed",
        "priya",
        "2024-05-06T07:30:00Z",
        "2024-05-06T09:02:00Z",
        "gold",
        ["auth", "sms"],
        3,
    ),
    _ticket(
        "T-3007",
        "Typo on pricing page",
        "low",
        "closed",
        "jonas",
        "2024-05-06T12:12:00Z",
        "2024-05-08T09:00:00Z",
        "free",
        ["website"],
        0,
    ),
    _ticket(
        "T-3008",
        "API rate limit too strict",
        "medium",
        "pending",
        "jonas",
        "2024-05-07T14:40:00Z",
        None,
        "gold",
        ["api"],
        1,
    ),
    _ticket(
        "T-3009",
        "Refund not processed",
        "high",
        "open",
        "priya",
        "2024-05-08T09:55:00Z",
        None,
        "silver",
        ["billing", "refund"],
        0,
    ),
    _ticket(
        "T-3010",
        "Slow dashboard load",
        "medium",
        "open",
        None,
        "2024-05-09T17:20:00Z",
        None,
        "free",
        ["performance"],
        0,
    ),
]


def _flat(
    lid: str,
    hood: str,
    rent: int,
    beds: int,
    sqm: int,
    pets: bool | None,
    furnished: bool,
    available: str,
    features: list[str],
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "listingId": lid,
        "neighborhood": hood,
        "rent": rent,
        "bedrooms": beds,
        "sqm": sqm,
    }
    if pets is not None:  # None: the key is missing
        out["petsAllowed"] = pets
    out.update({"furnished": furnished, "availableFrom": available, "features": features})
    return out


APARTMENTS = [
    _flat("A-11", "Kreuzberg", 1450, 2, 68, True, False, "2024-07-01", ["balcony", "dishwasher"]),
    _flat(
        "A-12",
        "Mitte",
        1980,
        3,
        92,
        False,
        True,
        "2024-06-15",
        ["elevator", "balcony", "dishwasher"],
    ),
    _flat("A-13", "Neukölln", 890, 1, 38, True, False, "2024-08-01", []),
    _flat("A-14", "Prenzlauer Berg", 1620, 2, 74, False, False, "2024-07-15", ["elevator"]),
    _flat("A-15", "Friedrichshain", 1190, 1, 51, True, True, "2024-06-01", ["balcony"]),
    _flat(
        "A-16", "Charlottenburg", 2350, 4, 118, None, False, "2024-09-01", ["garden", "dishwasher"]
    ),
    _flat("A-17", "Wedding", 760, 1, 33, False, True, "2024-10-01", []),
    _flat("A-18", "Schöneberg", 1340, 2, 61, True, False, "2024-08-15", ["balcony", "elevator"]),
]

STORES = [
    {
        "门店": "静安店",
        "城市": "上海",
        "月销售额": 385000,
        "员工数": 14,
        "开业年份": 2016,
        "是否营业": True,
        "店长": "王磊",
    },
    {
        "门店": "徐汇店",
        "城市": "上海",
        "月销售额": 298000,
        "员工数": 11,
        "开业年份": 2019,
        "是否营业": True,
        "店长": "陈静",
    },
    {
        "门店": "朝阳店",
        "城市": "北京",
        "月销售额": 452000,
        "员工数": 18,
        "开业年份": 2014,
        "是否营业": True,
        "店长": "刘洋",
    },
    {
        "门店": "海淀店",
        "城市": "北京",
        "月销售额": 176000,
        "员工数": 9,
        "开业年份": 2021,
        "是否营业": False,
        "店长": None,
    },
    {
        "门店": "天河店",
        "城市": "广州",
        "月销售额": 331000,
        "员工数": 13,
        "开业年份": 2017,
        "是否营业": True,
        "店长": "黄敏",
    },
    {
        "门店": "南山店",
        "城市": "深圳",
        "月销售额": 408000,
        "员工数": 16,
        "开业年份": 2018,
        "是否营业": True,
        "店长": None,
    },
    {
        "门店": "武侯店",
        "城市": "成都",
        "月销售额": 142000,
        "员工数": 7,
        "开业年份": 2022,
        "是否营业": True,
        "店长": "李娜",
    },
    {
        "门店": "西湖店",
        "城市": "杭州",
        "月销售额": 267000,
        "员工数": 10,
        "开业年份": 2020,
        "是否营业": True,
        "店长": "周杰",
    },
]

RECORDS: dict[str, Any] = {
    "shipments": SHIPMENTS,
    "hotel_rooms": HOTEL_ROOMS,
    "students": STUDENTS,
    "repos": REPOS,
    "invoices": INVOICES,
    "trains": TRAINS,
    "recipes": RECIPES,
    "tickets": TICKETS,
    "apartments": APARTMENTS,
    "stores": STORES,
}

# --------------------------------------------------------------------------- helpers

Rs = list[dict[str, Any]]


def rows(data: Any) -> Rs:
    """The records: the list itself, or the one list an object holds."""
    if isinstance(data, list):
        return data
    lists = [v for v in data.values() if isinstance(v, list)]
    assert len(lists) == 1, "an object must hold exactly one array of records"
    return lists[0]


def g(r: dict[str, Any], path: str) -> Any:
    """Value at a dotted path; None when missing."""
    cur: Any = r
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def where(rs: Rs, pred: Callable[[dict[str, Any]], bool]) -> Rs:
    return [r for r in rs if pred(r)]


def col(rs: Rs, path: str) -> list[Any]:
    return [g(r, path) for r in rs]


def pick(rs: Rs, *fields: str) -> Rs:
    return [{f: r[f] for f in fields} for r in rs]


def by(rs: Rs, path: str, desc: bool = False) -> Rs:
    """Sorted by a key present and unique among the records sorted."""
    keys = col(rs, path)
    assert None not in keys, f"null sort key {path}"
    assert len(set(keys)) == len(keys), f"tie in sort key {path}"
    return sorted(rs, key=lambda r: g(r, path), reverse=desc)


def top(rs: Rs, path: str, n: int, desc: bool = True) -> Rs:
    """First n by a key; the cut must not fall inside a tie."""
    ordered = sorted(
        (r for r in rs if g(r, path) is not None), key=lambda r: g(r, path), reverse=desc
    )
    keys = col(ordered, path)[: n + 1]
    assert len(set(keys)) == len(keys), f"tie near top {n} of {path}"
    return ordered[:n]


def best(rs: Rs, path: str, highest: bool = True) -> dict[str, Any]:
    return top(rs, path, 1, desc=highest)[0]


def mean(values: list[Any]) -> float:
    vs = [v for v in values if v is not None]
    return sum(vs) / len(vs)


def counts(values: list[Any]) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def mode(values: list[Any]) -> Any:
    """The single most frequent value; asserts it is not tied."""
    tally = sorted(counts(values).items(), key=lambda kv: -kv[1])
    assert len(tally) == 1 or tally[0][1] > tally[1][1], "tie for most frequent"
    return tally[0][0]


def least(values: list[Any]) -> Any:
    tally = sorted(counts(values).items(), key=lambda kv: kv[1])
    assert len(tally) == 1 or tally[0][1] < tally[1][1], "tie for least frequent"
    return tally[0][0]


def money(x: float) -> float:
    return round(x, 2)


# --------------------------------------------------------------------------- probes

ACTIVE: list[tuple[str, str, Callable[[Rs], Any]]] = []
FALLBACK: list[tuple[str, str]] = []


def A(name: str, words: str, fn: Callable[[Rs], Any]) -> None:
    ACTIVE.append((name, words, fn))


def F(name: str, words: str) -> None:
    FALLBACK.append((name, words))


# ---- shipments (snake_case, wrapped in {"shipments": [...]}, nested destination)
SH = "shipments"
A(
    SH,
    "how many shipments are still in transit? just the number",
    lambda rs: len(where(rs, lambda r: r["status"] == "in_transit")),
)
A(
    SH,
    "Which shipment weighs the most? Give me its shipment_id.",
    lambda rs: best(rs, "weight_kg")["shipment_id"],
)
A(
    SH,
    "total cost of all the DHL shipments, number only",
    lambda rs: money(sum(col(where(rs, lambda r: r["carrier"] == "DHL"), "cost_usd"))),
)
A(
    SH,
    "List the IDs of the shipments whose destination country is DE.",
    lambda rs: col(where(rs, lambda r: r["destination"]["country"] == "DE"), "shipment_id"),
)
A(
    SH,
    "which shipmnets have no delivery date yet? ids only pls",
    lambda rs: col(where(rs, lambda r: r["delivered_on"] is None), "shipment_id"),
)
A(
    SH,
    "Is any of the lost shipments insured? yes or no",
    lambda rs: any(r["insured"] for r in rs if r["status"] == "lost"),
)
A(
    SH,
    "shipments heavier than 20 kg sorted by weight, heaviest first — shipment_id and "
    "weight_kg as a JSON array",
    lambda rs: pick(
        by(where(rs, lambda r: r["weight_kg"] > 20), "weight_kg", desc=True),
        "shipment_id",
        "weight_kg",
    ),
)
A(
    SH,
    "What's the average weight of shipments sent from Rotterdam? Round to 2 decimals.",
    lambda rs: round(mean(col(where(rs, lambda r: r["origin"] == "Rotterdam"), "weight_kg")), 2),
)
A(SH, "count the shipments per status, as a JSON object", lambda rs: counts(col(rs, "status")))
A(
    SH,
    "hey can u tell me which destination cities the UPS shipments go to",
    lambda rs: col(where(rs, lambda r: r["carrier"] == "UPS"), "destination.city"),
)
A(
    SH,
    "cheapest shipment? only the id",
    lambda rs: best(rs, "cost_usd", highest=False)["shipment_id"],
)
A(
    SH,
    "Give me the ids of every shipment except the DHL ones.",
    lambda rs: col(where(rs, lambda r: r["carrier"] != "DHL"), "shipment_id"),
)
A(
    SH,
    "Which shipment was shipped first? Output its ID only.",
    lambda rs: best(rs, "shipped_on", highest=False)["shipment_id"],
)
A(
    SH,
    "top 3 most expensive shipments by cost_usd, ids only",
    lambda rs: col(top(rs, "cost_usd", 3), "shipment_id"),
)
A(
    SH,
    "is there a shipment headed to Prague? true/false",
    lambda rs: any(r["destination"]["city"] == "Prague" for r in rs),
)
A(
    SH,
    "Which carrier handles the most shipments? Just the carrier name.",
    lambda rs: mode(col(rs, "carrier")),
)
A(SH, "这些运单里有几单投了保？只要数字", lambda rs: len(where(rs, lambda r: r["insured"])))
A(
    SH,
    "重量在5到10公斤之间（含5和10）的运单有哪些？只要运单号，用JSON数组",
    lambda rs: col(where(rs, lambda r: 5 <= r["weight_kg"] <= 10), "shipment_id"),
)

F(SH, "Which of these shipments should I chase with the carrier first, and why?")
F(SH, "Summarise how each carrier is performing based on this data.")
F(SH, "which shipments are headed to EU capital cities?")
F(SH, "list a few of the heavier shipments")
F(SH, "Which origin ships the most parcels? just the city")  # Rotterdam and Hamburg tie (3 each)
F(SH, "帮我分析一下为什么这么多运单会延误")

# ---- hotel rooms (camelCase, arrays, nulls for free rooms)
HR = "hotel_rooms"
A(
    HR,
    "How many rooms are unoccupied right now? bare integer",
    lambda rs: len(where(rs, lambda r: not r["occupied"])),
)
A(
    HR,
    "which room has the highest nightly rate? room number only",
    lambda rs: best(rs, "nightlyRate")["roomNumber"],
)
A(
    HR,
    "List the room numbers and nightly rates of the suites.",
    lambda rs: pick(where(rs, lambda r: r["roomType"] == "suite"), "roomNumber", "nightlyRate"),
)
A(
    HR,
    "rooms with both a sea view and a balcony, sorted by rate low to high — room numbers as "
    "a JSON array",
    lambda rs: col(
        by(where(rs, lambda r: r["seaView"] and r["hasBalcony"]), "nightlyRate"), "roomNumber"
    ),
)
A(
    HR,
    "whats the avg nightly rate for the double rooms",
    lambda rs: mean(col(where(rs, lambda r: r["roomType"] == "double"), "nightlyRate")),
)
A(
    HR,
    "Is any room on floor 2 currently free? true or false",
    lambda rs: any(not r["occupied"] for r in rs if r["floor"] == 2),
)
A(
    HR,
    "Which rooms can sleep 4 or more guests? Room numbers only.",
    lambda rs: col(where(rs, lambda r: r["maxGuests"] >= 4), "roomNumber"),
)
A(
    HR,
    "which rooms have a bathtub",
    lambda rs: col(where(rs, lambda r: "bathtub" in r["amenities"]), "roomNumber"),
)
A(
    HR,
    "Who's staying in room 208?",
    lambda rs: where(rs, lambda r: r["roomNumber"] == 208)[0]["guestName"],
)
A(
    HR,
    "the cheapest room that has a minibar - just the room number",
    lambda rs: best(where(rs, lambda r: "minibar" in r["amenities"]), "nightlyRate", highest=False)[
        "roomNumber"
    ],
)
A(HR, "Count the rooms by roomType.", lambda rs: counts(col(rs, "roomType")))
A(
    HR,
    "pls list the guest names for occupied rooms on floor 3 or higher",
    lambda rs: col(where(rs, lambda r: r["occupied"] and r["floor"] >= 3), "guestName"),
)
A(
    HR,
    "What is the sum of the nightly rates of all occupied rooms?",
    lambda rs: sum(col(where(rs, lambda r: r["occupied"]), "nightlyRate")),
)
A(HR, "一共有多少间房有海景？只要数字", lambda rs: len(where(rs, lambda r: r["seaView"])))
A(
    HR,
    "每晚价格低于100的房间有哪些？只要房间号",
    lambda rs: col(where(rs, lambda r: r["nightlyRate"] < 100), "roomNumber"),
)
A(
    HR,
    "请列出最贵的三间房，按价格从高到低，只要房间号",
    lambda rs: col(top(rs, "nightlyRate", 3), "roomNumber"),
)

F(HR, "Which room would you recommend for a honeymoon couple?")
F(HR, "give me some creative names for these room types")
F(HR, "Which floor has the most rooms?")  # floors 3 and 4 tie (3 rooms each)
F(HR, "list the rooms that are good value for money")
F(HR, "这些房间的定价合理吗？说说你的看法")
F(HR, "随便给我挑几间便宜点的房间")

# ---- students (lowercase keys, mentor null or missing)
ST = "students"
A(ST, "who has the highest math score? just the name", lambda rs: best(rs, "math")["name"])
A(
    ST,
    "How many students are in class 10B?",
    lambda rs: len(where(rs, lambda r: r["class"] == "10B")),
)
A(
    ST,
    "Average physics score for class 10A, rounded to one decimal place.",
    lambda rs: round(mean(col(where(rs, lambda r: r["class"] == "10A"), "physics")), 1),
)
A(
    ST,
    "list students who scored above 85 in english, sorted by english score descending, names only",
    lambda rs: col(by(where(rs, lambda r: r["english"] > 85), "english", desc=True), "name"),
)
A(
    ST,
    "which students don't have a mentor?",
    lambda rs: col(where(rs, lambda r: g(r, "mentor") is None), "name"),
)
A(
    ST,
    "names of the scholarship students",
    lambda rs: col(where(rs, lambda r: r["scholarship"]), "name"),
)
A(
    ST,
    "Show name and attendance for every student whose attendance is below 90.",
    lambda rs: pick(where(rs, lambda r: r["attendance"] < 90), "name", "attendance"),
)
A(ST, "did anyone score under 60 in math? yes/no", lambda rs: any(r["math"] < 60 for r in rs))
A(ST, "What's the lowest english score? Number only.", lambda rs: min(col(rs, "english")))
A(
    ST,
    "which students does Mr. Hale mentor",
    lambda rs: col(where(rs, lambda r: g(r, "mentor") == "Mr. Hale"), "name"),
)
A(ST, "how many students per class? JSON object pls", lambda rs: counts(col(rs, "class")))
A(
    ST,
    "students in 10C with a physics score of at least 70",
    lambda rs: col(where(rs, lambda r: r["class"] == "10C" and r["physics"] >= 70), "name"),
)
A(ST, "What is the total of all the math scores?", lambda rs: sum(col(rs, "math")))
A(ST, "数学成绩最低的学生是谁？只要名字", lambda rs: best(rs, "math", highest=False)["name"])
A(
    ST,
    "10A班有几个人拿了奖学金？",
    lambda rs: len(where(rs, lambda r: r["class"] == "10A" and r["scholarship"])),
)
A(
    ST,
    "出勤率在90到95之间（包括90和95）的学生有哪些？只要名字",
    lambda rs: col(where(rs, lambda r: 90 <= r["attendance"] <= 95), "name"),
)

F(ST, "Which of these students is most likely to get into a good university?")
F(ST, "write a short encouraging note to each student who is struggling")
F(ST, "who are the top students?")
F(ST, "rank the students by score")  # which score: math, physics or english?
F(
    ST,
    'Ms. Ortiz wrote "list every student under 80 in physics, sorted by attendance" in the '
    "staff chat - is that a fair way to pick who needs tutoring?",
)
F(ST, "请总结一下这个班的整体学习情况")

# ---- repos (snake_case, nested owner, arrays, null licenses)
RP = "repos"
A(RP, "Which repo has the most stars? Name only.", lambda rs: best(rs, "stars")["name"])
A(RP, "how many repos are archived", lambda rs: len(where(rs, lambda r: r["archived"])))
A(
    RP,
    "list the Rust repos, names only",
    lambda rs: col(where(rs, lambda r: r["language"] == "Rust"), "name"),
)
A(
    RP,
    "Repos owned by acme-labs, sorted by stars descending. Just the names.",
    lambda rs: col(
        by(where(rs, lambda r: r["owner"]["login"] == "acme-labs"), "stars", desc=True), "name"
    ),
)
A(
    RP,
    "which repos have no license?",
    lambda rs: col(where(rs, lambda r: r["license"] is None), "name"),
)
A(
    RP,
    "total stars across all the Python repos? just the number",
    lambda rs: sum(col(where(rs, lambda r: r["language"] == "Python"), "stars")),
)
A(
    RP,
    "show name and open_issues for repos with more than 30 open issues",
    lambda rs: pick(where(rs, lambda r: r["open_issues"] > 30), "name", "open_issues"),
)
A(
    RP,
    "Which repos had their last push before 2024? Names please.",
    lambda rs: col(where(rs, lambda r: r["last_push"] < "2024-01-01"), "name"),
)
A(
    RP,
    "which repos are tagged cli",
    lambda rs: col(where(rs, lambda r: "cli" in r["topics"]), "name"),
)
A(RP, "avrage number of forks per repo, 1 decimal", lambda rs: round(mean(col(rs, "forks")), 1))
A(
    RP,
    "What distinct languages are used? Alphabetical, as a JSON array.",
    lambda rs: sorted(set(col(rs, "language"))),
)
A(RP, "most recently pushed repo?", lambda rs: best(rs, "last_push")["name"])
A(
    RP,
    "names of the non-archived repos whose owner type is User",
    lambda rs: col(where(rs, lambda r: r["owner"]["type"] == "User" and not r["archived"]), "name"),
)
A(RP, "Which owner has the most repos here? login only", lambda rs: mode(col(rs, "owner.login")))
A(
    RP,
    "star数超过1000的仓库有几个？只要数字",
    lambda rs: len(where(rs, lambda r: r["stars"] > 1000)),
)
A(RP, "按fork数从少到多把仓库名字列出来", lambda rs: col(by(rs, "forks"), "name"))
A(
    RP,
    "用MIT许可证的仓库有哪些？",
    lambda rs: col(where(rs, lambda r: r["license"] == "MIT"), "name"),
)

F(RP, "Which of these repos should I contribute to as a beginner?")
F(RP, "what does mapforge probably do, judging by its topics?")
F(RP, "which repos are popular?")
F(RP, "Which repo is the biggest?")  # stars, forks or issues: no size field
F(RP, "how many stars does the most starred repo have, and why do you think it got so many?")
F(RP, "这些项目里哪个最有前途？为什么？")

# ---- invoices (camelCase, wrapped with an export date, nested customer.address)
IV = "invoices"
A(IV, "How many invoices are unpaid?", lambda rs: len(where(rs, lambda r: not r["paid"])))
A(
    IV,
    "which invoice has the largest amount? invoice number only",
    lambda rs: best(rs, "amount")["invoiceNo"],
)
A(
    IV,
    "total amount still unpaid on the EUR invoices",
    lambda rs: money(
        sum(col(where(rs, lambda r: not r["paid"] and r["currency"] == "EUR"), "amount"))
    ),
)
A(
    IV,
    "list the invoice numbers for Bluefin Foods",
    lambda rs: col(where(rs, lambda r: r["customer"]["name"] == "Bluefin Foods"), "invoiceNo"),
)
A(
    IV,
    "Which invoices went to customers in Bergen?",
    lambda rs: col(where(rs, lambda r: r["customer"]["address"]["city"] == "Bergen"), "invoiceNo"),
)
A(
    IV,
    "invoices issued in February 2024 - numbers only",
    lambda rs: col(where(rs, lambda r: r["issueDate"].startswith("2024-02")), "invoiceNo"),
)
A(
    IV,
    "Is there a GBP invoice that's still unpaid? true/false",
    lambda rs: any(r["currency"] == "GBP" and not r["paid"] for r in rs),
)
A(
    IV,
    "Which customers have at least one paid invoice? Distinct names, alphabetical.",
    lambda rs: sorted(set(col(where(rs, lambda r: r["paid"]), "customer.name"))),
)
A(IV, "smallest invoice amount?", lambda rs: min(col(rs, "amount")))
A(
    IV,
    "invoices over 2000, largest first: invoiceNo and amount",
    lambda rs: pick(
        by(where(rs, lambda r: r["amount"] > 2000), "amount", desc=True), "invoiceNo", "amount"
    ),
)
A(
    IV,
    "When was INV-2024-005 paid?",
    lambda rs: where(rs, lambda r: r["invoiceNo"] == "INV-2024-005")[0]["paidOn"],
)
A(IV, "count invoices per currency", lambda rs: counts(col(rs, "currency")))
A(
    IV,
    "what's the average amount of Kito Design's invoices",
    lambda rs: mean(col(where(rs, lambda r: r["customer"]["name"] == "Kito Design"), "amount")),
)
A(IV, "已付款的发票一共有几张？", lambda rs: len(where(rs, lambda r: r["paid"])))
A(
    IV,
    "金额在500到1500之间的发票编号，用JSON数组",
    lambda rs: col(where(rs, lambda r: 500 <= r["amount"] <= 1500), "invoiceNo"),
)
A(IV, "到期日最晚的是哪张发票？只要编号", lambda rs: best(rs, "dueDate")["invoiceNo"])

F(IV, "Which customers are bad payers? Explain your reasoning.")
F(IV, "Draft a polite payment reminder email for the unpaid invoices.")
F(IV, "what's the total amount of all invoices?")  # EUR and GBP mixed
F(IV, "convert all these amounts to USD")
F(IV, "根据这些发票，预测一下下个季度的收入")

# ---- trains (lowercase keys, times of day, arrays of stops)
TR = "trains"
A(
    TR,
    "Which train has the shortest journey? just the train",
    lambda rs: best(rs, "minutes", highest=False)["train"],
)
A(TR, "how many trains have wifi", lambda rs: len(where(rs, lambda r: r["wifi"])))
A(
    TR,
    "trains leaving from Zurich, sorted by departure time - train numbers only",
    lambda rs: col(by(where(rs, lambda r: r["from"] == "Zurich"), "departs"), "train"),
)
A(
    TR,
    "Which trains have no free seats left?",
    lambda rs: col(where(rs, lambda r: r["seats"] == 0), "train"),
)
A(
    TR,
    "What's the fare of the train to Bern?",
    lambda rs: where(rs, lambda r: r["to"] == "Bern")[0]["fare"],
)
A(
    TR,
    "trains departing after 10:00 — give train and departs",
    lambda rs: pick(where(rs, lambda r: r["departs"] > "10:00"), "train", "departs"),
)
A(
    TR,
    "which train stops in Lausanne?",
    lambda rs: where(rs, lambda r: "Lausanne" in r["stops"])[0]["train"],
)
A(TR, "average fare across all trains, 2 decimals", lambda rs: round(mean(col(rs, "fare")), 2))
A(
    TR,
    "Which trains run without any intermediate stops?",
    lambda rs: col(where(rs, lambda r: r["stops"] == []), "train"),
)
A(TR, "where does the longest journey go? just the city", lambda rs: best(rs, "minutes")["to"])
A(
    TR,
    "for the trains from Basel give me train, to and fare",
    lambda rs: pick(where(rs, lambda r: r["from"] == "Basel"), "train", "to", "fare"),
)
A(
    TR,
    "Is there a train to Paris with at least 5 free seats? yes or no",
    lambda rs: any(r["to"] == "Paris" and r["seats"] >= 5 for r in rs),
)
A(
    TR,
    "total number of free seats on the trains with wifi",
    lambda rs: sum(col(where(rs, lambda r: r["wifi"]), "seats")),
)
A(TR, "List the distinct departure cities alphabetically.", lambda rs: sorted(set(col(rs, "from"))))
A(TR, "票价低于40的车次有哪些？", lambda rs: col(where(rs, lambda r: r["fare"] < 40), "train"))
A(TR, "哪趟车剩余座位最多？只要车次", lambda rs: best(rs, "seats")["train"])
A(
    TR,
    "从Zurich出发的车有几趟？只要数字",
    lambda rs: len(where(rs, lambda r: r["from"] == "Zurich")),
)

F(TR, "Which connection is best for a day trip to Italy?")
F(TR, "I need to get from Zurich to Paris, what's my best option?")
F(TR, "why doesnt the IR 2318 have wifi?")
F(TR, "pick a couple of trains that would get me to a morning meeting")
F(TR, "这些火车里哪趟最适合带小孩的家庭出行？")

# ---- recipes (snake_case, arrays of ingredients, nested nutrition, a null spice level)
RC = "recipes"
A(
    RC,
    "Which recipe has the most calories? name only",
    lambda rs: best(rs, "nutrition.calories")["recipe_name"],
)
A(
    RC,
    "list the vegetarian recipes",
    lambda rs: col(where(rs, lambda r: r["vegetarian"]), "recipe_name"),
)
A(RC, "How many recipes use tofu?", lambda rs: len(where(rs, lambda r: "tofu" in r["ingredients"])))
A(
    RC,
    "recipes with under 20 minutes of prep, sorted by prep time (shortest first)",
    lambda rs: col(by(where(rs, lambda r: r["prep_minutes"] < 20), "prep_minutes"), "recipe_name"),
)
A(
    RC,
    "what's the average protein per recipe? round to 1 decimal",
    lambda rs: round(mean(col(rs, "nutrition.protein_g")), 1),
)
A(
    RC,
    "which recipie has the highest protein_g",
    lambda rs: best(rs, "nutrition.protein_g")["recipe_name"],
)
A(
    RC,
    "Which recipes have no spice level given?",
    lambda rs: col(where(rs, lambda r: r["spice_level"] is None), "recipe_name"),
)
A(
    RC,
    "list the recipes with spice level 3",
    lambda rs: col(where(rs, lambda r: r["spice_level"] == 3), "recipe_name"),
)
A(RC, "How many servings do all the recipes make in total?", lambda rs: sum(col(rs, "servings")))
A(
    RC,
    "which recipe is Italian? just the name",
    lambda rs: where(rs, lambda r: r["cuisine"] == "Italian")[0]["recipe_name"],
)
A(
    RC,
    "vegetarian recipes under 500 calories — names only",
    lambda rs: col(
        where(rs, lambda r: r["vegetarian"] and r["nutrition"]["calories"] < 500), "recipe_name"
    ),
)
A(RC, "count recipes per cuisine", lambda rs: counts(col(rs, "cuisine")))
A(
    RC,
    "Does any recipe serve more than 6 people? yes or no",
    lambda rs: any(r["servings"] > 6 for r in rs),
)
A(
    RC,
    "哪道菜的烹饪时间(cook_minutes)最长？只要菜名",
    lambda rs: best(rs, "cook_minutes")["recipe_name"],
)
A(
    RC,
    "有多少个菜谱用到了tomatoes？只要数字",
    lambda rs: len(where(rs, lambda r: "tomatoes" in r["ingredients"])),
)
A(
    RC,
    "热量最低的三道菜，从低到高排，只要名字",
    lambda rs: col(top(rs, "nutrition.calories", 3, desc=False), "recipe_name"),
)

F(RC, "Which of these would be good for a dinner party?")
F(RC, "suggest a wine pairing for each recipe")
F(RC, "give me some creative twists on the Shakshuka")
F(RC, "which recipes are healthy?")
F(RC, "Which dishes are gluten-free?")
F(RC, "which recipe is the least spicy?")  # three recipes tie at spice level 0
F(RC, "帮我用这些菜谱安排一周的晚餐")

# ---- support tickets (camelCase, null assignees, resolvedAt null or missing)
TK = "tickets"
A(TK, "how many tickets are open", lambda rs: len(where(rs, lambda r: r["status"] == "open")))
A(
    TK,
    "Which tickets are unassigned? ticket ids only",
    lambda rs: col(where(rs, lambda r: r["assignee"] is None), "ticketId"),
)
A(
    TK,
    "list the urgent tickets (ids)",
    lambda rs: col(where(rs, lambda r: r["priority"] == "urgent"), "ticketId"),
)
A(
    TK,
    "How many tickets does priya have?",
    lambda rs: len(where(rs, lambda r: r["assignee"] == "priya")),
)
A(
    TK,
    "which ticket has been reopened the most times?",
    lambda rs: best(rs, "reopenCount")["ticketId"],
)
A(
    TK,
    "Subjects of the high priority tickets that aren't closed yet.",
    lambda rs: col(
        where(rs, lambda r: r["priority"] == "high" and r["status"] != "closed"), "subject"
    ),
)
A(
    TK,
    "tickets tagged billing?",
    lambda rs: col(where(rs, lambda r: "billing" in r["tags"]), "ticketId"),
)
A(
    TK,
    "which tickets were created on 2024-05-06",
    lambda rs: col(where(rs, lambda r: r["createdAt"].startswith("2024-05-06")), "ticketId"),
)
A(
    TK,
    "Gold tier tickets sorted by creation time, newest first — ids as a JSON array",
    lambda rs: col(
        by(where(rs, lambda r: r["customerTier"] == "gold"), "createdAt", desc=True), "ticketId"
    ),
)
A(TK, "what's the most recent ticket? id only", lambda rs: best(rs, "createdAt")["ticketId"])
A(TK, "count tickets by priority", lambda rs: counts(col(rs, "priority")))
A(TK, "total reopenCount across all tickets", lambda rs: sum(col(rs, "reopenCount")))
A(
    TK,
    "is there any free-tier ticket that's still open? true or false",
    lambda rs: any(r["customerTier"] == "free" and r["status"] == "open" for r in rs),
)
A(
    TK,
    "状态是pending的工单有哪些？只要ID",
    lambda rs: col(where(rs, lambda r: r["status"] == "pending"), "ticketId"),
)
A(
    TK,
    "jonas处理了几张工单？只要数字",
    lambda rs: len(where(rs, lambda r: r["assignee"] == "jonas")),
)
A(
    TK,
    "从来没被重新打开过的工单有多少张？",
    lambda rs: len(where(rs, lambda r: r["reopenCount"] == 0)),
)

F(TK, "Which of these tickets look like they share the same root cause?")
F(TK, "write a reply to the customer in T-3003")
F(TK, "Who is the best support agent here?")
F(TK, "how long did tickets take to resolve on average, and is that good for a support team?")
F(TK, "Which ticket has the fewest reopens?")  # six tickets tie at 0
F(
    TK,
    'my lead said "close every ticket that\'s been open longer than a week" - does that make '
    "sense for these, or would it annoy customers?",
)
F(TK, "把这些工单按紧急程度排个序，并解释一下理由")

# ---- apartments (camelCase, petsAllowed missing on one, arrays of features)
AP = "apartments"
A(AP, "cheapest apartment? listing id pls", lambda rs: best(rs, "rent", highest=False)["listingId"])
A(
    AP,
    "How many apartments allow pets?",
    lambda rs: len(where(rs, lambda r: g(r, "petsAllowed") is True)),
)
A(
    AP,
    "furnished apartmnets under 1500 rent, listing ids",
    lambda rs: col(where(rs, lambda r: r["furnished"] and r["rent"] < 1500), "listingId"),
)
A(
    AP,
    "Apartments with a balcony sorted by rent ascending; show listingId and rent.",
    lambda rs: pick(
        by(where(rs, lambda r: "balcony" in r["features"]), "rent"), "listingId", "rent"
    ),
)
A(
    AP,
    "In which neighborhood is the biggest apartment (by sqm)? Just the name.",
    lambda rs: best(rs, "sqm")["neighborhood"],
)
A(
    AP,
    "average rent of the 2-bedroom apartments",
    lambda rs: mean(col(where(rs, lambda r: r["bedrooms"] == 2), "rent")),
)
A(
    AP,
    "which listings are available before August 2024? ids",
    lambda rs: col(where(rs, lambda r: r["availableFrom"] < "2024-08-01"), "listingId"),
)
A(
    AP,
    "Which apartments have an elevator?",
    lambda rs: col(where(rs, lambda r: "elevator" in r["features"]), "listingId"),
)
A(
    AP,
    "is there a 4-bedroom place under 2000? yes or no",
    lambda rs: any(r["bedrooms"] == 4 and r["rent"] < 2000 for r in rs),
)
A(
    AP,
    "1-bedroom apartments with rent between 700 and 1000 inclusive — listing ids",
    lambda rs: col(
        where(rs, lambda r: r["bedrooms"] == 1 and 700 <= r["rent"] <= 1000), "listingId"
    ),
)
A(
    AP,
    "what's the rent for the Mitte one?",
    lambda rs: where(rs, lambda r: r["neighborhood"] == "Mitte")[0]["rent"],
)
A(
    AP,
    "top 2 largest apartments by sqm, listing ids only",
    lambda rs: col(top(rs, "sqm", 2), "listingId"),
)
A(AP, "Add up the rents of all the apartments listed.", lambda rs: sum(col(rs, "rent")))
A(AP, "租金最高的房源在哪个区？只要区名", lambda rs: best(rs, "rent")["neighborhood"])
A(AP, "面积大于60平米的房源有几个？只要数字", lambda rs: len(where(rs, lambda r: r["sqm"] > 60)))
A(
    AP,
    "不带家具的房源有哪些？只要listingId，用JSON数组",
    lambda rs: col(where(rs, lambda r: not r["furnished"]), "listingId"),
)

F(AP, "Which neighborhood is the safest to live in?")
F(AP, "which apartments are close to the city centre?")
F(AP, "is the Kreuzberg flat a good deal? what do you think")
F(AP, "Which apartment is cheapest per square metre, and would you take it?")
F(AP, "帮我写一段出租A-12的广告文案")

# ---- shops with Chinese keys
SS = "stores"
A(SS, "月销售额最高的门店是哪家？只要门店名", lambda rs: best(rs, "月销售额")["门店"])
A(SS, "上海有几家门店？只要数字", lambda rs: len(where(rs, lambda r: r["城市"] == "上海")))
A(SS, "目前没有营业的门店有哪些？", lambda rs: col(where(rs, lambda r: not r["是否营业"]), "门店"))
A(
    SS,
    "员工数超过12人的门店，按员工数从多到少排列，只要门店名",
    lambda rs: col(by(where(rs, lambda r: r["员工数"] > 12), "员工数", desc=True), "门店"),
)
A(SS, "所有门店的月销售额加起来是多少？只要数字", lambda rs: sum(col(rs, "月销售额")))
A(SS, "哪些门店还没有店长？", lambda rs: col(where(rs, lambda r: r["店长"] is None), "门店"))
A(
    SS,
    "2018年及以后开业的门店有哪些？用JSON数组",
    lambda rs: col(where(rs, lambda r: r["开业年份"] >= 2018), "门店"),
)
A(SS, "每个城市各有几家门店？用JSON对象表示", lambda rs: counts(col(rs, "城市")))
A(SS, "请问最早开业的是哪家门店？", lambda rs: best(rs, "开业年份", highest=False)["门店"])
A(
    SS,
    "北京门店的平均月销售额是多少",
    lambda rs: mean(col(where(rs, lambda r: r["城市"] == "北京"), "月销售额")),
)
A(SS, "王磊管理的是哪家店？", lambda rs: where(rs, lambda r: r["店长"] == "王磊")[0]["门店"])
A(SS, "这些门店一共分布在几个不同的城市？只要数字", lambda rs: len(set(col(rs, "城市"))))

F(SS, "哪家门店的经营状况最让人担心？请说明原因")
F(SS, "给这些门店的店长写一封年终总结邮件")
F(SS, "哪几家店业绩比较好？")
F(SS, "这些城市里哪个离上海最近？")
F(SS, '老板说"把销售额低于20万的店都关掉"，你觉得这个决定合理吗？')

# --------------------------------------------------------------------------- build

CJK = re.compile(r"[\u4e00-\u9fff]")
FORMS = ("fenced_after", "fenced_before", "bare_after", "bare_before", "inline")


def lang(words: str) -> str:
    return "zh" if CJK.search(words) else "en"


def compose(words: str, records: Any, form: str) -> str:
    """The user's message for one probe with its data placed as ``form`` says."""
    pretty = json.dumps(records, indent=2, ensure_ascii=False)
    if form == "fenced_after":  # what tests/test_query_probes.py sends
        return f"{words}\n\n```json\n{pretty}\n```"
    if form == "fenced_before":
        return f"```json\n{pretty}\n```\n\n{words}"
    if form == "bare_after":
        return f"{words}\n\n{pretty}"
    if form == "bare_before":
        return f"{pretty}\n\n{words}"
    if form == "inline":
        return f"{words} {json.dumps(records, ensure_ascii=False)}"
    raise ValueError(form)


def halves(words: list[str], rng: random.Random) -> list[str]:
    """Per language, round(60%) open and the rest sealed, in a seeded random order."""
    out = [""] * len(words)
    for language in ("en", "zh"):
        idx = [i for i, w in enumerate(words) if lang(w) == language]
        n_open = round(len(idx) * 0.6)
        labels = ["open"] * n_open + ["sealed"] * (len(idx) - n_open)
        rng.shuffle(labels)
        for i, label in zip(idx, labels, strict=True):
            out[i] = label
    return out


def build() -> dict[str, Any]:
    rng = random.Random(4)
    form_rng = random.Random(44)
    seen: set[str] = set()
    active = []
    for (name, words, fn), half in zip(ACTIVE, halves([w for _, w, _ in ACTIVE], rng), strict=True):
        assert words not in seen, words
        seen.add(words)
        answer = fn(rows(RECORDS[name]))
        assert answer is not None and answer != [] and answer != {}, words
        answer = json.loads(json.dumps(answer, ensure_ascii=False))
        active.append(
            {
                "records": name,
                "words": words,
                "answer": answer,
                "half": half,
                "form": form_rng.choice(FORMS),
            }
        )
    fallback = []
    for (name, words), half in zip(FALLBACK, halves([w for _, w in FALLBACK], rng), strict=True):
        assert words not in seen, words
        seen.add(words)
        fallback.append(
            {"records": name, "words": words, "half": half, "form": form_rng.choice(FORMS)}
        )
    return {"records": RECORDS, "active": active, "fallback": fallback}


def main() -> None:
    data = build()
    data["records"] = json.loads(json.dumps(data["records"], ensure_ascii=False))
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    OUT.write_text(text, encoding="utf-8")
    back = yaml.safe_load(OUT.read_text("utf-8"))
    assert back == data, "yaml round-trip changed the data"
    assert "&id" not in text and "*id" not in text, "yaml holds anchors/aliases"
    for case in data["active"] + data["fallback"]:
        message = compose(case["words"], back["records"][case["records"]], case["form"])
        assert case["words"] in message
    for kind in ("active", "fallback"):
        table: dict[tuple[str, str], int] = {}
        for case in data[kind]:
            key = (case["half"], lang(case["words"]))
            table[key] = table.get(key, 0) + 1
        total = len(data[kind])
        print(f"{kind}: {total}")
        for half in ("open", "sealed"):
            en, zh = table.get((half, "en"), 0), table.get((half, "zh"), 0)
            print(f"  {half:6}: {en + zh:3}  (en {en}, zh {zh})")
        zh_all = sum(v for (_, language), v in table.items() if language == "zh")
        print(f"  zh share: {zh_all}/{total} = {zh_all / total:.0%}")
    per_set: dict[str, list[int]] = {}
    for kind_i, kind in enumerate(("active", "fallback")):
        for case in data[kind]:
            per_set.setdefault(case["records"], [0, 0])[kind_i] += 1
    print("per record set (active, fallback):", per_set)
    forms: dict[str, int] = {}
    for case in data["active"] + data["fallback"]:
        forms[case["form"]] = forms.get(case["form"], 0) + 1
    print("forms:", forms)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
