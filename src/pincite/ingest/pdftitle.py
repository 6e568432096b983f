"""A PDF's title: the one it declares, read as its cover prints it, and where a title stands.

``document_title`` takes the document information dictionary's /Title, with
the symbols a producer mis-encoded read as the cover prints them
(``_as_printed``), or the first line of text when none is declared;
``find_title`` finds an outline entry's title in the text.
"""

from __future__ import annotations

import re

from pincite.ingest.textutil import collapse

__all__ = ["document_title", "find_title"]

_DASHES = "-‐‑‒–—―"
# Non-letters PDFDocEncoding puts at bytes 0x80-0x9F (dashes and quotes aside):
# what a title written in another encoding shows there (``_as_printed``).
_MISREAD = frozenset("•†‡…ƒ⁄‹›−‰™")
# How much of the text is the cover a declared title is checked against.
_COVER_CHARS = 3000
# The fewest last words of a declared title that still identify it on the cover,
# and the most words a declared title has that is checked at all.
_MIN_TITLE_WORDS = 3
_MAX_TITLE_WORDS = 64


def find_title(text: str, title: str, start: int, end: int) -> tuple[int, int] | None:
    """Where ``title`` occurs in ``text[start:end]``, ignoring whitespace, case and dash kind.

    A match at the start of a line wins over one inside running text.
    """
    pieces = []
    for char in title:
        if char.isspace():
            continue
        pieces.append(_literal(char))
    pattern = re.compile(r"\s*".join(pieces), re.IGNORECASE)
    first: tuple[int, int] | None = None
    for match in pattern.finditer(text, start, end):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if not text[line_start : match.start()].strip():
            return match.start(), match.end()
        if first is None:
            first = match.start(), match.end()
    return first


def document_title(declared: str, text: str) -> str | None:
    """The declared title (/Title) read as the cover prints it; without one, the first line."""
    declared = collapse(declared)
    if declared:
        return _as_printed(declared, text[:_COVER_CHARS])
    first = next((line for line in text.split("\n") if line.strip()), "")
    return collapse(first)[:200] or None


def _as_printed(declared: str, cover: str) -> str:
    """``declared`` with each symbol a producer mis-encoded read as the cover prints it.

    Some producers write a title's bytes raw where PDFDocEncoding maps them to
    symbols (html2ps with Ghostscript: "(" and ")" as \\201 and \\202, read as
    "†" and "‡"). Where the cover prints the same title, or its last words
    ("Hypertext Transfer Protocol (HTTP/1.1): Message Syntax and Routing"
    under a declared "RFC 7230 - …"), as whole words with ASCII punctuation at
    those places, the cover's characters are taken. A title the cover does not
    print so is kept as declared, as is one too long to be a title.
    """
    words = declared.split()
    if not any(char in _MISREAD for char in declared) or len(words) > _MAX_TITLE_WORDS:
        return declared
    for first in range(len(words)):
        tail = words[first:]
        if sum(any(c.isalnum() for c in w) for w in tail) < _MIN_TITLE_WORDS:
            break
        if not any(char in _MISREAD for char in "".join(tail)):
            break
        # Word for word, spaced as declared: "† Dogs" is not "(Dogs".
        pattern = r"\s+".join("".join(_as_pattern(char) for char in word) for word in tail)
        pattern = rf"(?<!\w){pattern}(?!\w)"
        found = re.search(pattern, cover, re.IGNORECASE)
        if found:
            printed = iter(found.groups())
            fixed = " ".join(
                "".join(next(printed) if char in _MISREAD else char for char in word)
                for word in tail
            )
            return " ".join([*words[:first], fixed])
    return declared


def _as_pattern(char: str) -> str:
    if char in _MISREAD:
        return r"([!-/:-@\[-`{-~])"  # what the producer meant: ASCII punctuation
    return _literal(char)


def _literal(char: str) -> str:
    """``char`` as a pattern, any dash matching any other."""
    return f"[{re.escape(_DASHES)}]" if char in _DASHES else re.escape(char)
