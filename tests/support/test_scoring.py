from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pincite.support import features as f
from pincite.support.scoring import focus

LONG = (
    "The committee met on a rainy Tuesday in the old hall next to the river and, after "
    "lengthy debate about the budget, finally approved the new bridge toll for trucks."
)


def test_focus_picks_the_run_with_most_claim_terms() -> None:
    claim = frozenset(f.content_terms("The committee approved a bridge toll for trucks."))
    start, end = focus(LONG, claim, 8)
    run = LONG[start:end]
    assert len(run.split()) == 8
    assert run.endswith("toll for trucks.")
    assert "approved" in run and "bridge" in run


def test_focus_ties_go_to_the_earliest_run_and_short_texts_stay_whole() -> None:
    assert focus(LONG, frozenset({"zzz"}), 5) == (0, len("The committee met on a"))
    assert focus("  two words  ", frozenset(), 5) == (2, 11)
    assert focus("", frozenset(), 5) == (0, 0)


@given(st.text(alphabet="ab c.\n", max_size=80), st.integers(min_value=1, max_value=12))
def test_focus_returns_whole_words_within_the_limit(text: str, max_words: int) -> None:
    start, end = focus(text, frozenset(f.content_terms("ab")), max_words)
    run = text[start:end]
    assert 0 <= start <= end <= len(text)
    assert len(run.split()) == min(max_words, len(text.split()))
    assert run == run.strip()
