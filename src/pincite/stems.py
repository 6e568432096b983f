"""Word stems: the Porter2 (Snowball English) stemmer, cached.

The answerer and the support checker compare words by stem, so both read
"policy" and "policies", or "encrypted" and "encryption", as one word.
"""

from __future__ import annotations

from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]

__all__ = ["stem"]

_stemmer = snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Porter2 stem of one lower-case word (cached: stemming is the hot loop)."""
    return str(_stemmer.stemWord(word))
