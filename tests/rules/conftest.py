"""Fixtures of the rules tests: a real engine, a worker pool, stores on SQLite and PostgreSQL,
an app with keys for two tenants."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rules_helpers import KEYS, LIMITS, Rig, new_hub, open_rig
from serve_process import free_port

from zerolayer.core.engine import Engine
from zerolayer.rules_api import create_app
from zerolayer.rules_api.rules.isolation import WorkerPool
from zerolayer.rules_api.rules.workflow import RulesHub
from zerolayer.rules_api.testing import FakeFallback


@pytest.fixture(scope="session")
def engine() -> Engine:
    return Engine()


@pytest.fixture(scope="session")
def pool() -> Iterator[WorkerPool]:
    workers = WorkerPool(2, LIMITS)
    yield workers
    workers.close()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a loopback port (skipped when unavailable, not in CI)."""
    url = os.environ.get("ZEROLAYER_TEST_PG_URL")
    if url:
        yield url
        return
    installed = sorted(glob.glob("/usr/lib/postgresql/*/bin"))  # Debian keeps them off PATH
    initdb = shutil.which("initdb") or (f"{installed[-1]}/initdb" if installed else "")
    pg_ctl = shutil.which("pg_ctl") or (f"{installed[-1]}/pg_ctl" if installed else "")
    if not (os.path.exists(initdb) and os.path.exists(pg_ctl)):
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL (initdb, pg_ctl) is required in CI")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    base = Path(tempfile.mkdtemp(prefix="zl-pg-"))
    data = base / "data"
    port = free_port()
    prefix: list[str] = []
    if os.geteuid() == 0:  # postgres refuses to run as root: use the postgres user
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root without runuser")
        os.chmod(base, 0o777)
        prefix = [runuser, "-u", "postgres", "--"]
    env = {**os.environ, "LC_ALL": "C"}
    try:
        subprocess.run(
            [*prefix, initdb, "-D", str(data), "-U", "zl", "--auth=trust", "-E", "UTF8"],
            check=True,
            capture_output=True,
            env=env,
            timeout=120,
        )
        subprocess.run(
            [
                *prefix,
                pg_ctl,
                "-D",
                str(data),
                "-l",
                str(base / "log"),
                "-w",
                "-o",
                f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off",
                "start",
            ],
            check=True,
            capture_output=True,
            env=env,
            timeout=120,
        )
    except (subprocess.SubprocessError, OSError) as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"cannot start PostgreSQL: {exc}")
    try:
        yield f"postgresql+psycopg://zl@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            env=env,
            timeout=60,
        )
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'rules.db'}"
    url: str = request.getfixturevalue("postgres_url")
    _reset_postgres(url)
    return url


def _reset_postgres(url: str) -> None:
    from sqlalchemy import create_engine

    from zerolayer.rules_api.rules.store import metadata

    eng = create_engine(url)
    metadata.drop_all(eng)
    eng.dispose()


@pytest.fixture
def rig(db_url: str, engine: Engine, pool: WorkerPool) -> Iterator[Rig]:
    with open_rig(new_hub(db_url, engine, pool), engine, KEYS) as made:
        yield made


@pytest.fixture
def make_worker(db_url: str, engine: Engine, pool: WorkerPool) -> Iterator[Any]:
    """Another app instance on the rig's database, as a second server process would be:
    ``make_worker(poll_s=…, listen=…, cache=…)`` → (client, hub)."""
    made: list[tuple[TestClient, RulesHub]] = []

    def make(
        *, poll_s: float = 0.0, listen: bool = False, cache: Any = None
    ) -> tuple[TestClient, RulesHub]:
        hub = new_hub(db_url, engine, pool, poll_s=poll_s, listen=listen)
        app = create_app(engine, fallback=FakeFallback(), cache=cache)
        app.state.rules.factory = lambda: hub
        client = TestClient(app)
        client.__enter__()
        made.append((client, hub))
        return client, hub

    yield make
    for client, hub in made:
        client.__exit__(None, None, None)
        if hub.listener is not None:
            hub.listener.stop()
        hub.store.close()
