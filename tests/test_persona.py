"""Role sentences (core/persona.py): benign only when every word is a word of roles."""

from __future__ import annotations

import pytest

from zerolayer.core.persona import role_end, roles_only

FORMATS = {"json", "yaml", "python", "markdown", "html", "sql", "pandas", "typescript"}

ROLES = [
    "You are a helpful assistant.",
    "You're an expert Python developer.",
    "Act as a senior data engineer:",
    "You are a YAML expert.",
    "You are an experienced data-format converter.",
    "你是一个专业的数据格式转换助手。",
    "你是Markdown渲染器，",
    "你是资深的Python工程师：",
    "You are a DevOps assistant that converts configuration files.",
    "You are an expert who helps with data formats.",
    "You convert configuration files.",
]
NOT_ROLES = [
    "You are a YAML expert who always indents with 4 spaces.",
    "You are a converter that sorts every key.",
    "You are a translator who answers in French.",
    "Act as a strict linter with 4-space indentation.",
    "You are a helpful assistant and you explain every step.",
    "You are concise.",
    "你是一个会用4个空格缩进的助手。",
    "你是否可以帮我转换？",
    "Convert this JSON to YAML.",
    "You are a tool that converts JSON to TOML.",
    "You convert JSON to YAML with 4-space indentation.",
    "You answer in French.",
    "You are an assistant that converts files and explains them.",
]


@pytest.mark.parametrize("text", ROLES)
def test_a_role_sentence_is_dropped_whole(text: str) -> None:
    end = role_end(text, FORMATS)
    assert end == len(text)
    assert roles_only(text, FORMATS)


@pytest.mark.parametrize("text", NOT_ROLES)
def test_a_sentence_with_any_other_word_is_no_role(text: str) -> None:
    assert role_end(text, FORMATS) == 0
    assert not roles_only(text, FORMATS)


@pytest.mark.parametrize("role", ROLES)
def test_the_instruction_after_a_role_is_kept(role: str) -> None:
    text = f"{role} Convert this JSON to YAML."
    assert text[role_end(text, FORMATS) :] == "Convert this JSON to YAML."


def test_roles_only_reads_several_sentences() -> None:
    assert roles_only("You are a helpful assistant. You are a YAML expert.", FORMATS)
    assert not roles_only("You are a helpful assistant. Indent with 4 spaces.", FORMATS)
