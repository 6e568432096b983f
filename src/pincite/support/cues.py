"""Word-order cues that change who does what, and words that narrow or widen a claim.

Bag-of-words coverage cannot tell "the vendor pays the fees" from "customers
pay the fees", nor "refunds cover the unused portion" from "refunds cover the
entire fee". These cheap cues can, each from the word sequences of the claim
and of its best evidence window (no model):

- ``role_conflict``: a word both share is led, in the claim, by a content word
  the evidence lacks, while in the evidence it is led by another content word
  the claim lacks ("Customers pay" vs "the vendor pays"): a swapped actor.
- ``scope_conflict``: the claim widens what the evidence narrows ("entire",
  "all", "always" against "only", "portion", "except", "unless") or the
  reverse.
- ``counterpart_conflict``: the swapped actor is the relation's other party
  (vendor and customer, landlord and tenant): a contradiction, not a rewording.
- ``order_agreement``: of the pairs of shared words, the share that come in the
  same order in both texts (1.0 when fewer than two are shared); a swap of
  subject and object reverses pairs.
- ``antonym_conflict``: a claim word whose opposite, but not itself, the
  evidence says ("includes" vs "excludes"; beyond ``features.polarity_conflict``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from pincite.support import features as f

__all__ = [
    "antonym_conflict",
    "core_claim",
    "counterpart_conflict",
    "order_agreement",
    "role_conflict",
    "scope_conflict",
    "stems",
]

# Stems (Porter2) of words that widen a statement to everything, and of words
# that restrict it to part. A claim on one side, its evidence on the other,
# says something the evidence does not.
_WIDE = frozenset(
    map(
        f.stem,
        f.words(
            "all entire entirely whole full fully every always complete completely total "
            "totally any everyone everything unlimited"
        ),
    )
)
_NARROW = frozenset(
    map(
        f.stem,
        f.words(
            "only portion partial partially except excluding exclude excluded "
            "limited solely merely sometimes unused"
        ),
    )
)
# Opposites the directional list in ``features`` does not hold (words; stemmed below).
_ANTONYMS = (
    ("include", "exclude"),
    ("allow", "prohibit"),
    ("permit", "prohibit"),
    ("accept", "reject"),
    ("approve", "reject"),
    ("open", "close"),
    ("start", "stop"),
    ("begin", "end"),
    ("success", "failure"),
    ("succeed", "fail"),
    ("same", "differ"),
    ("before", "after"),
    ("above", "below"),
    ("maximum", "minimum"),
    ("most", "least"),
    ("more", "less"),
    ("more", "fewer"),
    ("strong", "weak"),
    ("high", "low"),
    ("long", "short"),
    ("rise", "fall"),
    ("buy", "sell"),
    ("import", "export"),
    ("pay", "receive"),
    ("add", "remove"),
    ("enable", "disable"),
    ("required", "optional"),
    ("mandatory", "optional"),
    ("public", "private"),
    ("internal", "external"),
    ("true", "false"),
    ("present", "absent"),
    ("always", "never"),
    ("early", "late"),
    ("old", "young"),
    ("major", "minor"),
    ("increase", "reduce"),
    ("lowest", "highest"),
)
_OPPOSITES: dict[str, set[str]] = {}
for _pair in _ANTONYMS:
    _a, _b = (f.stem(w) for w in _pair)
    _OPPOSITES.setdefault(_a, set()).add(_b)
    _OPPOSITES.setdefault(_b, set()).add(_a)

# The two parties of one relation (words; stemmed below, either order). A claim
# whose subject is one where its evidence names the other gives one party's act
# to the other ("customers pay" against "the vendor pays").
_PARTIES = (
    ("vendor", "customer"),
    ("vendor", "buyer"),
    ("seller", "buyer"),
    ("seller", "customer"),
    ("supplier", "customer"),
    ("provider", "customer"),
    ("provider", "user"),
    ("merchant", "customer"),
    ("company", "customer"),
    ("licensor", "licensee"),
    ("employer", "employee"),
    ("landlord", "tenant"),
    ("lessor", "lessee"),
    ("lender", "borrower"),
    ("creditor", "debtor"),
    ("insurer", "policyholder"),
    ("sender", "recipient"),
    ("plaintiff", "defendant"),
    ("buyer", "supplier"),
)
_COUNTERPART_OF: dict[str, set[str]] = {}
for _pair in _PARTIES:
    _a, _b = (f.stem(w) for w in _pair)
    _COUNTERPART_OF.setdefault(_a, set()).add(_b)
    _COUNTERPART_OF.setdefault(_b, set()).add(_a)

_NON_STOPWORD_CUES = frozenset(
    f.words("not only all any more most same before after above below few some each every")
)


# Reporting frames an LLM puts around a claim; they say where, not what.
_ATTRIBUTION = re.compile(
    r"^\s*(?:(?:according to|as (?:stated|noted|reported|described) (?:in|by)) "
    r"(?:the |this |that )?(?:text|source|passage|document|article|paper|study|excerpt|page)s?,?\s+"
    r"|(?:the |this )?(?:text|source|passage|document|article|paper|study|excerpt|page)s? "
    r"(?:states?|says?|notes?|reports?|shows?|explains?|indicates?|mentions?) that\s+"
    r"|(?:notably|reportedly|importantly|specifically|in addition|additionally|also|"
    r"in fact|indeed|overall|in summary|in short),\s+)+",
    re.IGNORECASE,
)


def core_claim(claim: str) -> str:
    """The claim without a leading reporting frame ("According to the text, ...")."""
    match = _ATTRIBUTION.match(claim)
    if match is None or match.end() >= len(claim):
        return claim
    rest = claim[match.end() :]
    return rest[:1].upper() + rest[1:]


def stems(text: str) -> list[str]:
    """The text's words as stems, in order; stopwords kept out, cue words kept in."""
    out = []
    for word in f.words(text):
        if word in f.STOPWORDS and word not in _NON_STOPWORD_CUES:
            continue
        out.append(f.stem(word))
    return out


