"""JSONTestSuite (nst/JSONTestSuite): n_ rejected with a position, y_ read and converted."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
import yaml

from zerolayer.core.errors import PayloadError, ZeroLayerError
from zerolayer.plugins.json_yaml.codec import decode_payload, emit_yaml, parse_json, verify_yaml
from zerolayer.plugins.json_yaml.yaml_read import parse_yaml_ruamel_safe

from ._support import QUOTES, SEQ_STYLES, corpus_listing, option_problems, strict_equal

FILES = corpus_listing("JSONTestSuite", "test_parsing")
N_FILES = [p for p in FILES if p.name.startswith("n_")]
Y_FILES = [p for p in FILES if p.name.startswith("y_")]
I_FILES = [p for p in FILES if p.name.startswith("i_")]
OPTIONS = [
    {"quote": q, "seq_style": s, "sort_keys": k, "indent": i, "explicit_start": e}
    for q, s, k, i, e in itertools.product(QUOTES, SEQ_STYLES, (False, True), (2, 4), (False, True))
]


def test_corpus_counts() -> None:
    if not FILES:
        pytest.skip("JSONTestSuite corpus not available")
    assert (len(Y_FILES), len(N_FILES), len(I_FILES)) == (95, 188, 35)


@pytest.mark.parametrize("path", N_FILES, ids=lambda p: p.name)
def test_n_file_is_a_positioned_payload_error(path: Path) -> None:
    with pytest.raises(PayloadError) as info:
        parse_json(decode_payload(path.read_bytes()))
    err = info.value
    assert err.line is not None and err.line >= 1
    assert err.column is not None and err.column >= 1
    assert f"line {err.line}, column {err.column}" in str(err)


@pytest.mark.parametrize("path", Y_FILES, ids=lambda p: p.name)
def test_y_file_parses_and_converts_in_every_style(path: Path) -> None:
    text = decode_payload(path.read_bytes())
    value = parse_json(text)
    assert strict_equal(value, json.loads(text))
    for options in OPTIONS:
        out = emit_yaml(value, **options)
        verify_yaml(out, value, ordered=not options["sort_keys"])
        assert strict_equal(yaml.safe_load(out), value), (options, out)
        assert strict_equal(parse_yaml_ruamel_safe(out), value), (options, out)
        assert option_problems(out, options) == [], (options, out)


@pytest.mark.parametrize("path", I_FILES, ids=lambda p: p.name)
def test_i_file_is_read_or_refused_cleanly(path: Path) -> None:
    data = path.read_bytes()
    try:
        value = parse_json(decode_payload(data))
        out = emit_yaml(value)
    except ZeroLayerError:  # PayloadError, Unsupported or LimitExceeded: a clean refusal
        return
    verify_yaml(out, value, thorough=True)
