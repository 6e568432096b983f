"""Words as the extractive generator compares them: content words, Porter2-stemmed."""

from __future__ import annotations

import itertools
import re

from pincite.retrieve.query import STOPWORDS, uncontracted
from pincite.stems import family_stem as stem

__all__ = [
    "HYPHENATED_NAME",
    "STOPWORD_STEMS",
    "VERSION",
    "compounds",
    "content_stems",
    "joined_pairs",
    "negated",
    "stem",
]

_WORD = re.compile(r"\w+")
# A name written as capitalised words joined by hyphens ("If-Range", "If-None-Match",
# "Opt-In"): each part is a word of the name, even one that is a stopword alone,
# so "If-Range" is not read as "Range".
# Unicode hyphens too (U+2010, U+2011): PDF text writes them.
HYPHENATED_NAME = re.compile(r"\b[A-Z][A-Za-z]*(?:[-\u2010\u2011][A-Z][A-Za-z]*)+\b")
_HYPHENS = ("-", "\u2010", "\u2011")
# "v1" standing alone; not "api-v1", "V8-based".
VERSION = re.compile(r"(?<![\w\u2010\u2011-])[vV](\d{1,3})(?![\w\u2010\u2011-])")
# What such a name's stopword part stems to ("Before-" gives "befor", "Only-" "onli").
STOPWORD_STEMS = STOPWORDS | frozenset(stem(w) for w in STOPWORDS)


def content_stems(text: str) -> list[str]:
    if "v" in text or "V" in text:
        versions = {f"v{m.group(1)}" for m in VERSION.finditer(text)}
        if versions:
            # "v1" is "version 1": an API's docs write both, and ask with either.
            return [
                p
                for w in _content_stems(text)
                for p in (("version", w[1:]) if w in versions else (w,))
            ]
    return _content_stems(text)


def _content_stems(text: str) -> list[str]:
    text = uncontracted(text)
    if "_" in text:
        # A setting's name is its words: `bandwidth_limit` for "How do I limit bandwidth?".
        text = text.replace("_", " ")
    if not any(h in text for h in _HYPHENS):
        return [stem(w) for w in _WORD.findall(text.casefold()) if w not in STOPWORDS]
    out: list[str] = []
    at = 0
    for m in HYPHENATED_NAME.finditer(text):
        out.extend(
            stem(w) for w in _WORD.findall(text[at : m.start()].casefold()) if w not in STOPWORDS
        )
        out.extend(stem(w) for w in _WORD.findall(m.group().casefold()))
        at = m.end()
    out.extend(stem(w) for w in _WORD.findall(text[at:].casefold()) if w not in STOPWORDS)
    return out


def compounds(text: str, wanted: set[str]) -> set[str]:
    """The stems in ``wanted`` that ``text`` writes as two words ("host names" for "hostname").

    A question may join what a document splits; each pair of neighbouring
    words of ``text`` is read as one. (The other way round, a document's
    "hostname" for a question's "host name", is not read.)
    """
    if not wanted:
        return set()
    words = _WORD.findall(text.casefold())
    return {j for a, b in itertools.pairwise(words) if (j := stem(a + b)) in wanted}


def joined_pairs(question: str) -> list[tuple[str, frozenset[str]]]:
    """Each pair of neighbouring words of ``question`` written as one ("q-value" as
    "qvalue", "host name" as "hostname"): the joined word's stem and the pair's
    content stems, which a sentence writing the joined word states."""
    words = _WORD.findall(uncontracted(question).casefold())
    pairs = []
    for a, b in itertools.pairwise(words):
        # Not "a void", "over time", "how ever": a stopword joined on makes another word.
        if a in STOPWORDS or a.isdigit() or b.isdigit():
            continue
        parts = frozenset(stem(w) for w in (a, b) if w not in STOPWORDS)
        pairs.append((stem(a + b), parts))
    return pairs


# "doesn't", "does not", "never", "cannot": the question denies what follows it.
_DENIED = re.compile(r"\b(?:not|never|cannot|no\s+longer)\b|n['’]t\b", re.I)
# "unrecognized", "un-encrypted", "non-approved", "unknown": a state the prefix denies;
# not a reversing verb ("unlock", "uninstall", "unsubscribe").
_UN = re.compile(
    r"\b(?:un|non)[-\u2010\u2011]?([a-z]{2,}(?:ed|able|ible)|known|aware|paid|taken|seen|sent|"
    r"spent|read|done|said|kept|held|met)\b"
)
_DENIAL_REACH = 3  # words after the denial that it governs
# "doesn't the", "can't a": an auxiliary before its subject, as a question asks.
_INVERTED = re.compile(
    r"\b(?:do|does|did|can|could|will|would|should|must)n['’]t$|\bwon['’]t$|\bcannot$", re.I
)
_DETERMINERS = frozenset(
    {"the", "a", "an", "this", "that", "these", "those", "its", "their", "my", "our", "your"}
)


def negated(question: str, text: str, wanted: set[str]) -> set[str]:
    """The stems in ``wanted`` that ``text`` states with a negating prefix when the
    question denies them: "a chunk extension it doesn't recognise" is what
    "unrecognized chunk extensions" names, not "Why doesn't the known issues page
    load?" what "Unknown issues" does."""
    if not wanted or "n" not in text:
        return set()
    denied: set[str] = set()
    for m in _DENIED.finditer(question):
        after = _WORD.findall(question[m.end() :].casefold())[:_DENIAL_REACH]
        if after and after[0] in _DETERMINERS and _INVERTED.search(question[: m.end()]):
            continue  # "Why doesn't the page load?": the denial governs the verb after it
        denied |= {stem(w) for w in after}
    denied &= wanted
    if not denied:
        return set()
    return {s for m in _UN.finditer(text.casefold()) if (s := stem(m.group(1))) in denied}
