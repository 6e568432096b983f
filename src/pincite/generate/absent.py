"""Names a question asks about that no passage shown holds.

"How should a server honor the DNT header?", "What do the Secure and HttpOnly
attributes do?", "How do I purge a URL with the PURGE method?": a question
that names a protocol element, a product or an acronym the retrieved passages
never write asks about something they do not cover, however many of its other
words they share. Such a name is written as a name: two capitals or more
("DNT", "HttpOnly", "OpenStack"), or capitalised words joined by hyphens
("Alt-Svc", "Expect-CT"). An acronym counts as held where a passage spells it
out ("keeping-in-touch day" for "KIT day"); a name the question only gives as
an example ("(PROPFIND etc)", "such as CET") asks about nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pincite.generate.base import Passage
from pincite.retrieve.acronyms import spellings

__all__ = ["absent_names"]

# Possessive runs: a long run of capitals is read once, not once per way to split it.
_NAME = re.compile(
    r"(?<![\w-])(?:[A-Z][a-z]*+[A-Z][A-Za-z]*+(?:-[A-Za-z]++)*+|[A-Z][a-z]++(?:-[A-Z][A-Za-z]*+)++"
    r"|[a-z]++[A-Z][A-Za-z]*+)(?![\w-])"
)
# Words written in capitals for weight, not names: RFC 2119's keywords and the like.
_EMPHASIS = frozenset(
    {"MUST", "MUSTN'T", "SHOULD", "SHALL", "MAY", "NOT", "REQUIRED", "RECOMMENDED"}
    | {"OPTIONAL", "OK", "AND", "OR", "THE", "NO", "YES"}
    | {"II", "III", "IV", "VI", "VII", "VIII", "IX", "XI", "XII"}
)
# Whose words the question asks about ("does NIST say", "per the NIST guide", "under
# FISMA", "ISO's definition"): a passage quoting a document need not name its author.
_SOURCE_BEFORE = re.compile(
    r"\b(?:per|according\s+to|under|by)\s+(?:the\s+|an?\s+)?(?:\w+\s+)?$", re.I
)
# How far before a name its source is looked for.
_SOURCE_WINDOW = 40
_SOURCE_AFTER = re.compile(
    r"(?:['’]s)?(?:\s+[\w/.-]+){0,3}?\s+(?:says?|said|states?|recommends?|requires?|defines?|"
    r"describes?|mentions?|lists?|calls?|guides?|guidelines?|guidance|definitions?|"
    r"publications?|documents?|standards?|polic(?:y|ies)|handbooks?|frameworks?|glossary|"
    r"specs?|specifications?|rules?)\b",
    re.I,
)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'“‘])")
# How much of a question is read: its asking sentence ends it.
_QUESTION_CHARS = 1000
# A question typed in capitals ("HOW LONG MUST INVOICES BE KEPT?") names nothing
# by its capitals: fewer lower-case letters than this share of its letters.
_LOWER_SHARE = 0.3
_JOINERS = re.compile(r"[\s-]+")
# A document's name and number ("SP 800-46", "RFC 2616", "ISO 27001"): which
# documents a question names is read elsewhere (``names.documents_named``).
_NUMBERED = re.compile(r"\s*\d")
# An example the question gives: "(PROPFIND etc)", "such as CET", "e.g. Okta".
_EXAMPLES = re.compile(
    r"\([^()]*\)|\b(?:e\.g\.|i\.e\.|such\s+as|for\s+example|for\s+instance|like)\s+[^,.;?!]*",
    re.I,
)


def absent_names(question: str, passages: Sequence[Passage]) -> tuple[str, ...]:
    """The names ``question`` asks about that none of ``passages`` holds."""
    names = _names(question)
    if not names:
        return ()
    text = " ".join(p.text for p in passages)
    held = text.casefold()
    absent = []
    for name in names:
        # "ETags", "GETs": a plural's name is its singular.
        bare = name[:-1] if name.endswith("s") and len(name) > 2 else name
        if _holds(held, bare.casefold()):
            continue
        if bare.isupper() and spellings(bare, text, any_case=True):
            continue  # spelled out: "keeping-in-touch" for "KIT", "Operating system" for "OS"
        absent.append(name)
    return tuple(absent)


def _holds(held: str, name: str) -> bool:
    """True when ``held`` (case-folded) writes ``name`` as a word's start ("it" is not
    in "title"); a hyphenated name also run together or spaced ("multifactor")."""
    if re.search(rf"(?<!\w){re.escape(name)}", held):
        return True
    return "-" in name and _JOINERS.sub("", name) in _JOINERS.sub("", held)


def _names(question: str) -> list[str]:
    # A scene before the question ("Our client gzips its POST bodies. Which status
    # ...?") says what the asker has, not what is asked about; an example it gives
    # ("e.g. Okta") asks about nothing.
    asked = _EXAMPLES.sub(" ", question.strip()[-_QUESTION_CHARS:])
    asked = _SENTENCE_BREAK.split(asked)[-1]
    letters = [c for c in asked if c.isalpha()]
    if sum(c.islower() for c in letters) < _LOWER_SHARE * len(letters):
        return []
    return [
        m.group()
        for m in _NAME.finditer(asked)
        if m.group().upper() not in _EMPHASIS
        and sum(c.isupper() for c in m.group()) >= 2
        and not _SOURCE_BEFORE.search(asked[max(0, m.start() - _SOURCE_WINDOW) : m.start()])
        and not _SOURCE_AFTER.match(asked, m.end())
        and not _NUMBERED.match(asked, m.end())
    ]
