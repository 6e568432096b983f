"""Words of obligation read as one: "required", "mandatory", "must", "shall", "need";
and words of a bound: "maximum", "at most", "up to"; "minimum", "at least".

RFC 2119 makes MUST, REQUIRED and SHALL one requirement, and policies write
"is mandatory" where their readers ask "is it required?" or "do I need ...?".
A question's word of obligation counts as found in a sentence that states the
obligation with another of these words. Permission ("allowed", "may") is left
out: questions after a limit ask what is "allowed" that no sentence states.
Bounds likewise: "What's the max page size?" is answered by "at most 100 items
per page", "the cap on liability" by "is limited to the fees paid", "the
minimum age" by "at least 18".
"""

from __future__ import annotations

import re

from pincite.generate.cues import AMOUNT
from pincite.generate.words import content_stems

__all__ = ["obligations"]

_OBLIGATION = frozenset(
    content_stems("required requires mandatory compulsory obligatory must shall need needs")
)
# "need" as a verb: after its subject or a modal ("you need", "contractors need", "will
# need"), or before what is needed ("needs to", "needs two approvals", "need written
# approval"); not the noun ("business needs change", "as needs dictate").
_NEED = (
    r"(?:i|you|we|they|he|she|it|everyone|anyone|employees|staff|contractors|users|"
    r"customers|will|may|might|would|should|do|does|not|also|only|still)\s+needs?\b|"
    r"needs?\s+(?:to|a|an|the|your|their|our|its|his|her|my|written|prior|explicit|"
    r"approval|approvals|permission|consent|at\s+least|\d+|one|two|three)\b"
)
_STATED = re.compile(
    rf"\b(?:must|shall|required|requires?|mandatory|compulsory|obligatory|needed|{_NEED})",
    re.I,
)
_MAXIMUM = frozenset(content_stems("max maximum most cap limit"))
# "up to" an amount ("up to 5 MB", "up to three days"), not "up to date", "up to you".
_AT_MOST = re.compile(
    r"\b(?:(?:at\s+most|no\s+more\s+than|maximum|max|not\s+(?:to\s+)?exceed\w*|"
    rf"capped\s+at|limited\s+to)\b|up\s+to\s+(?={AMOUNT}))",
    re.I,
)
_MINIMUM = frozenset(content_stems("min minimum least"))
# Not "min": a sentence's "min" is minutes more often than a minimum.
_AT_LEAST = re.compile(r"\b(?:at\s+least|no\s+less\s+than|no\s+fewer\s+than|minimum)\b", re.I)
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
