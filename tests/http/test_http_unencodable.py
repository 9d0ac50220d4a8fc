"""``unencodable_field``: the field of a request body that holds text UTF-8 cannot encode."""

from __future__ import annotations

import json

from zerolayer.rules_api.encoding import unencodable_field
from zerolayer.rules_api.schemas import ChatCompletionRequest, MessagesRequest


def test_the_first_lone_surrogate_is_named_by_its_path() -> None:
    body = json.loads(
        '{"model": "m", "max_tokens": 5, "system": [{"type": "text", "text": "é ✓ 😀 \\ud83d\\ude00"}],'
        ' "messages": [{"role": "user", "content": [{"type": "text", "text": "ok"},'
        ' {"type": "text", "text": "x \\udfff"}]}], "metadata": {"k": "\\ud800"}}'
    )
    model = MessagesRequest.model_validate(body)
    assert unencodable_field(model) == ("messages.0.content.1.text", "\udfff")
    assert unencodable_field(body) == ("messages.0.content.1.text", "\udfff")


def test_extra_fields_keys_and_valid_text() -> None:
    ok = {"model": "m", "messages": [{"role": "user", "content": "ä 中文 \U0001f600"}]}
    assert unencodable_field(ChatCompletionRequest.model_validate(ok)) is None
    extra = ChatCompletionRequest.model_validate({**ok, "user": "\ud800"})
    assert unencodable_field(extra) == ("user", "\ud800")
    key = ChatCompletionRequest.model_validate({**ok, "logit_bias": {"\udc00": 1.0}})
    assert unencodable_field(key) == ("logit_bias.\udc00", "\udc00")
