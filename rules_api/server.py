"""Running the service: ``serve`` (uvicorn) and ``app_from_env`` (the factory of each worker).

Several uvicorn workers each import ``zerolayer.rules_api.server:app_from_env`` and build
their own engine from the environment: ``ZEROLAYER_ENGINE`` (``module:callable``, default
``zerolayer.core.engine:Engine``) and ``ZEROLAYER_FALLBACK`` (a registered backend such as
``local`` or ``upstream:URL``, or ``module:callable`` returning one; none when unset). Use
``ZEROLAYER_REDIS_URL`` to share the cache.
"""

from __future__ import annotations

import gc
import importlib
import logging
import os
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import FallbackBackend
from zerolayer.rules_api.app import create_app
from zerolayer.rules_api.contracts import EngineLike
from zerolayer.rules_api.settings import ServiceSettings

log = logging.getLogger("zerolayer.rules_api")

FACTORY = "zerolayer.rules_api.server:app_from_env"
DEFAULT_ENGINE = "zerolayer.core.engine:Engine"


def load_object(spec: str) -> Any:
    """The object named by ``module:attribute``; StartupError when it cannot be imported."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise StartupError(f"{spec!r} is not of the form module:attribute")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise StartupError(f"cannot load {spec!r}: {exc}") from exc


def build(factory: Callable[[], Any]) -> Any:
    """Call a class's ``from_env`` when it has one, else the factory itself."""
    from_env = getattr(factory, "from_env", None)
    return from_env() if callable(from_env) else factory()


def engine_from_env() -> EngineLike:
    """The engine named by ``ZEROLAYER_ENGINE`` (the real engine by default)."""
    engine: EngineLike = build(load_object(os.environ.get("ZEROLAYER_ENGINE") or DEFAULT_ENGINE))
    return engine


def fallback_from_env() -> FallbackBackend | None:
    """The fallback backend named by ``ZEROLAYER_FALLBACK`` (``local``, ``upstream:URL``,
    ``anthropic``, another registered backend or ``module:callable``), or None."""
    from zerolayer.core.neural.config import fallback_from_env as configured

    return configured()


def app_from_env() -> FastAPI:
    """The app of one worker, all from environment variables (uvicorn ``--factory``)."""
    app = create_app(
        engine_from_env(), fallback=fallback_from_env(), settings=ServiceSettings.from_env()
    )
    settle()
    _open_rules_early(app)
    return app


def _open_rules_early(app: FastAPI) -> None:
    """With ``ZEROLAYER_DB_URL`` set, open the rules store now, in the background: the rule
    workers start and the active rules compile before the first request needs them."""
    try:
        from zerolayer.rules_api.rules.install import open_early
    except ImportError:  # no rules API (its dependencies are missing)
        return
    open_early(app)


def settle() -> None:
    """Move what start-up built (grammar tables, registry, models) out of the garbage
    collector's generations: collections during requests then no longer traverse it."""
    gc.collect()
    gc.freeze()


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    *,
    engine: EngineLike | None = None,
    fallback: FallbackBackend | None = None,
    settings: ServiceSettings | None = None,
    log_level: str = "info",
    access_log: bool = True,
) -> None:
    """Run the service with uvicorn until interrupted.

    One worker with an ``engine`` object serves that object; otherwise every worker builds
    its own app with ``app_from_env``. Several workers without ``ZEROLAYER_REDIS_URL`` each
    keep their own cache. uvicorn runs on uvloop with the httptools parser when they are
    installed (the ``server`` extra installs ``uvicorn[standard]``, which brings both);
    ``access_log=False`` drops the line uvicorn logs for every request.
    """

    limits = settings or ServiceSettings.from_env()
    if workers <= 1 and engine is not None:
        app = create_app(engine, fallback=fallback, settings=settings)
        settle()
        run_uvicorn(uvicorn_config(app, host, port, limits, log_level=log_level,
                                   access_log=access_log))  # fmt: skip
        return
    if engine is not None or fallback is not None or settings is not None:
        raise StartupError(
            "several workers build their engine from the environment: set ZEROLAYER_ENGINE, "
            "ZEROLAYER_FALLBACK and ZEROLAYER_* settings instead of passing objects"
        )
    if workers > 1 and not os.environ.get("ZEROLAYER_REDIS_URL"):
        log.warning("%d workers without ZEROLAYER_REDIS_URL: each keeps its own cache", workers)
    config = uvicorn_config(FACTORY, host, port, limits, log_level=log_level,
                            access_log=access_log, factory=True, workers=workers)  # fmt: skip
    run_uvicorn(config)


def uvicorn_options(
    host: str, port: int, *, log_level: str = "info", access_log: bool = True
) -> dict[str, Any]:
    """The uvicorn settings of ``serve``: ``auto`` picks uvloop and httptools when installed."""
    return {"host": host, "port": port, "log_level": log_level, "access_log": access_log,
            "ws": "none", "loop": "auto", "http": "auto"}  # fmt: skip


def uvicorn_config(
    app: Any,
    host: str,
    port: int,
    limits: ServiceSettings,
    *,
    log_level: str = "info",
    access_log: bool = True,
    **extra: Any,
) -> Any:
    """uvicorn's ``Config`` for ``serve``, with the connection limits of ``limits``: the
    keep-alive bound and connection cap are uvicorn's own options; the header and body read
    timeouts need the protocol of ``connections.py`` (httptools; with h11 only the first two
    hold, and a warning says so)."""
    import uvicorn

    from zerolayer.rules_api import connections

    options = uvicorn_options(host, port, log_level=log_level, access_log=access_log)
    try:
        import httptools  # noqa: F401

        options["http"] = connections.TimedHttpToolsProtocol
    except ImportError:
        log.warning("httptools is not installed: no header or body read timeouts")
    config = uvicorn.Config(
        app,
        **options,
        timeout_keep_alive=limits.keep_alive_s,
        limit_concurrency=limits.max_connections or None,
        timeout_graceful_shutdown=limits.shutdown_timeout_s or None,
        **extra,
    )
    setattr(config, connections.HEADER_TIMEOUT, limits.header_timeout_s)
    setattr(config, connections.BODY_TIMEOUT, limits.body_timeout_s)
    return config


def run_uvicorn(config: Any) -> None:
    """Run a uvicorn ``Config`` as ``uvicorn.run`` does: one server, or several workers."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    server = uvicorn.Server(config)
    try:
        if config.workers > 1:
            Multiprocess(config, sockets=[config.bind_socket()]).run()
        else:
            server.run()
    except KeyboardInterrupt:
        pass
    if config.workers <= 1 and not server.started:
        raise SystemExit(3)  # uvicorn's exit status of a failed start-up


def main(argv: list[str] | None = None) -> None:
    """Command line of ``python -m zerolayer.rules_api`` (host, port, workers, log level)."""
    import argparse

    parser = argparse.ArgumentParser(description="Run zerolayer's HTTP service.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log-level", default="info")
    parser.add_argument(
        "--no-access-log", action="store_true", help="do not log a line for every request"
    )
    args = parser.parse_args(argv)
    serve(
        args.host,
        args.port,
        args.workers,
        log_level=args.log_level,
        access_log=not args.no_access_log,
    )


if __name__ == "__main__":
    main()
