"""The section a question names by its title: "the From request header" is RFC 2616's
"14.22 From".

Specifications title a section by the thing it defines, and that thing's name is
often an ordinary word ("From", "Server", "Date"): BM25 weighs such a word
lightly and the section's opening ranks far down (37th for "what is supposed to
go in the From request header" in the shared RFCs). A question that writes the
title as the document does, capitalised inside the sentence, names that
section; the chunk that opens it takes a place among the passages shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pincite.model import ChannelRank, DocumentStatus, Hit
from pincite.retrieve.places import in_last_place
from pincite.store.base import Store

__all__ = ["NAMED", "named_section", "names_title"]

# The channel name of a hit brought in as the section the question names.
NAMED = "named"
# Fused candidates read for a named section: those retrieval ranked at all.
_DEPTH = 100
# A section's number before its title: "14.22", "3.2.1.", "A.2", "B.3.1".
_NUMBER = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z](?:\.\d+)+\.?)\s+")
_TITLE_WORDS = 5
# A Markdown heading's marks, which the section's title leaves out.
_MARKDOWN_HASHES = re.compile(r"^\s*(?:#{1,6}[ \t]+)?")
# A capitalised word inside the question, or a hyphenated capitalised name: worth
# reading the candidates' sections for.
_CAPITALISED = re.compile(r"(?<=[^\s.!?])\s+[\"'“‘(]?(?!I\b)[A-Z]|[A-Z]\w*-[A-Za-z]")


def names_title(question: str, heading: str) -> bool:
    """True when ``question`` names the section titled ``heading`` as the document
    writes it: its words and capitals, inside the sentence for a single ordinary
    word ("the From header", not "From what ...")."""
    title = _NUMBER.sub("", heading).strip()
    words = title.split()
    if not words or len(words) > _TITLE_WORDS or not any(c.isupper() for c in title):
        return False
    if not any(c.isalpha() for c in title):
        return False
    ordinary = len(words) == 1 and title[1:].islower() and title.isalpha()
    for m in re.finditer(rf"(?<![\w-]){re.escape(title)}(?![\w-])", question):
        if not ordinary or question[: m.start()].strip(" \"'“‘(").strip():
            return True
    return False


def named_section(
    store: Store,
    tenant: str,
    question: str,
    fused: Sequence[tuple[str, float]],
    hits: list[Hit],
    k: int,
) -> list[Hit]:
    """``hits`` with the chunk opening the section ``question`` names in the last of
    ``k`` places, when retrieval ranked it but not among the first ``k``.

    Only a section of a document already among ``hits`` comes in: "the Security
    Considerations" of another document is not the one asked about. With one place
    (``k`` 1) the best hit keeps it.
    """
    if k < 2 or not hits or not _CAPITALISED.search(question):
        return hits
    held = {h.chunk.chunk_id for h in hits}
    documents = {h.chunk.document_id for h in hits}
    if any(_opens_named(question, h.chunk.section, h.chunk.text) for h in hits):
        return hits
    ids = [cid for cid, _ in fused[:_DEPTH] if cid not in held]
    chunks = store.chunks_by_id(tenant, ids)
    for rank, cid in enumerate(ids, start=1):
        chunk = chunks.get(cid)
        # The store's search returns current, live, unerased chunks of this tenant
        # only; these checks keep that true of any list of ids.
        if chunk is None or chunk.tenant != tenant or chunk.erased:
            continue
        if chunk.document_id not in documents:
            continue
        if not _opens_named(question, chunk.section, chunk.text):
            continue
        if chunk.content_hash != store.current_hash(tenant, chunk.document_id):
            continue  # a superseded version's
        document = store.documents_by_id(tenant, [chunk.document_id]).get(chunk.document_id)
        if document is None or document.status is not DocumentStatus.LIVE:
            continue
        return in_last_place(hits, k, chunk, document, ChannelRank(NAMED, rank, 0.0))
    return hits


def _opens_named(question: str, section: Sequence[str], text: str) -> bool:
    """True for a chunk that opens, with its heading, a section ``question`` names."""
    if not section:
        return False
    heading = section[-1].strip()
    opening = _MARKDOWN_HASHES.sub("", text, count=1)
    return opening.startswith(heading) and names_title(question, heading)
