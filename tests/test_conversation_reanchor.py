"""Re-anchoring a span into a new text: exact, whitespace-normalised, aligned, or removed."""

from __future__ import annotations

from pincite.ground.reanchor import REMOVED_BELOW, Anchor, Reanchorer, word_diff

NEW = (
    "Scope.\n\nCustomer records are kept for ten years after the account closes.  "
    "Backups are encrypted at rest.\nBackups are encrypted at rest."
)


def test_exact_text_keeps_its_words_at_new_offsets() -> None:
    r = Reanchorer(NEW)
    found = r.find("Customer records are kept for ten years after the account closes.")
    assert found.status is Anchor.UNCHANGED and not found.whitespace_only
    assert found.span is not None and NEW[found.span[0] : found.span[1]].startswith("Customer")
    assert found.similarity == 1.0 and found.diff == ""


def test_of_two_occurrences_the_one_nearest_the_old_place_wins() -> None:
    r = Reanchorer(NEW)
    first = NEW.index("Backups")
    second = NEW.rindex("Backups")
    assert r.find("Backups are encrypted at rest.", position=0.0).span == (first, first + 30)
    assert r.find("Backups are encrypted at rest.", position=1.0).span == (second, second + 30)


def test_moved_line_breaks_are_unchanged_text() -> None:
    found = Reanchorer(NEW).find("records are kept\nfor ten   years")
    assert found.status is Anchor.UNCHANGED and found.whitespace_only
    assert found.span is not None
    assert NEW[found.span[0] : found.span[1]] == "records are kept for ten years"


def test_an_edited_sentence_is_changed_with_a_word_diff() -> None:
    old = "Customer records are kept for seven years after the account closes."
    found = Reanchorer(NEW).find(old)
    assert found.status is Anchor.CHANGED
    assert REMOVED_BELOW <= found.similarity < 1.0
    assert found.span is not None
    assert NEW[found.span[0] : found.span[1]] == old.replace("seven", "ten")
    assert (
        found.diff
        == "Customer records are kept for [-seven-] {+ten+} years after the account closes."
    )


def test_text_with_no_counterpart_is_removed() -> None:
    found = Reanchorer(NEW).find("Payroll is processed monthly by the human resources team.")
    assert found.status is Anchor.REMOVED and found.span is None
    assert found.similarity < REMOVED_BELOW
    assert Reanchorer(NEW).find("   ").status is Anchor.REMOVED
    assert Reanchorer("").find("anything").status is Anchor.REMOVED


def test_word_diff_marks_additions_and_removals() -> None:
    assert word_diff("a b c", "a x c") == "a [-b-] {+x+} c"
    assert word_diff("a b", "a b c") == "a b {+c+}"
    assert word_diff("a b c", "a c") == "a [-b-] c"
