"""Pure, cheap signals of whether a piece of text supports a claim.

Each function here takes strings or token sets and returns numbers; none
loads a model. ``heuristic.py`` combines them.

- ``content_terms``: lower-cased, Snowball-stemmed (Porter2) word stems with
  stopwords removed, plus normalised numbers.
- ``numbers``, ``quantities``, ``missing_numbers``: re-exported from
  ``quantities.py`` (numbers with units, compared across units).
- ``coverage``: weighted recall of the claim's terms in the evidence.
- ``negated`` / ``polarity_terms``: negation cues and directional words
  ("increase" vs "decrease") whose disagreement flips a claim's meaning.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping

from pincite.stems import stem
from pincite.support.quantities import (
    Quantity,
    missing_numbers,
    number_matches,
    numbers,
    quantities,
)

__all__ = [
    "STOPWORDS",
    "Quantity",
    "content_terms",
    "coverage",
    "entity_terms",
    "idf_weights",
    "missing_numbers",
    "negated",
    "negated_terms",
    "number_matches",
    "numbers",
    "polarity_conflict",
    "quantities",
    "stem",
    "words",
]


def _words_of(text: str) -> list[str]:
    """The whitespace-separated words of ``text`` (keeps long word lists compact)."""
    return text.split()


def _wordset(text: str) -> frozenset[str]:
    return frozenset(_words_of(text))


# Lucene's English stopword list extended with the NLTK list's function words
# (pronouns, auxiliaries, determiners). Negation words are included: negation
# is its own signal (``negated``) and should not count as content.
STOPWORDS = _wordset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    also may might must shall s t d ll m re ve y don didn doesn isn wasn weren aren hasn haven
    hadn wouldn shouldn couldn cannot never none upon via per among within without whether yet
    however thus therefore one ones it's
    """
)

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_NUMBER_WORDS = {
    w: float(i)
    for i, w in enumerate(
        _words_of(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen twenty"
        )
    )
}
_NUMBER_WORDS.update({"thirty": 30.0, "forty": 40.0, "fifty": 50.0, "sixty": 60.0})
_NUMBER_WORDS.update({"seventy": 70.0, "eighty": 80.0, "ninety": 90.0, "hundred": 100.0})
_NUMBER_WORDS.pop("one")  # "one of the", "no one": almost never a count worth checking
_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nobody|nothing|neither|nor|nowhere|cannot|without|"
    r"lacks?|lacked|lacking|absence\s+of|fail(?:s|ed)?\s+to|unable\s+to|unrelated|"
    r"insufficient|ineffective)\b|n['’]t\b",
    re.IGNORECASE,
)
# Directional words whose swap reverses a claim (SciFact's typical
# contradictions: "increases" vs "decreases", "higher" vs "lower"). Stems.
_POLAR = (
    ("increas", "decreas"),
    ("higher", "lower"),
    ("rais", "reduc"),
    ("greater", "smaller"),
    ("posit", "negat"),
    ("benefici", "harm"),
    ("improv", "worsen"),
    ("better", "wors"),
    ("gain", "loss"),
    ("enhanc", "impair"),
    ("activ", "inhibit"),
    ("promot", "suppress"),
    ("induc", "prevent"),
    ("larger", "smaller"),
    ("first", "last"),
    ("male", "femal"),
    ("earlier", "later"),
    ("win", "lose"),
    ("won", "lost"),
)
_OPPOSITE = {a: b for a, b in _POLAR} | {b: a for a, b in _POLAR}


def words(text: str) -> list[str]:
    """Lower-cased word tokens; a possessive or contraction suffix stays attached."""
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


def _strip_clitic(word: str) -> str:
    """``"bieber's"`` → ``"bieber"``, ``"should've"`` → ``"should"``, ``"don't"`` → ``"not"``."""
    if "'" not in word:
        return word
    head, _, tail = word.partition("'")
    if tail == "t" and head.endswith("n"):
        return "not"
    return head if tail in ("s", "ve", "ll", "re", "d", "m") else word


def content_terms(text: str) -> set[str]:
    """Stemmed non-stopword words of ``text``, plus one ``#<value>`` term per number."""
    terms = {f"#{value:g}" for value in numbers(text)}
    for word in words(text):
        word = _strip_clitic(word)
        if word in STOPWORDS or word in _NUMBER_WORDS or len(word) < 2 or word.isdigit():
            continue
        terms.add(stem(word))
    return terms


def entity_terms(text: str) -> set[str]:
    """Stems of capitalised non-stopword words: a cheap stand-in for named entities."""
    out: set[str] = set()
    for raw in _WORD.findall(text):
        word = _strip_clitic(raw.lower().replace("’", "'"))
        if raw[0].isupper() and word not in STOPWORDS and len(word) > 1:
            out.add(stem(word))
    return out


def idf_weights(documents: Iterable[Collection[str]], terms: Iterable[str]) -> dict[str, float]:
    """IDF of each term over ``documents`` (the cited sentences themselves).

    ``log((N + 1) / (df + 0.5))``, floored at 0.1 (BM25's IDF, Robertson &
    Zaragoza 2009, with +1 smoothing). A term no sentence contains gets the
    largest weight: missing rare words are what unsupported claims are made of.
    """
    docs = list(documents)
    n = len(docs)
    out: dict[str, float] = {}
    for term in terms:
        df = sum(1 for d in docs if term in d)
        out[term] = max(0.1, math.log((n + 1) / (df + 0.5)))
    return out


def coverage(
    claim: Collection[str], evidence: Collection[str], weights: Mapping[str, float]
) -> float:
    """Weighted share of the claim's terms found in the evidence, in [0, 1]; 1 for no terms."""
    # fsum is exact, so the result (and every tie ``windows`` breaks on it) does
    # not depend on the order a set yields its terms in, which PYTHONHASHSEED changes.
    total = math.fsum(weights.get(t, 1.0) for t in claim)
    if total == 0:
        return 1.0
    return math.fsum(weights.get(t, 1.0) for t in claim if t in evidence) / total


def negated(text: str) -> bool:
    """True when ``text`` carries a negation cue (not, no, never, n't, without, fail to ...)."""
    return _NEGATION.search(text) is not None


_NEGATION_WORDS = _wordset(
    "not no never none nobody nothing neither nor cannot without lack lacks lacked lacking"
)


def negated_terms(text: str) -> frozenset[str]:
    """Stems a negation cue governs: the first two content words within four words after it.

    "Refunds are not issued for the term" -> {"issu", "term"}. A sentence-wide
    ``negated`` cannot tell a claim that negates what its evidence affirms
    when the evidence is negated elsewhere ("X is not linked to Y" against "X
    is linked to Y, not to Z"); these stems can.
    """
    tokens = [_strip_clitic(w) for w in words(text)]
    out: set[str] = set()
    for i, word in enumerate(tokens):
        if word not in _NEGATION_WORDS:
            continue
        taken = 0
        for other in tokens[i + 1 : i + 5]:
            if other in _NEGATION_WORDS:
                break
            if other in STOPWORDS or other in _NUMBER_WORDS or len(other) < 2:
                continue
            out.add(stem(other))
            taken += 1
            if taken == 2:
                break
    return frozenset(out)


def polarity_conflict(claim: Collection[str], evidence: Collection[str]) -> bool:
    """True when the claim has a directional stem whose opposite, but not itself, is in evidence."""
    for term in claim:
        opposite = _OPPOSITE.get(term)
        if opposite is not None and opposite in evidence and term not in evidence:
            return True
    return False
