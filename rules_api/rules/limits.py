"""Limits that protect the server from hostile rule uploads."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleLimits:
    """Every limit applied to rule documents and their runs."""

    max_document_bytes: int = 256 * 1024
    max_nodes: int = 5_000  # values in a parsed document (YAML alias bombs stop here)
    max_phrases: int = 32
    max_phrase_chars: int = 200
    max_slots: int = 4
    max_steps: int = 16
    max_examples: int = 32
    max_example_bytes: int = 64 * 1024
    max_patterns: int = 16
    max_pattern_chars: int = 1_000
    max_templates: int = 8
    max_template_chars: int = 16 * 1024
    max_output_chars: int = 1_000_000
    regex_timeout_s: float = 0.5  # one regular-expression call
    run_timeout_s: float = 2.0  # one pipeline run, in the worker process (hard)
    compile_timeout_s: float = 1.0  # compiling an uploaded document, in a worker process
    worker_memory_bytes: int = 2 * 1024 * 1024 * 1024
    max_payload_bytes: int = 1024 * 1024
    # trigger grammar fragments
    max_grammar_chars: int = 4_000
    max_grammar_definitions: int = 32  # rules and terminals
    max_grammar_symbols: int = 256  # words, patterns and references in expansions
    max_grammar_depth: int = 8  # nesting of ( … ) and [ … ]
    max_grammar_pattern_chars: int = 100
    max_grammar_samples: int = 64  # sample instructions checked against built-ins and rules
    max_grammar_instruction_chars: int = 1_000  # longer instructions are not parsed
    max_grammar_rules_per_tenant: int = 64  # active rules with a grammar, per tenant


DEFAULT_LIMITS = RuleLimits()
