"""Hand-written English and Chinese payloads (cases/payloads.yaml), rendered exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from zerolayer.plugins.markdown_html.render import render_markdown
from zerolayer.plugins.markdown_html.sanity import html_problems

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "payloads.yaml").read_text("utf-8"))


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in CASES])
def test_payload(case: dict) -> None:
    html = render_markdown(case["markdown"], gfm=case["gfm"])
    assert html == case["html"]
    assert html_problems(html) == []


def test_sanity_check_catches_mismatched_tags() -> None:
    assert html_problems("<p><em>x</p>") == [
        "</p> closes em",
        "<p> is never closed",
        "<em> is never closed",
    ]
    assert html_problems("<p>a<br />b</p>\n<hr />") == []
