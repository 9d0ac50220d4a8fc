"""Benchmark: render_markdown against a bare ``MarkdownIt("commonmark").render``.

Renders the same ~1 KB and ~100 KB documents with both, many times each, interleaved, and
prints the median time per render and the overhead ratio (target: at most 20% at 1 KB).

    PYTHONPATH=.dev python3 benchmarks/markdown_html.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from markdown_it import MarkdownIt

from zerolayer.plugins.markdown_html.render import render_markdown

SECTION = """\
## Release notes for version 2.1

Version **2.1** adds *dark mode*, a [settings page](https://example.com/settings "Settings")
and faster start-up. See `docs/upgrade.md` for details.

- Install with `pip install foo`
- Run the migrations:
  1. back up the database
  2. run `foo migrate`
- Restart the service

> Simplicity is prerequisite for reliability.
> — Edsger Dijkstra

```python
def hello(name: str) -> str:
    return f"Hello, {name}!"
```

Escaped \\*asterisks\\*, an entity &copy; and a line\\
break. ![logo](/img/logo.png)

"""


def _median_seconds(fn: Callable[[], object], runs: int, inner: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=41, help="timed samples per input")
    args = ap.parse_args()

    small = SECTION * max(1, 1024 // len(SECTION))
    while len(small.encode()) < 1000:
        small += SECTION
    large = SECTION * (100 * 1024 // len(SECTION))
    bare = MarkdownIt("commonmark")
    assert bare.render(small) == render_markdown(small)  # same output, so a fair comparison

    print(f"{'input':>10} {'bare ms':>10} {'ours ms':>10} {'overhead':>9}")
    for label, text, inner in (("~1 KB", small, 200), ("~100 KB", large, 2)):
        render_markdown(text)  # warm the parser cache
        bare.render(text)
        bare_s: list[float] = []
        ours_s: list[float] = []
        for _ in range(args.runs):  # interleave, so drift hits both alike
            bare_s.append(_median_seconds(lambda t=text: bare.render(t), 1, inner))
            ours_s.append(_median_seconds(lambda t=text: render_markdown(t), 1, inner))
        t_bare = statistics.median(bare_s)
        t_ours = statistics.median(ours_s)
        t_gfm = _median_seconds(lambda t=text: render_markdown(t, gfm=True), args.runs, inner)
        size = f"{len(text.encode()) / 1024:.1f} KiB"
        print(
            f"{label:>10} {t_bare * 1e3:10.3f} {t_ours * 1e3:10.3f} "
            f"{(t_ours / t_bare - 1) * 100:8.1f}%   ({size}; gfm=True: {t_gfm * 1e3:.3f} ms)"
        )


if __name__ == "__main__":
    main()
