"""The chunk that finishes a list its lead-in leaves at a chunk's end.

A chunk boundary often falls after "Factors that organizations should
consider ... include the following:", with a page's running header and number
between the lead-in and its first item; the items are in the next chunk,
which shares few words with the question and is rarely retrieved. For a list
or condition question the answer path asks for that chunk here, so the
answerer sees the items the lead-in announces.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pincite.model import Branches, ChannelRank, DocumentStatus, Hit, RetrievalResult
from pincite.retrieve.query import query_terms
from pincite.store.base import Store

__all__ = ["CONTINUATION", "ends_with_leadin", "with_continuation"]

# The channel name of a hit brought in as the rest of a retrieved lead-in's list.
CONTINUATION = "continuation"
# Lines a page puts between a lead-in and its list: page numbers, a link, a running
# header in capitals.
_FURNITURE_LINE = re.compile(r"^(?:[ivxlc\d]{1,4}|\d{1,2}-\d{1,3}|.*https?://\S+|.*\[Page \d+\])$")
# Not "-": a line that ends "non-" is a word a wrap split.
_LEADIN_END = (":", "—", "–")
_LOOK_BACK = 6
# Characters at a chunk's end that hold its lead-in (and the furniture after it).
_CLOSING = 400


def ends_with_leadin(text: str) -> bool:
    """True when the last line of ``text`` that is not page furniture ends like a lead-in."""
    lines = [line.strip() for line in text.replace("\f", "\n").splitlines() if line.strip()]
    for line in reversed(lines[-_LOOK_BACK:]):
        if line.endswith(_LEADIN_END):
            return True  # "SECURITY REQUIREMENTS:" too, though it has no lower case
        capitals = not any(c.islower() for c in line)
        if not (capitals or _FURNITURE_LINE.match(line)):
            return False
    return False


def with_continuation(store: Store, result: RetrievalResult, k: int) -> RetrievalResult:
    """``result`` with the chunk after its lead-in-ending hit in the last of ``k`` places.

    Of several hits that end with a lead-in, the one whose closing lines share
    most of the question's words is followed ("Factors ... include the
    following:" for "What factors should ...?"), the better ranked on a tie.
    Only the first ``k - 1`` hits are read (the last place is the one given
    up). Unchanged when none of them ends with a lead-in, or the chunk after
    the one chosen is already retrieved (the answerer has it), erased, or
    missing (the lead-in ends its document).
    """
    hits = list(result.hits)
    terms = set(query_terms(result.question))
    open_ended = [
        (-_shared(h.chunk.text, terms), i, h)
        for i, h in enumerate(hits[: k - 1])
        if ends_with_leadin(h.chunk.text)
    ]
    if not open_ended:
        return result
    h = min(open_ended, key=lambda t: t[:2])[2]
    nxt = store.chunk_at(
        result.tenant, h.chunk.document_id, h.chunk.content_hash, h.chunk.ordinal + 1
    )
    if nxt is None or h.document.status is not DocumentStatus.LIVE:
        return result
    if (
        nxt.chunk_id in {x.chunk.chunk_id for x in hits}
        or nxt.erased
        or nxt.tenant != result.tenant
    ):
        return result
    kept = hits[: k - 1]
    score = hits[len(kept)].score if len(hits) > len(kept) else kept[-1].score
    branches = Branches((ChannelRank(CONTINUATION, 1, 0.0),), None, None, False)
    return replace(result, hits=(*kept, Hit(nxt, h.document, score, branches, h.superseded)))


def _shared(text: str, terms: set[str]) -> int:
    """How many of the question's words the chunk's closing lines hold."""
    return len(terms & set(query_terms(text[-_CLOSING:])))
