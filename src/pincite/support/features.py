"""Pure, cheap signals of whether a piece of text supports a claim.

Each function here takes strings or token sets and returns numbers; none
loads a model. ``heuristic.py`` combines them.

- ``content_terms``: lower-cased, Snowball-stemmed (Porter2) word stems with
  stopwords removed, plus normalised numbers.
- ``numbers``: numeric values in a text ("1,200", "3.5%", "two", "10 million");
  ``quantities``: the same with the unit word after each ("ten years").
- ``coverage``: weighted recall of the claim's terms in the evidence.
- ``missing_numbers``: claim numbers the evidence does not contain.
- ``negated`` / ``polarity_terms``: negation cues and directional words
  ("increase" vs "decrease") whose disagreement flips a claim's meaning.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]

__all__ = [
    "STOPWORDS",
    "Quantity",
    "content_terms",
    "coverage",
    "entity_terms",
    "idf_weights",
    "missing_numbers",
    "negated",
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
_NUMBER = re.compile(
    r"(?<![\w.])[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![.,]?\d)"
    r"(?:\s*(?:%|percent\b|per cent\b))?"
    r"(?:st|nd|rd|th)?"
    r"(?:\s+(?P<scale>thousand|million|billion|trillion)\b)?",
    re.IGNORECASE,
)
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
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
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

_stemmer = snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Porter2 stem of one lower-case word (cached: stemming is the hot loop)."""
    return str(_stemmer.stemWord(word))


def words(text: str) -> list[str]:
    """Lower-cased word tokens; a possessive or contraction suffix stays attached."""
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


#: A number with the unit word after it ("ten years" -> (10.0, "year")), "" for none.
Quantity = tuple[float, str]

# Words that name what a number counts or measures, each mapped to one name, so
# "ten days" does not state "ten years" while "50 metres" states "50 meters".
# Other words after a number ("1,200 patients") are not units: the sentence's
# other words carry that agreement. Ambiguous short forms ("m", "in", "t") are left out.
_UNIT_SPELLINGS = {
    "second": "sec secs second seconds",
    "minute": "min mins minute minutes",
    "hour": "hr hrs hour hours",
    "day": "day days",
    "week": "wk wks week weeks",
    "month": "mo mos month months",
    "year": "yr yrs year years",
    "decade": "decade decades",
    "century": "century centuries",
    "percent": "percent pct",
    "dollar": "dollar dollars usd",
    "euro": "euro euros eur",
    "cent": "cent cents",
    "millimetre": "mm millimetre millimetres millimeter millimeters",
    "centimetre": "cm centimetre centimetres centimeter centimeters",
    "metre": "metre metres meter meters",
    "kilometre": "km kms kilometre kilometres kilometer kilometers",
    "mile": "mile miles",
    "foot": "ft foot feet",
    "inch": "inch inches",
    "yard": "yd yds yard yards",
    "milligram": "mg milligram milligrams milligramme milligrammes",
    "gram": "gram grams gramme grammes",
    "kilogram": "kg kgs kilo kilos kilogram kilograms kilogramme kilogrammes",
    "tonne": "tonne tonnes ton tons",
    "ounce": "oz ounce ounces",
    "litre": "litre litres liter liters",
    "millilitre": "ml millilitre millilitres milliliter milliliters",
    "gallon": "gal gallon gallons",
}
_UNIT_OF = {w: unit for unit, spellings in _UNIT_SPELLINGS.items() for w in spellings.split()}
_NEXT_WORD = re.compile(r"\s*([^\W\d_]+)")


def _unit_after(text: str, end: int) -> str:
    found = _NEXT_WORD.match(text, end)
    return _UNIT_OF.get(found.group(1).lower(), "") if found else ""


def quantities(text: str, *, bare_scaled: bool = True) -> set[Quantity]:
    """The numbers of ``text`` (see ``numbers``), each with the unit word after it.

    ``bare_scaled=False`` records "2 million" as 2,000,000 only: right for a
    claim, whose every number must be found, where the bare 2 would demand a
    second match.
    """
    found: set[Quantity] = set()
    for match in _NUMBER.finditer(text):
        raw = match.group()
        digits = re.match(r"[-+−]?[\d,]*\d(?:\.\d+)?", raw)
        if digits is None:  # pragma: no cover - the pattern always starts with digits
            continue
        value = abs(float(digits.group().replace(",", "").replace("−", "-")))
        lowered = raw.lower()
        percent = "%" in raw or "percent" in lowered or "per cent" in lowered
        unit = "percent" if percent else _unit_after(text, match.end())
        scale = match.group("scale")
        if scale:
            found.add((value * _SCALES[scale.lower()], unit))
        if bare_scaled or not scale:
            found.add((value, unit))
    for match in _WORD.finditer(text):
        word = match.group().lower()
        if word in _NUMBER_WORDS:
            found.add((_NUMBER_WORDS[word], _unit_after(text, match.end())))
    return found


def numbers(text: str) -> set[float]:
    """Numeric values mentioned in ``text``: digits, "3.5%", "1,200", "ten", "2 million".

    A scaled value ("2 million") is recorded both scaled and bare, so it agrees
    with "2,000,000" and with "2". Percent signs and ordinal suffixes are dropped.
    """
    return {value for value, _ in quantities(text)}


def _decimals(value: float) -> int:
    text = repr(value)
    return len(text.split(".")[1].rstrip("0")) if "." in text else 0


def number_matches(claimed: float, stated: float) -> bool:
    """True when ``stated`` is ``claimed``, or rounds to it at the claim's precision.

    "3.5" matches 3.47; "10,000" (not a year) matches 10,234 within 5 %; a year
    such as 2000 matches only itself.
    """
    if claimed == stated:
        return True
    places = _decimals(claimed)
    if places and round(stated, places) == claimed:
        return True
    is_round = claimed >= 100 and claimed % 100 == 0 and not 1000 <= claimed <= 2100
    return is_round and abs(stated - claimed) <= 0.05 * claimed


def missing_numbers(claimed: Iterable[Quantity], stated: Collection[Quantity]) -> list[Quantity]:
    """The claimed quantities that no stated one matches.

    A match is ``number_matches`` on the value with the same unit, or no unit
    on one side; but when the claim names a unit that the text also uses, only
    the text's numbers in that unit count ("10 staff ... 7 years" does not back
    "10 years").
    """
    missing = []
    for value, unit in claimed:
        same_unit = [s for s in stated if unit and s[1] == unit]
        pool = same_unit or [s for s in stated if not unit or not s[1] or s[1] == unit]
        if not any(number_matches(value, s[0]) for s in pool):
            missing.append((value, unit))
    return missing


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


def polarity_conflict(claim: Collection[str], evidence: Collection[str]) -> bool:
    """True when the claim has a directional stem whose opposite, but not itself, is in evidence."""
    for term in claim:
        opposite = _OPPOSITE.get(term)
        if opposite is not None and opposite in evidence and term not in evidence:
            return True
    return False
