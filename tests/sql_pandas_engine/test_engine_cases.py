"""SQL → pandas requests end to end through ``Engine.run``.

Each case in ``cases/*.yaml`` is a user message and one expectation:

* ``sql``: the request is answered deterministically; the answer is executed with the tables
  of ``tests/sql_pandas/cases.yaml`` (NULLs, ties, case variants) bound as DataFrames and its
  ``result`` is compared with what SQLite returns for ``sql``. ``frames`` maps the DataFrame
  variables the code must read to fixture tables (default: every table under its own name);
  ``plan`` pins the plan that ran; ``code_has`` / ``code_lacks`` are substrings of the code;
* ``fallback``: the request goes to the model with this reason;
* ``error``: an HTTP 400 answer with this error class, at ``line`` and ``column``.

``disabled: true`` sends the request as with the ``x-zero-layer: disable`` header.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from case_files import assert_fallback_or_error, case_params
from sql_pandas.harness import compare, is_ordered, sqlite_result

from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.messages import EngineRequest, Message, Route

CASES = Path(__file__).parent / "cases"
FIXTURES = yaml.safe_load(
    (Path(__file__).parents[1] / "sql_pandas" / "cases.yaml").read_text(encoding="utf-8")
)["tables"]


ALL = case_params(CASES)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(EngineConfig(plugins=None))


def _request(case: dict[str, Any]) -> EngineRequest:
    return EngineRequest(
        messages=(Message("user", case["message"]),),
        temperature=0.0,
        disabled=case.get("disabled", False),
    )


def _run_code(code: str, frames: dict[str, str] | None) -> Any:
    """Execute the answer with only the DataFrames it should read; return ``result``."""
    names = frames or {name: name for name in FIXTURES}
    env: dict[str, Any] = {"__name__": "__sql_pandas_engine_test__"}
    for var, table in names.items():
        t = FIXTURES[table]
        env[var] = pd.DataFrame(t["rows"], columns=t["columns"])
    exec(compile(code, "<answer>", "exec"), env)
    return env["result"]


@pytest.mark.parametrize("case", ALL)
def test_case(engine: Engine, case: dict[str, Any]) -> None:
    result = engine.run(_request(case))
    if "sql" in case:
        assert result.route is Route.DETERMINISTIC, (result.reason, result.detail, result.error)
        code = result.output
        assert code is not None
        if "plan" in case:
            assert result.plan == case["plan"]
        for piece in case.get("code_has", []):
            assert piece in code, code
        for piece in case.get("code_lacks", []):
            assert piece not in code, code
        cols, rows = sqlite_result(FIXTURES, case["sql"])
        diff = compare(_run_code(code, case.get("frames")), cols, rows, is_ordered(case["sql"]))
        assert diff is None, f"{diff}\n--- code ---\n{code}"
    else:
        assert_fallback_or_error(result, case)
        if "fallback" not in case:
            assert (result.error.line, result.error.column) == (case["line"], case["column"])


def test_there_are_enough_cases() -> None:
    cases = [p.values[0] for p in ALL]
    langs = {c["id"].split("-")[0] for c in cases}
    assert len(cases) >= 40 and {"en", "zh"} <= langs
    assert sum("fallback" in c for c in cases) >= 10
