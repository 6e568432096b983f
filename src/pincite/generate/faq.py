"""Headings worded as questions: how a handbook's FAQ titles its answers.

"## What is not reimbursed" over a list, "### Who do I tell if I'm sick?"
over a paragraph: what follows such a heading answers it, but not the same
question turned round ("What is reimbursed?" is not answered by what is not).
"""

from __future__ import annotations

import re

from pincite.generate.words import content_stems

__all__ = ["asks", "restates", "stands_alone", "turned_round"]

_NEGATING = (
    r"\b(?:not|no|non|never|cannot|except|without|exclud\w*|ineligible|prohibit\w*|forbidden)\b"
)
_NEGATION = re.compile(_NEGATING + r"|n['’]t\b", re.I)
# What a heading says with its negation taken out ("can't" is "can", "won't" "will").
_UNSAID = [
    (
        re.compile(r"\b(ca|wo|sha)n['’]t\b", re.I),
        lambda m: {"ca": "can", "wo": "will"}.get(m.group(1).casefold(), "shall"),
    ),
    (re.compile(r"n['’]t\b", re.I), lambda m: ""),
    (re.compile(_NEGATING, re.I), lambda m: " "),
]
# Words a heading may hold beyond the question's own and still ask it.
_EXTRA_WORDS = 1


def asks(title: str) -> bool:
    """True for a heading worded as a question, with or without its question mark."""
    return title.rstrip().endswith("?") or _ASKING_WORD.match(title) is not None


def restates(title: str, question: str, question_stems: set[str]) -> bool:
    """True for a heading worded as the question: the same question word ("Who approves
    expenses?" is not "## How to approve expenses"), every word of the question and at
    most one more."""
    words = _words(title, question_stems)
    return (
        asks(title)
        and _asking(title) == _asking(question)
        and question_stems <= words
        and len(words - question_stems) <= _EXTRA_WORDS
    )


# The question word, one per kind of answer: "which" asks as "what" does, a yes/no
# question's verb as any other's; "how much", "how many", "how long" each their own.
# A section number may open a heading ("4.2 What is not reimbursed").
_ASKING_WORD = re.compile(
    r"[#\s]*(?:\d+(?:\.\d+)*\.?\s+)?(how\s+(?:much|many|long|often|soon)|what|which|whom?|whose|"
    r"when|where|why|how|can|could|do|does|did|is|are|will|should|must|may)\b",
    re.I,
)
_SAME_ASKING = {"which": "what", "whom": "who", "whose": "who"} | dict.fromkeys(
    ("can", "could", "do", "does", "did", "is", "are", "will", "should", "must", "may"), "yes/no"
)


def _asking(text: str) -> str:
    """The question word ``text`` opens with, as ``_SAME_ASKING`` groups them ("" for none)."""
    m = _ASKING_WORD.match(text)
    if m is None:
        return ""
    word = " ".join(m[1].casefold().split())
    return _SAME_ASKING.get(word, word)


def turned_round(title: str, question: str, question_stems: set[str]) -> bool:
    """True for a heading that asks the question with the opposite polarity ("What is
    not reimbursed" for "What is reimbursed?"): its words, negation aside, are the
    question's words exactly, and one of the two is negated ("What if I lose a
    receipt?" is no "What if I don't have a receipt?" turned round)."""
    if (_NEGATION.search(title) is None) == (_NEGATION.search(question) is None):
        return False  # the same polarity: the usual case, and it costs two searches
    unsaid = title
    for pattern, replace in _UNSAID:
        unsaid = pattern.sub(replace, unsaid)
    return (
        asks(unsaid)
        and _asking(unsaid) == _asking(question)
        and _words(unsaid, question_stems) == question_stems
    )


def _words(title: str, question_stems: set[str]) -> set[str]:
    """A heading's words, its section number ("4.2") left out unless the question says it."""
    return {t for t in content_stems(title) if not t.isdigit() or t in question_stems}


# "Alice: When will it ship?", "RQ2: How does size matter?": a line that asks, titling nothing.
_SPOKEN = re.compile(r"\s*(?:RQ\s*\d+|\w[\w .'-]{0,20}):\s")
_TITLE_WORDS = 15


def stands_alone(text: str, start: int, end: int) -> bool:
    """True for a question that is a paragraph of its own, on one line ("<summary>Can I use
    my own laptop?</summary>"): an FAQ's title over its answer, not a question in prose."""
    line = text[start:end]
    if not line.rstrip().endswith("?"):
        return False  # most sentences: no need to look around them
    before, after = text[:start].rstrip(" \t"), text[end:].lstrip(" \t")
    return (
        "\n" not in line.strip()
        and len(line.split()) <= _TITLE_WORDS
        and (not before or before.endswith("\n\n") or before.endswith("\f"))
        and (not after.strip() or after.startswith("\n\n") or after.startswith("\n\f"))
        and _SPOKEN.match(line) is None
    )
