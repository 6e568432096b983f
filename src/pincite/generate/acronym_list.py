"""An acronym list's entry, when a question asks what the acronym stands for.

Front and back matter spell acronyms out one to a line ("CNSS Committee for
National Security Systems", "PDA Personal Digital Assistant"). The layout
reads such a line as a heading, which no claim quotes; asked what CNSS
stands for, that line is the answer, and it is quoted whole: the acronym is
its subject.
"""

from __future__ import annotations

import math
import re

from pincite.generate.base import Passage
from pincite.generate.layout import Role, Unit
from pincite.generate.pool import Piece
from pincite.generate.question import Question, QuestionKind

__all__ = ["acronym_entry", "spelled_out"]

# The acronym, then what it stands for, capitalised, alone on the line.
_ENTRY = re.compile(r"(?P<acronym>[A-Za-z][A-Za-z0-9&/-]{1,11})[ \t]+(?P<expansion>[A-Z(][^\n]*)")
# Asked what an acronym stands for, whatever the question's kind: "what is CNSS short
# for", "what does wimax stand for in the acronym list".
_EXPANSION_ASKED = re.compile(
    r"\b(?:stands?\s+for|short\s+for|acronyms?|abbreviations?|abbreviated|expansion|"
    r"spell(?:s|ed)?\s+out|full\s+form)\b",
    re.I,
)
# An entry's expansion is a name, not a sentence.
_EXPANSION_WORDS = 10
_WORD_BREAK = re.compile(r"[\s/-]+")
# Of an acronym's capitals, this share must open the expansion's words in order
# ("WiMAX Worldwide Interoperability for Microwave Access" spells W, M and A).
_SPELLED_SHARE = 0.6


def spelled_out(acronym: str, expansion: str) -> bool:
    """True when ``expansion`` spells ``acronym`` out: its first word opens with the
    acronym's first capital, and most of its capitals open later words in order."""
    capitals = [c for c in acronym if c.isupper()]
    if len(capitals) < 2:
        return False
    initials = [w[0].upper() for w in _WORD_BREAK.split(expansion) if w[:1].isalpha()]
    if not initials or initials[0] != capitals[0]:
        return False
    found, at = 0, 0
    for capital in capitals:
        k = next((j for j in range(at, len(initials)) if initials[j] == capital), None)
        if k is not None:
            found, at = found + 1, k + 1
    return found >= max(2, math.ceil(_SPELLED_SHARE * len(capitals)))


def acronym_entry(
    question: Question, p: Passage, units: list[Unit], i: int
) -> tuple[Piece, ...] | None:
    """The line of an acronym list that spells out the acronym the question asks
    about, as a claim's piece; None for any other unit."""
    u = units[i]
    if u.role not in (Role.HEADING, Role.FRAGMENT):
        return None
    m = _ENTRY.fullmatch(p.text[u.start : u.end].strip())
    if m is None or len(m["expansion"].split()) > _EXPANSION_WORDS:
        return None
    acronym = m["acronym"]
    if not spelled_out(acronym, m["expansion"]) or not _names(question.text, acronym):
        return None
    # "What is NIST?" asks what the acronym is; "What is virtual mobile infrastructure
    # (VMI) and what does it provide?" has it spelled out already and asks for more.
    bare = question.kind is QuestionKind.DEFINITION and _names(question.term, acronym, whole=True)
    if not bare and not _EXPANSION_ASKED.search(question.text):
        return None
    return ((p, u.start, u.end),)


def _names(text: str, acronym: str, *, whole: bool = False) -> bool:
    """True when ``text`` names ``acronym`` ("PDAs" names PDA), or with ``whole`` is
    only its name. Typed in lower case ("wimax") it counts too, unless it is two
    letters long: "it" is no IT. A number after it names a document ("fips 200
    acronym list - what is CNSS short for" asks about CNSS, not FIPS)."""
    flags = 0 if len(acronym) <= 2 else re.I
    named = rf"(?<![\w-]){re.escape(acronym)}(?:'?s)?(?![\w-])(?!\s*\d)"
    if whole:
        return re.fullmatch(rf"\s*{named}\s*", text, flags) is not None
    return re.search(named, text, flags) is not None
