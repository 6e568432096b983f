"""Headings worded as questions: how a handbook's FAQ titles its answers.

"## What is not reimbursed" over a list, "### Who do I tell if I'm sick?"
over a paragraph: what follows such a heading answers it, but only a
question asked the same way round ("What is reimbursed?" is not answered by
what is not).
"""

from __future__ import annotations

import re

__all__ = ["asks", "same_polarity"]

_ASKS = re.compile(
    r"[#\s]*(?:what|which|who|whom|whose|when|where|why|how|can|could|do|does|did|is|are|"
    r"will|should|must|may)\b",
    re.I,
)
_NEGATION = re.compile(r"\b(?:not|no|never|cannot|except)\b|n't\b", re.I)


def asks(title: str) -> bool:
    """True for a heading worded as a question, with or without its question mark."""
    return title.rstrip().endswith("?") or _ASKS.match(title) is not None


def same_polarity(title: str, question: str) -> bool:
    """True unless one of the two is negated and the other is not."""
    return (_NEGATION.search(title) is None) == (_NEGATION.search(question) is None)
