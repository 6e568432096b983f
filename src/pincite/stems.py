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
# "delivered" (deliv), "failure" (failur) and "fail", an irregular verb's "kept" and
# "keep". Listed one by one: a rule ("-y" and "-ure" nouns as their verbs) also
# joined "ready" and "read", "party" and "part", "feature" and "feat". Not the
# participles with another common sense: "held" (a legal hold), "paid" (paid leave),
# "taken", "shown" ("as shown in"), "written" (write access), "known", "built",
# "given", "found".
_FAMILY = {
    "bought": "buy",
    "chosen": "choos",
    "kept": "keep",
    "lost": "lose",
    "sent": "send",
    "sold": "sell",
    "spent": "spend",
    "told": "tell",
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
    # Short forms a question types for the words a document spells out: "config" for
    # "configuration", "env" for "environment". Not those whose stem is another word's:
    # "var" (VaR), "spec" (specific), "info" (inform), "admin" (administrative).
    "config": "configur",
    "env": "environ",
    "repo": "repositori",
    "dir": "directori",
}


# "probationary" is "probation"'s adjective, "discretionary" "discretion"'s: Porter2
# keeps "-ary". Not "dictionary", "stationary", "missionary", "functionary" or
# "reactionary", whose nouns mean something else.
_NOT_ADJECTIVES = frozenset(
    {"dictionari", "stationari", "missionari", "functionari", "reactionari"}
)


def family_stem(word: str) -> str:
    """``stem``, with a few nouns read as the verb they name, "-ionary" adjectives as
    their nouns and a few short forms as their words (the answerer's; retrieval and
    the support checker use ``stem``)."""
    s = stem(word)
    if s.endswith("ionari") and s not in _NOT_ADJECTIVES:
        # The stem, not the word: "probationaries" is cut to "probation" too.
        return stem(s[:-3])
    return _FAMILY.get(s, s)
