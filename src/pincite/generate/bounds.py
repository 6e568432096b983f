"""Bounds: what states a limit, and whether a figure answers an extreme asked for.

"What is the largest chunk size allowed?" asks for a bound, which "a chunk
with a chunk-size of zero" does not state; "no more than 2", "a maximum of
five", "25 MB or less" and "there is no limit" do. ``cues`` reads these for
a count or limit question's cue.
"""

from __future__ import annotations

import re

from pincite.generate.question import Question

__all__ = ["BOUND", "bounded"]

# What bounds a value: "maximum 200", "up to 8", "no more than", "1–200", "above 255 bytes".
BOUND = re.compile(
    r"\b(?:max(?:imum)?|min(?:imum)?|(?<!`)limit(?:s|ed)?(?!`)|up\s+to|at\s+(?:most|least)|"
    r"no\s+(?:more|fewer|less)|exceeds?|above|below|cap(?:ped)?|ceiling|"
    # "may be raised to 200", "values over 200": a figure after it.
    r"(?:raised|increased|lowered)\s+to\s+(?:a\s+)?(?:max\w*\s+(?:of\s+)?)?\d+|(?:over|under)\s+\d+|"
    r"(?:more|fewer|less|greater|larger|longer|shorter|smaller|higher|lower)\s+than)\b"
    r"|(?<![\w.-])\d{1,5}\s*[–-]\s*\d{1,5}(?![\w-]|\.\d)",
    re.I,
)


# "What is the largest value allowed?", "max number of challenges", "at most": a bound
# asked for, which a figure alone does not state. Only where the extreme governs the
# figure asked for: not "How many employees does the largest office have?", nor
# "Max-Forwards", "max-age", nor "the rate limit", which names the figure asked for
# ("600 requests per minute").
_EXTREMES = (
    r"maximum|minimum|max|min|largest|smallest|highest|lowest|longest|shortest|biggest|greatest"
)
_EXTREME_ASKED = re.compile(
    rf"(?<![\w-])(?:{_EXTREMES})(?![\w-])\s+(?:[\w*-]+\s+){{0,3}}?(?:value|size|length|"
    r"number|amount|count|duration|period|age|lifetime|bytes|characters|digits|version|rate|"
    r"limit|time)s?\b"
    r"|\bat\s+(?:the\s+)?(?:most|least|max(?:imum)?|min(?:imum)?|longest|shortest)\b"
    r"|,?\s*\b(?:max|maximum|min|minimum)\s*\?*\s*$",
    re.I,
)
_LOWER_ASKED = re.compile(
    r"(?<![\w-])(?:minimum|min|smallest|lowest|shortest)(?![\w-])|\bat\s+(?:the\s+)?least\b",
    re.I,
)
# A bound stated, or none: "a maximum of five", "no more than 2", "unlimited"; below
# or above, as asked: "18 or older" bounds from below, "25 MB or less" from above.
_BOUND_OR_NONE = re.compile(
    rf"{BOUND.pattern}|\b(?:unlimited|unbounded|any\s+number|arbitrary\s+number)\b", re.I
)
_FROM_BELOW = re.compile(
    r"\bor\s+(?:more|longer|greater|higher|older|later|above|newer)\b"
    r"|\band\s+(?:above|over|up)\b|\d\+",
    re.I,
)
_FROM_ABOVE = re.compile(
    r"\bor\s+(?:less|fewer|shorter|smaller|lower|earlier|below|under|younger)\b", re.I
)


def bounded(question: Question, text: str) -> bool:
    """False for a figure that bounds nothing given for an extreme asked for: "a
    chunk-size of zero" for "the largest chunk size allowed"."""
    if not _EXTREME_ASKED.search(question.text) or _BOUND_OR_NONE.search(text):
        return True
    side = _FROM_BELOW if _LOWER_ASKED.search(question.text) else _FROM_ABOVE
    return side.search(text) is not None
