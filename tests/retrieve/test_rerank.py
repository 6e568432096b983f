"""The reranker hook: a second stage that rescored candidates, recorded in each hit's branches."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pincite
from pincite.retrieve.search import SearchMode, SearchOptions

POLICIES = [
    "Invoices are kept for seven years after the fiscal year ends.",
    "Invoices for travel are approved by a manager within five days.",
    "Invoices in foreign currency are converted at the month-end rate.",
]


class KeywordReranker:
    """Scores a passage by how often it says ``word``: a deterministic stand-in."""

    name = "keyword"

    def __init__(self, word: str) -> None:
        self.word = word
        self.seen: list[int] = []

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        self.seen.append(len(passages))
        return [float(p.lower().count(self.word)) + 0.01 * i for i, p in enumerate(passages)]


def test_a_reranker_reorders_hits_and_records_its_scores(tmp_path: Path) -> None:
    with pincite.open(tmp_path / "r.db", embedder=None) as corpus:
        for i, text in enumerate(POLICIES):
            corpus.ingest_text(text, uri=f"policy://{i}", tenant="acme")
        plain = corpus.retrieve(
            "invoices", tenant="acme", k=3, options=SearchOptions(mode=SearchMode.LEXICAL)
        )
        reranker = KeywordReranker("currency")
        reranked = corpus.retrieve(
            "invoices",
            tenant="acme",
            k=2,
            options=SearchOptions(mode=SearchMode.LEXICAL, reranker=reranker),
        )
    assert all(h.branches.rerank_score is None for h in plain.hits)
    top = reranked.hits[0]
    assert "foreign currency" in top.chunk.text
    assert top.score == top.branches.rerank_score and top.score >= 1.0
    assert len(reranked.hits) == 2
    # The reranker sees more candidates than are returned (max(4k, 20) asked of fusion).
    assert reranker.seen == [3]
    scores = [h.score for h in reranked.hits]
    assert scores == sorted(scores, reverse=True)
