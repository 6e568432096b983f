"""Rule-made rewrites of claims, each labelled by construction.

An LLM generator restates what a passage says: numbers in words or other
units, other verbs, a clause left out. It can also get it wrong: a "not"
added, a number changed, a direction reversed, the actor swapped, a part made
the whole. Each rule below makes one such rewrite of a claim the passage
supports; ``SUPPORTED_RULES`` keep the meaning, ``UNSUPPORTED_RULES`` break it.
A rule that does not apply to a claim returns ``None``. Deterministic: the same
claim and seed give the same rewrites.

The rules (documented for the README and the paraphrase test set):

supported
  - ``restate_number``: a quantity in other words or units: "12 months" ->
    "one year", "30 days" -> "a month", "24 hours" -> "one day", "50%" ->
    "half", "3 weeks" -> "21 days", small counts in words ("7" -> "seven") and
    back, "2 million" -> "2,000,000" (not "1.2 million"). A digit inside a
    name or code ("OCT3/4", "SHP-2"), a decimal ("2.4") or a reference marker
    ("[4]") is left alone.
  - ``synonym``: a common verb, adjective or connective swapped for a synonym
    (``_SYNONYMS``: "shows" -> "demonstrates", "about" -> "approximately").
  - ``trim``: a trailing clause dropped (after ", which", ", and", "; "): the
    rest is still stated.
  - ``hedge``: a reporting prefix ("Notably, ", "The source states that ").

unsupported
  - ``negate``: "not" after the first auxiliary ("is" -> "is not"), or a
    "never"/"always" swap.
  - ``change_number``: a number moved (x2, +3 when small) or its unit changed
    (days -> weeks); never a reference marker ("[4]" -> "[7]" says the same).
  - ``antonym``: a directional or scope word reversed (``_ANTONYMS``:
    "increased" -> "decreased", "before" -> "after", "only" -> "all").
  - ``swap_actor``: the claim's leading words (its subject) replaced by the
    subject of another claim ("Customers pay ..." from "The vendor pays ...");
    both must name something (no pronoun, "There", opening preposition or
    reporting frame such as "Additionally, it").
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from pincite.numbers import NUMBER_WORDS
from pincite.support.features import STOPWORDS

__all__ = [
    "RULES",
    "SUPPORTED_RULES",
    "UNSUPPORTED_RULES",
    "rewrites",
]

_SYNONYMS = {
    "shows": "demonstrates",
    "show": "demonstrate",
    "showed": "demonstrated",
    "about": "approximately",
    "big": "large",
    "large": "big",
    "uses": "employs",
    "used": "employed",
    "use": "employ",
    "helps": "assists",
    "began": "started",
    "begins": "starts",
    "started": "began",
    "bought": "purchased",
    "buy": "purchase",
    "received": "got",
    "receives": "gets",
    "created": "made",
    "founded": "established",
    "located": "situated",
    "died": "passed away",
    "also": "additionally",
    "many": "numerous",
    "often": "frequently",
    "important": "significant",
    "main": "principal",
    "later": "subsequently",
    "called": "named",
    "named": "called",
    "became": "turned into",
    "includes": "contains",
    "include": "contain",
    "allows": "lets",
    "requires": "needs",
    "require": "need",
    "increases": "raises",
    "increased": "raised",
    "reduces": "lowers",
    "reduced": "lowered",
    "associated with": "linked to",
    "linked to": "associated with",
    "won": "took",
    "released": "put out",
    "wrote": "authored",
    "written": "authored",
    "answered": "responded to",
    "issued": "given",
    "within": "inside",
    "help": "assist",
}
_ANTONYMS = {
    "increases": "decreases",
    "increased": "decreased",
    "increase": "decrease",
    "decreases": "increases",
    "decreased": "increased",
    "decrease": "increase",
    "higher": "lower",
    "lower": "higher",
    "more": "less",
    "less": "more",
    "before": "after",
    "after": "before",
    "first": "last",
    "last": "first",
    "larger": "smaller",
    "smaller": "larger",
    "positive": "negative",
    "negative": "positive",
    "improves": "worsens",
    "improved": "worsened",
    "reduces": "increases",
    "reduced": "increased",
    "includes": "excludes",
    "included": "excluded",
    "won": "lost",
    "lost": "won",
    "always": "never",
    "never": "always",
    "promotes": "inhibits",
    "inhibits": "promotes",
    "activates": "inhibits",
    "enhances": "impairs",
    "highest": "lowest",
    "lowest": "highest",
    "maximum": "minimum",
    "minimum": "maximum",
    "early": "late",
    "late": "early",
    "pays": "receives",
    "accepted": "rejected",
    "rejected": "accepted",
}
_AUX = re.compile(r"\b(is|are|was|were|has|have|had|can|will|does|do|did|could|should|would)\b")
_SMALL = list(NUMBER_WORDS[:13])  # "zero" to "twelve"
_UNIT_RESTATE = (
    (r"\bevery (?:12|twelve) months\b", "every year"),
    (r"\b12 months\b|\btwelve months\b", "one year"),
    (r"\b(?:one|1|a) years?\b", "12 months"),
    (r"\b30 days\b|\bthirty days\b", "a month"),
    (r"\b24 hours\b", "one day"),
    (r"\b(?:one|a|1) day\b", "24 hours"),
    (r"\b(?:one|a|1) week\b", "seven days"),
    (r"\b50 ?(?:%|percent)", "half"),
    (r"\b25 ?(?:%|percent)", "a quarter"),
    (r"\bhalf\b", "50%"),
    (r"(?<![\d.,])\b(\d+) million\b", None),  # digits written out, below; not "1.2 million"
    (r"\b(\d+) weeks\b", None),  # in days
    (r"\b(\d+) years\b", None),  # in months
)
# A count standing alone: not part of a name or code ("OCT3/4", "SHP-2"), a
# decimal ("2.4") or a reference marker ("[4]").
_WORD_OR_DIGIT = re.compile(
    r"(?<![\w./\[-])(\d{1,2}|" + "|".join(_SMALL[2:]) + r")\b(?![/-]|[.,:]?\d)"
)
_HEDGES = ("Notably, ", "The source states that ", "According to the text, ", "Reportedly, ")


def _lower_first(text: str) -> str:
    """Lower-case the first letter when the first word is a function word, not a name."""
    head = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if head.lower() in STOPWORDS else text


def restate_number(claim: str, rng: random.Random) -> str | None:
    for pattern, replacement in _UNIT_RESTATE:
        match = re.search(pattern, claim, re.IGNORECASE)
        if match is None:
            continue
        if replacement is None:
            n = int(match.group(1))
            unit = match.group().split()[-1]
            replacement = {
                "million": f"{n * 1_000_000:,}",
                "weeks": f"{n * 7} days",
                "years": f"{n * 12} months",
            }[unit]
        return claim[: match.start()] + replacement + claim[match.end() :]
    match = _WORD_OR_DIGIT.search(claim)
    if match is None:
        return None
    token = match.group()
    if token.isdigit():
        n = int(token)
        if not 2 <= n <= 12:
            return None
        return claim[: match.start()] + _SMALL[n] + claim[match.end() :]
    return claim[: match.start()] + str(_SMALL.index(token.lower())) + claim[match.end() :]


def _swap_word(claim: str, table: dict[str, str], rng: random.Random) -> str | None:
    found = [
        m for key in table for m in re.finditer(rf"\b{re.escape(key)}\b", claim, re.IGNORECASE)
    ]
    if not found:
        return None
    m = rng.choice(sorted(found, key=lambda m: m.start()))
    new = table[m.group().lower()]
    if m.group()[0].isupper():
        new = new[0].upper() + new[1:]
    return claim[: m.start()] + new + claim[m.end() :]


def synonym(claim: str, rng: random.Random) -> str | None:
    return _swap_word(claim, _SYNONYMS, rng)


def trim(claim: str, rng: random.Random) -> str | None:
    match = re.search(r"(, which |, and |; | \(| - )", claim)
    if match is None or match.start() < 25:
        return None
    return claim[: match.start()].rstrip(" ,;") + "."


def hedge(claim: str, rng: random.Random) -> str | None:
    return rng.choice(_HEDGES) + _lower_first(claim)


def negate(claim: str, rng: random.Random) -> str | None:
    match = _AUX.search(claim)
    if match is not None and not claim[match.end() :].lstrip().startswith("not"):
        return claim[: match.end()] + " not" + claim[match.end() :]
    for word, other in (("always", "never"), ("never", "always")):
        if re.search(rf"\b{word}\b", claim):
            return re.sub(rf"\b{word}\b", other, claim, count=1)
    return None


def change_number(claim: str, rng: random.Random) -> str | None:
    # Not a reference marker ("[4]"): changing one changes no statement.
    match = re.search(r"(?<![\w.,\[])(\d(?:[\d,]*\d)?(?:\.\d+)?)(?![\d,]*\.\d)(?!\])", claim)
    if match is not None:
        raw = match.group(1).replace(",", "")
        value = float(raw)
        if 1900 <= value <= 2100 and "." not in raw:
            new = str(int(value) + rng.choice((-3, -2, 2, 3)))
        elif value < 20:
            new = raw.replace(raw, f"{value + rng.choice((2, 3, 5)):g}")
        else:
            new = f"{value * rng.choice((2, 3)):,g}"
        return claim[: match.start(1)] + new + claim[match.end(1) :]
    for unit, other in (("days", "weeks"), ("months", "years"), ("hours", "days")):
        if re.search(rf"\b{unit}\b", claim):
            return re.sub(rf"\b{unit}\b", other, claim, count=1)
    return None


def antonym(claim: str, rng: random.Random) -> str | None:
    return _swap_word(claim, _ANTONYMS, rng)


_DETERMINERS = ("The", "A", "An", "Its", "Their", "This")


def _subject(claim: str) -> str | None:
    """The claim's leading subject words: up to its first auxiliary, a name, or "The noun".

    Only a phrase that names something counts (``_names_something``): not a
    pronoun ("It", "He"), "There", an opening preposition ("In", "For") or a
    reporting frame ("Additionally, it"). Swapping one of those in or out
    leaves a garbled sentence that may still say what the passage says, which
    is no meaning-breaking rewrite.
    """
    tokens = claim.split(" ")
    aux = next((i for i, t in enumerate(tokens) if _AUX.fullmatch(t)), None)
    if aux is not None and 1 <= aux <= 3:
        found = " ".join(tokens[:aux])
    elif tokens[0] in _DETERMINERS and len(tokens) > 2:
        found = " ".join(tokens[:2])
    else:
        names = 0
        while (
            names < min(3, len(tokens) - 1)
            and tokens[names][:1].isupper()
            and tokens[names].lower() not in STOPWORDS
        ):
            names += 1
        found = " ".join(tokens[:names])
    return found if _names_something(found) else None


def _names_something(phrase: str) -> bool:
    """A determiner or none, then only content words, with no clause break."""
    tokens = phrase.split()
    if tokens and tokens[0] in _DETERMINERS:
        tokens = tokens[1:]
    return bool(tokens) and all(
        t.lower() not in STOPWORDS and not t.endswith((",", ":", ";")) for t in tokens
    )


def swap_actor(claim: str, rng: random.Random, others: Sequence[str] = ()) -> str | None:
    """Replace the claim's subject (``_subject``) with another claim's."""
    mine = _subject(claim)
    if mine is None or not others:
        return None
    for _ in range(5):
        theirs = _subject(rng.choice(others))
        if theirs and theirs.lower() != mine.lower() and theirs.lower() not in claim.lower():
            return theirs + claim[len(mine) :]
    return None


Rule = Callable[[str, random.Random], str | None]
SUPPORTED_RULES: dict[str, Rule] = {
    "restate_number": restate_number,
    "synonym": synonym,
    "trim": trim,
    "hedge": hedge,
}
UNSUPPORTED_RULES: dict[str, Rule] = {
    "negate": negate,
    "change_number": change_number,
    "antonym": antonym,
}
RULES = {**SUPPORTED_RULES, **UNSUPPORTED_RULES, "swap_actor": swap_actor}


def rewrites(
    claim: str, seed: int, others: Sequence[str] = (), *, supported: bool = True
) -> list[tuple[str, str, bool]]:
    """``(rewrite, rule, supported)`` for every rule that applies to ``claim``.

    ``supported`` says whether the passage supports ``claim`` itself: only then
    are the meaning-keeping rewrites labelled supported (a rewrite of an
    unsupported claim stays unsupported, so those are skipped). Combining two
    supported rules gives a looser paraphrase, like an LLM's.
    """
    rng = random.Random(f"{seed}:{claim}")
    out: list[tuple[str, str, bool]] = []
    if supported:
        for name, rule in SUPPORTED_RULES.items():
            new = rule(claim, rng)
            if new and new != claim:
                second = synonym(new, rng) if name != "synonym" else None
                out.append((second or new, name + ("+synonym" if second else ""), True))
        for name, rule in UNSUPPORTED_RULES.items():
            new = rule(claim, rng)
            if new and new != claim:
                out.append((new, name, False))
        new = swap_actor(claim, rng, others)
        if new and new != claim:
            out.append((new, "swap_actor", False))
    return out
