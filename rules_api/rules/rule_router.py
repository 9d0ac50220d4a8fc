"""The intent router for a tenant's active rules: their examples' paraphrases.

When neither the built-in grammar nor any trigger of the tenant's active rules matches an
instruction, the engine's router (when it is on) compares the instruction with the
instructions of those rules' examples. A proposal is the example's instruction, with the
request's values carried over where that is exact; it must match one of the rule's triggers
(the rule's grammar) with the same slot values the request gives, and it then runs through
``RulesHub.answer`` like any matching request. The index of a tenant is rebuilt when its
rule-set version changes.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.messages import EngineRequest, Message
from zerolayer.core.normalise import normalise
from zerolayer.core.plan import Step
from zerolayer.core.segment import Segmented
from zerolayer.rules_api.rules.compiler import CompiledRule
from zerolayer.rules_api.rules.runner import readings_of
from zerolayer.rules_api.rules.triggers import instruction_key

MAX_TENANTS = 1024


def trigger_parser(rules: Sequence[CompiledRule]) -> Any:
    """A parse function for the router: the trigger a text matches, as one ``Step`` whose
    params are the slot values; ``Unsupported`` when no trigger matches."""

    def parse(text: str) -> list[Step]:
        key = instruction_key(text)
        for rule in rules:
            for trigger in rule.triggers:
                slots = trigger.match(key)
                if slots is not None:
                    return [Step(f"rule:{rule.name}", slots)]
        raise Unsupported("parse.no_match", "no trigger of the tenant's rules matches")

    return parse


class RuleRouter:
    """Per-tenant router indexes over the examples of active rules, built on demand."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine  # the built-in Engine, whose router is on
        self._indexes: dict[str, tuple[int, Any, Any]] = {}
        self._lock = threading.Lock()

    def _index(self, tenant: str, version: int, active: list[tuple[CompiledRule, int]]) -> Any:
        with self._lock:
            cached = self._indexes.get(tenant)
            if cached is not None and cached[0] == version:
                return cached[1], cached[2]
        rules = [rule for rule, _ in active]
        parse = trigger_parser(rules)
        examples = [
            (normalise(str(example.get("instruction", ""))), f"rule:{rule.name}@{number}")
            for rule, number in active
            for example in rule.examples
            if example.get("instruction")
        ]
        router = self.engine.router
        index = router.build_index(
            examples,
            parse,
            formats=self.engine.format_words(),
            keywords=self.engine.parser.keywords(),
        )
        with self._lock:
            if len(self._indexes) >= MAX_TENANTS:
                self._indexes.clear()
            self._indexes[tenant] = (version, index, parse)
        return index, parse

    def propose(
        self,
        tenant: str,
        version: int,
        active: list[tuple[CompiledRule, int]],
        request: Any,
        segmented: Sequence[Segmented] | None = None,
    ) -> tuple[EngineRequest, str] | None:
        """The request rewritten with the proposed instruction (and its payload given apart),
        and the proposal; None when the router has nothing to propose. ``segmented``: the
        readings of the message the engine made already."""
        if not active or not request.messages or request.messages[-1].role != "user":
            return None
        index, parse = self._index(tenant, version, active)
        if not index.entries:
            return None
        message = request.messages[-1].content
        readings = [
            (s.instruction, tuple(p.text for p in s.payloads))
            for s in readings_of(message, request.payloads, segmented)
        ]
        router = self.engine.router
        for instruction, payloads in readings[:3]:
            if len(payloads) != 1:
                continue
            attempt = router.route(
                index, normalise(instruction), payloads, parse, lambda _d, _f: True
            )
            if attempt.proposal is None:
                continue
            text = attempt.proposal.instruction
            messages = (*request.messages[:-1], Message("user", text))
            rewritten = dataclasses.replace(
                request, messages=messages, payloads=payloads, tenant=tenant
            )
            return rewritten, text
        return None
