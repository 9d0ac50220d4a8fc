"""The pluggy host: loads built-in plugins and third-party ones from entry points.

Built-in plugins are listed in ``zerolayer.plugins.DEFAULT_PLUGINS`` and registered exactly
like third-party plugins, which come through the ``zerolayer`` entry-point group. The
environment variable ``ZEROLAYER_PLUGINS`` chooses which load: unset or ``all`` loads every
plugin; otherwise a comma-separated list of plugin names (``json_yaml,sql_pandas,my_csv``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import import_module
from importlib.metadata import entry_points

import pluggy

from zerolayer.core import hookspecs
from zerolayer.core.errors import StartupError
from zerolayer.core.registry import Registry, build_registry

ENTRY_POINT_GROUP = "zerolayer"
PLUGINS_ENV = "ZEROLAYER_PLUGINS"


def selected_plugins(env: Mapping[str, str] | None = None) -> frozenset[str] | None:
    """The plugin names ``ZEROLAYER_PLUGINS`` selects, or None for all."""
    raw = (env if env is not None else os.environ).get(PLUGINS_ENV, "").strip()
    if raw in ("", "all", "*"):
        return None
    return frozenset(n.strip() for n in raw.split(",") if n.strip())


def load_plugins(
    selection: frozenset[str] | None = None, *, extra: Mapping[str, object] | None = None
) -> tuple[pluggy.PluginManager, Registry]:
    """Load and check plugins; return the plugin manager and the registry built from it.

    ``extra`` registers in-process plugin objects by name (embedders and tests use it).
    """
    from zerolayer import __version__
    from zerolayer.plugins import DEFAULT_PLUGINS

    pm = pluggy.PluginManager("zerolayer")
    pm.add_hookspecs(hookspecs)
    versions: dict[str, str] = {}
    wanted = selection

    def want(name: str) -> bool:
        return wanted is None or name in wanted

    for module_name in DEFAULT_PLUGINS:
        short = module_name.rsplit(".", 1)[-1]
        if want(short):
            _register(pm, import_module(module_name), short)
            versions[short] = __version__
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if not want(ep.name):
            continue
        try:
            plugin = ep.load()
        except Exception as exc:
            raise StartupError(
                f"plugin {ep.name!r} (entry point {ep.value}) failed to import: "
                f"{type(exc).__name__}: {exc}",
                hint=f"uninstall it, or leave it out with {PLUGINS_ENV}",
            ) from exc
        _register(pm, plugin, ep.name)
        versions[ep.name] = ep.dist.version if ep.dist else "unknown"
    for name, plugin in (extra or {}).items():
        _register(pm, plugin, name)
        versions[name] = getattr(plugin, "__version__", "unknown")
    if wanted is not None:
        missing = sorted(wanted - set(versions))
        if missing:
            raise StartupError(
                f"{PLUGINS_ENV} names plugins that are not installed: {', '.join(missing)}",
                hint=f"installed: {', '.join(sorted(available_plugins()))}",
            )
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise StartupError(
            f"plugin {exc.plugin!r} implements a hook that does not exist: {exc}",
            hint="hooks: " + ", ".join(sorted(_hook_names())),
        ) from exc
    return pm, build_registry(pm, versions)


def available_plugins() -> list[str]:
    from zerolayer.plugins import DEFAULT_PLUGINS

    names = [m.rsplit(".", 1)[-1] for m in DEFAULT_PLUGINS]
    return names + [ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)]


def _hook_names() -> list[str]:
    return [n for n in dir(hookspecs) if n.startswith("register_")]


def _register(pm: pluggy.PluginManager, plugin: object, name: str) -> None:
    if pm.get_plugin(name) is not None:
        raise StartupError(f"two plugins are named {name!r}; plugin names must be unique")
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as exc:
        raise StartupError(f"plugin {name!r} is not a valid zerolayer plugin: {exc}") from exc
