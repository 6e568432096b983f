"""Questions that abbreviate what the documents spell out: "Is MFA required?".

An acronym the corpus never uses finds nothing by its own word. The passages
retrieval already holds (found by the question's other words and by meaning)
often spell it out ("Multi-factor authentication is mandatory"), and the words
of that spelling then join the lexical query, so the passage that uses them
ranks as if the user had typed them.

A spelling is a run of consecutive words whose initials are the acronym's
letters ("multi-factor" gives two). It opens and closes with a content word
("can also" spells no "CA"; "bring your own device" spells "BYOD"); a
two-letter acronym needs capitalised words ("Human Resources" for "HR"), since
two lower-case initials match too much by chance.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache

from pincite.retrieve.query import STOPWORDS

__all__ = [
    "ACRONYM",
    "WORD",
    "asked_acronyms",
    "expansion",
    "lower_case_words",
    "spellings",
    "spells",
]

# "MFA", "BYOD", "VPNs"; "PaaS" is no acronym of this kind (mixed case is a name).
ACRONYM = re.compile(r"\b([A-Z]{2,6})s?\b")
# Words and the parts of hyphenated words: "multi-factor" spells "MF".
WORD = re.compile(r"[A-Za-z]+")
# A lower-case word read as an acronym ("is mfa required"): three to five letters;
# two ("hr", "it") match too much.
_LOWER_SHORTEST = 3
_LOWER_LONGEST = 5


def spells(
    run: list[str] | tuple[str, ...], every_word: bool = False, *, any_case: bool = False
) -> bool:
    """Whether ``run`` may spell an acronym: it opens and closes with a content
    word, holds no acronym itself, and, if two words long, is capitalised (with
    ``every_word``, it holds no stopword at all; with ``any_case``, two words need
    no capitals: "Operating system" for "OS", where a false match costs little)."""
    if every_word and any(w.casefold() in STOPWORDS for w in run):
        return False
    if run[0].casefold() in STOPWORDS or run[-1].casefold() in STOPWORDS:
        return False
    if any(w.isupper() and len(w) > 1 for w in run):
        return False
    return any_case or len(run) > 2 or all(w[0].isupper() for w in run)


def spellings(
    acronym: str, text: str, every_word: bool = False, *, any_case: bool = False
) -> list[tuple[str, ...]]:
    """Every run of consecutive words of ``text`` that spells ``acronym``."""
    return _runs(acronym, WORD.findall(text), every_word, any_case)


def _runs(
    acronym: str, words: list[str], every_word: bool, any_case: bool = False
) -> list[tuple[str, ...]]:
    letters = acronym.upper()
    n = len(letters)
    runs = []
    for i in range(len(words) - n + 1):
        if words[i][0].upper() != letters[0]:
            continue
        run = tuple(words[i : i + n])
        if "".join(w[0] for w in run).upper() == letters and spells(
            run, every_word, any_case=any_case
        ):
            runs.append(run)
    return runs


def asked_acronyms(question: str) -> list[tuple[str, bool]]:
    """The question's possible acronyms, each with whether every word of its
    spelling must be a content word: upper-case ones as written, and short
    lower-case words (a hurried "is mfa required"), which need that stricter
    spelling since most of them are plain words."""
    upper = [(m[1], False) for m in ACRONYM.finditer(question)]
    return list(dict.fromkeys(upper + [(w, True) for w in lower_case_words(question)]))


@lru_cache(maxsize=256)
def lower_case_words(question: str) -> tuple[str, ...]:
    """Short all-lower-case content words of ``question``: acronyms as a hurried user
    types them ("mfa"), among many plain words."""
    return tuple(
        dict.fromkeys(
            w
            for w in WORD.findall(question)
            if w.islower() and _LOWER_SHORTEST <= len(w) <= _LOWER_LONGEST and w not in STOPWORDS
        )
    )


def expansion(question: str, texts: Iterable[str], unused: Callable[[str], bool]) -> str:
    """The words that spell out the question's acronyms the corpus never uses,
    as the ``texts`` (retrieval's candidates, best first) spell them most often;
    ``""`` when there is none.

    ``unused(word)`` says whether no searchable passage holds ``word``; it is
    asked only of acronyms the texts spell out (a search each, so most questions
    ask none).
    """
    asked = asked_acronyms(question)
    if not asked:
        return ""
    found: dict[str, Counter[tuple[str, ...]]] = {a: Counter() for a, _ in asked}
    for text in texts:
        split = WORD.findall(text)
        for acronym, every in asked:
            runs = _runs(acronym, split, every)
            found[acronym].update(tuple(w.casefold() for w in r) for r in runs)
    words: list[str] = []
    for acronym, counts in found.items():
        if counts and unused(acronym.casefold()):
            # Counter keeps first-seen order among equals: the best candidate's spelling.
            words.extend(counts.most_common(1)[0][0])
    return " ".join(words)
