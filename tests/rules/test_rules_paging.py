"""List routes are bounded and paged the same way: ``limit`` and ``cursor`` in,
``next_cursor`` out; walking the pages yields every item once, in the list's order."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rules_helpers import Rig, contrib

from zerolayer.rules_api.rules.paging import DEFAULT_LIMIT, MAX_LIMIT

ADMIN = "bootstrap-secret-for-paging"


@pytest.fixture
def admin(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("ZEROLAYER_ADMIN_KEY", ADMIN)
    return {"x-api-key": ADMIN, "x-zerolayer-tenant": "acme"}


def walk(rig: Rig, path: str, key: str, headers: dict[str, str], limit: int) -> list[Any]:
    """Every item of a list route, page by page (at most 50 pages)."""
    items: list[Any] = []
    cursor = None
    for _ in range(50):
        params: dict[str, Any] = {"limit": limit}
        if cursor:
            params["cursor"] = cursor
        r = rig.client.get(path, params=params, headers=headers)
        assert r.status_code == 200, r.text
        page = r.json()
        assert len(page[key]) <= limit
        items.extend(page[key])
        cursor = page["next_cursor"]
        if cursor is None:
            return items
    raise AssertionError("the pages did not end")


def test_every_list_route_pages_through_all_its_items(rig: Rig, admin: dict[str, str]) -> None:
    c = rig.client
    for i in range(7):  # seven more keys, each audited
        r = c.post("/v1/keys", json={"tenant": "acme", "roles": ["client"], "name": f"k{i}"},
                   headers=admin)  # fmt: skip
        assert r.status_code == 201, r.text
    for name in ("contract-faq.yaml", "email-list.yaml", "mask-phones.yaml"):
        r = c.post("/v1/zero-rules", content=contrib(name),
                   headers={**rig.h("author"), "content-type": "application/yaml"})  # fmt: skip
        assert r.status_code == 201, r.text
    etag = c.get("/v1/zero-rules/contract-faq", headers=rig.h("author")).headers["etag"]
    for i in range(3):  # three frozen versions, each of a changed draft
        if i:
            text = contrib("contract-faq.yaml").replace("user-friendly FAQ", f"FAQ (revision {i})")
            r = c.put("/v1/zero-rules/contract-faq/draft", content=text,
                      headers={**rig.h("author", etag), "content-type": "application/yaml"})  # fmt: skip
            assert r.status_code == 200, r.text
            etag = r.headers["etag"]
        r = c.post("/v1/zero-rules/contract-faq/versions", headers=rig.h("author", etag))
        assert r.status_code == 201, r.text
        etag = r.json()["etag"]
    versions = c.get("/v1/zero-rules/contract-faq/versions", headers=rig.h("author")).json()
    assert [v["number"] for v in versions["versions"]] == [1, 2, 3]
    auditor = rig.h("auditor")
    cases = [
        ("/v1/keys", "keys", admin, lambda k: k["key_id"]),
        ("/v1/audit", "audit", auditor, lambda a: a["id"]),
        ("/v1/zero-rules", "rules", rig.h("author"), lambda r: r["name"]),
        ("/v1/zero-rules/contract-faq/audit", "audit", auditor, lambda a: a["id"]),
        ("/v1/zero-rules/contract-faq/versions", "versions", auditor, lambda v: v["number"]),
    ]
    for path, key, headers, ident in cases:
        whole = c.get(path, params={"limit": MAX_LIMIT}, headers=headers).json()
        assert whole["next_cursor"] is None
        for limit in (1, 2, 3):
            pages = walk(rig, path, key, headers, limit)
            assert [ident(i) for i in pages] == [ident(i) for i in whole[key]], path
    audit = c.get("/v1/audit", headers=auditor).json()["audit"]
    assert [a["id"] for a in audit] == sorted((a["id"] for a in audit), reverse=True)
    assert len(audit) <= DEFAULT_LIMIT


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("limit=0", "limit"),
        ("limit=501", "limit"),
        ("limit=ten", "limit"),
        ("cursor=not-a-cursor", "cursor"),
        ("cursor=WyJhIiwiYiJd", "cursor"),  # a cursor of another list (two values)
        ("cursor=" + "A" * 600, "cursor"),
    ],
)
def test_a_bad_limit_or_cursor_is_400_naming_it(rig: Rig, query: str, names: str) -> None:
    r = rig.client.get(f"/v1/audit?{query}", headers=rig.h("auditor"))
    assert r.status_code == 400, r.text
    assert re.match(names, r.json()["message"])
    assert r.json()["errors"][0]["location"] == f"query:{names}"


@pytest.mark.parametrize(
    ("path", "allow"),
    [
        ("/v1/keys", "GET, HEAD, POST"),
        ("/v1/zero-rules", "GET, HEAD, POST"),
        ("/v1/zero-rules/some-rule/versions", "GET, HEAD, POST"),
        ("/v1/audit", "GET, HEAD"),
    ],
)
def test_405_names_every_method_of_the_path(rig: Rig, path: str, allow: str) -> None:
    r = rig.client.options(path, headers=rig.h("author"))
    assert r.status_code == 405
    assert r.headers["allow"] == allow
    assert r.headers.get_list("allow") == [allow]


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_a_concrete_path_is_not_read_as_a_rule_name(rig: Rig, method: str) -> None:
    """``/v1/zero-rules/validate`` is the validate route's (POST only), not a rule named
    ``validate`` (a reserved name no rule can take): 405 with ``Allow: POST``, not 404."""
    r = rig.client.request(method, "/v1/zero-rules/validate", headers=rig.h("author"))
    assert r.status_code == 405, r.text
    assert r.headers["allow"] == "POST"
    r = rig.client.post("/v1/zero-rules/schema", headers=rig.h("author"))
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    assert (
        rig.client.get("/v1/zero-rules/validate/versions", headers=rig.h("author")).status_code
        == 404
    )
    assert rig.client.get("/v1/zero-rules/validated", headers=rig.h("author")).status_code == 404
