"""Words of obligation read as one: "required", "mandatory", "must", "shall", "need";
and words of a bound: "maximum", "at most", "up to"; "minimum", "at least".

RFC 2119 makes MUST, REQUIRED and SHALL one requirement, and policies write
"is mandatory" where their readers ask "is it required?" or "do I need ...?".
A question's word of obligation counts as found in a sentence that states the
obligation with another of these words. Permission ("allowed", "may") is left
out: questions after a limit ask what is "allowed" that no sentence states.
Bounds likewise: "What's the max page size?" is answered by "at most 100 items
per page", "the minimum age" by "at least 18".
"""

from __future__ import annotations

import re

from pincite.generate.words import content_stems

__all__ = ["obligations"]

_OBLIGATION = frozenset(
    content_stems("required requires mandatory compulsory obligatory must shall need needs")
)
_STATED = re.compile(
    r"\b(?:must|shall|required|requires?|mandatory|compulsory|obligatory|needs?|needed)\b", re.I
)
_MAXIMUM = frozenset(content_stems("max maximum most"))
_AT_MOST = re.compile(
    r"\b(?:at\s+most|up\s+to|no\s+more\s+than|maximum|max|not\s+(?:to\s+)?exceed\w*|"
    r"capped\s+at)\b",
    re.I,
)
_MINIMUM = frozenset(content_stems("min minimum least"))
_AT_LEAST = re.compile(r"\b(?:at\s+least|no\s+less\s+than|no\s+fewer\s+than|minimum|min)\b", re.I)
_FAMILIES = ((_OBLIGATION, _STATED), (_MAXIMUM, _AT_MOST), (_MINIMUM, _AT_LEAST))


def obligations(text: str, wanted: set[str]) -> set[str]:
    """The obligation and bound words of ``wanted`` (question words ``text`` lacks)
    that ``text`` states in other words."""
    found: set[str] = set()
    for family, stated in _FAMILIES:
        asked = wanted & family
        if asked and stated.search(text) is not None:
            found |= asked
    return found
