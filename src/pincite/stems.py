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
# "delivered" (deliv), "failure" (failur) and "fail", an irregular verb's "paid" and
# "pay", "kept" and "keep". Listed one by one: a rule ("-y" and "-ure" nouns as their
# verbs) also joined "ready" and "read", "party" and "part", "feature" and "feat".
# Not "given" (RFCs' "a given resource") nor "found" ("founded").
_FAMILY = {
    "bought": "buy",
    "built": "build",
    "chosen": "choos",
    "held": "hold",
    "kept": "keep",
    "known": "know",
    "lost": "lose",
    "paid": "pay",
    "payabl": "pay",
    "payment": "pay",
    "sent": "send",
    "shown": "show",
    "sold": "sell",
    "spent": "spend",
    "taken": "take",
    "told": "tell",
    "written": "write",
    "closur": "close",
    "departur": "depart",
    "deliveri": "deliv",
    "disclosur": "disclos",
    "discoveri": "discov",
    "enclosur": "enclos",
    "erasur": "eras",
    "expiri": "expir",
    "exposur": "expos",
    "failur": "fail",
    "recoveri": "recov",
    "seizur": "seiz",
}


def family_stem(word: str) -> str:
    """``stem``, with a few nouns read as the verb they name (the answerer's)."""
    s = stem(word)
    return _FAMILY.get(s, s)
