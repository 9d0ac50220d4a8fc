"""The app's own OpenAPI document as the contract, checked by schemathesis with all its checks.

schemathesis generates bodies, query strings and headers for every operation, valid and
invalid, and checks each answer against the document: no server error, only documented
status codes and content types, bodies that match their schemas, invalid input rejected,
``Allow`` on 405 listing the documented methods, and the rest of its default checks. The
rules and keys routes run on a throw-away SQLite store, called with an admin key (a request
whose generated headers carry another key gets the documented 401). 503 is the documented
answer of a fallback request without a fallback, so the app under test has one.

The number of examples per operation is bounded (``EXAMPLES``) so the whole run takes well
under a minute; raise ``ZEROLAYER_SCHEMATHESIS_EXAMPLES`` for a longer search.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeEngine, FakeFallback

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests

EXAMPLES = int(os.environ.get("ZEROLAYER_SCHEMATHESIS_EXAMPLES") or 12)
ADMIN = "zl-contract-admin-key"
# The answer checks. Not among them: positive_data_acceptance, which expects a 2xx for every
# schema-valid request, while much that a schema cannot express is refused by design: a
# recognised instruction whose payload is malformed (400 with its position), a random paging
# cursor, a rule document that does not compile (422), a stale ETag (412), a rule in a state
# that does not allow the change (409).
CHECKS = [
    not_a_server_error,
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
