"""Property test of the app's own OpenAPI document: no generated input gets a 5xx.

schemathesis generates bodies, query strings and headers for every operation, valid and
invalid; the only check is that the server never answers with a server error. 503 is the
documented answer of a fallback request without a fallback, so the app under test has one.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeEngine, FakeFallback

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests

app = create_app(FakeEngine(), fallback=FakeFallback())
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_on_any_generated_input(case) -> None:  # type: ignore[no-untyped-def]
    case.call_and_validate(checks=[not_a_server_error])
