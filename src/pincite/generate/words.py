"""Words as the extractive generator compares them: content words, Porter2-stemmed."""

from __future__ import annotations

import itertools
import re

from pincite.retrieve.query import STOPWORDS, uncontracted
from pincite.stems import stem

__all__ = ["compounds", "content_stems", "stem"]

_WORD = re.compile(r"\w+")


def content_stems(text: str) -> list[str]:
    words = _WORD.findall(uncontracted(text).casefold())
    return [stem(w) for w in words if w not in STOPWORDS]


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
