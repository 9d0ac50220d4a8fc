"""A cheap well-formedness check of rendered HTML (balanced tags), for tests and debugging."""

from __future__ import annotations

from html.parser import HTMLParser

VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    ]
)


class _Balance(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.problems.append(f"<{tag} /> is not a void element")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.problems.append(f"</{tag}> closes a void element")
        elif not self.stack or self.stack[-1] != tag:
            open_tag = self.stack[-1] if self.stack else "nothing"
            self.problems.append(f"</{tag}> closes {open_tag}")
        else:
            self.stack.pop()


def html_problems(html: str) -> list[str]:
    """Problems that make ``html`` not well-formed: mismatched or unclosed tags.

    Meant for renderer output without raw HTML (``safe=True`` or HTML-free input): raw HTML
    passed through may legitimately be unbalanced.
    """
    checker = _Balance()
    checker.feed(html)
    checker.close()
    return checker.problems + [f"<{tag}> is never closed" for tag in checker.stack]
