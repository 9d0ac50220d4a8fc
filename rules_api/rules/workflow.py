"""The rules workflow: validate, create, draft, freeze, test, evaluate, review, activate.

``RulesHub`` joins the store, the compiler and the runner, and enforces the rules of the
workflow: a version is approved by someone other than its author, for its exact content
hash, only once its examples pass; activation recompiles the version against the built-in
grammar and the tenant's other active rules inside the activating transaction, so a failed
activation changes nothing. It also serves the active rules of a tenant to the engine, and
(``warm=True``) compiles a tenant's rules as soon as it hears of a change (``warming.py``).
"""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from zerolayer.core.errors import Unsupported, ZeroLayerError
from zerolayer.core.messages import EngineRequest, EngineResult, Route
from zerolayer.core.ops import OpSpec
from zerolayer.core.segment import Segmented
from zerolayer.rules_api.rules.compiler import BuiltinParser, CompiledRule, compile_rule
from zerolayer.rules_api.rules.document import Issue, RuleInvalid, load_document, pointer
from zerolayer.rules_api.rules.errors import Conflict, Invalid, RulesError
from zerolayer.rules_api.rules.explain import rule_label
from zerolayer.rules_api.rules.isolation import Job, failure
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits
from zerolayer.rules_api.rules.propagation import LISTENING_POLL_S, ChangeListener
from zerolayer.rules_api.rules.runner import match_message
from zerolayer.rules_api.rules.store import RuleStore, etag_of
from zerolayer.rules_api.rules.tenant_grammar import GrammarConflict, TenantGrammar
from zerolayer.rules_api.rules.warming import Warmer, prime
from zerolayer.rules_api.rules.wire import error_to_wire

log = logging.getLogger("zerolayer.rules")
RESERVED_NAMES = frozenset({"schema", "validate"})
PREPARE_WAIT_S = 120.0  # bounds the wait for the workers preparing a tenant's rules


class Runner(Protocol):
    def submit(self, job: Job, timeout: float | None = None) -> dict[str, Any]: ...

    def close(self) -> None: ...


@dataclass
class _TenantRules:
    checked: float = 0.0
    version: int = -1
    rules: list[tuple[CompiledRule, int]] = field(default_factory=list)
    grammar: TenantGrammar | None = None  # the active rules' trigger grammars, composed


