"""run_retrieval_eval on a tiny BEIR folder whose answers are known by construction."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from pincite.embed.base import Vectors
from pincite.errors import ConfigurationError, InputError
from pincite.eval.retrieval import RetrievalReport, doc_ranking, run_retrieval_eval

# Five documents. "zebras" is one long document that the chunker cuts into
# several chunks, each mentioning zebras many times: every one of its chunks
# outranks "herd" (one mention), yet as a document it takes one rank only.
ZEBRA_SENTENCES = " ".join(
    f"Zebra number {i} grazes by waterhole {i * 7} with zebra foal {i * 13}." for i in range(60)
)
CORPUS = [
    {"_id": "fruit", "title": "Bananas", "text": "Bananas are yellow tropical fruit."},
    {"_id": "cherry-short", "title": "", "text": "Cherries are small red fruit."},
    {
        "_id": "cherry-long",
        "title": "",
        "text": "The orchard keeper sells cherries, plums "
        "and pears at the Saturday market every week of the summer season.",
    },
    {"_id": "zebras", "title": "Zebra census", "text": ZEBRA_SENTENCES},
    {
        "_id": "herd",
        "title": "Savanna",
        "text": "A lone zebra stood among the wildebeest herd "
        "while lions rested in the shade of acacia trees.",
    },
    {"_id": "blank", "title": "", "text": "   "},
]
QUERIES = [
    {"_id": "q-banana", "text": "bananas"},
    {"_id": "q-cherry", "text": "cherries"},
    {"_id": "q-zebra", "text": "zebra"},
    {"_id": "q-none", "text": "grapes"},
    {"_id": "q-unjudged", "text": "only a zero grade"},
]
QRELS = (
    "query-id\tcorpus-id\tscore\n"
    "q-banana\tfruit\t1\n"
    "q-cherry\tcherry-long\t1\n"
    "q-zebra\therd\t1\n"
    "q-none\tfruit\t1\n"
    "q-unjudged\tfruit\t0\n"
)
# The tiny "model": one dimension per word below, so cosines are known exactly.
VOCAB = ("banana", "cherri", "zebra", "grape", "fruit", "orchard")


class KeywordEmbedder:
    name = "keyword-test"
    dim = len(VOCAB)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = re.findall(r"\w+", text.lower())
            for col, stem in enumerate(VOCAB):
                out[row, col] = 1.0 if any(w.startswith(stem) for w in words) else 0.0
            norm = float(np.linalg.norm(out[row]))
            out[row] = out[row] / norm if norm else out[row]
        return out

    def embed_query(self, text: str) -> Vectors:
        return self.embed_documents([text])[0]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "tiny"
    (root / "qrels").mkdir(parents=True)
    lines = "".join(json.dumps(row) + "\n" for row in CORPUS)
    (root / "corpus.jsonl").write_text(lines, encoding="utf-8")
    lines = "".join(json.dumps(row) + "\n" for row in QUERIES)
    (root / "queries.jsonl").write_text(lines, encoding="utf-8")
    (root / "qrels" / "test.tsv").write_text(QRELS, encoding="utf-8")
    return root


def by_name(report: RetrievalReport) -> dict[str, dict[str, object]]:
    return {r.name: r.as_dict() for r in report.results}


def test_lexical_metrics_are_exact(folder: Path) -> None:
    seen: list[tuple[int, int]] = []
    report = run_retrieval_eval(
        folder, modes=("lexical",), embedder=None, progress=lambda d, n: seen.append((d, n))
    )
    assert seen[-1] == (6, 6)
    assert (report.documents, report.skipped_documents, report.queries) == (5, 1, 4)
    assert report.chunks > 5  # the zebra document is several chunks
    assert report.embedder is None and report.reused_index is False
    [lexical] = report.results
    # q-banana: "fruit" alone matches → rank 1. q-cherry: both cherry documents
    # match; the shorter one wins BM25, so the relevant one is rank 2.
    # q-zebra: the zebra document's chunks all outrank "herd", which is
    # nevertheless document rank 2. q-none: nothing matches "grapes".
    second = 1 / math.log2(3)
    assert lexical.ndcg_at_10 == pytest.approx((1 + second + second + 0) / 4)
    assert lexical.mrr_at_10 == pytest.approx((1 + 0.5 + 0.5 + 0) / 4)
    assert lexical.recall_at_10 == pytest.approx(3 / 4)
    assert lexical.recall_at_100 == pytest.approx(3 / 4)
    assert 0 < lexical.latency_p50_ms <= lexical.latency_p95_ms


def test_dense_hybrid_and_routing_rows(folder: Path) -> None:
    report = run_retrieval_eval(folder, embedder=KeywordEmbedder())
    rows = by_name(report)
    assert list(rows) == [
        "lexical",
        "dense +routing",
        "dense -routing",
        "hybrid +routing",
        "hybrid -routing",
    ]
    assert report.embedder == "keyword-test"
    assert rows["dense -routing"]["routing"] is False and rows["dense +routing"]["routing"] is True
    # Dense: q-banana → only "fruit" has the banana dimension (rank 1). q-cherry
    # → both cherry documents tie at cosine 1/√2 with the "fruit"/"orchard"
    # words... the long one has "orchard", the short one "fruit": a tie, kept in
    # index order (short first). q-zebra → zebra-only chunks (cosine 1) tie
    # with "herd" (cosine 1) in index order: zebras' chunks first. q-none → the
    # grape dimension is empty: every cosine is 0, below the 0.2 floor.
    dense = rows["dense -routing"]
    assert dense["mrr@10"] == pytest.approx((1 + 0.5 + 0.5 + 0) / 4)
    assert dense["recall@100"] == pytest.approx(3 / 4)
    json.dumps(report.as_dict())  # serialisable as is
    table = report.as_table()
    assert "hybrid -routing" in table and "nDCG@10" in table and "tiny (test)" in table


def test_index_is_reused_from_a_db_file(folder: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "eval.db")
    first = run_retrieval_eval(
        folder, modes=("dense",), db=db, embedder=KeywordEmbedder(), routing_compare=False
    )
    calls: list[tuple[int, int]] = []
    again = run_retrieval_eval(
        folder,
        modes=("dense", "lexical"),
        db=db,
        embedder=KeywordEmbedder(),
        routing_compare=False,
        progress=lambda d, n: calls.append((d, n)),
    )
    assert again.reused_index and not calls
    assert again.results[0].ndcg_at_10 == first.results[0].ndcg_at_10
    assert (again.documents, again.chunks) == (first.documents, first.chunks)
    # A lexical-only run can reuse an index built with vectors...
    assert run_retrieval_eval(folder, modes=("lexical",), db=db, embedder=None).reused_index


def test_db_built_for_another_dataset_or_embedder_is_refused(folder: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "eval.db")
    run_retrieval_eval(folder, modes=("lexical",), db=db, embedder=None)
    # ... but an index built without vectors cannot serve a dense run.
    with pytest.raises(ConfigurationError, match="embedder"):
        run_retrieval_eval(folder, modes=("dense",), db=db, embedder=KeywordEmbedder())
    (folder / "corpus.jsonl").write_text(
        json.dumps({"_id": "fruit", "title": "", "text": "changed"}) + "\n", encoding="utf-8"
    )
    with pytest.raises(ConfigurationError, match="another db file"):
        run_retrieval_eval(folder, modes=("lexical",), db=db, embedder=None)


def test_query_ids_restrict_the_questions(folder: Path) -> None:
    report = run_retrieval_eval(
        folder, modes=("lexical",), embedder=None, query_ids=["q-banana", "q-unjudged"]
    )
    assert report.queries == 1
    assert report.results[0].ndcg_at_10 == 1.0


def test_bad_inputs(folder: Path) -> None:
    with pytest.raises(InputError, match="search mode"):
        run_retrieval_eval(folder, modes=("sparse",), embedder=None)
    with pytest.raises(InputError, match="no retrieval modes"):
        run_retrieval_eval(folder, modes=(), embedder=None)
    with pytest.raises(InputError, match="split"):
        run_retrieval_eval(folder, split="dev", embedder=None)
    with pytest.raises(ConfigurationError, match="embedder"):
        run_retrieval_eval(folder, modes=("hybrid",), embedder=None)


def test_doc_ranking_keeps_each_document_at_its_best_rank() -> None:
    assert doc_ranking(["a", "b", "a", "c", "b"]) == ["a", "b", "c"]
