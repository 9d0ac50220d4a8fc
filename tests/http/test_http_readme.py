"""README.md's examples, run as written against a live server on the real engine.

The curl commands and the Python blocks for the official ``anthropic`` and ``openai`` SDKs are
read out of the README, pointed at the server this module starts (the README says
``127.0.0.1:8000`` / ``localhost:8000``), and run; what each prints must be what its comment
says. The neural fallback is the test double (the README's local model is not needed to show
that an open request is handed to the model). The same SDKs, called without sampling
parameters, also get the typed errors docs/http.md lists: 400 with the payload's line and
column, 503 when an open request has no fallback.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import anthropic
import openai
import pytest
import yaml

from zerolayer.core.messages import EngineRequest, Message, Route
from zerolayer.rules_api import create_app
from zerolayer.rules_api.testing import FakeFallback, serve_app

pytestmark = pytest.mark.slow  # builds the real engine and starts servers

engine_module = pytest.importorskip("zerolayer.core.engine", reason="the real engine is not here")

README = Path(__file__).resolve().parents[2] / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
README_HOSTS = ("http://127.0.0.1:8000", "localhost:8000")


def blocks(language: str, containing: str) -> list[str]:
    """README's fenced blocks of ``language`` whose text contains ``containing``."""
    text = README.read_text(encoding="utf-8")
    found = [body for lang, body in FENCE.findall(text) if lang == language and containing in body]
    assert found, f"README.md has no {language} block with {containing!r}"
    return found


def pointed_at(code: str, url: str) -> str:
    """``code`` with the README's server address replaced by ``url``."""
    host = url.removeprefix("http://")
    return code.replace(README_HOSTS[0], url).replace(README_HOSTS[1], host)


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return engine_module.Engine()


@pytest.fixture(scope="module")
def server(engine) -> Iterator[str]:  # type: ignore[no-untyped-def]
    with serve_app(create_app(engine, fallback=FakeFallback())) as url:
        yield url


@pytest.fixture(scope="module")
def no_fallback(engine) -> Iterator[str]:  # type: ignore[no-untyped-def]
    with serve_app(create_app(engine)) as url:
        yield url


@pytest.mark.parametrize("sdk", ["anthropic", "openai"])
def test_readme_sdk_example_prints_what_its_comment_says(server: str, sdk: str) -> None:
    (code,) = blocks("python", f"import {sdk}\n")
    assert "temperature" not in code and "extra_body" not in code  # as the SDKs document it
    expected = code.rstrip().rsplit("# ", 1)[1]
    out = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(pointed_at(code, server), f"README.md ({sdk})", "exec"), namespace)
    namespace["client"].close()  # type: ignore[attr-defined]
    assert " ".join(out.getvalue().split()) == expected


def curl_commands() -> list[tuple[str, str]]:
    """Each curl command of README's HTTP block and the status its comment names."""
    (block,) = blocks("bash", "curl ")
    commands = re.split(r"^(?=curl )", block, flags=re.MULTILINE)
    found = []
    for command in filter(None, (c.strip() for c in commands)):
        comment = command.rsplit("# ", 1)[1]
        found.append((command, "inactive" if "inactive" in comment else "active"))
    assert len(found) >= 2
    return found


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize(("command", "status"), curl_commands(), ids=["first", "second"])
def test_readme_curl_example_is_routed_as_its_comment_says(
    server: str, command: str, status: str
) -> None:
    runnable = pointed_at(command, server).replace("curl -s ", "curl -s -i ", 1)
    done = subprocess.run(
        ["bash", "-c", runnable], capture_output=True, text=True, timeout=60, check=True
    )
    head, _, body = done.stdout.partition("\n\n")  # text mode reads CRLF as LF
    assert head.startswith("HTTP/1.1 200"), done.stdout
    assert f"x-zero-layer-status: {status}" in head.lower()
    assert '"type":"message"' in body.replace(" ", "")


