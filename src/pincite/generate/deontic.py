"""Words of obligation read as one: "required", "mandatory", "must", "shall".

RFC 2119 makes MUST, REQUIRED and SHALL one requirement, and policies write
"is mandatory" where their readers ask "is it required?". A question's word of
obligation counts as found in a sentence that states the obligation with
another of these words. Permission ("allowed", "may") is left out: questions
after a limit ask what is "allowed" that no sentence states.
"""

from __future__ import annotations

import re

from pincite.generate.words import content_stems

__all__ = ["obligations"]

_OBLIGATION = frozenset(
    content_stems("required requires mandatory compulsory obligatory must shall")
)
_STATED = re.compile(r"\b(?:must|shall|required|requires?|mandatory|compulsory|obligatory)\b", re.I)


def obligations(text: str, wanted: set[str]) -> set[str]:
    """The obligation words of ``wanted`` (question words ``text`` lacks) that
    ``text`` states in other words."""
    asked = wanted & _OBLIGATION
    if asked and _STATED.search(text) is not None:
        return asked
    return set()
