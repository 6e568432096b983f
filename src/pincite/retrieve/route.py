"""Document routing: one synthetic text per document, embedded once at ingest.

A query first picks the documents whose routing vector is closest, then hybrid
search runs inside them. Routing is permissive by design (many documents, and
lexical hits outside the routed set still count) because a routing miss would
otherwise be unrecoverable.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pincite.model import Chunk
from pincite.retrieve.query import STOPWORDS, WORD
from pincite.sentences import MD_HEADING
from pincite.store.base import RoutingIndex

_MAX_CHARS = 2000


def routing_text(title: str, chunks: Sequence[Chunk]) -> str:
    """Title, headings, first paragraph and the most frequent content words.

    A chunk's section is the one it lies in whole, so the title of a short
    Markdown section joined to the next is read from the chunk's first line.
    """
    titles = [(*c.section, _opening_title(c.text)) for c in chunks]
    headings = list(dict.fromkeys(s for t in titles for s in t if s))[:40]
    first = chunks[0].text[:600] if chunks else ""
    body = " ".join(c.text for c in chunks)[:200_000]
    counts = Counter(
        w
        for w in WORD.findall(body.casefold())
        if len(w) > 3 and w not in STOPWORDS and not w.isdigit()
    )
    key_terms = [w for w, _ in counts.most_common(30)]
    parts = [title, "; ".join(headings), first, " ".join(key_terms)]
    return "\n".join(p for p in parts if p)[:_MAX_CHARS]


def _opening_title(text: str) -> str:
    """The title of the Markdown heading ``text`` opens with ("" if none)."""
    m = MD_HEADING.match(text)
    return text[m.end() :].split("\n", 1)[0].strip() if m else ""


def route(
    index: RoutingIndex, query_vector: npt.NDArray[np.float32], *, top: int
) -> list[str] | None:
    """The ``top`` documents nearest the query, or ``None`` when routing cannot narrow."""
    n = len(index.document_ids)
    if n == 0 or n <= top:
        return None
    # einsum, not @: see pincite.store.dense.dot (BLAS threads busy-wait).
    scores = np.einsum("ij,j->i", index.matrix, query_vector)
    best = np.argpartition(-scores, top)[:top]
    return [index.document_ids[i] for i in best]
