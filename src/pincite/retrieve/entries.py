"""The glossary entry that defines a term: "ADEQUATE SECURITY: Security commensurate …".

A definition question is best answered by the entry that defines its term,
and ranked search often misses it: a glossary chunk holds dozens of terms, so
BM25's length normalisation and a cosine to the whole chunk both rank it under
passages that merely use the term. This reads the chunks that hold the term's
words and keeps those with a line that *opens* with a label ending in the term
("Telework:", "Bring Your Own Device (BYOD):"), best BM25 first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pincite.retrieve.query import query_terms
from pincite.store.base import Store

__all__ = ["defining_entries", "label_pattern"]

# Chunks holding the term's words that are read for a label line; a glossary
# chunk of a long document ranked 43rd for "BYOD" in the shared NIST set.
DEPTH = 60
_MAX_LABEL_WORDS = 6


def label_pattern(term: str) -> re.Pattern[str] | None:
    """A line that opens with a label naming ``term`` and a colon; None for an empty term.

    Words before the term must be capitalised ("Bring Your Own Device
    (BYOD):"), so a lead-in such as "Controls for telework:" is no entry.
    """
    words = term.split()
    if not words:
        return None
    phrase = r"[ \t]+".join(re.escape(w) for w in words)
    lead = rf"(?:[A-Z][\w’'/-]*[ \t]+){{0,{_MAX_LABEL_WORDS}}}?"
    named = rf"(?:(?i:{phrase})|\((?i:{phrase})\))"
    aside = r"(?:[ \t]+\([^)\n]{1,30}\))?"
    return re.compile(rf"(?m)^[ \t]*{lead}{named}{aside}[ \t]*:[ \t]*\S")


def defining_entries(
    store: Store, tenant: str, term: str, scope: Sequence[str] | None = None
) -> list[tuple[str, float]]:
    """``(chunk_id, bm25)`` of the chunks with an entry defining ``term``, best first."""
    pattern = label_pattern(term)
    terms = query_terms(term)
    if pattern is None or not terms:
        return []
    found = store.search_lexical(tenant, terms, DEPTH, scope)
    chunks = store.chunks_by_id(tenant, [cid for cid, _ in found])
    return [
        (cid, score)
        for cid, score in found
        if cid in chunks and pattern.search(chunks[cid].text) is not None
    ]
