"""The processes of a fleet test, each on a loopback port under one temporary folder: a real
PostgreSQL cluster, a real redis-server, an OpenAI-compatible upstream and ``zerolayer serve``
replicas. Every starter is a context manager that stops what it started, whatever happens."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from serve_process import free_port

HERE = Path(__file__).resolve().parent


def missing(what: str) -> None:
    """Fail under CI (which installs everything), skip elsewhere."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is required in CI")
    pytest.skip(f"{what} is not installed")


def wait_for_port(port: int, proc: subprocess.Popen[bytes], timeout_s: float, name: str) -> None:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"{name} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"{name} did not listen on {port} within {timeout_s} s")


def stop(proc: subprocess.Popen[bytes], timeout_s: float = 10.0) -> None:
    """Terminate a process, then kill it if it lingers."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout_s)


@contextmanager
def postgres(base: Path) -> Iterator[str]:
    """A PostgreSQL cluster in ``base/pg``; its SQLAlchemy URL."""
    installed = sorted(glob.glob("/usr/lib/postgresql/*/bin"))  # Debian keeps them off PATH
    initdb = shutil.which("initdb") or (f"{installed[-1]}/initdb" if installed else "")
    pg_ctl = shutil.which("pg_ctl") or (f"{installed[-1]}/pg_ctl" if installed else "")
    if not (os.path.exists(initdb) and os.path.exists(pg_ctl)):
        missing("PostgreSQL (initdb, pg_ctl)")
    folder = base / "pg"
    folder.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:  # postgres refuses to run as root
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root without runuser")
        os.chmod(base, 0o755)
        shutil.chown(folder, "postgres")
        prefix = [runuser, "-u", "postgres", "--"]
    data, port = folder / "data", free_port()
    env = {**os.environ, "LC_ALL": "C"}
    subprocess.run(
        [*prefix, initdb, "-D", str(data), "-U", "zl", "--auth=trust", "-E", "UTF8"],
        check=True, capture_output=True, env=env, timeout=120,
    )  # fmt: skip
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    try:
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-w", "-o", options,
             "start"],
            check=True, capture_output=True, env=env, timeout=120,
        )  # fmt: skip
        yield f"postgresql+psycopg://zl@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True, env=env, timeout=60,
        )  # fmt: skip


@contextmanager
def redis(base: Path) -> Iterator[str]:
    """A redis-server without persistence; its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        missing("redis-server")
    port = free_port()
    with open(base / "redis.log", "wb") as log:
        proc = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(base)],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        wait_for_port(port, proc, 10, "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(proc)


@contextmanager
def upstream(base: Path) -> Iterator[str]:
    """The OpenAI-compatible upstream of ``fleet_upstream.py``; its base URL (``…/v1``)."""
    port = free_port()
    with open(base / "upstream.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, str(HERE / "fleet_upstream.py"), str(port)],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        wait_for_port(port, proc, 10, "the upstream")
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        stop(proc)


@dataclass
class Replica:
    """One ``zerolayer serve`` process."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def sigterm(self) -> None:
        self.proc.send_signal(signal.SIGTERM)

    def kill9(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@contextmanager
def replicas(
    base: Path, count: int, env: Mapping[str, str], timeout_s: float = 90.0
) -> Iterator[list[Replica]]:
    """``count`` replicas started together, once each answers /health/ready."""
    started: list[Replica] = []
    try:
        for i in range(1, count + 1):
            port, log = free_port(), base / f"replica{i}.log"
            with open(log, "wb") as out:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "zerolayer.cli", "serve", "--port", str(port),
                     "--log-level", "warning"],
                    env=dict(env), stdout=out, stderr=subprocess.STDOUT,
                )  # fmt: skip
            started.append(Replica(f"replica{i}", port, proc, log))
        end = time.monotonic() + timeout_s
        for replica in started:
            while not ready(replica):
                if replica.proc.poll() is not None:
                    raise AssertionError(f"{replica.name} exited:\n{replica.output()[-3000:]}")
                if time.monotonic() > end:
                    raise AssertionError(f"{replica.name} not ready:\n{replica.output()[-3000:]}")
                time.sleep(0.2)
        yield started
    finally:
        for replica in started:
            if replica.proc.poll() is None:
                replica.proc.kill()
            replica.proc.wait(10)


def ready(replica: Replica) -> bool:
    try:
        return httpx.get(f"{replica.url}/health/ready", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
