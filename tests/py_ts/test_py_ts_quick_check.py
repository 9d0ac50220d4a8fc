"""The quick reading of a translated program (``quick_code`` and the Python-word scan) may
only accept what the full check accepts: programs it passes must tokenize, end as a
module and hold no Python-only word as a name. Checked on every fixture program's
translation and on seeded mutants of them and of short random texts."""

from __future__ import annotations

import random

import pytest
from py_ts_cases import program_files

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.py_ts import ops
from zerolayer.plugins.py_ts.translate import parse_python, python_to_typescript
from zerolayer.plugins.py_ts.tslex import quick_code

_PIECES = [
    *"()[]{}`'\"/\\$ .\n*_1x=+-?:;ea#",
    "${", "//", "/*", "*/", "and", "is", "in", "return", ".is", "1.", "?.", "...", "0x1",
    "\u00b2", "\u0661", "1n", "1_", "e5", "/g", "++", "--", "x.", "a1", " not ", "True",
]  # fmt: skip


def _translations() -> list[str]:
    out = []
    for path in program_files():
        try:
            out.append(python_to_typescript(parse_python(path.read_text(encoding="utf-8"))))
        except Unsupported:
            continue
    return out


def _quick(ts: str) -> bool:
    code = quick_code(ts)
    return (
        code is not None
        and not ops._maybe_python_word(" ".join(code))
        and ts.rstrip().rsplit("\n", 1)[-1].strip() == ops._MODULE_END
    )


def _full(ts: str) -> bool:
    try:
        ops._checked_tokens(ts, "check")
    except Unsupported:
        return False
    return True


@pytest.fixture(scope="module")
def translations() -> list[str]:
    return _translations()


def test_translations_pass_both(translations: list[str]) -> None:
    assert translations
    assert all(_full(ts) for ts in translations)
    assert sum(_quick(ts) for ts in translations) > len(translations) // 2


def test_mutants_quick_implies_full(translations: list[str]) -> None:
    rng = random.Random(7)
    accepted = 0
    for _ in range(3000):
        ts = rng.choice(translations)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(ts))
            roll = rng.random()
            if roll < 0.4:
                ts = ts[:i] + ts[i + 1 :]
            elif roll < 0.8:
                ts = ts[:i] + rng.choice(_PIECES) + ts[i:]
            else:
                ts = ts[:i] + ts[i + rng.randint(1, 30) :]
        if _quick(ts):
            accepted += 1
            assert _full(ts), ts
    assert accepted > 100


def test_short_texts_quick_implies_full() -> None:
    rng = random.Random(11)
    accepted = 0
    for _ in range(30000):
        ts = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 12))) + "\nexport {};"
        if _quick(ts):
            accepted += 1
            assert _full(ts), ts
    assert accepted > 1000
