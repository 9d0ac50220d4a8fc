"""``zerolayer bench``: the metrics of a small case file with known outcomes, in-process and
over HTTP, the neural side of ``--compare``, the dev corpus (no false activation, the same
routes in-process and against a live server), and the command line."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from plugin_kit_support import PYTHON, subprocess_env

from zerolayer.cli.bench import (
    in_process,
    load_cases,
    over_http,
    percentile,
    progress_bar,
    run_bench,
)
from zerolayer.core.engine import Engine, EngineConfig
from zerolayer.core.errors import ZeroLayerError
from zerolayer.plugins import DEFAULT_PLUGINS
from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeFallback, serve_app

CASES = Path(__file__).parent / "cases" / "bench.jsonl"
# ../shared/zeroscore next to the repository, as tests/test_zeroscore.py finds it
DEV = (
    Path(
        os.environ.get(
            "ZEROSCORE_DIR", Path(__file__).resolve().parents[3] / "shared" / "zeroscore"
        )
    )
    / "dev.jsonl"
)
BUILTIN = frozenset(m.rsplit(".", 1)[-1] for m in DEFAULT_PLUGINS)
EXPECTED = {  # case id -> (route, output check passed)
    "conv-ok": ("zero", True),
    "conv-wrong-gold": ("zero", False),
    "md": ("zero", True),
    "unanswered": ("neural", False),
    "neg-open": ("neural", True),
    "neg-disabled": ("neural", True),
    "neg-temp": ("neural", True),
    "bad": ("error", True),
    "bad-wrong-line": ("error", False),
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(EngineConfig(plugins=BUILTIN))


def test_in_process_outcomes_and_totals(engine: Engine) -> None:
    report = run_bench(load_cases(CASES), in_process(engine))
    assert {o.id: (o.route, o.passed) for o in report.outcomes} == EXPECTED
    total = report.summary()["zerolayer"]["total"]
    assert total["cases"] == 9 and total["zero_cases"] == 4
    assert total["activated"] == 3 and total["activation_rate"] == 0.75
    assert total["false_activations"] == 0
    assert total["output_correct"] == 2 and total["ser"] == 0.5
    assert total["correct_when_active"] == round(2 / 3, 4)
    assert total["errors_ok"] == 0.5
    assert total["latency_ms"]["p50"] is not None
    by_category = report.summary()["zerolayer"]["categories"]
    assert by_category["negative"]["route_correct"] == 3
    assert by_category["bad_input"]["errors_ok"] == 0.5


def test_compare_runs_the_neural_route_side_by_side(engine: Engine) -> None:
    fallback = FakeFallback()
    cases = load_cases(CASES)
    report = run_bench(cases, in_process(engine, fallback), compare=True)
    neural = [o for o in report.outcomes if o.side == "neural"]
    assert len(neural) == len(cases) and {o.route for o in neural} == {"neural"}
    assert all(o.output and o.output.startswith("[fallback]") for o in neural)
    summary = report.summary()
    assert summary["neural"]["total"]["activated"] == 0
    assert summary["neural"]["total"]["latency_ms"]["p50"] is not None
    # the engine side is unchanged by the comparison (the fallback answers "unanswered" now)
    engine_side = {o.id: o.route for o in report.outcomes if o.side == "zerolayer"}
    assert engine_side == {k: v[0] for k, v in EXPECTED.items()}


@pytest.mark.slow
def test_over_http_gives_the_same_outcomes(engine: Engine) -> None:
    app = create_app(engine, fallback=FakeFallback())
    with serve_app(app) as url, over_http(url) as runner:
        report = run_bench(load_cases(CASES), runner, compare=True)
    mine = {o.id: (o.route, o.passed) for o in report.outcomes if o.side == "zerolayer"}
    assert mine == EXPECTED
    assert {o.route for o in report.outcomes if o.side == "neural"} == {"neural"}


@pytest.mark.slow
@pytest.mark.skipif(not DEV.is_file(), reason="no ../shared/zeroscore/dev.jsonl")
def test_dev_corpus_in_process_matches_a_live_server(engine: Engine) -> None:
    cases = load_cases(DEV)
    local = run_bench(cases, in_process(engine))
    assert local.summary()["zerolayer"]["total"]["false_activations"] == 0
    with serve_app(create_app(engine)) as url, over_http(url) as runner:
        remote = run_bench(cases, runner)
    assert [(o.id, o.route, o.passed) for o in local.outcomes] == [
        (o.id, o.route, o.passed) for o in remote.outcomes
    ]


def test_unreachable_server() -> None:
    case = load_cases(CASES)[0]
    with over_http("http://127.0.0.1:9", timeout=2) as runner:
        report = run_bench([case], runner)
    assert report.outcomes[0].route == "unreachable" and report.outcomes[0].passed is False


def test_progress_bar_counts_every_run(engine: Engine) -> None:
    stream = io.StringIO()
    run_bench(load_cases(CASES)[:2], in_process(engine), progress=progress_bar(stream, 10))
    assert "2/2" in stream.getvalue() and stream.getvalue().endswith("\n")


@pytest.mark.parametrize(
    ("values", "p", "expected"),
    [
        ([], 50, None),
        ([5.0], 95, 5.0),
        ([1.0, 2.0, 3.0, 4.0], 50, 2.0),
        ([1.0, 2.0, 3.0, 4.0], 95, 4.0),
    ],
)
def test_percentile(values: list[float], p: float, expected: float | None) -> None:
    assert percentile(values, p) == expected


def test_bad_case_file(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text('{"id": "x"}\n')
    with pytest.raises(ZeroLayerError, match="line 1"):
        load_cases(path)


@pytest.mark.slow
def test_cli_bench(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    args = ["bench", str(CASES), "--compare", "--report", str(report)]
    ran = subprocess.run(
        [PYTHON, "-m", "zerolayer.cli", *args],
        capture_output=True,
        text=True,
        env=subprocess_env(ZEROLAYER_PLUGINS=",".join(sorted(BUILTIN))),
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert "== zerolayer" in ran.stdout and "== neural" in ran.stdout
    assert "BENCH side=zerolayer recall=0.750 false_activations=0 ser=0.500" in ran.stdout
    assert "9/9" not in ran.stdout and "18/18" in ran.stderr  # the progress bar
    data = json.loads(report.read_text())
    assert len(data["cases"]) == 18 and set(data["summary"]) == {"zerolayer", "neural"}
