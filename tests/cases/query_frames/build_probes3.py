"""Build probes3.yaml: an independent corpus of record requests for zerolayer.

Every active probe's answer is computed here from the records by a small function, so the
golds are right by construction. Halves are assigned with random.Random(3): 60% open,
40% sealed, separately for the active and the fallback lists.

Run:  python3 build_probes3.py   (writes probes3.yaml beside this file). Written 2026-12-07
without reading the engine's grammar, docs or tests.
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
OUT = HERE / "probes3.yaml"

# --------------------------------------------------------------------------- records

BOOKS = [
    {
        "isbn": "978-0-14-303943-3",
        "title": "The Quiet Orchard",
        "author": "Helen Marsh",
        "publishedYear": 2015,
        "pageCount": 312,
        "price": 14.99,
        "rating": 4.2,
        "inStock": True,
        "genres": ["literary", "family"],
        "publisher": {"name": "Penguin", "country": "UK"},
        "series": None,
    },
    {
        "isbn": "978-0-316-55102-8",
        "title": "Iron Tides",
        "author": "Rafael Costa",
        "publishedYear": 2019,
        "pageCount": 488,
        "price": 22.5,
        "rating": 4.6,
        "inStock": True,
        "genres": ["fantasy", "adventure"],
        "publisher": {"name": "Orbit", "country": "US"},
        "series": "Tidebound",
    },
    {
        "isbn": "978-1-492-08771-4",
        "title": "Data for Humans",
        "author": "Priya Sen",
        "publishedYear": 2021,
        "pageCount": 264,
        "price": 39.0,
        "rating": 4.4,
        "inStock": False,
        "genres": ["nonfiction", "technology"],
        "publisher": {"name": "O'Reilly", "country": "US"},
        "series": None,
    },
    {
        "isbn": "978-0-14-199812-6",
        "title": "Midnight at Kestrel Station",
        "author": "Oliver Grant",
        "publishedYear": 2012,
        "pageCount": 356,
        "price": 9.99,
        "rating": 3.8,
        "inStock": True,
        "genres": ["mystery"],
        "publisher": {"name": "Penguin", "country": "UK"},
        "series": "Kestrel Files",
    },
    {
        "isbn": "978-0-571-23310-5",
        "title": "A Short History of Salt",
        "author": "Mei Lin",
        "publishedYear": 2008,
        "pageCount": 198,
        "price": 12.0,
        "rating": 4.0,
        "inStock": True,
        "genres": ["nonfiction", "history"],
        "publisher": {"name": "Faber", "country": "UK"},
        "series": None,
    },
    {
        "isbn": "978-0-316-70044-1",
        "title": "Starlight Cartographers",
        "author": "Rafael Costa",
        "publishedYear": 2023,
        "pageCount": 542,
        "price": 27.95,
        "rating": 4.7,
        "inStock": False,
        "genres": ["science fiction", "adventure"],
        "publisher": {"name": "Orbit", "country": "US"},
        "series": "Tidebound",
    },
    {
        "isbn": "978-0-571-24467-5",
        "title": "The Gardener's Almanac",
        "author": "Helen Marsh",
        "publishedYear": 2010,
        "pageCount": 240,
        "price": 18.25,
        "rating": 3.9,
        "inStock": True,
        "genres": ["nonfiction", "gardening"],
        "publisher": {"name": "Faber", "country": "UK"},
        "series": None,
    },
    {
        "isbn": "978-1-84655-902-3",
        "title": "Cold Harbour",
        "author": "Sven Olsen",
        "publishedYear": 2017,
        "pageCount": 401,
        "price": 16.4,
        "rating": 4.1,
        "inStock": True,
        "genres": ["mystery", "thriller"],
        "publisher": {"name": "Harvill", "country": "UK"},
        "series": "Harbour Trilogy",
    },
    {
        "isbn": "978-1-7185-0185-0",
        "title": "Learning Rust the Hard Way",
        "author": "Tomás Vidal",
        "publishedYear": 2022,
        "pageCount": 610,
        "price": 44.5,
        "rating": 4.5,
        "inStock": True,
        "genres": ["technology"],
        "publisher": {"name": "No Starch", "country": "US"},
        "series": None,
    },
    {
        "isbn": "978-0-571-33921-0",
        "title": "Paper Lanterns",
        "author": "Mei Lin",
        "publishedYear": 2014,
        "pageCount": 288,
        "price": 11.5,
        "rating": 3.6,
        "inStock": False,
        "genres": ["literary"],
        "publisher": {"name": "Faber", "country": "UK"},
        "series": None,
    },
    {
        "isbn": "978-0-14-310377-1",
        "title": "The Last Lighthouse Keeper",
        "author": "Oliver Grant",
        "publishedYear": 2020,
        "pageCount": 330,
        "price": 19.99,
        "rating": 4.3,
        "inStock": True,
        "genres": ["mystery", "historical"],
        "publisher": {"name": "Penguin", "country": "UK"},
        "series": "Kestrel Files",
    },
    {
        "isbn": "978-0-316-41208-9",
        "title": "Under the Glass Sky",
        "author": "Ana Ruiz",
        "publishedYear": 2005,
        "pageCount": 276,
        "price": 8.75,
        "rating": 3.5,
        "inStock": True,
        "genres": ["science fiction"],
        "publisher": {"name": "Orbit", "country": "US"},
        "series": None,
    },
]

SENSORS = [
    {
        "sensor_id": "TH-01",
        "location": "greenhouse",
        "temperature_c": 27.4,
        "humidity": 68,
        "battery_pct": 81,
        "recorded_at": "2024-06-03T08:00:00Z",
        "status": "ok",
        "calibrated": True,
        "meta": {"floor": 0, "firmware": "2.1.0"},
    },
    {
        "sensor_id": "TH-02",
        "location": "server room",
        "temperature_c": 19.8,
        "humidity": 41,
        "battery_pct": None,
        "recorded_at": "2024-06-03T08:05:00Z",
        "status": "ok",
        "calibrated": True,
        "meta": {"floor": 3, "firmware": "2.1.0"},
    },
    {
        "sensor_id": "TH-03",
        "location": "basement",
        "temperature_c": 14.2,
        "humidity": 77,
        "battery_pct": 12,
        "recorded_at": "2024-06-03T07:55:00Z",
        "status": "warning",
        "calibrated": False,
        "meta": {"floor": -1, "firmware": "1.9.4"},
    },
    {
        "sensor_id": "TH-04",
        "location": "attic",
        "temperature_c": 31.6,
        "humidity": 35,
        "battery_pct": 56,
        "recorded_at": "2024-06-03T08:10:00Z",
        "status": "warning",
        "calibrated": True,
        "meta": {"floor": 4, "firmware": "2.0.3"},
    },
    {
        "sensor_id": "TH-05",
        "location": "kitchen",
        "temperature_c": 22.9,
        "humidity": 52,
        "battery_pct": 93,
        "recorded_at": "2024-06-03T08:02:00Z",
        "status": "ok",
        "calibrated": True,
        "meta": {"floor": 1, "firmware": "2.1.0"},
    },
    {
        "sensor_id": "TH-06",
        "location": "warehouse",
        "temperature_c": None,
        "humidity": None,
        "battery_pct": 0,
        "recorded_at": "2024-06-02T23:41:00Z",
        "status": "offline",
        "calibrated": False,
        "meta": {"floor": 0, "firmware": "1.8.0"},
    },
    {
        "sensor_id": "TH-07",
        "location": "cold store",
        "temperature_c": -18.5,
        "humidity": 88,
        "battery_pct": 64,
        "recorded_at": "2024-06-03T08:01:00Z",
        "status": "ok",
        "calibrated": True,
        "meta": {"floor": -1, "firmware": "2.0.3"},
    },
    {
        "sensor_id": "TH-08",
        "location": "office",
        "temperature_c": 21.3,
        "humidity": 46,
        "battery_pct": 47,
        "recorded_at": "2024-06-03T08:07:00Z",
        "status": "ok",
        "calibrated": False,
        "meta": {"floor": 2, "firmware": "2.1.0"},
    },
    {
        "sensor_id": "TH-09",
        "location": "lab",
        "temperature_c": 24.1,
        "humidity": 39,
        "battery_pct": 8,
        "recorded_at": "2024-06-03T08:04:00Z",
        "status": "warning",
        "calibrated": True,
        "meta": {"floor": 2, "firmware": "1.9.4"},
    },
    {
        "sensor_id": "TH-10",
        "location": "garage",
        "temperature_c": 16.7,
        "humidity": 59,
        "battery_pct": 72,
        "recorded_at": "2024-06-03T07:58:00Z",
        "status": "ok",
        "calibrated": True,
        "meta": {"floor": 0, "firmware": "2.0.3"},
    },
]

EMPLOYEES = [
    {
        "employeeId": "E-100",
        "full_name": "Nadia Petrova",
        "department": "Engineering",
        "salary": 98000,
        "hireDate": "2016-04-11",
        "address": {"city": "Berlin", "country": "Germany"},
        "skills": ["python", "go", "kubernetes"],
        "manager_id": None,
        "isRemote": False,
    },
    {
        "employeeId": "E-101",
        "full_name": "James O'Neill",
        "department": "Sales",
        "salary": 64000,
        "hireDate": "2019-09-02",
        "address": {"city": "Dublin", "country": "Ireland"},
        "skills": ["negotiation", "crm"],
        "manager_id": "E-108",
        "isRemote": True,
    },
    {
        "employeeId": "E-102",
        "full_name": "Aiko Suzuki",
        "department": "Engineering",
        "salary": 87500,
        "hireDate": "2020-01-15",
        "address": {"city": "Tokyo", "country": "Japan"},
        "skills": ["typescript", "react"],
        "manager_id": "E-100",
        "isRemote": False,
    },
    {
        "employeeId": "E-103",
        "full_name": "Carlos Mendes",
        "department": "Marketing",
        "salary": 58500,
        "hireDate": "2021-06-30",
        "address": {"city": "Lisbon", "country": "Portugal"},
        "skills": ["seo", "copywriting"],
        "manager_id": "E-109",
        "isRemote": True,
    },
    {
        "employeeId": "E-104",
        "full_name": "Fatima Zahra",
        "department": "Engineering",
        "salary": 91200,
        "hireDate": "2018-11-05",
        "address": {"city": "Berlin", "country": "Germany"},
        "skills": ["python", "sql"],
        "manager_id": "E-100",
        "isRemote": True,
    },
    {
        "employeeId": "E-105",
        "full_name": "Liam Carter",
        "department": "Support",
        "salary": 47000,
        "hireDate": "2022-03-14",
        "address": {"city": "Dublin", "country": "Ireland"},
        "skills": ["zendesk", "sql"],
        "manager_id": "E-110",
        "isRemote": False,
    },
    {
        "employeeId": "E-106",
        "full_name": "Sofia Rossi",
        "department": "Design",
        "salary": 72300,
        "hireDate": "2017-07-21",
        "address": {"city": "Milan", "country": "Italy"},
        "skills": ["figma", "illustration"],
        "manager_id": None,
        "isRemote": False,
    },
    {
        "employeeId": "E-107",
        "full_name": "Wei Zhang",
        "department": "Engineering",
        "salary": 105000,
        "hireDate": "2014-02-03",
        "address": {"city": "Singapore", "country": "Singapore"},
        "skills": ["go", "rust", "kubernetes"],
        "manager_id": "E-100",
        "isRemote": False,
    },
    {
        "employeeId": "E-108",
        "full_name": "Hannah Berg",
        "department": "Sales",
        "salary": 81000,
        "hireDate": "2015-10-19",
        "address": {"city": "Stockholm", "country": "Sweden"},
        "skills": ["crm", "leadership"],
        "manager_id": None,
        "isRemote": True,
    },
    {
        "employeeId": "E-109",
        "full_name": "Omar Haddad",
        "department": "Marketing",
        "salary": 69900,
        "hireDate": "2019-01-28",
        "address": {"city": "Lisbon", "country": "Portugal"},
        "skills": ["analytics", "seo"],
        "manager_id": None,
        "isRemote": False,
    },
    {
        "employeeId": "E-110",
        "full_name": "Grace Kim",
        "department": "Support",
        "salary": 55400,
        "hireDate": "2020-08-09",
        "address": {"city": "Toronto", "country": "Canada"},
        "skills": ["sql", "zendesk", "python"],
        "manager_id": None,
        "isRemote": True,
    },
    {
        "employeeId": "E-111",
        "full_name": "Mateo García",
        "department": "Design",
        "salary": 61750,
        "hireDate": "2023-05-02",
        "address": {"city": "Milan", "country": "Italy"},
        "skills": ["figma"],
        "manager_id": "E-106",
        "isRemote": True,
    },
]

FLIGHTS = [
    {
        "flightNo": "LH400",
        "airline": "Lufthansa",
        "origin": "FRA",
        "destination": "JFK",
        "departure": "2024-07-12T10:05",
        "duration_min": 535,
        "price_usd": 642.0,
        "seatsLeft": 12,
        "status": "on time",
        "delay_minutes": None,
        "stops": 0,
        "aircraft": {"model": "A350"},
    },
    {
        "flightNo": "BA117",
        "airline": "British Airways",
        "origin": "LHR",
        "destination": "JFK",
        "departure": "2024-07-12T08:20",
        "duration_min": 490,
        "price_usd": 588.5,
        "seatsLeft": 4,
        "status": "delayed",
        "delay_minutes": 45,
        "stops": 0,
        "aircraft": {"model": "B777"},
    },
    {
        "flightNo": "AF22",
        "airline": "Air France",
        "origin": "CDG",
        "destination": "JFK",
        "departure": "2024-07-12T13:30",
        "duration_min": 510,
        "price_usd": 615.0,
        "seatsLeft": 0,
        "status": "on time",
        "delay_minutes": None,
        "stops": 0,
        "aircraft": {"model": "A330"},
    },
    {
        "flightNo": "UA960",
        "airline": "United",
        "origin": "LHR",
        "destination": "EWR",
        "departure": "2024-07-12T09:10",
        "duration_min": 495,
        "price_usd": 553.2,
        "seatsLeft": 21,
        "status": "delayed",
        "delay_minutes": 20,
        "stops": 0,
        "aircraft": {"model": "B767"},
    },
    {
        "flightNo": "KL641",
        "airline": "KLM",
        "origin": "AMS",
        "destination": "JFK",
        "departure": "2024-07-12T11:40",
        "duration_min": 520,
        "price_usd": 499.9,
        "seatsLeft": 7,
        "status": "on time",
        "delay_minutes": None,
        "stops": 0,
        "aircraft": {"model": "B787"},
    },
    {
        "flightNo": "IB6251",
        "airline": "Iberia",
        "origin": "MAD",
        "destination": "BOS",
        "departure": "2024-07-12T16:15",
        "duration_min": 470,
        "price_usd": 421.75,
        "seatsLeft": 33,
        "status": "cancelled",
        "delay_minutes": None,
        "stops": 0,
        "aircraft": {"model": "A330"},
    },
    {
        "flightNo": "TP201",
        "airline": "TAP Air Portugal",
        "origin": "LIS",
        "destination": "EWR",
        "departure": "2024-07-12T12:00",
        "duration_min": 465,
        "price_usd": 389.0,
        "seatsLeft": 18,
        "status": "on time",
        "delay_minutes": None,
        "stops": 0,
        "aircraft": {"model": "A321"},
    },
    {
        "flightNo": "EI105",
        "airline": "Aer Lingus",
        "origin": "DUB",
        "destination": "JFK",
        "departure": "2024-07-12T14:25",
        "duration_min": 455,
        "price_usd": 412.6,
        "seatsLeft": 9,
        "status": "delayed",
        "delay_minutes": 90,
        "stops": 0,
        "aircraft": {"model": "A321"},
    },
    {
        "flightNo": "LX14",
        "airline": "Swiss",
        "origin": "ZRH",
        "destination": "JFK",
        "departure": "2024-07-12T07:55",
        "duration_min": 545,
        "price_usd": 701.3,
        "seatsLeft": 2,
        "status": "on time",
        "delay_minutes": None,
        "stops": 0,
        "aircraft": {"model": "A340"},
    },
    {
        "flightNo": "TK11",
        "airline": "Turkish Airlines",
        "origin": "IST",
        "destination": "JFK",
        "departure": "2024-07-12T06:30",
        "duration_min": 660,
        "price_usd": 534.4,
        "seatsLeft": 27,
        "status": "on time",
        "delay_minutes": None,
        "stops": 0,
        "aircraft": {"model": "B777"},
    },
    {
        "flightNo": "FI615",
        "airline": "Icelandair",
        "origin": "ARN",
        "destination": "JFK",
        "departure": "2024-07-12T17:05",
        "duration_min": 720,
        "price_usd": 367.8,
        "seatsLeft": 15,
        "status": "delayed",
        "delay_minutes": 35,
        "stops": 1,
        "aircraft": {"model": "B757"},
    },
    {
        "flightNo": "DL47",
        "airline": "Delta",
        "origin": "FCO",
        "destination": "ATL",
        "departure": "2024-07-12T10:45",
        "duration_min": 650,
        "price_usd": 478.15,
        "seatsLeft": 5,
        "status": "cancelled",
        "delay_minutes": None,
        "stops": 0,
        "aircraft": {"model": "A330"},
    },
]

# `milestone` is null on some issues and absent on others.
ISSUES = [
    {
        "number": 412,
        "title": "Crash when exporting CSV with empty rows",
        "state": "closed",
        "labels": ["bug", "export"],
        "assignee": "mkoval",
        "created_at": "2024-01-08",
        "closed_at": "2024-01-15",
        "comments": 7,
        "author": {"login": "dtran"},
        "milestone": "v2.0",
    },
    {
        "number": 415,
        "title": "Add dark mode to settings page",
        "state": "open",
        "labels": ["enhancement", "ui"],
        "assignee": None,
        "created_at": "2024-01-19",
        "closed_at": None,
        "comments": 12,
        "author": {"login": "lsato"},
        "milestone": "v2.1",
    },
    {
        "number": 418,
        "title": "Typo in README installation section",
        "state": "closed",
        "labels": ["documentation", "good first issue"],
        "assignee": "ajones",
        "created_at": "2024-01-27",
        "closed_at": "2024-01-28",
        "comments": 1,
        "author": {"login": "pbianchi"},
    },
    {
        "number": 421,
        "title": "Memory leak in websocket reconnect loop",
        "state": "open",
        "labels": ["bug", "performance"],
        "assignee": "mkoval",
        "created_at": "2024-02-05",
        "closed_at": None,
        "comments": 23,
        "author": {"login": "rwu"},
        "milestone": "v2.1",
    },
    {
        "number": 423,
        "title": "Support YAML config files",
        "state": "open",
        "labels": ["enhancement"],
        "assignee": "ajones",
        "created_at": "2024-02-14",
        "closed_at": None,
        "comments": 5,
        "author": {"login": "dtran"},
        "milestone": None,
    },
    {
        "number": 427,
        "title": "Login button unresponsive on Safari",
        "state": "open",
        "labels": ["bug", "ui"],
        "assignee": None,
        "created_at": "2024-02-22",
        "closed_at": None,
        "comments": 9,
        "author": {"login": "kfernandes"},
        "milestone": "v2.1",
    },
    {
        "number": 430,
        "title": "Document the plugin API",
        "state": "open",
        "labels": ["documentation"],
        "assignee": None,
        "created_at": "2024-03-03",
        "closed_at": None,
        "comments": 0,
        "author": {"login": "lsato"},
    },
    {
        "number": 432,
        "title": "Flaky test: test_sync_retry",
        "state": "closed",
        "labels": ["bug", "tests"],
        "assignee": "rwu",
        "created_at": "2024-03-11",
        "closed_at": "2024-03-20",
        "comments": 4,
        "author": {"login": "rwu"},
        "milestone": "v2.0",
    },
    {
        "number": 435,
        "title": "Upgrade to Python 3.12",
        "state": "closed",
        "labels": ["maintenance"],
        "assignee": "ajones",
        "created_at": "2024-03-18",
        "closed_at": "2024-04-02",
        "comments": 6,
        "author": {"login": "mkoval"},
        "milestone": "v2.1",
    },
    {
        "number": 438,
        "title": "Pagination returns duplicate items",
        "state": "open",
        "labels": ["bug", "api"],
        "assignee": "lsato",
        "created_at": "2024-04-01",
        "closed_at": None,
        "comments": 15,
        "author": {"login": "gnovak"},
        "milestone": None,
    },
    {
        "number": 441,
        "title": "Add Japanese translation",
        "state": "open",
        "labels": ["enhancement", "i18n", "good first issue"],
        "assignee": None,
        "created_at": "2024-04-09",
        "closed_at": None,
        "comments": 3,
        "author": {"login": "yuki-h"},
    },
    {
        "number": 444,
        "title": "Rate limiter ignores burst setting",
        "state": "open",
        "labels": ["bug", "api", "performance"],
        "assignee": "mkoval",
        "created_at": "2024-04-16",
        "closed_at": None,
        "comments": 11,
        "author": {"login": "dtran"},
        "milestone": "v2.2",
    },
]

RECORDS: dict[str, list[dict[str, Any]]] = {
    "books": BOOKS,
    "sensor_readings": SENSORS,
    "employees": EMPLOYEES,
    "flights": FLIGHTS,
    "issues": ISSUES,
}

# --------------------------------------------------------------------------- helpers

Rs = list[dict[str, Any]]


def g(r: dict[str, Any], path: str) -> Any:
    """Value at a dotted path, None when missing."""
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
    """Sorted by a key that must be present and unique among the records sorted."""
    keys = [g(r, path) for r in rs]
    assert None not in keys, f"null sort key on {path}"
    assert len(set(keys)) == len(keys), f"tie in sort key {path}"
    return sorted(rs, key=lambda r: g(r, path), reverse=desc)


def top(rs: Rs, path: str, n: int, desc: bool = True) -> Rs:
    """First n by a key; the cut must not fall inside a tie."""
    ordered = sorted(
        (r for r in rs if g(r, path) is not None), key=lambda r: g(r, path), reverse=desc
    )
    keys = [g(r, path) for r in ordered]
    assert len(set(keys[: n + 1])) == len(keys[: n + 1]), f"tie near top {n} of {path}"
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


def distinct_sorted(values: list[Any]) -> list[Any]:
    return sorted(set(values))


def flat(rs: Rs, path: str) -> list[Any]:
    return [x for r in rs for x in (g(r, path) or [])]


# --------------------------------------------------------------------------- active probes

ACTIVE: list[tuple[str, str, Callable[[Rs], Any]]] = []
FALLBACK: list[tuple[str, str]] = []


def A(name: str, words: str, fn: Callable[[Rs], Any]) -> None:
    ACTIVE.append((name, words, fn))


def F(name: str, words: str) -> None:
    FALLBACK.append((name, words))


# ---- books
B = "books"
A(B, "sort these books by price, cheapest first", lambda rs: by(rs, "price"))
A(
    B,
    "Can you order the books by rating from highest to lowest? Just the titles please.",
    lambda rs: col(by(rs, "rating", desc=True), "title"),
)
A(B, "top 3 longest books by page count", lambda rs: top(rs, "pageCount", 3))
A(
    B,
    "give me the 2 oldest books, title and publishedYear only",
    lambda rs: pick(top(rs, "publishedYear", 2, desc=False), "title", "publishedYear"),
)
A(B, "Which books cost more than $20?", lambda rs: where(rs, lambda r: r["price"] > 20))
A(
    B,
    "books under 15 dollars - titles only",
    lambda rs: col(where(rs, lambda r: r["price"] < 15), "title"),
)
A(B, "How many books are in stock?", lambda rs: len(where(rs, lambda r: r["inStock"])))
A(B, "books by Mei Lin", lambda rs: where(rs, lambda r: r["author"] == "Mei Lin"))
A(
    B,
    "titles of all the books published after 2018",
    lambda rs: col(where(rs, lambda r: r["publishedYear"] > 2018), "title"),
)
A(
    B,
    "Which books have a rating of 4.5 or higher? titles only pls",
    lambda rs: col(where(rs, lambda r: r["rating"] >= 4.5), "title"),
)
A(B, "what's the average price? round to 2 decimals", lambda rs: round(mean(col(rs, "price")), 2))
A(
    B,
    "which book has the fewest pages? just the title",
    lambda rs: best(rs, "pageCount", False)["title"],
)
A(B, "Who wrote the most expensive book?", lambda rs: best(rs, "price")["author"])
A(B, "is there any book over 600 pages?", lambda rs: any(r["pageCount"] > 600 for r in rs))
A(B, "Are all of these books rated above 3.5?", lambda rs: all(r["rating"] > 3.5 for r in rs))
A(
    B,
    'show me the books whose title starts with "The"',
    lambda rs: where(rs, lambda r: r["title"].startswith("The")),
)
A(B, "books with 'History' in the title", lambda rs: where(rs, lambda r: "History" in r["title"]))
A(
    B,
    "books published by Penguin",
    lambda rs: where(rs, lambda r: g(r, "publisher.name") == "Penguin"),
)
A(
    B,
    "titles of the books where publisher.country is US",
    lambda rs: col(where(rs, lambda r: g(r, "publisher.country") == "US"), "title"),
)
A(
    B,
    "books between 250 and 350 pages (inclusive)",
    lambda rs: where(rs, lambda r: 250 <= r["pageCount"] <= 350),
)
A(
    B,
    "which books aren't part of a series? (series is null) - titles only",
    lambda rs: col(where(rs, lambda r: r["series"] is None), "title"),
)
A(
    B,
    "all the books with mystery in their genres",
    lambda rs: where(rs, lambda r: "mystery" in r["genres"]),
)
A(B, "how many books per author?", lambda rs: counts(col(rs, "author")))
A(B, "list the distinct authors, alphabetically", lambda rs: distinct_sorted(col(rs, "author")))
A(
    B,
    "the 3 cheapest in-stock books, titles only",
    lambda rs: col(top(where(rs, lambda r: r["inStock"]), "price", 3, desc=False), "title"),
)
A(
    B,
    "What's the title of the most recently published nonfiction book?",
    lambda rs: best(where(rs, lambda r: "nonfiction" in r["genres"]), "publishedYear")["title"],
)
A(
    B,
    "average rating of the mystery books? 2 decimal places",
    lambda rs: round(mean(col(where(rs, lambda r: "mystery" in r["genres"]), "rating")), 2),
)
A(
    B,
    "every book except the Orbit ones, just titles",
    lambda rs: col(where(rs, lambda r: g(r, "publisher.name") != "Orbit"), "title"),
)
A(B, "Give me the title and price of every book", lambda rs: pick(rs, "title", "price"))
A(
    B,
    "books by Rafael Costa or Oliver Grant",
    lambda rs: where(rs, lambda r: r["author"] in ("Rafael Costa", "Oliver Grant")),
)
A(B, "how many diferent publishers are there?", lambda rs: len(set(col(rs, "publisher.name"))))
A(B, "按页数从多到少排一下，只要书名", lambda rs: col(by(rs, "pageCount", desc=True), "title"))
A(B, "评分最高的三本书是哪几本？只要书名", lambda rs: col(top(rs, "rating", 3), "title"))
A(B, "价格超过二十的书有几本？", lambda rs: len(where(rs, lambda r: r["price"] > 20)))
A(
    B,
    "有库存的书平均价格是多少？保留两位小数",
    lambda rs: round(mean(col(where(rs, lambda r: r["inStock"]), "price")), 2),
)
A(
    B,
    "早于2015年出版的书，只要书名和作者",
    lambda rs: pick(where(rs, lambda r: r["publishedYear"] < 2015), "title", "author"),
)
A(B, "页数不超过三百的书", lambda rs: where(rs, lambda r: r["pageCount"] <= 300))
A(B, "哪本书最便宜？告诉我书名就行", lambda rs: best(rs, "price", False)["title"])
A(B, "有没有评分低于3.7的书？", lambda rs: any(r["rating"] < 3.7 for r in rs))
A(
    B,
    "Helen Marsh 写的书加起来一共多少页？",
    lambda rs: sum(col(where(rs, lambda r: r["author"] == "Helen Marsh"), "pageCount")),
)
A(
    B,
    "genres 里有 mystery 的书有哪些？只要书名",
    lambda rs: col(where(rs, lambda r: "mystery" in r["genres"]), "title"),
)
A(B, "把缺货的书的书名列出来", lambda rs: col(where(rs, lambda r: not r["inStock"]), "title"))

# ---- sensor readings
S = "sensor_readings"
A(S, "order these by recorded_at, oldest first", lambda rs: by(rs, "recorded_at"))
A(
    S,
    "which sensors are in warning state?",
    lambda rs: where(rs, lambda r: r["status"] == "warning"),
)
A(S, "How many sensors are offline?", lambda rs: len(where(rs, lambda r: r["status"] == "offline")))
A(
    S,
    "average temperature_c, skipping the null one, rounded to 1 decimal",
    lambda rs: round(mean(col(rs, "temperature_c")), 1),
)
A(S, "what's the max humidity?", lambda rs: max(v for v in col(rs, "humidity") if v is not None))
A(
    S,
    "Where is the lowest temperature reading? just the location",
    lambda rs: best(rs, "temperature_c", False)["location"],
)
A(
    S,
    "which sensor has the lowest battery_pct? id only",
    lambda rs: best(rs, "battery_pct", False)["sensor_id"],
)
A(
    S,
    "readings with a temperature between 20 and 25 degrees inclusive",
    lambda rs: where(
        rs, lambda r: r["temperature_c"] is not None and 20 <= r["temperature_c"] <= 25
    ),
)
A(S, "Which sensors are not calibrated?", lambda rs: where(rs, lambda r: not r["calibrated"]))
A(
    S,
    "show the sensors that have no battery_pct value",
    lambda rs: where(rs, lambda r: r["battery_pct"] is None),
)
A(S, "sensor_id and location for each reading", lambda rs: pick(rs, "sensor_id", "location"))
A(
    S,
    "Which readings were recorded after 2024-06-03T08:03:00Z? ids only",
    lambda rs: col(where(rs, lambda r: r["recorded_at"] > "2024-06-03T08:03:00Z"), "sensor_id"),
)
A(S, "sensors on floor 0 (meta.floor)", lambda rs: where(rs, lambda r: g(r, "meta.floor") == 0))
A(
    S,
    "which sensors run firmware 2.1.0? give me the ids",
    lambda rs: col(where(rs, lambda r: g(r, "meta.firmware") == "2.1.0"), "sensor_id"),
)
A(
    S,
    "is any sensor reading above 30 degrees?",
    lambda rs: any(r["temperature_c"] is not None and r["temperature_c"] > 30 for r in rs),
)
A(
    S,
    "top 3 most humid spots - just the locations",
    lambda rs: col(top(rs, "humidity", 3), "location"),
)
A(
    S,
    "sensors in the basement or the attic",
    lambda rs: where(rs, lambda r: r["location"] in ("basement", "attic")),
)
A(S, "everything where status isn't ok", lambda rs: where(rs, lambda r: r["status"] != "ok"))
A(
    S,
    "What's the average battery level? ignore nulls, 2 decimals",
    lambda rs: round(mean(col(rs, "battery_pct")), 2),
)
A(
    S,
    "list the locations that start with g",
    lambda rs: col(where(rs, lambda r: r["location"].startswith("g")), "location"),
)
A(S, "how many distinct firmware versions are there", lambda rs: len(set(col(rs, "meta.firmware"))))
A(S, "the 2 coldest readings", lambda rs: top(rs, "temperature_c", 2, desc=False))
A(
    S,
    "Could you give me just the locations of the calibrated sensors with status ok?",
    lambda rs: col(where(rs, lambda r: r["calibrated"] and r["status"] == "ok"), "location"),
)
A(
    S,
    "highest temperature among the warning sensors?",
    lambda rs: max(col(where(rs, lambda r: r["status"] == "warning"), "temperature_c")),
)
A(S, "按记录时间从早到晚排，只要 sensor_id", lambda rs: col(by(rs, "recorded_at"), "sensor_id"))
A(
    S,
    "湿度超过六十的传感器有哪些？",
    lambda rs: where(rs, lambda r: r["humidity"] is not None and r["humidity"] > 60),
)
A(S, "温度最高的是哪个位置？", lambda rs: best(rs, "temperature_c")["location"])
A(S, "有几个传感器是 warning 状态？", lambda rs: len(where(rs, lambda r: r["status"] == "warning")))
A(
    S,
    "电量低于百分之五十的传感器编号",
    lambda rs: col(
        where(rs, lambda r: r["battery_pct"] is not None and r["battery_pct"] < 50), "sensor_id"
    ),
)
A(S, "列出所有已经校准过的传感器", lambda rs: where(rs, lambda r: r["calibrated"]))
A(S, "湿度的平均值是多少（空值不算）？保留两位小数", lambda rs: round(mean(col(rs, "humidity")), 2))
A(
    S,
    "有没有湿度低于三十的传感器？",
    lambda rs: any(r["humidity"] is not None and r["humidity"] < 30 for r in rs),
)
A(S, "每个状态各有多少条读数？", lambda rs: counts(col(rs, "status")))
A(
    S,
    "温度在零度以下的是哪个传感器？只要编号",
    lambda rs: col(
        where(rs, lambda r: r["temperature_c"] is not None and r["temperature_c"] < 0), "sensor_id"
    ),
)

# ---- employees
E = "employees"
A(E, "sort employees by salary descending", lambda rs: by(rs, "salary", desc=True))
A(E, "who was hired first? name only", lambda rs: best(rs, "hireDate", False)["full_name"])
A(
    E,
    "list the names of everyone in Engineering",
    lambda rs: col(where(rs, lambda r: r["department"] == "Engineering"), "full_name"),
)
A(E, "Employees based in Berlin", lambda rs: where(rs, lambda r: g(r, "address.city") == "Berlin"))
A(E, "how many people work remotely?", lambda rs: len(where(rs, lambda r: r["isRemote"])))
A(
    E,
    "What's the average salary of the Engineering department?",
    lambda rs: mean(col(where(rs, lambda r: r["department"] == "Engineering"), "salary")),
)
A(E, "total payroll (sum of all salaries)?", lambda rs: sum(col(rs, "salary")))
A(E, "employees without a manager_id", lambda rs: where(rs, lambda r: r["manager_id"] is None))
A(
    E,
    "who knows python? names only",
    lambda rs: col(where(rs, lambda r: "python" in r["skills"]), "full_name"),
)
A(
    E,
    "names of people hired from 2021 onwards",
    lambda rs: col(where(rs, lambda r: r["hireDate"] >= "2021-01-01"), "full_name"),
)
A(
    E,
    "Who earns between 60000 and 75000? names please",
    lambda rs: col(where(rs, lambda r: 60000 <= r["salary"] <= 75000), "full_name"),
)
A(
    E,
    "employees whose full_name starts with M",
    lambda rs: where(rs, lambda r: r["full_name"].startswith("M")),
)
A(
    E,
    "the 3 lowest paid employees, just full_name and salary",
    lambda rs: pick(top(rs, "salary", 3, desc=False), "full_name", "salary"),
)
A(
    E,
    "which cities do our employees live in? alphabetical, no duplicates",
    lambda rs: distinct_sorted(col(rs, "address.city")),
)
A(E, "count employees per address.country", lambda rs: counts(col(rs, "address.country")))
A(
    E,
    "what's the highest salary in Sales?",
    lambda rs: max(col(where(rs, lambda r: r["department"] == "Sales"), "salary")),
)
A(
    E,
    "is anyone in Support making over 50k?",
    lambda rs: any(r["department"] == "Support" and r["salary"] > 50000 for r in rs),
)
A(
    E,
    "employees not in Engineering or Sales - names only",
    lambda rs: col(
        where(rs, lambda r: r["department"] not in ("Engineering", "Sales")), "full_name"
    ),
)
A(
    E,
    "remote employees in the Design department",
    lambda rs: where(rs, lambda r: r["isRemote"] and r["department"] == "Design"),
)
A(
    E,
    "people in Lisbon or Milan",
    lambda rs: where(rs, lambda r: g(r, "address.city") in ("Lisbon", "Milan")),
)
A(E, "full_name and department for everyone", lambda rs: pick(rs, "full_name", "department"))
A(E, "which employees report to E-100?", lambda rs: where(rs, lambda r: r["manager_id"] == "E-100"))
A(
    E,
    "most recent hire - full_name and department",
    lambda rs: pick([best(rs, "hireDate")], "full_name", "department")[0],
)
A(
    E,
    "employeeIds of everyone who has sql in their skills",
    lambda rs: col(where(rs, lambda r: "sql" in r["skills"]), "employeeId"),
)
A(
    E,
    "How much does Grace Kim make?",
    lambda rs: where(rs, lambda r: r["full_name"] == "Grace Kim")[0]["salary"],
)
A(
    E,
    "sort by hireDate, newest first, and give me only the names",
    lambda rs: col(by(rs, "hireDate", desc=True), "full_name"),
)
A(E, "按入职日期从早到晚排序，只要名字", lambda rs: col(by(rs, "hireDate"), "full_name"))
A(E, "工资最高的前三名员工", lambda rs: top(rs, "salary", 3))
A(
    E,
    "Engineering 部门有多少人？",
    lambda rs: len(where(rs, lambda r: r["department"] == "Engineering")),
)
A(
    E,
    "住在 Dublin 的员工有哪些？只要名字",
    lambda rs: col(where(rs, lambda r: g(r, "address.city") == "Dublin"), "full_name"),
)
A(E, "薪资低于六万的员工", lambda rs: where(rs, lambda r: r["salary"] < 60000))
A(E, "远程办公的员工名单", lambda rs: col(where(rs, lambda r: r["isRemote"]), "full_name"))
A(E, "所有员工的平均工资是多少，保留两位小数", lambda rs: round(mean(col(rs, "salary")), 2))
A(E, "各部门分别有几个人", lambda rs: counts(col(rs, "department")))
A(E, "2019年入职的员工", lambda rs: where(rs, lambda r: r["hireDate"].startswith("2019")))
A(E, "有没有人的工资超过十万？", lambda rs: any(r["salary"] > 100000 for r in rs))

# ---- flights
FL = "flights"
A(FL, "sort flights by price_usd ascending", lambda rs: by(rs, "price_usd"))
A(FL, "cheapest flight? flight number only", lambda rs: best(rs, "price_usd", False)["flightNo"])
A(
    FL,
    "flight numbers of the flights to JFK",
    lambda rs: col(where(rs, lambda r: r["destination"] == "JFK"), "flightNo"),
)
A(
    FL,
    "Which flights are delayed? just the flight numbers",
    lambda rs: col(where(rs, lambda r: r["status"] == "delayed"), "flightNo"),
)
A(
    FL,
    "how many flights got cancelled?",
    lambda rs: len(where(rs, lambda r: r["status"] == "cancelled")),
)
A(
    FL,
    "average delay_minutes of the delayed flights",
    lambda rs: mean(col(where(rs, lambda r: r["status"] == "delayed"), "delay_minutes")),
)
A(
    FL,
    "Which airline operates the longest flight by duration?",
    lambda rs: best(rs, "duration_min")["airline"],
)
A(FL, "flights departing before 9am", lambda rs: where(rs, lambda r: r["departure"][11:] < "09:00"))
A(FL, "剩余座位少于10个的航班", lambda rs: where(rs, lambda r: r["seatsLeft"] < 10))
A(
    FL,
    "any nonstop flight under $400?",
    lambda rs: any(r["stops"] == 0 and r["price_usd"] < 400 for r in rs),
)
A(
    FL,
    "which flight has 0 seats left? flight number only",
    lambda rs: col(where(rs, lambda r: r["seatsLeft"] == 0), "flightNo"),
)
A(FL, "flights with at least one stop", lambda rs: where(rs, lambda r: r["stops"] >= 1))
A(
    FL,
    "the flights that aren't cancelled, sorted by departure",
    lambda rs: by(where(rs, lambda r: r["status"] != "cancelled"), "departure"),
)
A(
    FL,
    "3 shortest flights: flightNo and duration_min only",
    lambda rs: pick(top(rs, "duration_min", 3, desc=False), "flightNo", "duration_min"),
)
A(
    FL,
    "flights flown on an A330 (aircraft.model)",
    lambda rs: where(rs, lambda r: g(r, "aircraft.model") == "A330"),
)
A(
    FL,
    "flight numbers where delay_minutes is null",
    lambda rs: col(where(rs, lambda r: r["delay_minutes"] is None), "flightNo"),
)
A(FL, "count flights per status", lambda rs: counts(col(rs, "status")))
A(FL, "total seats left across all flights", lambda rs: sum(col(rs, "seatsLeft")))
A(
    FL,
    "What's the priciest flight to JFK? flight number",
    lambda rs: best(where(rs, lambda r: r["destination"] == "JFK"), "price_usd")["flightNo"],
)
A(
    FL,
    "flights priced between 450 and 600 dollars",
    lambda rs: where(rs, lambda r: 450 <= r["price_usd"] <= 600),
)
A(FL, "list the airlines alphabetically", lambda rs: distinct_sorted(col(rs, "airline")))
A(
    FL,
    "which flights departs after 3pm?",
    lambda rs: where(rs, lambda r: r["departure"][11:] > "15:00"),
)
A(
    FL,
    "flight numbers of everything leaving from FRA, CDG or AMS",
    lambda rs: col(where(rs, lambda r: r["origin"] in ("FRA", "CDG", "AMS")), "flightNo"),
)
A(
    FL,
    "flight numbers for the airlines whose name starts with A",
    lambda rs: col(where(rs, lambda r: r["airline"].startswith("A")), "flightNo"),
)
A(
    FL,
    "how many seats are left on KL641?",
    lambda rs: where(rs, lambda r: r["flightNo"] == "KL641")[0]["seatsLeft"],
)
A(FL, "按起飞时间排序", lambda rs: by(rs, "departure"))
A(FL, "最贵的航班是哪一班？只要航班号", lambda rs: best(rs, "price_usd")["flightNo"])
A(FL, "价格低于五百美元的航班有几个？", lambda rs: len(where(rs, lambda r: r["price_usd"] < 500)))
A(
    FL,
    "延误超过三十分钟的航班",
    lambda rs: where(rs, lambda r: r["delay_minutes"] is not None and r["delay_minutes"] > 30),
)
A(
    FL,
    "飞行时间最短的三个航班，只要航班号",
    lambda rs: col(top(rs, "duration_min", 3, desc=False), "flightNo"),
)
A(FL, "剩余座位不少于二十个的航班", lambda rs: where(rs, lambda r: r["seatsLeft"] >= 20))
A(FL, "所有航班的 flightNo 和 price_usd", lambda rs: pick(rs, "flightNo", "price_usd"))
A(FL, "有没有被取消的航班？", lambda rs: any(r["status"] == "cancelled" for r in rs))
A(
    FL,
    "从 LHR 出发的航班平均票价多少？保留两位小数",
    lambda rs: round(mean(col(where(rs, lambda r: r["origin"] == "LHR"), "price_usd")), 2),
)
A(FL, "飞往 JFK 的航班一共有几个", lambda rs: len(where(rs, lambda r: r["destination"] == "JFK")))

# ---- issues
ISSUES_SET = "issues"
A(
    ISSUES_SET,
    "sort the issues by number of comments, most first",
    lambda rs: by(rs, "comments", desc=True),
)
A(
    ISSUES_SET,
    "open bugs",
    lambda rs: where(rs, lambda r: r["state"] == "open" and "bug" in r["labels"]),
)
A(
    ISSUES_SET,
    "How many issues are still open?",
    lambda rs: len(where(rs, lambda r: r["state"] == "open")),
)
A(
    ISSUES_SET,
    "which issues have no assignee?",
    lambda rs: where(rs, lambda r: r["assignee"] is None),
)
A(
    ISSUES_SET,
    "哪些 issue 没有 milestone？",
    lambda rs: where(rs, lambda r: g(r, "milestone") is None),
)
A(
    ISSUES_SET,
    "titles of issues created in March 2024",
    lambda rs: col(where(rs, lambda r: r["created_at"].startswith("2024-03")), "title"),
)
A(
    ISSUES_SET,
    "issues opened before Feb 1 2024",
    lambda rs: where(rs, lambda r: r["created_at"] < "2024-02-01"),
)
A(
    ISSUES_SET,
    "which issue has the most comments? title only",
    lambda rs: best(rs, "comments")["title"],
)
A(
    ISSUES_SET,
    "issue numbers assigned to ajones",
    lambda rs: col(where(rs, lambda r: r["assignee"] == "ajones"), "number"),
)
A(
    ISSUES_SET,
    "issues opened by dtran (author.login)",
    lambda rs: where(rs, lambda r: g(r, "author.login") == "dtran"),
)
A(
    ISSUES_SET,
    "issues in milestone v2.1, numbers only",
    lambda rs: col(where(rs, lambda r: g(r, "milestone") == "v2.1"), "number"),
)
A(
    ISSUES_SET,
    'show me the "good first issue" ones',
    lambda rs: where(rs, lambda r: "good first issue" in r["labels"]),
)
A(
    ISSUES_SET,
    "issues with more than 10 comments - number and title",
    lambda rs: pick(where(rs, lambda r: r["comments"] > 10), "number", "title"),
)
A(
    ISSUES_SET,
    "is there any closed issue with the enhancement label?",
    lambda rs: any(r["state"] == "closed" and "enhancement" in r["labels"] for r in rs),
)
A(
    ISSUES_SET,
    'issues whose title starts with "Add"',
    lambda rs: where(rs, lambda r: r["title"].startswith("Add")),
)
A(
    ISSUES_SET,
    "average comments per issue, 2 decimals",
    lambda rs: round(mean(col(rs, "comments")), 2),
)
A(ISSUES_SET, "最新创建的三个 issue", lambda rs: top(rs, "created_at", 3))
A(
    ISSUES_SET,
    "oldest open issue - just its number",
    lambda rs: best(where(rs, lambda r: r["state"] == "open"), "created_at", False)["number"],
)
A(
    ISSUES_SET,
    "list every distinct label, alphabetically",
    lambda rs: distinct_sorted(flat(rs, "labels")),
)
A(ISSUES_SET, "how many issues per state", lambda rs: counts(col(rs, "state")))
A(
    ISSUES_SET,
    "titles of the closed bugs",
    lambda rs: col(where(rs, lambda r: r["state"] == "closed" and "bug" in r["labels"]), "title"),
)
A(
    ISSUES_SET,
    "issues that have both the bug and api labels",
    lambda rs: where(rs, lambda r: "bug" in r["labels"] and "api" in r["labels"]),
)
A(
    ISSUES_SET,
    "numbers of issues labelled performance or i18n",
    lambda rs: col(
        where(rs, lambda r: "performance" in r["labels"] or "i18n" in r["labels"]), "number"
    ),
)
A(
    ISSUES_SET,
    "issues numbered 420 to 435 inclusive",
    lambda rs: where(rs, lambda r: 420 <= r["number"] <= 435),
)
A(ISSUES_SET, "just the number and state of each issue", lambda rs: pick(rs, "number", "state"))
A(
    ISSUES_SET,
    "Which issues were closed in April? numbers",
    lambda rs: col(where(rs, lambda r: (r["closed_at"] or "").startswith("2024-04")), "number"),
)
A(
    ISSUES_SET,
    "who is 444 assigned to?",
    lambda rs: where(rs, lambda r: r["number"] == 444)[0]["assignee"],
)
A(ISSUES_SET, "按创建时间倒序排列这些 issue", lambda rs: by(rs, "created_at", desc=True))
A(ISSUES_SET, "评论数最多的五个 issue，只要编号", lambda rs: col(top(rs, "comments", 5), "number"))
A(
    ISSUES_SET,
    "带 bug 标签的 issue 有几个？",
    lambda rs: len(where(rs, lambda r: "bug" in r["labels"])),
)
A(
    ISSUES_SET,
    "还没关闭的 issue 有哪些？只要标题",
    lambda rs: col(where(rs, lambda r: r["state"] == "open"), "title"),
)
A(ISSUES_SET, "没有评论的 issue", lambda rs: where(rs, lambda r: r["comments"] == 0))
A(
    ISSUES_SET,
    "2024-03-15 之后创建的 issue",
    lambda rs: where(rs, lambda r: r["created_at"] > "2024-03-15"),
)
A(
    ISSUES_SET,
    "评论数不超过五条的 issue 编号",
    lambda rs: col(where(rs, lambda r: r["comments"] <= 5), "number"),
)
A(ISSUES_SET, "有没有分配给 rwu 的 issue？", lambda rs: any(r["assignee"] == "rwu" for r in rs))
A(
    ISSUES_SET,
    "标签里有 enhancement 的 issue，给我编号和标题",
    lambda rs: pick(where(rs, lambda r: "enhancement" in r["labels"]), "number", "title"),
)
A(
    ISSUES_SET,
    "每个 milestone 下面有几个 issue？没有 milestone 的不算",
    lambda rs: counts([v for v in col(rs, "milestone") if v is not None]),
)

# --------------------------------------------------------------------------- fallback probes

F(B, "Which of these books would you recommend for a long flight?")
F(B, "Summarise what kind of collection this is.")
F(B, "show me the cheap ones")
F(B, "Sort them by price and tell me which one looks overpriced for what it is.")
F(B, "Is The Quiet Orchard actually a good read?")
F(B, "Write a two-line blurb for each of these books.")
F(B, "Imagine Mei Lin wrote a sequel to Paper Lanterns - what could it be called?")
F(B, "这些书里哪本最适合送给十岁的孩子？")
F(B, "帮我给这些书重新分个类，顺便说说理由")
F(B, "这里面哪几本比较贵？")
F(S, "Anything worrying in these readings?")
F(S, "Why might TH-06 be offline?")
F(S, "show me the hot rooms")
F(S, "Sort by temperature and suggest which rooms need air conditioning.")
F(S, "Generate 5 more realistic readings in the same format.")
F(
    S,
    "Our runbook says 'replace batteries below 20%'. Is that threshold too conservative for these sensors?",
)
F(S, "Is 41% humidity okay for a server room?")
F(S, "这些传感器数据正常吗？有什么需要注意的？")
F(S, "帮我写一段给运维团队的简报，总结一下这些读数")
F(E, "Who deserves a raise?")
F(E, "Which of these people would make a good team lead?")
F(E, "show me the senior people")
F(E, "List the Berlin employees and tell me what the cost of living there is like.")
F(E, "Which of the cities here are capital cities?")
F(E, "Draft a friendly welcome email to Mateo.")
F(E, "If we had to lay off two people, who would it hurt the least?")
F(E, "这些员工的薪资结构合理吗？")
F(E, "如果要把所有人的工资都统一，你觉得定多少合适？")
F(FL, "Which flight should I book?")
F(FL, "What's my best option to get to New York tomorrow morning?")
F(FL, "show me the long flights")
F(FL, "Why do you think IB6251 got cancelled?")
F(FL, "Which is closer to Manhattan, JFK or EWR?")
F(FL, "Sort by price and recommend one for a family with two small kids.")
F(
    FL,
    'My travel agent wrote "avoid anything with a stop". Does that advice make sense with these options?',
)
F(FL, "帮我看看哪个航班性价比最高")
F(FL, "这些航空公司里哪家服务最好？")
F(ISSUES_SET, "Which issues should we prioritise next sprint?")
F(ISSUES_SET, "List the open bugs and summarise them in a paragraph for standup.")
F(ISSUES_SET, "show me the recent issues")
F(ISSUES_SET, "Write a reply to whoever reported #427.")
F(ISSUES_SET, "What's probably causing the memory leak in #421?")
F(ISSUES_SET, "Is our team responsive enough to new issues?")
F(ISSUES_SET, "Suggest better labels for these issues.")
F(ISSUES_SET, "帮我把这些 issue 按重要程度排个序")
F(ISSUES_SET, "给 #444 写一个修复方案")
F(ISSUES_SET, "最近的 issue 有哪些？")

# --------------------------------------------------------------------------- build

CJK = re.compile(r"[\u4e00-\u9fff]")


def lang(words: str) -> str:
    return "zh" if CJK.search(words) else "en"


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
    rng = random.Random(3)
    seen: set[tuple[str, str]] = set()
    active = []
    for (name, words, fn), half in zip(ACTIVE, halves([w for _, w, _ in ACTIVE], rng), strict=True):
        assert (name, words) not in seen, words
        seen.add((name, words))
        answer = fn(RECORDS[name])
        assert answer is not None and answer != [] and answer != {}, words
        # JSON-serialisable, and a copy so the YAML holds no anchors shared with the records
        answer = json.loads(json.dumps(answer, ensure_ascii=False))
        active.append({"records": name, "words": words, "answer": answer, "half": half})
    fallback = []
    for (name, words), half in zip(FALLBACK, halves([w for _, w in FALLBACK], rng), strict=True):
        assert (name, words) not in seen, words
        seen.add((name, words))
        fallback.append({"records": name, "words": words, "half": half})
    return {"records": RECORDS, "active": active, "fallback": fallback}


def main() -> None:
    data = build()
    data["records"] = json.loads(json.dumps(data["records"], ensure_ascii=False))
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    OUT.write_text(text, encoding="utf-8")
    back = yaml.safe_load(OUT.read_text("utf-8"))
    assert back == data, "yaml round-trip changed the data"
    assert "&id" not in text and "*id" not in text, "yaml holds anchors/aliases"
    assert json.loads(json.dumps(back, ensure_ascii=False)) == data
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
        zh_all = sum(v for (h, lang), v in table.items() if lang == "zh")
        print(f"  zh share: {zh_all}/{total} = {zh_all / total:.0%}")
    per_set: dict[str, list[int]] = {}
    for kind_i, kind in enumerate(("active", "fallback")):
        for case in data[kind]:
            per_set.setdefault(case["records"], [0, 0])[kind_i] += 1
    print("per record set (active, fallback):", per_set)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
