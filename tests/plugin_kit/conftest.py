"""Fixtures: the contrib CSV plugin installed in this process (see plugin_kit_support)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from plugin_kit_support import CSV_SRC, csv_installed_for_real, write_dist_info


@pytest.fixture
def csv_site(tmp_path: Path) -> Path:
    """A folder holding the plugin's dist-info (the source stays in contrib/)."""
    site = tmp_path / "site"
    if not csv_installed_for_real():
        write_dist_info(site)
    else:
        site.mkdir()
    return site


@pytest.fixture
def installed_csv(csv_site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The plugin installed in this process (entry point discoverable, module importable)."""
    monkeypatch.syspath_prepend(str(CSV_SRC))
    monkeypatch.syspath_prepend(str(csv_site))
    monkeypatch.delenv("ZEROLAYER_PLUGINS", raising=False)
    yield csv_site
