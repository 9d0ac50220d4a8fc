"""The JSON Schema of a rule document, published at ``GET /v1/zero-rules/schema``."""

from __future__ import annotations

from typing import Any

from zerolayer.core.types import TEXTUAL_TYPES
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits

SCHEMA_ID = "https://zerolayer.dev/schemas/zero-rule-1.json"
NAME_PATTERN = r"^[a-z][a-z0-9_-]{0,62}$"
KEY_PATTERN = r"^[a-z][a-z0-9_]{0,31}$"


def rule_schema(limits: RuleLimits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) every rule document must satisfy."""
    named_text = {"type": "string", "minLength": 1}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "zerolayer rule",
        "description": "A deterministic transformation a tenant teaches zerolayer.",
        "type": "object",
        "additionalProperties": False,
        "required": ["name", "triggers", "pipeline", "examples"],
        "properties": {
            "name": {
                "type": "string",
                "pattern": NAME_PATTERN,
                "description": "Unique within the tenant: lower case, digits, - and _.",
            },
            "description": {"type": "string", "maxLength": 2000},
            "triggers": {
                "type": "object",
                "additionalProperties": False,
                "minProperties": 1,
                "properties": {
                    "phrases": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": limits.max_phrases,
                        "items": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": limits.max_phrase_chars,
                        },
                        "description": "Instruction phrases in any language; {slot} or "
                        "{slot:int|word|text} marks a typed slot.",
                    },
                    "grammar": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": limits.max_grammar_chars,
                        "description": "A restricted Lark grammar fragment with a rule named "
                        "trigger; each other rule's matched text is a slot.",
                    },
                },
            },
            "input": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "type": {"const": "text"},
                    "format": {
                        "type": "string",
                        "pattern": KEY_PATTERN,
                        "description": "The format of the input text (json, yaml, csv …): "
                        "chooses the op that reads it when a step needs parsed data.",
                    },
                    "description": {"type": "string", "maxLength": 500},
                },
            },
            "output": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "type": {"enum": sorted(TEXTUAL_TYPES)},
                    "description": {"type": "string", "maxLength": 500},
                },
            },
            "patterns": {
                "type": "object",
                "maxProperties": limits.max_patterns,
                "propertyNames": {"pattern": KEY_PATTERN},
                "additionalProperties": {**named_text, "maxLength": limits.max_pattern_chars},
                "description": "Named regular expressions used by regex.* steps.",
            },
            "templates": {
                "type": "object",
                "maxProperties": limits.max_templates,
                "propertyNames": {"pattern": KEY_PATTERN},
                "additionalProperties": {**named_text, "maxLength": limits.max_template_chars},
                "description": "Named Jinja2 templates (sandboxed) used by template.render.",
            },
            "pipeline": {
                "type": "string",
                "minLength": 1,
                "maxLength": 4000,
                "description": "Steps in the engine's pipeline language, joined by |.",
            },
            "examples": {
                "type": "array",
                "minItems": 1,
                "maxItems": limits.max_examples,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["input", "expected"],
                    "properties": {
                        "name": {"type": "string", "maxLength": 200},
                        "instruction": {"type": "string", "maxLength": limits.max_phrase_chars},
                        "input": {"type": "string", "maxLength": limits.max_example_bytes},
                        "expected": {"type": "string", "maxLength": limits.max_example_bytes},
                    },
                },
            },
        },
    }