def scope_conflict(claim: Sequence[str], evidence: Sequence[str]) -> float:
    """1.0 when one side widens (all, entire) what the other narrows (only, portion)."""
    c, e = set(claim), set(evidence)
    if c & _WIDE and e & _NARROW and not c & _NARROW:
        return 1.0
    if c & _NARROW and e & _WIDE and not c & _WIDE and not e & _NARROW:
        return 1.0
    return 0.0


def antonym_conflict(claim: Sequence[str], evidence: Sequence[str]) -> float:
    """1.0 when a claim word's opposite, but not the word itself, is in the evidence."""
    e = set(evidence)
    for term in set(claim):
        if term not in e and _OPPOSITES.get(term, set()) & e:
            return 1.0
    return 0.0


def role_conflict(
    claim: Sequence[str], evidence: Sequence[str], passages: Collection[str] = ()
) -> float:
    """1.0 when the claim's actor is swapped: "Customers pay" against "the vendor pays".

    The claim's first word that the evidence shares must come after a leading
    phrase (at most three words, the claim's subject) that the evidence lacks
    entirely (and ``passages``, the terms of every cited sentence, too), while
    in the evidence that shared word is led by a content word the claim lacks.
    """
    return 1.0 if _swapped_actor(claim, evidence, passages) is not None else 0.0


def counterpart_conflict(
    claim: Sequence[str], evidence: Sequence[str], passages: Collection[str] = ()
) -> float:
    """1.0 when the swapped actor (``role_conflict``) is the other party of a pair.

    "Customers pay the fees" against "the vendor pays all fees": the claim's
    subject and the evidence's are two sides of one relation (``_COUNTERPARTS``:
    vendor and customer, landlord and tenant, employer and employee ...), so
    the claim gives one party's act to the other. A plain ``role_conflict`` is
    often a subject the evidence words differently; this is not.
    """
    found = _swapped_actor(claim, evidence, passages)
    if found is None:
        return 0.0
    lead, leader = found
    return 1.0 if any(leader in _COUNTERPART_OF.get(word, ()) for word in lead) else 0.0


def _swapped_actor(
    claim: Sequence[str], evidence: Sequence[str], passages: Collection[str]
) -> tuple[Sequence[str], str] | None:
    """The claim's leading phrase and the evidence word leading the same verb, when they differ."""
    e, c = set(evidence), set(claim)
    k = next((i for i, word in enumerate(claim[:4]) if word in e), None)
    if k is None:
        return None
    word = claim[k]
    if k == 0 or any(t in e or t in passages for t in claim[:k]):
        return None
    i = list(evidence).index(word)
    if i == 0:
        return None
    leader = evidence[i - 1]
    cues = _NON_STOPWORD_CUES | _WIDE | _NARROW
    if leader in c or leader in cues or leader.isdigit():
        return None
    return claim[:k], leader


def order_agreement(claim: Sequence[str], evidence: Sequence[str]) -> float:
    """Share of pairs of shared words that come in the same order in both (1.0 below 2)."""
    first: dict[str, int] = {}
    for i, term in enumerate(evidence):
        first.setdefault(term, i)
    seen: set[str] = set()
    positions = []
    for term in claim:
        if term in first and term not in seen:
            seen.add(term)
            positions.append(first[term])
    pairs = agree = 0
    for i in range(len(positions)):
        for j in range(i + 1, len(positions)):
            pairs += 1
            agree += positions[i] < positions[j]
    return agree / pairs if pairs else 1.0
