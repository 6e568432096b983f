"""A sentence that runs from one retrieved chunk into the next one of its document.

A chunk may end inside a sentence ("If no Accept-Language header is present
in the request, the server", then a page break) that the next chunk
finishes ("SHOULD assume that all languages are equally acceptable."): the
claim quotes both halves from where the sentence begins, and the rest is no
claim of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from pincite.generate.base import Passage
from pincite.generate.layout import Role, Unit, layout
from pincite.generate.page_break import ends_sentence, finishes
from pincite.generate.pool import adjacent

__all__ = ["CLAIMABLE", "continues", "finishes_previous", "runs_into_next"]

# What a claim may be: a statement, a list item, a footnote.
CLAIMABLE = frozenset({Role.STATEMENT, Role.ITEM, Role.FOOTNOTE})


def continues(first: str, nxt: Passage, u: Unit, *, item: bool = False) -> bool:
    """True when ``u``, opening the next chunk, goes on with what ``first`` left unfinished.

    Not a heading, a list item, a page number or a footnote: "- Upgrades not
    approved in advance" ends its list where "## Definitions" opens the next
    chunk. A rest in capitals goes on only where a page break's rest would
    (``layout.finishes``: "the server" | "SHOULD assume ...").
    """
    if u.role not in (Role.STATEMENT, Role.FRAGMENT, Role.LEADIN):
        return False
    rest = nxt.text[u.start : u.end]
    return not rest[:1].isupper() or finishes(first, rest, item=item)


def runs_into_next(p: Passage, units: list[Unit], i: int, passages: Sequence[Passage]) -> bool:
    """True for a passage's last words, too short for a statement, that the next chunk
    finishes: "If no Accept-Language header is present in the request, the server",
    then the page break where the chunk ends, then "SHOULD assume that ...".
    """
    u = units[i]
    if u.role is not Role.FRAGMENT or u.row or ends_sentence(p.text[u.start : u.end]):
        return False
    if any(x.role is not Role.FURNITURE for x in units[i + 1 :]):
        return False
    nxt = adjacent(p, passages)
    if nxt is None:
        return False
    follow = layout(nxt.text, nxt.title)
    return (
        bool(follow)
        and follow[0].role in (Role.STATEMENT, Role.FRAGMENT)
        and finishes(p.text[u.start : u.end], nxt.text[follow[0].start : follow[0].end])
    )


def finishes_previous(p: Passage, passages: Sequence[Passage]) -> bool:
    """True when ``p`` opens with the rest of a sentence that a retrieved chunk before it
    began: the claim quotes the two halves from there (``select``), so the rest is no
    claim of its own."""
    follow = layout(p.text, p.title)
    for q in passages:
        if q is p or not follow or adjacent(q, passages) is not p:
            continue
        units = layout(q.text, q.title)
        said = [k for k, u in enumerate(units) if u.role is not Role.FURNITURE]
        if not said:
            continue
        last = units[said[-1]]
        if last.role in CLAIMABLE:
            first = q.text[last.start : last.end]
            if not ends_sentence(first) and continues(
                first, p, follow[0], item=last.role is Role.ITEM
            ):
                return True
        elif runs_into_next(q, units, said[-1], passages):
            return True
    return False
