"""Acronyms read as the words they stand for: "MFA" and "multi-factor authentication".

Users type the short form of what a policy spells out ("Is MFA required?"
against "Multi-factor authentication is mandatory"), and spell out what a
specification abbreviates. A question word that is an acronym counts as found
in a sentence holding consecutive words whose initials spell it, and the
question's words that spell out a sentence's acronym count as found in it.

An acronym's words open and close with a content word ("can also" spells no
"CA"; "bring your own device" spells "BYOD"); a two-letter acronym needs
capitalised words ("Human Resources" for "HR"), since two lower-case initials
match too much by chance.
"""

from __future__ import annotations

from functools import lru_cache

from pincite.generate.words import stem
from pincite.retrieve.acronyms import ACRONYM as _ACRONYM
from pincite.retrieve.acronyms import WORD as _WORD
from pincite.retrieve.acronyms import lower_case_words
from pincite.retrieve.acronyms import spells as _spells

__all__ = ["acronyms", "initials"]

_WORDS_AT_MOST = 6


def acronyms(
    question: str, text: str, wanted: set[str], absent: frozenset[str] = frozenset()
) -> set[str]:
    """The stems in ``wanted`` (question words ``text`` lacks) that ``text`` holds as
    an acronym's other form: spelled out for the question's acronym, or as the
    acronym of consecutive question words.

    A question typed in lower case ("is mfa required") writes its acronym as a
    word; a short word in ``absent`` (stems no retrieved passage holds) is read as
    one when content words of ``text`` spell it, every one of them ("multi-factor
    authentication", not "bring your own device").
    """
    if not wanted:
        return set()
    found: set[str] = set()
    for short in _acronyms(question):
        if stem(short.casefold()) in wanted and short in initials(text, len(short)):
            found.add(stem(short.casefold()))
    for word in lower_case_words(question):
        term = stem(word)
        if term in wanted and term in absent and word.upper() in initials(text, len(word), True):
            found.add(term)
    if _ACRONYM.search(text) is None:
        return found
    spelled = _spelled_out(question)
    for m in _ACRONYM.finditer(text):
        for words in spelled.get(m[1], ()):
            if wanted & set(words):
                found |= wanted & set(words)
    return found


@lru_cache(maxsize=256)
def _acronyms(question: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m[1] for m in _ACRONYM.finditer(question)))


@lru_cache(maxsize=256)
def _spelled_out(question: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each acronym that consecutive content words of ``question`` spell, with their stems."""
    words = _WORD.findall(question)
    out: dict[str, list[tuple[str, ...]]] = {}
    for n in range(2, _WORDS_AT_MOST + 1):
        for i in range(len(words) - n + 1):
            run = words[i : i + n]
            if _spells(run):
                key = "".join(w[0] for w in run).upper()
                out.setdefault(key, []).append(tuple(stem(w.casefold()) for w in run))
    return {k: tuple(v) for k, v in out.items()}


def initials(text: str, n: int, every_word: bool = False) -> set[str]:
    """The acronyms of every ``n`` consecutive content words of ``text``
    (with ``every_word``, runs holding no stopword at all)."""
    words = _WORD.findall(text)
    return {
        "".join(w[0] for w in run).upper()
        for i in range(len(words) - n + 1)
        if _spells(run := words[i : i + n], every_word)
    }
