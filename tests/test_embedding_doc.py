"""docs/embedding.md: its example service, run exactly as written, answers deterministic
requests in-process and forwards the rest to its model client."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient

DOC = Path(__file__).resolve().parents[1] / "docs" / "embedding.md"
EXAMPLE = re.compile(r"<!-- embedding-example: (\S+) -->\n```python\n(.*?)```", re.DOTALL)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    (name, code), *more = EXAMPLE.findall(DOC.read_text(encoding="utf-8"))
    assert not more, "one example, run as written"
    path = tmp_path_factory.mktemp("embedding") / name
    path.write_text(code, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(path.stem, None)


def _chat(service: ModuleType, content: str, temperature: float = 0.0):  # type: ignore[no-untyped-def]
    client = TestClient(service.app)
    body = {"messages": [{"role": "user", "content": content}], "temperature": temperature}
    return client.post("/chat", json=body)


def test_deterministic_request_is_answered_in_process(service: ModuleType) -> None:
    calls = len(service.model.calls)
    response = _chat(service, 'Convert this JSON to YAML: {"a": 1}')
    assert response.status_code == 200
    assert response.json() == {
        "text": "a: 1\n",
        "answered_by": "zerolayer",
        "plan": "json.parse | yaml.emit",
    }
    assert len(service.model.calls) == calls  # the model was not asked


@pytest.mark.parametrize(
    ("content", "temperature"),
    [
        ('Convert this JSON to YAML: {"a": 1}', 0.7),
        ("What do you think of YAML?", 0.0),
        ("Write a haiku about JSON", 0.0),
    ],
)
def test_the_rest_goes_to_the_model_client(
    service: ModuleType, content: str, temperature: float
) -> None:
    calls = len(service.model.calls)
    response = _chat(service, content, temperature)
    assert response.status_code == 200
    assert response.json()["answered_by"] == "model"
    assert response.json()["text"] == f"(model) {content[:40]}"
    assert len(service.model.calls) == calls + 1


def test_malformed_payload_is_a_400_naming_the_line(service: ModuleType) -> None:
    response = _chat(service, 'Convert this JSON to YAML:\n\n{\n  "a": \n}')
    assert response.status_code == 400
    assert "line 3" in response.json()["detail"]


def test_bad_roles_are_refused(service: ModuleType) -> None:
    client = TestClient(service.app)
    response = client.post("/chat", json={"messages": [{"role": "system", "content": "x"}]})
    assert response.status_code == 422
