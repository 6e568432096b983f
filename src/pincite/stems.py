"""Word stems: the Porter2 (Snowball English) stemmer, cached.

The answerer and the support checker compare words by stem, so both read
"policy" and "policies", or "encrypted" and "encryption", as one word.
"""

from __future__ import annotations

from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]

__all__ = ["family_stem", "stem"]

_stemmer = snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Porter2 stem of one lower-case word (cached: stemming is the hot loop)."""
    return str(_stemmer.stemWord(word))


# Stems Porter2 leaves apart although one word family's: "delivery" (deliveri) and
# "delivered" (deliv), "expiry" and "expire", "failure" (failur) and "fail",
# "erasure" and "erase". A "-y" noun's stem is read as its verb's, an "-ure"
# noun's as the stem it was made from. "policy" is no "police".
_UNFOLDED = frozenset({"polici"})


@lru_cache(maxsize=65536)
def family_stem(word: str) -> str:
    """``stem``, with a ``-y`` or ``-ure`` noun read as the verb it names (the answerer's)."""
    s = stem(word)
    if len(s) >= 5 and s.endswith("i") and s not in _UNFOLDED:
        return stem(s[:-1])
    if len(s) >= 6 and s.endswith("ur"):
        return s[:-2]
    return s
