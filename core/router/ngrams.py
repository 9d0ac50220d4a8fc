"""Character n-gram similarity: the router's signal for Chinese instructions.

all-MiniLM-L6-v2 is an English model: most Chinese characters are not in its vocabulary and
become ``[UNK]``, so two different Chinese instructions that name the same formats embed
alike. A Chinese instruction is compared instead by the cosine of its counts of Chinese characters
and character bigrams against the Chinese examples that name the same formats (Latin words —
formats, field names — are left out: the router compares those exactly). Segmentation is not
needed and nothing is loaded.
"""

from __future__ import annotations

import math
import re
from collections import Counter

_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def profile(text: str) -> Counter[str]:
    """Counts of the text's Chinese characters and character bigrams (within runs)."""
    counts: Counter[str] = Counter()
    for run in _RUN.findall(text):
        counts.update(run)
        counts.update(run[i : i + 2] for i in range(len(run) - 1))
    return counts


def similarity(a: Counter[str], b: Counter[str]) -> float:
    """Cosine of two profiles (0 when either is empty)."""
    if not a or not b:
        return 0.0
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    dot = sum(n * large.get(k, 0) for k, n in small.items())
    norm = math.sqrt(sum(n * n for n in a.values())) * math.sqrt(sum(n * n for n in b.values()))
    return dot / norm
