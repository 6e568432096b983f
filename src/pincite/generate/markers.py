"""Footnote reference marks and list bullets kept out of a claim's quoted characters.

Text extracted from a PDF glues a footnote's reference number to the word or
stop before it: "running on a cloud infrastructure2\\n.", "supported by the
provider.3 The consumer", "for both information1 and information". The number
belongs to the page, not to what the sentence says, so a claim quotes around
it: the characters on either side become pieces of one claim, each pinned
exactly, and the claim reads "running on a cloud infrastructure. The
applications …". Where only the stop follows the mark, the claim ends
before the mark: a piece of one "." would prove nothing.

A mark is one or two digits right after a word of at least five letters, or
after a stop that follows a word, and before a space, a stop or the end. So
"IPv6", "UTF8", "base64", "SHA256", "HTTP/1.1", "800-46rev1" and "Section 3.2"
are no marks.

A bullet ("- ", "* ", "• ") opening a list item sets the item off in its
list; in an answer it would read as stray punctuation, so a claim starts
after it. An item's number ("2. ", "(b) ") is kept: it says where a step
falls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pincite.generate.layout import BULLET
from pincite.generate.pool import Piece

__all__ = ["join_pieces", "unbulleted", "unmarked"]

_MARK = re.compile(
    r"(?<=[a-z]{5})\d{1,2}(?=\s*[.,;:)]?(?:\s|$))"  # "infrastructure2 .", "information1 and"
    r"|(?<=[a-z]{3}[.,;:])\d{1,2}(?=\s|$)"  # "provider.3 The"
)
_BULLET = re.compile(rf"{BULLET}[ \t]+")
# What may follow a mark inside the same sentence: glued to the piece before it.
_CLOSING = ".,;:)"


def unmarked(pieces: Sequence[Piece]) -> tuple[Piece, ...]:
    """``pieces`` with every footnote mark (and the space it leaves) cut out."""
    out: list[Piece] = []
    for p, start, end in pieces:
        at = start
        for m in _MARK.finditer(p.text, start, end):
            if m.start() > at:
                out.append((p, at, m.start()))
            at = m.end()
            while at < end and p.text[at].isspace():
                at += 1
        if at < end:
            out.append((p, at, end))
    if len(out) > 1:
        last, start, end = out[-1]
        if all(c in _CLOSING or c.isspace() for c in last.text[start:end]):
            # "infrastructure2\n." ending the claim: a stop pinned alone proves nothing.
            out.pop()
    return tuple(out) if out else tuple(pieces)


def join_pieces(texts: Sequence[str]) -> str:
    """The claim's text: pieces joined by a space, but a stop glued to the word before it."""
    joined = ""
    for text in texts:
        words = " ".join(text.split())
        if not words:
            continue
        glue = "" if (not joined or words[0] in _CLOSING) else " "
        joined += glue + words
    return joined


def unbulleted(pieces: Sequence[Piece]) -> tuple[Piece, ...]:
    """``pieces`` with the bullet that opens the first one (and the space after it) cut off."""
    if not pieces:
        return tuple(pieces)
    (p, start, end), rest = pieces[0], tuple(pieces[1:])
    m = _BULLET.match(p.text, start, end)
    if m is None or m.end() >= end:
        return tuple(pieces)
    return ((p, m.end(), end), *rest)
