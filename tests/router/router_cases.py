"""The paraphrase set of the router tests (``cases/paraphrases.yaml``), loaded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

CASES = Path(__file__).parent / "cases" / "paraphrases.yaml"


def load_paraphrases() -> list[dict[str, Any]]:
    data = yaml.safe_load(CASES.read_text(encoding="utf-8"))
    return [{**c, "payload_text": data["payloads"][c["payload"]]} for c in data["cases"]]
