"""The app's own OpenAPI document as the contract, checked by schemathesis with all its checks.

schemathesis generates bodies, query strings and headers for every operation, valid and
invalid, and checks each answer against the document: no server error, only documented
status codes and content types, bodies that match their schemas, invalid input rejected,
``Allow`` on 405 listing the documented methods, and the rest of its default checks. The
rules and keys routes run on a throw-away SQLite store, called with an admin key (a request
whose generated headers carry another key gets the documented 401). 503 is the documented
answer of a fallback request without a fallback, so the app under test has one. Beyond the
answer checks, ``Allow`` on 405, undocumented methods, missing required headers and ignored
authentication are checked too. A stateful walk then creates a rule and activates it
through the documented operations only (keys, create, freeze, test, submit, approve by
another key, activate, answer), each answer checked against the document.

The number of examples per operation is bounded (``EXAMPLES``) so the whole run takes well
under a minute; raise ``ZEROLAYER_SCHEMATHESIS_EXAMPLES`` for a longer search.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    allow_header_conformance,
    content_type_conformance,
    ignored_auth,
    missing_required_header,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeEngine, FakeFallback

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests

EXAMPLES = int(os.environ.get("ZEROLAYER_SCHEMATHESIS_EXAMPLES") or 12)
ADMIN = "zl-contract-admin-key"
CONTRIB = Path(__file__).resolve().parents[2] / "contrib" / "rules"
# The answer checks. Not among them: positive_data_acceptance, which expects a 2xx for every
# schema-valid request, while much that a schema cannot express is refused by design: a
# recognised instruction whose payload is malformed (400 with its position), a random paging
# cursor, a rule document that does not compile (422), a stale ETag (412), a rule in a state
# that does not allow the change (409).
CHECKS = [
    not_a_server_error,
    allow_header_conformance,
    unsupported_method,
    missing_required_header,
    ignored_auth,
    status_code_conformance,
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    response_headers_conformance,
]


@pytest.fixture(scope="module")
def contract(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    folder: Path = tmp_path_factory.mktemp("contract")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("ZEROLAYER_DB_URL", f"sqlite:///{folder / 'rules.db'}")
        env.setenv("ZEROLAYER_ADMIN_KEY", ADMIN)
        env.setenv("ZEROLAYER_RULE_WORKERS", "1")
        app = create_app(FakeEngine(), fallback=FakeFallback())
        yield schemathesis.openapi.from_asgi("/openapi.json", app)
        state = getattr(app.state, "rules", None)
        if state is not None:
            state.close()  # the store and the rule worker processes


schema = schemathesis.pytest.from_fixture("contract")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_answer_keeps_to_the_documented_contract(case) -> None:  # type: ignore[no-untyped-def]
    headers = dict(case.headers or {})
    if case.path.startswith(("/v1/zero-rules", "/v1/keys", "/v1/audit", "/v1/status")):
        headers.setdefault("x-api-key", ADMIN)
        headers.setdefault("x-zerolayer-tenant", "acme")
    case.call_and_validate(headers=headers, checks=CHECKS)


def test_a_rule_is_created_and_activated_through_the_documented_contract(contract) -> None:  # type: ignore[no-untyped-def]
    # The stateful walk: keys, create, freeze, test, submit, approve (by another key than the
    # author's), activate, then an answer with the client's key; every request built from the
    # document's operations and every answer checked against it.
    schema: Any = contract
    admin = {"x-api-key": ADMIN, "x-zerolayer-tenant": "acme"}

    def call(path: str, method: str, status: int, **parts: Any) -> Any:
        case = schema[path][method].Case(**parts)
        response = case.call_and_validate(checks=CHECKS)
        assert response.status_code == status, response.text
        return response

    def header(response: Any, name: str) -> str:
        value = response.headers[name]  # schemathesis keeps each header's values in a list
        return str(value[0] if isinstance(value, list) else value)

    keys = {}
    for who in ("author", "reviewer", "publisher", "client"):
        body = {"tenant": "acme", "roles": [who], "name": f"walk-{who}"}
        keys[who] = call("/v1/keys", "POST", 201, body=body, headers=admin).json()["key"]

    def h(who: str, etag: str | None = None) -> dict[str, str]:
        return {"x-api-key": keys[who], **({"If-Match": etag} if etag else {})}

    document = yaml.safe_load((CONTRIB / "email-list.yaml").read_text(encoding="utf-8"))
    created = call("/v1/zero-rules", "POST", 201, body=document, media_type="application/json",
                   headers=h("author"))  # fmt: skip
    name = created.json()["name"]
    frozen = call("/v1/zero-rules/{name}/versions", "POST", 201, path_parameters={"name": name},
                  headers=h("author", header(created, "etag"))).json()  # fmt: skip
    version = {"name": name, "number": frozen["number"]}
    tested = call("/v1/zero-rules/{name}/versions/{number}/test", "POST", 200,
                  path_parameters=version, headers=h("author"))  # fmt: skip
    assert tested.json()["passed"]
    submitted = call("/v1/zero-rules/{name}/versions/{number}/submit", "POST", 200,
                     path_parameters=version, headers=h("author", frozen["etag"]))  # fmt: skip
    approved = call("/v1/zero-rules/{name}/versions/{number}/approve", "POST", 200,
                    path_parameters=version, body={"content_hash": frozen["content_hash"]},
                    headers=h("reviewer", submitted.json()["etag"]))  # fmt: skip
    active = call("/v1/zero-rules/{name}/activate", "POST", 200, path_parameters={"name": name},
                  body={"version": frozen["number"]},
                  headers=h("publisher", approved.json()["etag"]))  # fmt: skip
    assert active.json()["active_version"] == frozen["number"]
    message = "Extract the email addresses:\n\nmail a@b.io and c@d.io"
    answer = call("/v1/messages", "POST", 200, headers=h("client"),
                  body={"model": "m", "max_tokens": 100, "temperature": 0,
                        "messages": [{"role": "user", "content": message}]})  # fmt: skip
    assert header(answer, "x-zero-layer-status") == "active"
    assert answer.json()["content"][0]["text"] == "a@b.io\nc@d.io\n"
