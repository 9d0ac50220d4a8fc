"""Running rules where a runaway cannot stall the server: a pool of worker processes.

Each worker compiles the rule document it is sent (cached by content hash), runs it and
answers. A run that passes its hard time limit gets its worker killed and replaced, and the
caller a ``LimitExceeded``; a worker that dies (memory limit) is replaced the same way. The
workers cap their own address space. ``InlineRunner`` runs the same jobs in-process (CLI,
tests of the pure functions). An answer is ``{"ok": True, ...}`` or ``{"ok": False, "error":
...}``, the error being the engine's typed error on the wire (``wire.py``): ``failure`` turns
it back into that error, with its positions.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from zerolayer.core.errors import LimitExceeded, ZeroLayerError
from zerolayer.rules_api.rules.compiler import CompiledRule, compile_rule
from zerolayer.rules_api.rules.document import RuleInvalid
from zerolayer.rules_api.rules.limits import DEFAULT_LIMITS, RuleLimits
from zerolayer.rules_api.rules.runner import run_examples, run_rule
from zerolayer.rules_api.rules.warming import prime
from zerolayer.rules_api.rules.wire import error_from_wire, error_to_wire

log = logging.getLogger("zerolayer.rules")


@dataclass(frozen=True, slots=True)
class Job:
    """A rule document and what to do with it: ``run`` a payload, ``test`` the examples, or
    ``compile`` it (to learn what compiling costs, before the server compiles it too, or to
    fill the worker's compile cache before the rule's first run)."""

    kind: str
    text: str
    fmt: str
    payload: str = ""
    slots: tuple[tuple[str, Any], ...] = ()


def _error(exc: ZeroLayerError) -> dict[str, Any]:
    return {"ok": False, "error": error_to_wire(exc)}


def failure(answer: dict[str, Any]) -> ZeroLayerError:
    """A worker's error answer as the typed exception it was (positions included)."""
    return error_from_wire(answer["error"])


def raise_failure(answer: dict[str, Any]) -> None:
    """Re-raise a worker's error answer as the typed exception it was."""
    raise failure(answer)


class _Executor:
    """Compiles (cached) and runs jobs; the body of a worker and of ``InlineRunner``."""

    def __init__(self, limits: RuleLimits) -> None:
        from zerolayer.core.plugin_host import load_plugins

        self.limits = limits
        _, registry = load_plugins(None)
        self.ops = registry.ops
        self.cache: OrderedDict[tuple[str, str], CompiledRule] = OrderedDict()

    def cached(self, text: str, fmt: str) -> bool:
        """True when the document is compiled in this process's cache."""
        return (fmt, text) in self.cache

    def compiled(self, text: str, fmt: str) -> CompiledRule:
        key = (fmt, text)
        rule = self.cache.get(key)
        if rule is None:
            rule = compile_rule(text, fmt, builtin_ops=self.ops, limits=self.limits)
            self.cache[key] = rule
            if len(self.cache) > 128:
                self.cache.popitem(last=False)
        else:
            self.cache.move_to_end(key)
        return rule

    def handle(self, job: Job) -> dict[str, Any]:
        if job.kind == "compile":
            return self._compile(job)
        try:
            rule = self.compiled(job.text, job.fmt)
            if job.kind == "test":
                results = run_examples(rule, self.ops, self.limits)
                return {"ok": True, "results": [r.to_dict() for r in results]}
            output, trace = run_rule(rule, job.payload, dict(job.slots), self.ops, self.limits)
            return {"ok": True, "output": output, "trace": [t.to_dict() for t in trace]}
        except ZeroLayerError as exc:
            return _error(exc)
        except MemoryError:
            return _error(LimitExceeded("the rule ran out of memory"))

    def _compile(self, job: Job) -> dict[str, Any]:
        started = time.perf_counter()
        cached = self.cached(job.text, job.fmt)
        try:
            self.compiled(job.text, job.fmt)
            valid = True
        except RuleInvalid:
            valid = False  # the server reports the problems with their locations
        except MemoryError:
            return _error(LimitExceeded("compiling the rule ran out of memory"))
        except ZeroLayerError as exc:
            return _error(exc)
        seconds = time.perf_counter() - started
        return {"ok": True, "valid": valid, "seconds": seconds, "cached": cached}


def _worker_main(conn: Connection, limits: RuleLimits) -> None:
    try:
        import resource

        resource.setrlimit(
            resource.RLIMIT_AS, (limits.worker_memory_bytes, limits.worker_memory_bytes)
        )
    except (ImportError, ValueError, OSError):
        pass
    executor = _Executor(limits)
    prime(executor.ops, limits, run=True)  # its first rule costs what the later ones do
    conn.send({"ready": True})
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        conn.send(executor.handle(job))


class InlineRunner:
    """Runs jobs in this process (no hard time limit: for the CLI and trusted use)."""

    def __init__(self, limits: RuleLimits = DEFAULT_LIMITS) -> None:
        self._executor = _Executor(limits)
        self.limits = limits

    def submit(self, job: Job, timeout: float | None = None) -> dict[str, Any]:
        """The job's answer (``ok`` with output or results, or the error on the wire);
        ``timeout`` is not enforced in-process."""
        return self._executor.handle(job)

    def prepare(self, jobs: Sequence[Job]) -> list[threading.Thread]:
        """Compile the jobs' documents now (``WorkerPool.prepare`` in the background)."""
        for job in jobs:
            self._executor.handle(job)
        return []

    def close(self) -> None:
        """Nothing to release."""


