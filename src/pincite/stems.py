"""Word stems: the Porter2 (Snowball English) stemmer, cached.

The answerer and the support checker compare words by stem, so both read
"policy" and "policies", or "encrypted" and "encryption", as one word.
"""

from __future__ import annotations

import re
from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]

__all__ = ["american", "family_stem", "stem"]

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


# British spellings read as American ones, so a question typed "organisation" finds a
# document's "organization" and "recognise" its "recognized": Porter2 stems the two
# apart ("organis", "organ"). "-ise" only where "-ize" spells the same word: not
# "advise", "revise" or "enterprise", whose stems ("revis") match their nouns'
# ("revision") as they are.
_BRITISH = re.compile(r"^(\w{3,}?)is(e|es|ed|ing|ation|ations|er|ers|able)$")
_ONLY_ISE = frozenset(
    {
        "adv", "advert", "appr", "appra", "bru", "cer", "chast", "circumc", "clockw", "compr",
        "comprom", "conc", "cru", "dem", "desp", "dev", "disgu", "enterpr", "exc", "exerc",
        "expert", "franch", "imprec", "improv", "inc", "lia", "likew", "merchand", "mort",
        "otherw", "parad", "pra", "pract", "prec", "prem", "prom", "repr", "rev", "sunr",
        "superv", "surpr", "telev", "treat", "upr",
    }
)  # fmt: skip
_OUR = re.compile(
    r"^((?:dis|un)?(?:behavi|col|fav|hon|lab|neighb|harb|hum|rum|vap|vig|endeav|flav|arm|od|"
    r"rig|tum|sav))our(s|ed|ing|able|ably|ite|ites|al|ally|er|ers|ful|ist|ists)?$"
)
_ANALYSE = re.compile(r"^(ana|para|cata|dia)lys(e|es|ed|ing|er|ers)$")
# Whole words whose two spellings Porter2 stems apart, and their plurals.
_SPELLINGS = {
    "centre": "center",
    "metre": "meter",
    "litre": "liter",
    "theatre": "theater",
    "fibre": "fiber",
    "licence": "license",
    "defence": "defense",
    "offence": "offense",
    "pretence": "pretense",
    "programme": "program",
    "catalogue": "catalog",
    "dialogue": "dialog",
    "enrolment": "enrollment",
    "instalment": "installment",
    "fulfil": "fulfill",
    "judgement": "judgment",
    "acknowledgement": "acknowledgment",
    "ageing": "aging",
    "grey": "gray",
    "greyed": "grayed",
    "centred": "centered",
    "catalogued": "cataloged",
    "cataloguing": "cataloging",
    "practise": "practice",
    "practised": "practiced",
    "practising": "practicing",
    "fulfilment": "fulfillment",
    "fulfils": "fulfills",
}


def american(word: str) -> str:
    """``word`` (lower case) in American spelling where its British form ("-ise",
    "-our", "-yse", "centre", "licence" …) is one of the two spellings of the same word;
    otherwise unchanged."""
    plain = _SPELLINGS.get(word) or (
        _SPELLINGS[word[:-1]] + "s" if word.endswith("s") and word[:-1] in _SPELLINGS else None
    )
    if plain is not None:
        return plain
    if "lys" in word:
        m = _ANALYSE.match(word)
        if m is not None:
            return f"{m.group(1)}lyz{m.group(2)}"
    if word.endswith(("e", "es", "ed", "ing", "ation", "ations", "er", "ers", "able")):
        m = _BRITISH.match(word)
        if m is not None and m.group(1) not in _ONLY_ISE:
            return f"{m.group(1)}iz{m.group(2)}"
    if "our" in word:
        m = _OUR.match(word)
        if m is not None:
            return f"{m.group(1)}or{m.group(2) or ''}"
    return word


@lru_cache(maxsize=65536)
def family_stem(word: str) -> str:
    """``stem``, with a few nouns read as the verb they name, "-ionary" adjectives as
    their nouns, a few short forms as their words and British spellings as American
    ones (the answerer's; retrieval and the support checker use ``stem``)."""
    s = stem(american(word))
    if s.endswith("ionari") and s not in _NOT_ADJECTIVES:
        # The stem, not the word: "probationaries" is cut to "probation" too.
        return stem(s[:-3])
    return _FAMILY.get(s, s)
