"""A passage brought in beside ranked search takes the last of the ``k`` places."""

from __future__ import annotations

from pincite.model import Branches, ChannelRank, Chunk, Document, Hit

__all__ = ["in_last_place"]


def in_last_place(
    hits: list[Hit], k: int, chunk: Chunk, document: Document, found: ChannelRank
) -> list[Hit]:
    """``hits`` with ``chunk`` in the last of ``k`` places (after them when fewer),
    scored as the place it takes so scores stay in order down the list."""
    kept = hits[: k - 1]
    score = hits[len(kept)].score if len(hits) > len(kept) else (kept[-1].score if kept else 0.0)
    return [*kept, Hit(chunk, document, score, Branches((found,), None, None, False))]
