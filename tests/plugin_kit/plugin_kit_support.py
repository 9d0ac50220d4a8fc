"""Helpers: the contrib CSV plugin as an installed distribution, without touching the environment.

``installed_csv`` writes the ``.dist-info`` that ``pip install`` would (metadata and the
``zerolayer`` entry point) into a temporary folder and puts it, with the plugin's source, on
``sys.path``: ``importlib.metadata`` then finds the entry point exactly as for a pip install.
The same folder on ``PYTHONPATH`` makes a subprocess see it.
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CSV_SRC = ROOT / "contrib" / "zerolayer-csv" / "src"


def csv_installed_for_real() -> bool:
    """Whether the environment itself has zerolayer-csv installed (CI pip-installs it)."""
    eps = importlib.metadata.entry_points(group="zerolayer")
    return any(ep.name == "csv" for ep in eps)


def write_dist_info(site: Path) -> None:
    info = site / "zerolayer_csv-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: zerolayer-csv\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[zerolayer]\ncsv = zerolayer_csv\n")


def subprocess_env(*paths: Path, **extra: str) -> dict[str, str]:
    """The environment for a ``zerolayer`` subprocess with ``paths`` first on PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k != "ZEROLAYER_PLUGINS"}
    existing = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    dev = str(ROOT / ".dev")
    env["PYTHONPATH"] = os.pathsep.join([*map(str, paths), dev, *existing])
    env.update(extra)
    return env


PYTHON = sys.executable
