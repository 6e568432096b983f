"""Words as the extractive generator compares them: content words, Porter2-stemmed."""

from __future__ import annotations

import itertools
import re

from pincite.retrieve.query import STOPWORDS, uncontracted
from pincite.stems import stem

__all__ = ["compounds", "content_stems", "stem"]

_WORD = re.compile(r"\w+")


# A name of capitalised words joined by hyphens ("If-Range", "Retry-After",
# "If-None-Match"): its parts are kept though "if" or "after" is a stopword on
# its own, or "If-Range" would read as "Range" and "Retry-After" as "Retry".
_HYPHENATED_NAME = re.compile(r"(?<![\w-])[A-Z][a-z]*(?:-[A-Z]\w*)+")


def content_stems(text: str) -> list[str]:
    text = uncontracted(text)
    names = [m.span() for m in _HYPHENATED_NAME.finditer(text)] if "-" in text else []
    if not names:
        return [stem(w) for w in _WORD.findall(text.casefold()) if w not in STOPWORDS]
    out = []
    for m in _WORD.finditer(text):
        w = m[0].casefold()
        if w not in STOPWORDS or any(s <= m.start() < e for s, e in names):
            out.append(stem(w))
    return out


def compounds(text: str, wanted: set[str]) -> set[str]:
    """The stems in ``wanted`` that ``text`` writes as two words ("host names" for "hostname").

    A question may join what a document splits; each pair of neighbouring
    words of ``text`` is read as one. (The other way round, a document's
    "hostname" for a question's "host name", is not read.)
    """
    if not wanted:
        return set()
    words = _WORD.findall(text.casefold())
    return {j for a, b in itertools.pairwise(words) if (j := stem(a + b)) in wanted}
