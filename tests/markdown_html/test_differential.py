"""GFM mode against cmark-gfm itself (the ``cmarkgfm`` binding), on seeded random inputs.

Every input either renders like cmark-gfm (under zeroscore's html_equals normalisation) or
raises Unsupported. Inputs where plain CommonMark already differs between markdown-it
(0.31.2) and cmark (0.29) are skipped: that is a core-version difference, not a GFM one.
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from zerolayer.core.errors import Unsupported
from zerolayer.plugins.markdown_html.render import render_markdown

cmarkgfm = pytest.importorskip("cmarkgfm")
from cmarkgfm.cmark import Options  # noqa: E402

EXTENSIONS = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]
PIECES = [
    "www.", "www.a.com", "http://", "https://x.org/p", "ftp://f.b", "a@b.co", "x.y@z.com",
    "@", ".", ",", ")", "(", "[", "]", "*", "_", "~", "~~", "**", "`", "<", ">", " ", " ",
    "\n", "a", "b_c", "&amp;", "&x;", ";", "!", "?", "\\", "\\_", ":", "/", "mailto:", "-",
    "com", '"', "'", "[x](y)", "<b>", "|", "\n\n", "- [ ] ", "- [x] ", "é",
    "| a | b |\n|---|---|\n", "> ", "\n- ", "\n  ",
]  # fmt: skip


def _inputs(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12))) for _ in range(count)]


@pytest.mark.parametrize("seed", range(4))
def test_gfm_matches_cmark_gfm_or_refuses(seed: int, zeroscore: ModuleType) -> None:
    norm = zeroscore.normalize_html
    compared = 0
    for src in _inputs(seed, 1500):
        try:
            ours = render_markdown(src, gfm=True)
        except Unsupported:
            continue
        core_ours = render_markdown(src)
        core_ref = cmarkgfm.markdown_to_html(src, options=Options.CMARK_OPT_UNSAFE)
        if norm(core_ours) != norm(core_ref):
            continue
        ref = cmarkgfm.markdown_to_html_with_extensions(
            src, options=Options.CMARK_OPT_UNSAFE, extensions=EXTENSIONS
        )
        assert norm(ours) == norm(ref), src
        compared += 1
    assert compared > 1000  # the check is not vacuous
