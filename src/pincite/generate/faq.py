"""Headings worded as questions: how a handbook's FAQ titles its answers.

"## What is not reimbursed" over a list, "### Who do I tell if I'm sick?"
over a paragraph: what follows such a heading answers it, but not the same
question turned round ("What is reimbursed?" is not answered by what is not).
"""

from __future__ import annotations

import re

from pincite.generate.words import content_stems

__all__ = ["asks", "restates", "turned_round"]

# "4.2 What is not reimbursed" too: a section number may open it.
_ASKS = re.compile(
    r"[#\s]*(?:\d+(?:\.\d+)*\.?\s+)?(?:what|which|who|whom|whose|when|where|why|how|can|could|"
    r"do|does|did|is|are|will|should|must|may)\b",
    re.I,
)
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|except|without|exclud\w*|ineligible|prohibit\w*|forbidden)\b"
    r"|n['’]t\b",
    re.I,
)
# Words a heading may hold beyond the question's own and still ask it.
_EXTRA_WORDS = 1


def asks(title: str) -> bool:
    """True for a heading worded as a question, with or without its question mark."""
    return title.rstrip().endswith("?") or _ASKS.match(title) is not None


def restates(title: str, question_stems: set[str]) -> bool:
    """True for a heading worded as a question that holds every word of the question and
    at most one more."""
    words = _words(title, question_stems)
    return asks(title) and question_stems <= words and len(words - question_stems) <= _EXTRA_WORDS


def turned_round(title: str, question: str, question_stems: set[str]) -> bool:
    """True for a heading that asks the question with the opposite polarity ("What is
    not reimbursed" for "What is reimbursed?"): its words, negation aside, are the
    question's words exactly, and one of the two is negated ("What if I lose a
    receipt?" is no "What if I don't have a receipt?" turned round)."""
    negated = (_NEGATION.search(title) is None) != (_NEGATION.search(question) is None)
    unsaid = _NEGATION.sub(" ", title)
    return negated and asks(unsaid) and _words(unsaid, question_stems) == question_stems


def _words(title: str, question_stems: set[str]) -> set[str]:
    """A heading's words, its section number ("4.2") left out unless the question says it."""
    return {t for t in content_stems(title) if not t.isdigit() or t in question_stems}
