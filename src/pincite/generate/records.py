"""Lines that state a date or a size outside any sentence, quoted as a claim.

Cover pages and tables state such facts in lines no sentence holds ("7 pages
(September 2011)" under "Special Publication 800-145"); a number question
asking for a date or a length in pages is answered by such a line, with the
line that says whose date or size it is.
"""

from __future__ import annotations

import re

from pincite.generate.base import Passage
from pincite.generate.cues import states_expected
from pincite.generate.layout import Role, Unit
from pincite.generate.pool import Piece
from pincite.generate.question import Question
from pincite.generate.tables import table_record
from pincite.generate.words import content_stems

__all__ = ["record_line"]

_ROLES = frozenset({Role.HEADING, Role.FRAGMENT})
_EXPECTS = frozenset({"date", "pages"})
_WORDS = 16
_SECTION_NUMBER = re.compile(r"\s*(?:\d+\.\d+(?:\.\d+)*\.?|\d+\.)\s+[A-Z]")


def record_line(
    question: Question,
    p: Passage,
    units: list[Unit],
    i: int,
    values: frozenset[tuple[str, float]],
) -> tuple[Piece, ...] | None:
    """A short line stating the date or size a number question asks for, as a claim's piece.

    Cover pages and tables state such facts in lines no sentence holds ("7
    pages (September 2011)" under "Special Publication 800-145", "4/27/2012
    Editorial Corrected page number ..." under its table's header row). The
    line is quoted with the heading line right above it, which says whose
    date or size it is, and with the heading line below it when that one
    holds words of the question ("Announcing the Standard for" under "March
    9, 2006"). None for any other unit.
    """
    u = units[i]
    if u.role is Role.FRAGMENT and u.row:
        return table_record(question, p, units, i, values)
    if u.role not in _ROLES or question.expects not in _EXPECTS:
        return None
    line = p.text[u.start : u.end]
    if len(line.split()) > _WORDS or _SECTION_NUMBER.match(line):
        return None  # "5.2 Web Pages" numbers a section; it counts no pages
    if not states_expected(question, line):
        return None
    start, end = u.start, u.end
    if u.title_index == i - 1:
        above = units[i - 1]
        gap = p.text[above.end : u.start]
        if "\n\n" not in gap and len(p.text[above.start : above.end].split()) <= _WORDS:
            start = above.start
    if i + 1 < len(units) and units[i + 1].role is Role.HEADING:
        # "March 9, 2006\n\nAnnouncing the Standard for": the line below says what the
        # date is of, when it holds words of the question the lines above lack.
        below = units[i + 1]
        told = p.text[below.start : below.end]
        gap = p.text[u.end : below.start]
        said = set(content_stems(p.text[start:end]))
        new = (set(content_stems(told)) & set(question.stems)) - said
        if new and gap.count("\n") <= 2 and len(told.split()) <= _WORDS:
            end = below.end
    return ((p, start, end),)
