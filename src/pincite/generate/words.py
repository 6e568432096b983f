"""Words as the extractive generator compares them: content words, lightly stemmed."""

from __future__ import annotations

import re

from pincite.retrieve.query import STOPWORDS

__all__ = ["content_stems", "stem"]

_WORD = re.compile(r"\w+")
_SUFFIXES = (
    "ational",
    "ization",
    "ations",
    "ation",
    "ities",
    "ness",
    "ments",
    "ment",
    "ings",
    "ing",
    "ies",
    "ied",
    "ed",
    "es",
    "ly",
    "s",
)


def stem(word: str) -> str:
    """A light suffix stripper: enough to match 'encrypted' with 'encryption'.

    A final 'e' goes too, so 'device' meets 'devices' and 'value' 'values'
    (stripping 'es' leaves 'devic' and 'valu').
    """
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def content_stems(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.casefold()) if w not in STOPWORDS]
