"""Retrieval evaluation on a BEIR-layout folder: index, query, score, report.

:func:`run_retrieval_eval` ingests every corpus document (its text, with the
BEIR title as the document title, the BEIR id as its uri) into a store under
its own tenant, runs each question of the split through
:func:`pincite.retrieve.search.retrieve` with ``k = 100``, turns the chunk hits
into BEIR document ids (a document counts once, at the rank of its best chunk)
and scores them with the pure metrics of :mod:`pincite.eval.metrics`.

Indexing dominates the run time (embedding: tens of passages per second on a
laptop CPU), so :func:`pincite.eval.bulk.store_many` embeds many documents' chunks in one
``embed_documents`` call, and a ``db`` file once built is reused: its meta
table records which dataset and embedder built it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError, InputError
from pincite.eval.beir import BeirDataset, load_beir
from pincite.eval.bulk import IndexCounts, Progress, store_many
from pincite.eval.metrics import mean, mrr_at_k, ndcg_at_k, percentile, recall_at_k
from pincite.retrieve.search import SearchMode, SearchOptions, retrieve
from pincite.store.base import Store

EVAL_TENANT = "eval"
DEPTH = 100  # chunks asked of retrieve() per question; Recall@100 needs 100
LATENCY_K = 10  # latency is timed on a second pass at an application's k
_FINGERPRINT_KEY = "eval_fingerprint"
_DEFAULTS = SearchOptions()


@dataclass(frozen=True, slots=True)
class ModeResult:
    """Metrics of one retrieval configuration, averaged over the evaluable questions."""

    name: str
    mode: str
    routing: bool
    ndcg_at_10: float
    recall_at_10: float
    recall_at_100: float
    mrr_at_10: float
    latency_p50_ms: float
    latency_p95_ms: float

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "mode": self.mode,
            "routing": self.routing,
            "ndcg@10": self.ndcg_at_10,
            "recall@10": self.recall_at_10,
            "recall@100": self.recall_at_100,
            "mrr@10": self.mrr_at_10,
            "latency_p50_ms": self.latency_p50_ms,
            "latency_p95_ms": self.latency_p95_ms,
        }


@dataclass(frozen=True, slots=True)
class RetrievalReport:
    """What :func:`run_retrieval_eval` measured; ``as_table`` and ``as_dict`` render it."""

    dataset: str
    split: str
    documents: int
    skipped_documents: int
    chunks: int
    queries: int
    embedder: str | None
    index_seconds: float
    reused_index: bool
    results: tuple[ModeResult, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "dataset": self.dataset,
            "split": self.split,
            "documents": self.documents,
            "skipped_documents": self.skipped_documents,
            "chunks": self.chunks,
            "queries": self.queries,
            "embedder": self.embedder,
            "index_seconds": round(self.index_seconds, 3),
            "reused_index": self.reused_index,
            "results": [r.as_dict() for r in self.results],
        }

    def as_table(self) -> str:
        head = (
            f"{self.dataset} ({self.split}): {self.queries} queries, {self.documents} documents"
            f" ({self.chunks} chunks), embedder {self.embedder or 'none'}"
        )
        columns = ("mode", "nDCG@10", "R@10", "R@100", "MRR@10", "p50 ms", "p95 ms")
        rows = [
            (
                r.name,
                f"{r.ndcg_at_10:.4f}",
                f"{r.recall_at_10:.4f}",
                f"{r.recall_at_100:.4f}",
                f"{r.mrr_at_10:.4f}",
                f"{r.latency_p50_ms:.1f}",
                f"{r.latency_p95_ms:.1f}",
            )
            for r in self.results
        ]
        widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(columns)]
        lines = [head, "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))]
        lines.append("  ".join("-" * w for w in widths))
        for row in rows:
            cells = [row[0].ljust(widths[0])]
            cells += [v.rjust(w) for v, w in zip(row[1:], widths[1:], strict=True)]
            lines.append("  ".join(cells))
        built = "reused from the db file" if self.reused_index else f"{self.index_seconds:.0f} s"
        lines.append(
            f"index: {built}; metrics from retrieve(k={DEPTH}); latency: retrieve(k={LATENCY_K})"
            " wall time per question, query embedding included"
        )
        return "\n".join(lines)


def run_retrieval_eval(
    dataset_dir: Path,
    *,
    split: str = "test",
    modes: Sequence[SearchMode | str] = ("lexical", "dense", "hybrid"),
    options: SearchOptions = _DEFAULTS,
    routing_compare: bool = True,
    db: str | None = None,
    embedder: Embedder | str | None = "default",
    progress: Progress | None = None,
    query_ids: Sequence[str] | None = None,
) -> RetrievalReport:
    """Index ``dataset_dir`` and report nDCG@10, Recall@10/100, MRR@10 and latency per mode.

    ``modes`` are :class:`SearchMode` values; ``options`` supplies everything
    else (its ``mode`` is overridden per run). With ``routing_compare`` each
    dense-using mode is run with routing on and off. ``db`` is a SQLite file to
    keep the index in and reuse (``None``: a temporary file). ``embedder``
    may be a spec (``"default"``, ``"minilm-float"``, ...), loaded with one thread per CPU; it is
    loaded only when a mode needs it. ``query_ids`` restricts the questions
    (e.g. to a tuning fold). Raises ``InputError`` for a bad folder, split or
    mode, ``ConfigurationError`` when a dense mode has no embedder or ``db``
    holds another dataset's index.
    """
    wanted = [SearchMode.parse(m) if isinstance(m, str) else m for m in modes]
    if not wanted:
        raise InputError("no retrieval modes to evaluate")
    dataset = load_beir(dataset_dir, split)
    qids = dataset.evaluable_query_ids()
    if query_ids is not None:
        keep = set(query_ids)
        qids = [q for q in qids if q in keep]
    if not qids:
        raise InputError(f"{dataset.name} ({split}) has no question with a relevant document")
    needs_vectors = any(m is not SearchMode.LEXICAL for m in wanted)
    model = _resolve_embedder(embedder) if needs_vectors else None
    with _store(db) as store:
        started = time.perf_counter()
        reused, built = _ensure_index(store, dataset, model, progress)
        index_seconds = time.perf_counter() - started
        runs = _runs(wanted, options, routing_compare)
        results = tuple(_evaluate(store, model, dataset, qids, name, opts) for name, opts in runs)
    return RetrievalReport(
        dataset=dataset.name,
        split=split,
        documents=built.documents,
        skipped_documents=built.skipped,
        chunks=built.chunks,
        queries=len(qids),
        embedder=model.name if model is not None else None,
        index_seconds=index_seconds,
        reused_index=reused,
        results=results,
    )


def doc_ranking(hits_uris: Sequence[str]) -> list[str]:
    """Document ids in order of their best-ranked chunk, each once."""
    return list(dict.fromkeys(hits_uris))


# -- internals ----------------------------------------------------------------


def _resolve_embedder(embedder: Embedder | str | None) -> Embedder:
    if embedder is None:
        raise ConfigurationError("dense and hybrid evaluation need an embedder")
    if isinstance(embedder, str):
        # Any spec the CLI's --embedder takes (minilm-float, st:..., ...), not only "default".
        from pincite.embed.spec import embedder_from_spec

        return embedder_from_spec(embedder, threads=os.cpu_count() or 1)
    return embedder


@contextmanager
def _store(db: str | None) -> Iterator[Store]:
    from pincite._open import open_store

    with tempfile.TemporaryDirectory(prefix="pincite-eval-") as tmp:
        store = open_store(db if db is not None else str(Path(tmp) / "eval.db"))
        try:
            yield store
        finally:
            store.close()


def _fingerprint(dataset: BeirDataset) -> str:
    digest = hashlib.sha256()
    for doc in dataset.corpus.values():
        for part in (doc.id, doc.title, doc.text):
            digest.update(part.encode("utf-8"))
            digest.update(b"\0")
    return f"{dataset.name}:{len(dataset.corpus)}:{digest.hexdigest()[:16]}"


def _ensure_index(
    store: Store, dataset: BeirDataset, embedder: Embedder | None, progress: Progress | None
) -> tuple[bool, IndexCounts]:
    """Build the eval tenant's index unless this store already holds it; (reused, counts).

    The meta row is written last, so an interrupted build is resumed, not reused.
    """
    fingerprint = _fingerprint(dataset)
    vectors = embedder.name if embedder is not None else None
    raw = store.get_meta(_FINGERPRINT_KEY)
    if raw is not None:
        recorded = json.loads(raw)
        if recorded["dataset"] != fingerprint:
            raise ConfigurationError(
                f"{getattr(store, 'path', 'the store')} holds the evaluation index of "
                f"{recorded['dataset']}, not {fingerprint}; use another db file"
            )
        if vectors is None or recorded["embedder"] == vectors:
            return True, IndexCounts(recorded["documents"], recorded["skipped"], recorded["chunks"])
        raise ConfigurationError(
            f"{getattr(store, 'path', 'the store')} was indexed with embedder "
            f"{recorded['embedder']!r}, not {vectors!r}; use another db file"
        )
    if embedder is not None:
        from pincite.corpus import Corpus

        Corpus(store, embedder)  # records the embedder, or refuses a different one
    corpus = list(dataset.corpus.values())
    store_many(store, embedder, corpus, tenant=EVAL_TENANT, progress=progress)
    # Count what the tenant holds (a resumed build wrote only part of it now).
    index = store.dense_index(EVAL_TENANT)
    documents = len(store.list_documents(EVAL_TENANT))
    chunks = len(index.chunk_ids) if embedder is not None else _count_chunks(store)
    counts = IndexCounts(documents, len(corpus) - documents, chunks)
    record = {
        "dataset": fingerprint,
        "embedder": vectors,
        "documents": documents,
        "skipped": counts.skipped,
        "chunks": chunks,
    }
    store.set_meta(_FINGERPRINT_KEY, json.dumps(record))
    return False, counts


def _runs(
    modes: Sequence[SearchMode], options: SearchOptions, routing_compare: bool
) -> list[tuple[str, SearchOptions]]:
    runs: list[tuple[str, SearchOptions]] = []
    for mode in modes:
        base = replace(options, mode=mode)
        if mode is SearchMode.LEXICAL or not routing_compare:
            runs.append((mode.value, base))
            continue
        runs.append((f"{mode.value} +routing", replace(base, routing=True)))
        runs.append((f"{mode.value} -routing", replace(base, routing=False)))
    return runs


def _evaluate(
    store: Store,
    embedder: Embedder | None,
    dataset: BeirDataset,
    qids: Sequence[str],
    name: str,
    options: SearchOptions,
) -> ModeResult:
    ndcg, r10, r100, mrr = [], [], [], []
    for qid in qids:
        question = dataset.queries[qid]
        result = retrieve(store, embedder, question, tenant=EVAL_TENANT, k=DEPTH, options=options)
        ranked = doc_ranking([h.document.uri for h in result.hits])
        qrels = dataset.qrels[qid]
        ndcg.append(ndcg_at_k(ranked, qrels, 10))
        r10.append(recall_at_k(ranked, qrels, 10))
        r100.append(recall_at_k(ranked, qrels, 100))
        mrr.append(mrr_at_k(ranked, qrels, 10))
    latency = []
    for qid in qids:
        started = time.perf_counter()
        retrieve(
            store, embedder, dataset.queries[qid], tenant=EVAL_TENANT, k=LATENCY_K, options=options
        )
        latency.append((time.perf_counter() - started) * 1000.0)
    return ModeResult(
        name=name,
        mode=options.mode.value,
        routing=options.routing and options.mode is not SearchMode.LEXICAL,
        ndcg_at_10=mean(ndcg),
        recall_at_10=mean(r10),
        recall_at_100=mean(r100),
        mrr_at_10=mean(mrr),
        latency_p50_ms=percentile(latency, 50),
        latency_p95_ms=percentile(latency, 95),
    )


def _count_chunks(store: Store) -> int:
    total = 0
    for document in store.list_documents(EVAL_TENANT):
        current = store.current_hash(EVAL_TENANT, document.document_id)
        if current is not None:
            total += len(store.chunks(EVAL_TENANT, document.document_id, current))
    return total
