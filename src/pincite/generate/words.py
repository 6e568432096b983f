"""Words as the extractive generator compares them: content words, Porter2-stemmed."""

from __future__ import annotations

import re

from pincite.retrieve.query import STOPWORDS
from pincite.stems import stem

__all__ = ["content_stems", "stem"]

_WORD = re.compile(r"\w+")


def content_stems(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.casefold()) if w not in STOPWORDS]