class _Worker:
    def __init__(self, ctx: Any, limits: RuleLimits) -> None:
        self.ctx, self.limits = ctx, limits
        self.process: Any = None
        self.conn: Connection | None = None

    def ensure(self, start_timeout: float) -> Connection:
        """The connection to a live worker, started (and waited for) when needed."""
        if self.process is None or not self.process.is_alive() or self.conn is None:
            self.stop()
            parent, child = self.ctx.Pipe()
            self.process = self.ctx.Process(
                target=_worker_main, args=(child, self.limits), daemon=True, name="zerolayer-rule"
            )
            self.process.start()
            child.close()
            self.conn = parent
            try:
                ready = parent.poll(start_timeout) and parent.recv().get("ready")
            except (EOFError, OSError):  # it died, or the pool was closed while it started
                ready = False
            if not ready:
                self.stop()
                raise LimitExceeded("the rule worker did not start")
        return self.conn

    def stop(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        if self.conn is not None:
            self.conn.close()
        self.process, self.conn = None, None


class WorkerPool:
    """Worker processes that run rule jobs with a hard time limit each.

    ``submit`` takes whichever worker is idle (the one idle longest); ``warm`` and
    ``prepare`` take each worker in turn, waiting while it runs a job.
    """

    def __init__(
        self, size: int = 2, limits: RuleLimits = DEFAULT_LIMITS, *, start_timeout: float = 60.0
    ) -> None:
        self.limits = limits
        self.start_timeout = start_timeout
        ctx = multiprocessing.get_context("spawn")
        self._all = [_Worker(ctx, limits) for _ in range(max(1, size))]
        self._idle: list[_Worker] = list(self._all)
        self._freed = threading.Condition()
        self.killed = 0

    def _take(self, worker: _Worker | None = None) -> _Worker:
        """An idle worker (``worker`` itself when given), waited for."""
        with self._freed:
            while True:
                if worker is None and self._idle:
                    return self._idle.pop(0)
                if worker is not None and worker in self._idle:
                    self._idle.remove(worker)
                    return worker
                self._freed.wait()

    def _give(self, worker: _Worker) -> None:
        with self._freed:
            self._idle.append(worker)
            self._freed.notify_all()

    def _exchange(self, worker: _Worker, job: Job, limit: float) -> dict[str, Any]:
        """``job`` run by ``worker`` (taken); LimitExceeded when it passes ``limit`` or dies."""
        try:
            conn = worker.ensure(self.start_timeout)
            conn.send(job)
            if conn.poll(limit):
                answer: dict[str, Any] = conn.recv()
                return answer
            worker.stop()
            self.killed += 1
            raise LimitExceeded(f"the rule ran past its hard time limit of {limit:g} s")
        except (EOFError, OSError, BrokenPipeError):
            worker.stop()
            self.killed += 1
            raise LimitExceeded("the rule's worker process died (memory limit?)") from None

    def submit(self, job: Job, timeout: float | None = None) -> dict[str, Any]:
        """Run ``job`` in a worker; LimitExceeded when it passes the hard limit or dies."""
        limit = timeout if timeout is not None else self.limits.run_timeout_s * 2 + 1.0
        worker = self._take()
        try:
            return self._exchange(worker, job, limit)
        finally:
            self._give(worker)

    def warm(self) -> threading.Thread:
        """Start the worker processes in the background (each takes a moment to import the
        engine), so that the first rule request after a start, or after the first
        activation a replica hears of, does not wait for one; the thread is returned."""

        def start() -> None:
            for worker in self._all:
                self._take(worker)
                try:
                    worker.ensure(self.start_timeout)
                except LimitExceeded:
                    log.warning("a rule worker did not start; the next job retries")
                finally:
                    self._give(worker)

        thread = threading.Thread(target=start, name="zerolayer-rule-warm", daemon=True)
        thread.start()
        return thread

    def prepare(self, jobs: Sequence[Job]) -> list[threading.Thread]:
        """Fill every worker's compile cache with the documents of ``jobs`` (``compile``
        jobs) in the background, one thread per worker, so that the first run of a rule in
        any worker finds it compiled; the threads are returned. A worker is taken when it is
        idle, and a compilation past the hard limit costs it, as a run would."""
        limit = self.limits.compile_timeout_s * 2 + 1.0

        def fill(worker: _Worker) -> None:
            self._take(worker)
            try:
                for job in jobs:
                    answer = self._exchange(worker, job, limit)
                    if not answer.get("ok"):
                        log.warning("a rule did not compile in a worker: %s", answer["error"])
            except LimitExceeded as exc:
                log.warning("a rule worker was not prepared: %s", exc.message)
            finally:
                self._give(worker)

        threads = [
            threading.Thread(target=fill, args=(w,), name="zerolayer-rule-prepare", daemon=True)
            for w in self._all
        ]
        for thread in threads:
            thread.start()
        return threads

    def close(self) -> None:
        """Stop every worker."""
        for worker in self._all:
            worker.stop()
