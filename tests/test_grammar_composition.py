"""The composed instruction grammar: families do not compete for the same words."""

from __future__ import annotations

from zerolayer.core.engine import Engine
from zerolayer.core.grammar import cross_fragment_conflicts, shift_reduce_conflicts
from zerolayer.core.registry import GrammarFragment


def test_built_in_fragments_compose_without_new_conflicts(engine: Engine) -> None:
    assert cross_fragment_conflicts(engine.registry.fragments) == set()


def test_a_competing_fragment_is_reported() -> None:
    # One family says "convert X to Y" through a rule of its own that wraps the shared verb:
    # next to a family that uses the verb directly, the parser must guess after "convert".
    wraps = GrammarFragment(
        "aa", "%extend clause: aa_c\naa_c: aa_v TO AA_X\naa_v: CONVERT\nAA_X.2: /xx/\n"
    )
    direct = GrammarFragment("bb", "%extend clause: bb_c\nbb_c: CONVERT TO BB_Y\nBB_Y.2: /yy/\n")
    assert cross_fragment_conflicts([wraps, direct])
    assert not shift_reduce_conflicts("start: a\na: A\nA: /a/\n")  # and a clean grammar has none
