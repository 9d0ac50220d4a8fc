"""Hypothesis strategies of what a model might write for one slot."""

from __future__ import annotations

from hypothesis import strategies as st

# Pieces a model might write that mean something in Markdown.
MARKDOWN_BITS = [
    "\n", "\n\n", "\r\n", "\r", " ", "\t", "\u2028", "\xa0", "# ", "## ", "###### ", "#######",
    "- ", "* ", "+ ", "1. ", "2) ", "123456789. ", "> ", "```", "~~~", "```python\n", "---",
    "***", "___", "===", "<div>", "<!--", "<script>", "[a]: /x", "[a]", "(b)", "|", "\\",
    "    ", "**", "_", "`", "Question 1: ", "一、", "1、", "—", "…", "word", "两个字", "?",
]  # fmt: skip
raw_texts = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(MARKDOWN_BITS), max_size=40).map("".join),
    st.lists(st.one_of(st.sampled_from(MARKDOWN_BITS), st.text(max_size=8)), max_size=60).map(
        "".join
    ),
)
