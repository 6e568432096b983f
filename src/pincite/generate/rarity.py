"""How much a question word says, judged by English at large as well as by the passages.

The pool's idf is counted over a handful of retrieved passages, so a word
that is common everywhere ("long", "get", "kept") can look as rare there as
the term the question is about ("invoices"), and a sentence that misses it
scores as if it missed the topic. ``english_weight`` tempers that with the
word's frequency in general English (wordfreq's Zipf scale: 3 is once per
million words, 6 once per thousand).
"""

from __future__ import annotations

import re
from functools import lru_cache

from pincite.generate.words import stem

__all__ = ["english_weight", "stem_weights"]

# Full weight up to Zipf 4 (a word such as "retention" or "password"); from
# there down linearly to the floor, reached at Zipf 5.8 ("long", "need").
# Chosen on documents-dev, policies-dev and qasper-tune (data/qa/README.md,
# thirteenth round); 0.5-0.7 and 4-4.5 gave the same dev figures.
_FULL_UP_TO = 4.0
_SLOPE_END = 7.0
_FLOOR = 0.6

_WORD = re.compile(r"\w+")


@lru_cache(maxsize=65536)
def english_weight(word: str) -> float:
    """A factor in [0.6, 1] for one word: 1 for rare words, numbers and codes."""
    if any(c.isdigit() for c in word):
        return 1.0  # "408", "2616": wordfreq lumps numbers of one length together.
    # Imported on first use: its word lists cost a tenth of a second, which
    # `pincite --help` and commands that never answer need not pay.
    from wordfreq import zipf_frequency

    zipf = zipf_frequency(word, "en")
    share = (_SLOPE_END - zipf) / (_SLOPE_END - _FULL_UP_TO)
    return min(1.0, max(_FLOOR, share))


def stem_weights(text: str) -> dict[str, float]:
    """The weight of each stem of ``text``, from its commonest surface form there.

    A word written as a name keeps its full weight whatever English makes of
    it: in capitals ("POST", "GET") or capitalised inside a sentence ("a
    response header of Vary", "the Host field").
    """
    weights: dict[str, float] = {}
    for m in _WORD.finditer(text):
        word = m.group()
        folded = word.casefold()
        s = stem(folded)
        weight = 1.0 if _written_as_name(text, m.start(), word) else english_weight(folded)
        weights[s] = min(weights.get(s, 1.0), weight)
    return weights


def _written_as_name(text: str, start: int, word: str) -> bool:
    if len(word) > 1 and word.isupper():
        return True
    if not word[:1].isupper():
        return False
    before = text[:start].rstrip()
    return bool(before) and not before.endswith((".", "?", "!", ":"))
