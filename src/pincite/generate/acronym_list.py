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
from functools import lru_cache

from pincite.generate.base import Passage
from pincite.generate.layout import Role, Unit
from pincite.generate.pool import Piece
from pincite.generate.question import Question
from pincite.generate.words import STOPWORD_STEMS

__all__ = ["acronym_entry", "spelled_out"]

# The acronym, then what it stands for, capitalised, alone on the line.
_ENTRY = re.compile(r"(?P<acronym>[A-Za-z][A-Za-z0-9&/-]{1,11})[ \t]+(?P<expansion>[A-Z(][^\n]*)")
# Asked what an acronym stands for: "what is CNSS short for", "what does nac stand
# for", "the expansion of PII". Not a bare "acronym" ("Which acronyms does the guide
# use?"), and not "What is NIST?": a definition question is answered by what the
# thing is, and the list's line, quoted beside that, would only repeat its name.
_EXPANSION_ASKED = re.compile(
    r"\b(?:stands?\s+for|short\s+for|(?:acronym|abbreviation)\s+(?:of|for)|abbreviated|"
    r"expansion|spell(?:s|ed)?\s+out|full\s+form)\b",
    re.I,
)
# An entry's expansion is a name, not a sentence: the longest in the NIST guides'
# lists has six words.
_EXPANSION_WORDS = 10
_WORD_BREAK = re.compile(r"[\s/-]+")
# Of an acronym's capitals, this share must open the expansion's words in order:
# "DMZ Demilitarized Zone" and "SSH Secure Shell" open two of their three. A heading
# that passes too ("TLS Termination Strategies") stands alone, while a list's
# entries stand together (``acronym_entry``).
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
    if not _asks_expansion(question.text):
        return None
    acronym = _entry(p, units[i])
    if acronym is None or not _names(question.text, acronym):
        return None
    # A line of a list: an entry stands beside it.
    if not any(_entry(p, units[j]) for j in (i - 1, i + 1) if 0 <= j < len(units)):
        return None
    return ((p, units[i].start, units[i].end),)


@lru_cache(maxsize=256)
def _asks_expansion(question: str) -> bool:
    # Asked of every unit of every passage shown: read once per question.
    return _EXPANSION_ASKED.search(question) is not None


def _entry(p: Passage, u: Unit) -> str | None:
    """The acronym ``u`` spells out, when it is a line of an acronym list (a table's
    row is quoted with its header row, ``records``)."""
    if u.role not in (Role.HEADING, Role.FRAGMENT) or u.row:
        return None
    m = _ENTRY.fullmatch(p.text[u.start : u.end].strip())
    if m is None or len(m["expansion"].split()) > _EXPANSION_WORDS:
        return None
    return m["acronym"] if spelled_out(m["acronym"], m["expansion"]) else None


def _names(question: str, acronym: str) -> bool:
    """True when ``question`` names ``acronym`` ("PDAs" names PDA). Typed in lower
    case ("cnss") it counts too, unless the word is an ordinary one written as
    words are ("Can you spell out ..." names no CAN) or two letters long ("it" is
    no IT). A number after it names a document ("fips 200 acronym list - what is
    CNSS short for" asks about CNSS, not FIPS)."""
    named = rf"(?<![\w-])({re.escape(acronym)})(?:'?s)?(?![\w-])(?!\s*\d)"
    for m in re.finditer(named, question, re.I):
        word = m[1]
        if word == acronym or word.isupper():
            return True
        if len(acronym) > 2 and word.casefold() not in STOPWORD_STEMS:
            return True
    return False