def test_readme_python_example_gives_the_values_its_comments_say(engine) -> None:  # type: ignore[no-untyped-def]
    (code,) = blocks("python", "from zerolayer import Engine")
    namespace: dict[str, object] = {}
    checked = 0
    for line in code.splitlines():
        statement, _, comment = line.partition("  # ")
        try:
            expected = ast.literal_eval(comment)
        except (ValueError, SyntaxError):  # a comment in words: run the line
            if "Engine()" in statement:  # the module's engine: built once for these tests
                namespace["engine"] = engine
                continue
            exec(statement, namespace)
            continue
        assert eval(statement, namespace) == expected, line
        checked += 1
    assert checked >= 2


def test_sdks_without_sampling_get_the_exact_conversion(server: str, engine) -> None:  # type: ignore[no-untyped-def]
    text = 'Convert this JSON to YAML: {"id": 7, "tags": ["a", "b"]}'
    direct = engine.run(EngineRequest(messages=(Message("user", text),)))
    assert direct.route is Route.DETERMINISTIC
    assert yaml.safe_load(direct.output) == {"id": 7, "tags": ["a", "b"]}
    with anthropic.Anthropic(base_url=server, api_key="unused", max_retries=0) as client:
        raw = client.messages.with_raw_response.create(
            model="any", max_tokens=256, messages=[{"role": "user", "content": text}]
        )
    assert raw.headers["x-zero-layer-status"] == "active"
    assert raw.parse().content[0].text == direct.output  # byte for byte the engine's answer
    with openai.OpenAI(base_url=f"{server}/v1", api_key="unused", max_retries=0) as oclient:
        oraw = oclient.chat.completions.with_raw_response.create(
            model="any", messages=[{"role": "user", "content": text}]
        )
    assert oraw.headers["x-zero-layer-status"] == "active"
    assert oraw.parse().choices[0].message.content == direct.output


MALFORMED = 'Convert this JSON to YAML:\n\n{\n  "a": 1,\n  "b": nope\n}'


def test_sdks_without_sampling_get_400_with_the_position(server: str) -> None:
    with (
        anthropic.Anthropic(base_url=server, api_key="unused", max_retries=0) as client,
        pytest.raises(anthropic.BadRequestError) as info,
    ):
        client.messages.create(
            model="any", max_tokens=256, messages=[{"role": "user", "content": MALFORMED}]
        )
    assert info.value.response.headers["x-zero-layer-status"] == "active"
    assert "line 3, column 8" in info.value.body["error"]["message"]  # type: ignore[index]
    with (
        openai.OpenAI(base_url=f"{server}/v1", api_key="unused", max_retries=0) as oclient,
        pytest.raises(openai.BadRequestError) as oinfo,
    ):
        oclient.chat.completions.create(
            model="any", messages=[{"role": "user", "content": MALFORMED}]
        )
    assert oinfo.value.code is None and oinfo.value.type == "invalid_request_error"
    assert "line 3, column 8" in oinfo.value.message


def test_sdks_without_sampling_get_503_for_an_open_request_without_fallback(
    no_fallback: str,
) -> None:
    ask = [{"role": "user", "content": "Write a haiku about YAML"}]
    with (
        anthropic.Anthropic(base_url=no_fallback, api_key="unused", max_retries=2) as client,
        pytest.raises(anthropic.InternalServerError) as info,
    ):
        client.messages.create(model="any", max_tokens=64, messages=ask)  # type: ignore[arg-type]
    assert info.value.status_code == 503
    assert info.value.response.headers["x-zero-layer-status"] == "inactive"
    assert info.value.response.headers["x-should-retry"] == "false"
    with (
        openai.OpenAI(base_url=f"{no_fallback}/v1", api_key="unused", max_retries=2) as oclient,
        pytest.raises(openai.InternalServerError) as oinfo,
    ):
        oclient.chat.completions.create(model="any", messages=ask)  # type: ignore[arg-type]
    assert oinfo.value.status_code == 503
    assert oinfo.value.code == "fallback_not_configured"
