"""A resource table's entries, when a question asks which resource a document lists.

Guides end with tables of further reading: a title, then where to find it
("NIST SP 800-58, Security Considerations\\nfor Voice Over IP Systems\\n\\nhttp://...",
"Stay Safe Online http://www.staysafeonline.info/"). PDF extraction breaks a
title over lines and the layout reads its pieces as headings, which no claim
quotes. Asked "which NIST publication on VoIP security does the guide list?", the
entry's title is the answer, quoted from its first character to the address.
"""

from __future__ import annotations

import re

from pincite.generate.answer_types import asked_type
from pincite.generate.base import Passage
from pincite.generate.elsewhere import asks_where
from pincite.generate.pool import Piece
from pincite.generate.question import Question

__all__ = ["asks_resource", "resource_entries"]

# An address, and its tail when PDF extraction broke it over a line: a path
# ("anda/2011/m11-27.pdf") or a file name ("final.pdf"), not the words "and/or".
_URL = re.compile(
    r"https?://\S++(?:\n(?!https?://)(?:[\w.~%-]*+/[\w.~%/-]*+(?:\.\w{2,5}|/)"
    r"|[\w~%-]++\.(?:pdf|html?|aspx?|php|txt|docx?|xml))(?=\s))?"
)
# Asked for a site, a link or a memorandum; a publication asked for is a source
# (``answer_types``), a list of resources a place to read (``elsewhere``). Not "sp"
# or "guide" alone: a question names its own document so ("What does SP 800-46 say
# about ...?").
_RESOURCE_ASKED = re.compile(r"\b(?:web\s*sites?|sites?|urls?|links?|memorand(?:um|a))\b", re.I)
# A table's column names ("Document Title URL", "Site Name URL"), a page's number or
# running title (three capitalised words or more, no figures): no part of an entry.
# "US-CERT" and "FIPS 140-2" are titles.
_FURNITURE_LINE = re.compile(
    r"^(?:[\w ]{0,30}\bURL|[A-Z]?-?\d{1,3}|[^a-z\d\s]++(?:\s++[^a-z\d\s]++){2,})$"
)
# The most words a title holds: the longest in the NIST guides' tables has sixteen.
_TITLE_WORDS = 24
# Entries a table holds before its rows are read as one: a lone address is no table.
_MIN_ENTRIES = 3


def asks_resource(question: Question) -> bool:
    """True when ``question`` asks for a resource a document lists: a publication, a
    site, a link, a memorandum, or where to read."""
    return (
        asked_type(question) == "source"
        or asks_where(question.text)
        or _RESOURCE_ASKED.search(question.text) is not None
    )


def resource_entries(p: Passage) -> list[tuple[Piece, ...]]:
    """Each entry of a resource table in ``p`` as a claim's piece, its title alone."""
    entries: list[tuple[Piece, ...]] = []
    end = 0
    run: list[tuple[Piece, ...]] = []
    for m in _URL.finditer(p.text):
        title = _title(p.text, end, m.start())
        end = m.end()
        if title is None:
            if len(run) >= _MIN_ENTRIES:
                entries.extend(run)
            run = []
            continue
        run.append(((p, title[0], title[1]),))
    if len(run) >= _MIN_ENTRIES:
        entries.extend(run)
    return entries


def _title(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the title before an address lies (between ``start`` and ``end``): the
    last paragraph there, less page furniture; None when it reads as prose."""
    lines: list[tuple[int, int]] = []
    at = start
    for line in text[start:end].split("\n"):
        s, e = at, at + len(line)
        at = e + 1
        stripped = line.strip()
        if not stripped:
            if lines and lines[-1] != (-1, -1):
                lines.append((-1, -1))  # a paragraph break
            continue
        if _FURNITURE_LINE.match(stripped):
            continue
        lead = len(line) - len(line.lstrip())
        lines.append((s + lead, s + lead + len(stripped)))
    while lines and lines[-1] == (-1, -1):
        lines.pop()
    if (-1, -1) in lines:
        last_break = max(k for k, span in enumerate(lines) if span == (-1, -1))
        lines = lines[last_break + 1 :]
    if not lines:
        return None
    s, e = lines[0][0], lines[-1][1]
    if text[text.rfind("\n", 0, s) + 1 : s].strip():
        return None  # it starts inside a line of prose: "... alerts at http://..."
    title = text[s:e]
    if len(title.split()) > _TITLE_WORDS or title.rstrip().endswith((".", ":", ";")):
        return None
    return s, e
