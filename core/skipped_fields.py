"""A field the instruction names but the plan does not use: the request falls back.

The grammar skips benign words ("keep only the code and price", where ``code`` is a noise
word like "snippet" or "data"). When such a word is also a key of the data a field-naming
step works on, the plan may have dropped a field the user asked for: "keep only code and
price" must not answer with ``price`` alone. So, for a plan with a step that names fields,
every key of that step's input written as a word of the instruction must be one the plan
uses (a field, a path part or a value of some step); otherwise the engine is not certain and
the request falls back with ``field.skipped``.

Words of a phrase that is the request's own are not field names there: the place of the data
("from the list below"), the target of a conversion ("convert it to YAML", "as JSON"), an
order said as a span ("from high to low") and "number of" before a noun ("by number of
comments"). The same word written anywhere else is still read.
"""

from __future__ import annotations

import re
from typing import Any

from zerolayer.core.errors import Unsupported
from zerolayer.core.execute import FUSED, leaves
from zerolayer.core.fields import FieldRef, data_keys
from zerolayer.core.ops import OpSpec
from zerolayer.core.plan import Plan, Step

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH_PARTS = re.compile(r"[.\[\]*$'\"]+")
_MAGNITUDE = r"(?:high|low|big|small|large|few|many)(?:est|er)?"
# Phrases whose words are the request's own, not field names (see the module's docstring).
_OWN_PHRASES = re.compile(
    r"(?<![\w.])(?:"
    r"from\s+(?:the|this|these|that)\s+(?:list|data|array|records|items|entries|rows|json|yaml)"
    rf"|from\s+{_MAGNITUDE}\s+to\s+{_MAGNITUDE}"
    r"|(?:to|into|as|in)\s+(?:an?\s+)?(?:json|yaml|yml)"
    # "by number of comments": a count said of the noun after it (not "the number of the
    # issue …", where "number" may be the field)
    r"|(?:number|count)\s+of(?=\s+(?!(?:the|a|an|this|that|these|those|its|their|each)\b)[a-z])"
    r")(?![\w.])",
    re.IGNORECASE,
)


def _used(step: Step) -> set[str]:
    """Every name a step's parameters hold, path parts included, case-folded."""
    used: set[str] = set()
    for leaf in leaves(step.params):
        if isinstance(leaf, str):
            used.add(leaf.lower())
            used.update(part.lower() for part in _PATH_PARTS.split(leaf) if part)
    return used


class SkippedFieldCheck:
    """``execute``'s ``on_step`` observer; ``check()`` after the run raises
    ``Unsupported("field.skipped")`` for a key the instruction writes that no step used."""

    def __init__(self, instruction: str, plan: Plan, value: Any) -> None:
        self.words = {w.lower() for w in _WORD.findall(_OWN_PHRASES.sub(" ", instruction))}
        self.naming = [any(isinstance(v, FieldRef) for v in leaves(s.params)) for s in plan.steps]
        self.used: set[str] = set().union(*(_used(s) for s in plan.steps))
        self.written: list[str] = []  # keys of a field-naming step's input the words name
        self.current = value
        self.index = 0

    @staticmethod
    def needed(plan: Plan) -> bool:
        """Whether ``plan`` names fields at all (else there is nothing to check)."""
        return any(isinstance(v, FieldRef) for s in plan.steps for v in leaves(s.params))

    def __call__(self, step: Step, spec: OpSpec, output: Any, seconds: float) -> None:
        index, self.index = self.index, self.index + 1
        self.used |= _used(step)  # the resolved names, as the data spells them
        if index < len(self.naming) and self.naming[index]:
            self.written += [k for k in data_keys(self.current) if k.lower() in self.words]
        if output is not FUSED:
            self.current = output

    def check(self) -> None:
        skipped = [k for k in self.written if k.lower() not in self.used]
        if skipped:
            raise Unsupported(
                "field.skipped",
                f"the instruction names {skipped[0]!r}, a field of the data, and the request "
                'as read does not use it: quote the field names (keep only "code" and "price")',
            )