class RulesHub:
    """Everything the rules API and the tenant engine do, on one store."""

    def __init__(
        self,
        store: RuleStore,
        runner: Runner,
        *,
        builtin_ops: Mapping[str, OpSpec],
        builtin_parser: BuiltinParser | None = None,
        limits: RuleLimits = DEFAULT_LIMITS,
        poll_s: float = 1.0,
        listen: bool = False,
        warm: bool = False,
    ) -> None:
        self.store = store
        self.runner = runner
        self.builtin_ops = builtin_ops
        self.builtin_parser = builtin_parser
        self.limits = limits
        self.poll_s = poll_s
        self._served: dict[str, _TenantRules] = {}
        self._lock = threading.Lock()
        self._cache: OrderedDict[tuple[str, str], CompiledRule] = OrderedDict()
        self._epoch = 0  # grows with each drop of every served tenant
        self._drops: dict[str, int] = {}  # grows with each drop of one tenant
        self._loading: dict[str, threading.Lock] = {}  # one load of a tenant's rules at a time
        self.warmer: Warmer | None = None
        if warm:
            primer = functools.partial(prime, builtin_ops, limits)
            self.warmer = Warmer(self.prepare, store.active_tenants, primer=primer)
        self.listener: ChangeListener | None = None
        if listen and store.notifies:
            self.listener = ChangeListener(store.url, self._on_change, self._on_reset)
            self.listener.start()  # its connection prepares every tenant (_on_reset)
        elif self.warmer is not None:
            self.warmer.request_all()

    def close(self) -> None:
        if self.listener is not None:
            self.listener.stop()
        if self.warmer is not None:
            self.warmer.stop()
        self.runner.close()
        self.store.close()

    # ---- compiling --------------------------------------------------------------------

    def compile(
        self, tenant: str, text: str, fmt: str, others: list[CompiledRule] | None = None
    ) -> CompiledRule:
        """Compile against the built-in grammar and the tenant's active rules; 422 if bad."""
        if others is None:
            others = [rule for rule, _ in self.active(tenant)[1]]
        try:
            rule = compile_rule(
                text,
                fmt,
                builtin_ops=self.builtin_ops,
                builtin_parser=self.builtin_parser,
                others=others,
                limits=self.limits,
                tenant=tenant,
            )
        except RuleInvalid as exc:
            raise Invalid(exc.message, errors=exc.issues) from None
        if rule.name in RESERVED_NAMES:
            raise Invalid(
                "the rule name is reserved", errors=[Issue("/name", f"{rule.name!r} is reserved")]
            )
        return rule

    def check_cost(self, text: str, fmt: str) -> None:
        """Compile an uploaded document in a worker process first: one that takes longer than
        ``compile_timeout_s`` there (or is killed at the hard limit, or runs out of memory) is
        refused before the server compiles it (422)."""
        limit = self.limits.compile_timeout_s
        hard = limit * 2 + 1.0
        problem = None
        try:
            answer = self.runner.submit(Job("compile", text, fmt), timeout=hard)
        except ZeroLayerError:  # the worker was killed: the hard limit, or its memory
            problem = f"compiling it ran past the hard limit of {hard:g} s, or out of memory"
        else:
            if not answer.get("ok"):
                problem = failure(answer).message
            elif answer["seconds"] > limit:
                problem = f"compiling it took {answer['seconds']:.1f} s; the limit is {limit:g} s"
        if problem is not None:
            raise Invalid(
                "the rule is too costly to compile",
                errors=[
                    Issue(
                        "",
                        f"{problem}: simplify its patterns (nested repetition such as "
                        "(?:a{1000}){1000}), templates or trigger grammar",
                    )
                ],
            )

    def validate(self, tenant: str, text: str, fmt: str) -> dict[str, Any]:
        self.check_cost(text, fmt)
        rule = self.compile(tenant, text, fmt)
        return {"valid": True, **describe(rule)}

    # ---- drafts and versions ----------------------------------------------------------

    def create(self, tenant: str, actor: str, text: str, fmt: str) -> dict[str, Any]:
        self.check_cost(text, fmt)
        rule = self.compile(tenant, text, fmt)
        row = self.store.create_rule(
            tenant, rule.name, text, fmt, rule.content_hash, rule.description, actor
        )
        return self.view(tenant, row["name"])

    def replace_draft(
        self, tenant: str, actor: str, name: str, expected: int, text: str, fmt: str
    ) -> dict[str, Any]:
        self.store.get_rule(tenant, name)  # 404 before 422
        self.check_cost(text, fmt)
        rule = self.compile(tenant, text, fmt)
        if rule.name != name:
            raise Invalid(
                "the document names another rule",
                errors=[Issue("/name", f"this is rule {name!r}; a new name is a new rule")],
            )
        self.store.replace_draft(
            tenant, name, expected, text, fmt, rule.content_hash, rule.description, actor
        )
        return self.view(tenant, name)

    def freeze(self, tenant: str, actor: str, name: str, expected: int) -> dict[str, Any]:
        version = self.store.freeze(tenant, name, expected, actor)
        return {**version_view(version), "etag": self.etag(tenant, name)}

    def test(self, tenant: str, actor: str, name: str, number: int) -> dict[str, Any]:
        version = self.store.get_version(tenant, name, number)
        started = time.perf_counter()
        try:
            answer = self.runner.submit(Job("test", version["text"], version["format"]))
        except ZeroLayerError as exc:  # the worker was killed: a hard limit
            answer = {"ok": False, "error": error_to_wire(exc)}
        if not answer["ok"]:
            error = failure(answer)
            results = [{"index": None, "name": "(all)", "passed": False, "error": error.message}]
        else:
            results = answer["results"]
        passed = bool(results) and all(r["passed"] for r in results)
        self.store.record_test(
            tenant, name, number, version["content_hash"], passed, results, actor
        )
        return {
            "rule": name,
            "version": number,
            "content_hash": version["content_hash"],
            "passed": passed,
            "seconds": round(time.perf_counter() - started, 6),
            "cases": results,
        }

    def evaluate(
        self, tenant: str, name: str, version: int | None, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A dry run of one rule (its draft, or a version) on a message: match and steps."""
        if version is None:
            row = self.store.get_rule(tenant, name)
            text, fmt, label = row["draft_text"], row["draft_format"], "draft"
        else:
            vrow = self.store.get_version(tenant, name, version)
            text, fmt, label = vrow["text"], vrow["format"], f"version {version}"
        rule = self.compile(tenant, text, fmt, others=[])
        message, payloads = _evaluate_input(body)
        match = match_message([rule], message, payloads)
        out: dict[str, Any] = {"rule": name, "of": label, "content_hash": rule.content_hash}
        if match is None:
            phrases = [t.phrase for t in rule.triggers]
            grammar = " and its trigger grammar" if rule.grammar else ""
            out.update(
                matched=False,
                route="fallback",
                explanation="no trigger matches the instruction with exactly one payload; "
                f"phrases: {phrases}{grammar}",
            )
            return out
        out.update(
            matched=True,
            trigger={
                "kind": "phrase" if match.phrase is not None else "grammar",
                "phrase": match.phrase,
                "slots": match.slots,
                "instruction": match.instruction,
            },
            segmentation=match.how,
        )
        try:
            answer = self.runner.submit(
                Job("run", text, fmt, match.payload, tuple(sorted(match.slots.items())))
            )
        except ZeroLayerError as exc:
            out.update(route="fallback", reason="rule.limit", error=exc.message, steps=[])
            return out
        if answer["ok"]:
            out.update(route="deterministic", output=answer["output"], steps=answer["trace"])
            return out
        error = failure(answer)
        out.update(route="fallback", reason=fallback_reason(error), error=error.message, steps=[])
        if getattr(error, "line", None) is not None:
            out["position"] = {"line": error.line, "column": error.column}  # type: ignore[attr-defined]
        return out

    # ---- review -----------------------------------------------------------------------

    def submit(self, tenant: str, actor: str, name: str, expected: int, number: int) -> Any:
        version = self.store.review(
            tenant,
            name,
            expected,
            number,
            action="submit",
            actor=actor,
            allowed_from=("frozen", "rejected"),
            to="submitted",
        )
        return {**version_view(version), "etag": self.etag(tenant, name)}

    def approve(
        self, tenant: str, actor: str, name: str, expected: int, number: int, content_hash: str
    ) -> Any:
        def check(version: dict[str, Any]) -> None:
            if version["created_by"] == actor:
                raise Conflict("the author of a version cannot approve it", code="self_approval")
            if content_hash != version["content_hash"]:
                raise Conflict(
                    f"version {number} has content hash {version['content_hash']}, "
                    f"not {content_hash}",
                    code="hash_mismatch",
                )
            if not (version["tests_passed"] and version["tested_hash"] == content_hash):
                raise Conflict(
                    f"version {number} has no passing test run; run its tests first",
                    code="tests_not_passed",
                )

        with self._audit_refusal(tenant, actor, "approve", name):
            version = self.store.review(
                tenant,
                name,
                expected,
                number,
                action="approve",
                actor=actor,
                allowed_from=("submitted",),
                to="approved",
                check=check,
            )
        return {**version_view(version), "etag": self.etag(tenant, name)}

    def reject(
        self, tenant: str, actor: str, name: str, expected: int, number: int, note: str
    ) -> Any:
        with self._audit_refusal(tenant, actor, "reject", name):
            version = self.store.review(
                tenant,
                name,
                expected,
                number,
                action="reject",
                actor=actor,
                allowed_from=("submitted",),
                to="rejected",
                note=note,
            )
        return {**version_view(version), "etag": self.etag(tenant, name)}

    @contextmanager
    def _audit_refusal(
        self,
        tenant: str,
        actor: str,
        action: str,
        name: str,
        statuses: tuple[int, ...] = (409, 422),
    ) -> Iterator[None]:
        """Record a refused action (a workflow conflict, an invalid version) in the audit log,
        in its own transaction, since the refused one rolled back; then re-raise it."""
        try:
            yield
        except RulesError as exc:
            if exc.status in statuses:
                self.store.log_refusal(tenant, actor, action, name, exc.message)
            raise

    # ---- activation -------------------------------------------------------------------

    def activate(
        self, tenant: str, actor: str, name: str, expected: int, number: int, action: str
    ) -> dict[str, Any]:
        """Activate (or roll back to) an approved version; the old one stays on failure."""

        def check(conn: Any, rule: dict[str, Any], version: dict[str, Any]) -> None:
            if version["status"] != "approved":
                raise Conflict(f"version {number} is {version['status']}, not approved")
            if action == "rollback" and (
                rule["active_version"] is None or number >= rule["active_version"]
            ):
                raise Conflict("a rollback activates a version earlier than the active one")
            others = []
            for row in self.store.active_rules(tenant, conn):
                if row["name"] != name:
                    others.append(self._compiled(row["text"], row["format"]))
            self.compile(tenant, version["text"], version["format"], others=others)

        with self._audit_refusal(tenant, actor, action, name):
            self.store.activate(
                tenant, name, expected, number, action=action, actor=actor, check=check
            )
        self.invalidate(tenant)
        return self.view(tenant, name)

    def deactivate(self, tenant: str, actor: str, name: str, expected: int) -> dict[str, Any]:
        self.store.activate(tenant, name, expected, None, action="deactivate", actor=actor)
        self.invalidate(tenant)
        return self.view(tenant, name)

    def retire(self, tenant: str, actor: str, name: str, expected: int) -> dict[str, Any]:
        with self._audit_refusal(tenant, actor, "retire", name, statuses=(409,)):
            self.store.retire(tenant, name, expected, actor)
        return self.view(tenant, name)

    # ---- reading ----------------------------------------------------------------------

    def etag(self, tenant: str, name: str) -> str:
        return etag_of(self.store.get_rule(tenant, name)["revision"])

    def view(self, tenant: str, name: str) -> dict[str, Any]:
        row = self.store.get_rule(tenant, name)
        return {
            "name": row["name"],
            "description": row["description"],
            "etag": etag_of(row["revision"]),
            "active_version": row["active_version"],
            "retired": bool(row["retired"]),
            "created_by": row["created_by"],
            "created_at": row["created_at"],
            "updated_by": row["updated_by"],
            "updated_at": row["updated_at"],
            "draft": {
                "format": row["draft_format"],
                "content_hash": row["draft_hash"],
                "text": row["draft_text"],
            },
            "versions": [version_view(v) for v in self.store.list_versions(tenant, name)],
        }

    def list_rules(
        self, tenant: str, limit: int | None = None, after: str | None = None
    ) -> list[dict[str, Any]]:
        return [
            {
                "name": r["name"],
                "description": r["description"],
                "active_version": r["active_version"],
                "retired": bool(r["retired"]),
                "etag": etag_of(r["revision"]),
            }
            for r in self.store.list_rules(tenant, limit, after)
        ]

    def status(self, tenant: str) -> dict[str, Any]:
        return {
            "tenant": tenant,
            "rule_set_version": self.store.ruleset_version(tenant),
            "rules": [
                {
                    "name": r["name"],
                    "active_version": r["active_version"],
                    "retired": bool(r["retired"]),
                }
                for r in self.store.list_rules(tenant)
            ],
        }

    # ---- serving ----------------------------------------------------------------------

    def _compiled(self, text: str, fmt: str) -> CompiledRule:
        """An active version, compiled once (versions are immutable: the text is the key)."""
        key = (fmt, text)
        with self._lock:
            rule = self._cache.get(key)
            if rule is not None:
                self._cache.move_to_end(key)
                return rule
        rule = compile_rule(text, fmt, builtin_ops=self.builtin_ops, limits=self.limits)
        with self._lock:
            self._cache[key] = rule
            if len(self._cache) > 512:
                self._cache.popitem(last=False)
        return rule

    def invalidate(self, tenant: str) -> None:
        """Forget the tenant's served rules: its next request re-reads them."""
        with self._lock:
            self._served.pop(tenant, None)
            self._drops[tenant] = self._drops.get(tenant, 0) + 1

    def _drop_all(self) -> None:
        with self._lock:
            self._served.clear()
            self._epoch += 1

    def _on_reset(self) -> None:
        """The listener (re)connected: changes may have been missed, so re-read them all."""
        self._drop_all()
        if self.warmer is not None:
            self.warmer.request_all()

    def _on_change(self, message: dict[str, Any]) -> None:
        tenant = message.get("tenant")
        if message.get("kind") == "rules" and isinstance(tenant, str):
            self.invalidate(tenant)
            if self.warmer is not None:
                self.warmer.request(tenant)

    def prepare(self, tenant: str) -> None:
        """Compile the tenant's active rules before its next request needs them: in every
        rule worker (each one's compile cache, in the background, where the runner can) and
        in this process (the tenant's served rules), then wait for the workers."""
        threads: list[threading.Thread] = []
        fill = getattr(self.runner, "prepare", None)
        if fill is not None:
            jobs = []
            for row in self.store.active_rules(tenant):
                try:
                    data = load_document(row["text"], row["format"], self.limits).data
                except RuleInvalid:
                    continue  # logged when the tenant's rules are loaded
                jobs.append(Job("compile", run_text(data), "json"))
            if jobs:
                threads = fill(jobs)
        self._entry(tenant)
        for thread in threads:
            thread.join(PREPARE_WAIT_S)

    @property
    def poll_interval(self) -> float:
        """How long a tenant's served rules are trusted without re-reading its version."""
        if self.listener is not None and self.listener.connected.is_set():
            return max(self.poll_s, LISTENING_POLL_S)
        return self.poll_s

    def active(self, tenant: str) -> tuple[int, list[tuple[CompiledRule, int]]]:
        """The tenant's rule-set version and active rules (re-read at most every poll_s)."""
        entry = self._entry(tenant)
        return entry.version, entry.rules

    def _entry(self, tenant: str) -> _TenantRules:
        poll = self.poll_interval
        with self._lock:
            entry = self._served.get(tenant)
            if entry is not None and time.monotonic() - entry.checked < poll:
                return entry
            loading = self._loading.setdefault(tenant, threading.Lock())
        with loading:  # a load in progress (the warmer's, another request's) is waited for
            return self._load(tenant, poll)

    def _load(self, tenant: str, poll: float) -> _TenantRules:
        with self._lock:
            entry = self._served.get(tenant)
            if entry is not None and time.monotonic() - entry.checked < poll:
                return entry  # loaded while this request waited
            generation = (self._epoch, self._drops.get(tenant, 0))
        version = self.store.ruleset_version(tenant)
        if entry is not None and entry.version == version:
            entry.checked = time.monotonic()
            return entry
        loaded: list[tuple[CompiledRule, int]] = []
        for row in self.store.active_rules(tenant):
            try:
                loaded.append((self._compiled(row["text"], row["format"]), row["number"]))
            except RuleInvalid:
                log.error("active rule %s/%s no longer compiles", tenant, row["name"])
        grammar = self._tenant_grammar(tenant, [rule for rule, _ in loaded])
        fresh = _TenantRules(time.monotonic(), version, loaded, grammar)
        with self._lock:
            # a change announced while this was read makes it possibly stale: serve it once
            # but do not keep it
            if generation == (self._epoch, self._drops.get(tenant, 0)):
                self._served[tenant] = fresh
        return fresh

    def _tenant_grammar(self, tenant: str, rules: list[CompiledRule]) -> TenantGrammar | None:
        """The tenant's trigger grammars composed; None (logged) when none or they collide."""
        members = [(rule.name, rule.grammar.fragment) for rule in rules if rule.grammar]
        if not members:
            return None
        try:
            return TenantGrammar(tenant, members, self.limits)
        except GrammarConflict as exc:  # activation refuses this: the store was changed by hand
            log.error("trigger grammars of tenant %s collide: %s", tenant, exc.message)
            return None

    def answer(
        self, tenant: str, request: EngineRequest, segmented: Sequence[Segmented] | None = None
    ) -> EngineResult | None:
        """The tenant's rules' answer to a request, or None when no trigger matches;
        ``segmented``: the readings of its last message the engine made already."""
        if not request.messages or request.messages[-1].role != "user":
            return None
        entry = self._entry(tenant)
        active = entry.rules
        if not active:
            return None
        numbers = {rule.name: n for rule, n in active}
        match = match_message(
            [r for r, _ in active],
            request.messages[-1].content,
            request.payloads,
            grammars=[entry.grammar] if entry.grammar is not None else [],
            segmented=segmented,
        )
        if match is None:
            return None
        rule = match.rule
        label = rule_label(rule.name, numbers[rule.name])
        try:
            answer = self.runner.submit(
                Job(
                    "run",
                    run_text(rule.data),
                    "json",
                    match.payload,
                    tuple(sorted(match.slots.items())),
                )
            )
        except ZeroLayerError as exc:
            return EngineResult(Route.FALLBACK, reason="rule.limit", detail=exc.message)
        if answer["ok"]:
            return EngineResult(
                Route.DETERMINISTIC, output=answer["output"], plan=f"{label} {rule.plan.to_text()}"
            )
        error = failure(answer)
        return EngineResult(Route.FALLBACK, reason=fallback_reason(error), detail=error.message)


def run_text(data: Mapping[str, Any]) -> str:
    """The document a rule worker is sent to run an active rule (its compile cache's key):
    the rule's data as JSON, the same whatever format the version was written in."""
    return json.dumps(data, ensure_ascii=False)


def fallback_reason(error: ZeroLayerError) -> str:
    """The reason a rule's error gives its request's fallback: ``rule.`` and the error's
    reason (an ``Unsupported``'s own, ``rule.no_match``) or its code (``rule.invalid_payload``)."""
    reason = error.reason if isinstance(error, Unsupported) else error.code
    return reason if reason.startswith("rule.") else f"rule.{reason}"


def describe(rule: CompiledRule) -> dict[str, Any]:
    return {
        "name": rule.name,
        "content_hash": rule.content_hash,
        "triggers": [{"phrase": t.phrase, "pattern": t.pattern} for t in rule.triggers],
        "grammar": (
            {
                "slots": list(rule.grammar.fragment.slots),
                "samples": list(rule.grammar.samples),
            }
            if rule.grammar
            else None
        ),
        "steps": [
            {
                "op": s.op,
                "params": s.params,
                "input_type": s.input_type,
                "output_type": s.output_type,
            }
            for s in rule.steps
        ],
        "plan": rule.plan.to_text(),
        "examples": len(rule.examples),
    }


def version_view(v: Mapping[str, Any]) -> dict[str, Any]:
    report = json.loads(v["test_report"]) if v.get("test_report") else None
    return {
        "number": v["number"],
        "content_hash": v["content_hash"],
        "status": v["status"],
        "format": v["format"],
        "created_by": v["created_by"],
        "created_at": v["created_at"],
        "submitted_by": v["submitted_by"],
        "reviewed_by": v["reviewed_by"],
        "review_note": v["review_note"],
        "tests_passed": v["tests_passed"] if v["tested_hash"] == v["content_hash"] else None,
        "test_report": report,
        "text": v["text"],
    }


def _evaluate_input(body: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    message = body.get("message")
    if isinstance(message, str):
        return message, ()
    instruction, data = body.get("instruction"), body.get("input")
    if isinstance(instruction, str) and isinstance(data, str):
        return instruction, (data,)
    raise RulesError(
        "give message (the whole user message), or instruction and input",
        errors=[Issue(pointer("message"), "a string is required")],
    )


def load_for_hash(text: str, fmt: str, limits: RuleLimits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The plain data of a document (for tools that hash or display it)."""
    return load_document(text, fmt, limits).data
