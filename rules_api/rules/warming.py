"""Compiling a tenant's rules when a change is heard of, not on the tenant's next request.

A rules hub that warms (``RulesHub(warm=True)``, as ``zerolayer serve`` makes it) hands each
tenant it hears of to a ``Warmer``: the tenant of each change notification, and every tenant
with an active rule when the hub opens (and after the listener reconnects, since changes
made meanwhile were not heard). The warmer's thread then compiles the tenant's active rules
in the server process and fills every rule worker's compile cache (``RulesHub.prepare``),
off the event loop and off any request: the first request after an activation finds its
rules compiled in both places. A request that arrives while its tenant is being prepared
waits for that work rather than doing it a second time.

A process pays once for its first compilation (building the rule schema's validator, the
template sandbox, …): several times what a rule costs afterwards. ``prime`` pays it with a
small built-in rule, in each worker as it starts and in the warmer's thread as the hub
opens, so that no activation pays it either.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from zerolayer.core.ops import OpSpec
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits

log = logging.getLogger("zerolayer.rules")
_EVERY = object()  # every tenant with an active rule
PRIMER: dict[str, Any] = {  # patterns, templates and a pipeline: what a rule compiles
    "name": "primer",
    "triggers": {"phrases": ["list the primer items"]},
    "input": {"type": "text"},
    "output": {"type": "markdown-text"},
    "patterns": {"item": r"(?m)^(?P<item>\w+)$"},
    "templates": {"list": "{% for i in data %}- {{ i.item }}\n{% endfor %}"},
    "pipeline": 'regex.findall(pattern="item") | template.render(template="list")',
    "examples": [
        {"instruction": "list the primer items", "input": "a\nb\n", "expected": "- a\n- b\n"}
    ],
}


def prime(
    builtin_ops: Mapping[str, OpSpec], limits: RuleLimits = DEFAULT_LIMITS, *, run: bool = False
) -> None:
    """Compile ``PRIMER`` (and run its example when ``run``), so that this process's first
    compilation of a tenant's rule costs what the later ones do. Never raises."""
    from zerolayer.rules_api.rules.compiler import compile_rule
    from zerolayer.rules_api.rules.runner import run_examples

    try:
        rule = compile_rule(json.dumps(PRIMER), "json", builtin_ops=builtin_ops, limits=limits)
        if run:
            run_examples(rule, builtin_ops, limits)
    except Exception:  # only a cost saved: the first real rule pays it instead
        log.exception("the rules compiler was not primed")


class Warmer:
    """A thread that runs ``prepare(tenant)`` for each tenant asked for, in order, once per
    request pending (a tenant asked for again while it waits is prepared once)."""

    def __init__(
        self,
        prepare: Callable[[str], None],
        tenants: Callable[[], list[str]],
        *,
        primer: Callable[[], None] | None = None,
    ) -> None:
        self._prepare = prepare
        self._tenants = tenants
        self._primer = primer
        self._pending: list[object] = []
        self._busy = False
        self._stopped = False
        self._changed = threading.Condition()
        self.prepared = 0  # tenants prepared so far
        self._thread = threading.Thread(target=self._run, name="zerolayer-rules-warm", daemon=True)
        self._thread.start()

    def request(self, tenant: str) -> None:
        """Prepare ``tenant``'s active rules soon."""
        self._ask(tenant)

    def request_all(self) -> None:
        """Prepare the active rules of every tenant that has one soon."""
        self._ask(_EVERY)

    def _ask(self, item: object) -> None:
        with self._changed:
            if item not in self._pending:
                self._pending.append(item)
                self._changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """True once nothing is pending or being prepared; False after ``timeout`` s."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._pending and not self._busy, timeout)

    def stop(self, timeout: float = 5.0) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        if self._primer is not None:
            self._primer()
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._pending or self._stopped)
                if self._stopped:
                    return
                item = self._pending.pop(0)
                self._busy = True
            try:
                self._work(item)
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()

    def _work(self, item: object) -> None:
        try:
            tenants = self._tenants() if item is _EVERY else [str(item)]
        except Exception:  # the store cannot be read now: the requests will compile
            log.exception("the tenants with active rules cannot be read")
            return
        for tenant in tenants:
            if self._stopped:
                return
            try:
                self._prepare(tenant)
            except Exception:
                log.exception("the rules of tenant %s were not prepared", tenant)
            self.prepared += 1
