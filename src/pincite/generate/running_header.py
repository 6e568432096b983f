"""Running headers: a page's repeat of its document's title, with its number and date.

"RFC 7230 HTTP/1.1 Message Syntax and Routing June 2014" at the top of every
page is page furniture, not a heading for the sentences after it.
"""

from __future__ import annotations

import re

__all__ = ["running_header", "title_words"]

_WORD = re.compile(r"\w+")
# What a running header adds to the document's title: its number, revision and date.
_DOCUMENT_WORDS = frozenset(
    _WORD.findall(
        "rfc nist sp fips pub publication special rev revision draft version vol january "
        "february march april may june july august september october november december"
    )
)
_SMALL_WORDS = frozenset(_WORD.findall("a an and of the to for in on"))
_HEADER_WORDS = 3
_HEADER_SHARE = 0.9


def title_words(title: str) -> frozenset[str]:
    """The words of a document's title a running header repeats (not its numbers)."""
    return frozenset(w for w in _WORD.findall(title.casefold()) if not w.isdigit())


def running_header(line: str, title_words: frozenset[str]) -> bool:
    """True for a page's running header: the document's title with its number and date
    (``layout`` asks only of lines that are no numbered or Markdown heading).

    "RFC 7230 HTTP/1.1 Message Syntax and Routing June 2014", "NIST SP 800-46
    REV. 2 GUIDE TO ENTERPRISE TELEWORK, ...": left as headings they would
    become the title of every sentence after a page break (and a list's lead-in).
    """
    if not title_words:
        return False
    tokens = _WORD.findall(line.casefold())
    # A header carries the document's number or date, or is set in capitals
    # ("GUIDE TO ENTERPRISE TELEWORK AND REMOTE ACCESS SECURITY"); a heading
    # in the title's words ("Remote Access Security") is a section's.
    marked = any(t.isdigit() or t in _DOCUMENT_WORDS for t in tokens)
    if not marked and any(c.islower() for c in line):
        return False
    words = [
        w for w in tokens if not w.isdigit() and w not in _DOCUMENT_WORDS and w not in _SMALL_WORDS
    ]
    if len(words) < _HEADER_WORDS:
        return False
    return sum(w in title_words for w in words) >= _HEADER_SHARE * len(words)
