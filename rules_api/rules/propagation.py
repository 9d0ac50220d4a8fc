"""How an activation on one worker reaches the others: LISTEN/NOTIFY on PostgreSQL, polling.

An activation, rollback or deactivation commits ``pg_notify('zerolayer_rules', …)`` in its
own transaction (``RuleStore.announce``): PostgreSQL delivers the notification to every
listening connection when, and only when, the change commits. Each rules hub on PostgreSQL
keeps one connection listening in a thread (``ChangeListener``); a notification drops the
tenant's served rules, so that tenant's next request re-reads them — no restart, and no
waiting for a poll (a hub that warms compiles them at once instead: ``warming.py``). While
the listener is connected a hub re-reads a tenant's rule-set version at most every
``LISTENING_POLL_S`` as a safety net; on SQLite, or while PostgreSQL cannot be reached,
every ``ZEROLAYER_RULES_POLL_S``. After each (re)connection every served tenant is dropped,
since notifications sent while disconnected are lost.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import make_url

log = logging.getLogger("zerolayer.rules")
CHANNEL = "zerolayer_rules"
LISTENING_POLL_S = 30.0


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as libpq (psycopg.connect) reads it."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


class ChangeListener:
    """LISTENs on ``CHANNEL`` in a thread; ``on_change(payload)`` for each notification,
    ``on_reset()`` after each (re)connection. Reconnects every ``retry_s`` after a failure."""

    def __init__(
        self,
        url: str,
        on_change: Callable[[dict[str, Any]], None],
        on_reset: Callable[[], None],
        *,
        retry_s: float = 1.0,
        wait_s: float = 0.5,
    ) -> None:
        self._conninfo = libpq_url(url)
        self._on_change = on_change
        self._on_reset = on_reset
        self.retry_s = retry_s
        self.wait_s = wait_s
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.backend_pid: int | None = None

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._run, name="zerolayer-rules-listen", daemon=True
        )
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.backend_pid = conn.info.backend_pid
                    self._on_reset()  # anything before LISTEN was not heard: re-read it all
                    self.connected.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=self.wait_s):
                            self._deliver(note.payload)
            except Exception as exc:  # the database went away: poll until it is back
                if not self._stop.is_set():
                    log.warning("rules listener disconnected (%s); polling meanwhile", exc)
            finally:
                self.connected.clear()
            self._stop.wait(self.retry_s)

    def _deliver(self, payload: str) -> None:
        try:
            message = json.loads(payload)
            if isinstance(message, dict):
                self._on_change(message)
        except Exception:  # a bad payload or a failing callback must not stop the listener
            log.exception("rules notification %r not handled", payload[:200])
