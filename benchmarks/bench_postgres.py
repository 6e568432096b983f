"""PostgreSQL backend: filtered HNSW recall, search latency, and SciFact beside SQLite.

Part 1: ``--chunks`` chunks over ``--tenants`` tenants (10 a document), random
unit vectors, text of real SciFact sentences. Tenant-filtered recall@k of
``search_dense`` against exact search (numpy over ``dense_index``) and p50/p95
latency, for queries near a stored vector and for random ones (the hardest case
for a graph index: no structure at all). Part 2: SciFact test through ``pincite
eval retrieval`` on both backends (``--dense``: also dense and hybrid, embedding
once and copying the vectors, then HNSW against exact on the real vectors, whole
and dealt over 50 tenants).

    .venv/bin/python benchmarks/bench_postgres.py [--dense]      # 100k chunks / 50 tenants
    .venv/bin/python benchmarks/bench_postgres.py --db postgresql://... --reuse --no-scifact

Without ``--db`` it starts a throwaway server (``tests/store/pg_embedded.py``).
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import numpy.typing as npt
import psycopg
from shared_data import DATA

from pincite.eval.retrieval import ModeResult, RetrievalReport, run_retrieval_eval
from pincite.model import Chunk, Document, Version, content_hash
from pincite.retrieve.query import query_terms
from pincite.store.base import Store
from pincite.store.postgres import PostgresStore
from pincite.store.sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = DATA / "scifact"
PER_DOCUMENT = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--db", help="a postgresql:// server URL; bench_* databases are (re)created there"
    )
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--tenants", type=int, default=50)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--k", type=int, default=20)
    parser.add_argument("--queries", type=int, default=10, help="per tenant and query kind")
    parser.add_argument("--ef", type=int, nargs="+", default=[40, 100, 200])
    parser.add_argument("--no-synthetic", action="store_true")
    parser.add_argument("--reuse", action="store_true", help="query the last run's synthetic data")
    parser.add_argument("--no-scifact", action="store_true")
    parser.add_argument("--dense", action="store_true", help="SciFact dense + hybrid too (slow)")
    args = parser.parse_args()
    server = None
    url = args.db
    if url is None:
        spec = importlib.util.spec_from_file_location("pg", ROOT / "tests/store/pg_embedded.py")
        assert spec is not None and spec.loader is not None
        module = sys.modules["pg"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        server = module.start()
        url = server.url()
    try:
        if not args.no_synthetic:
            synthetic(_database(url, "bench_synthetic", keep=args.reuse), args)
        if not args.no_scifact:
            scifact(_database(url, "bench_scifact"), args.dense)
    finally:
        if server is not None:
            server.stop()


# -- part 1: synthetic scale ----------------------------------------------------


def synthetic(url: str, args: argparse.Namespace) -> None:
    rng = np.random.default_rng(7)
    sentences = _sentences()
    store = PostgresStore(url)
    started = time.perf_counter()
    tenants = [f"tenant-{i:02d}" for i in range(args.tenants)]
    docs = args.chunks // PER_DOCUMENT
    reused = bool(store.tenants())
    for n in range(0 if reused else docs):
        tenant = tenants[n % len(tenants)]
        texts = [" ".join(random.Random(n * 31 + j).sample(sentences, 3)) for j in range(10)]
        vectors = _unit(rng.standard_normal((PER_DOCUMENT, args.dim), dtype=np.float32))
        _write(store, tenant, f"doc://{n}", texts, vectors)
        if (n + 1) % 1000 == 0:
            print(f"  loaded {(n + 1) * PER_DOCUMENT} chunks", file=sys.stderr)
    load_s = time.perf_counter() - started
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    if not reused:
        print(
            f"\nloaded {docs * PER_DOCUMENT} chunks, {len(tenants)} tenants, dim {args.dim}"
            f" in {load_s:.0f} s ({docs * PER_DOCUMENT / load_s:.0f} chunks/s)"
        )

    queries: list[tuple[str, str, np.ndarray, list[str]]] = []  # kind, tenant, vector, truth
    for tenant in tenants:
        index = store.dense_index(tenant)
        for kind in ("near", "random"):
            for _ in range(args.queries):
                if kind == "near":
                    base = index.matrix[rng.integers(len(index.chunk_ids))]
                    # noise of 0.3 the vector's length: cosine ≈ 0.96 to its source
                    noise = rng.standard_normal(args.dim, dtype=np.float32)
                    q = base + 0.3 * noise / np.sqrt(args.dim)
                else:
                    q = rng.standard_normal(args.dim, dtype=np.float32)
                q = _unit(q[None, :])[0]
                order = np.argsort(-(index.matrix @ q), kind="stable")[: args.k]
                queries.append((kind, tenant, q, [index.chunk_ids[i] for i in order]))

    rows = []
    configs: list[tuple[str, dict[str, Any]]] = [("default (exact ≤ 10k)", {})] + [
        (f"HNSW ef_search={ef}", {"exact_limit": 0, "ef_search": ef}) for ef in args.ef
    ]
    for name, options in configs:
        probe = PostgresStore(url, **options)
        for kind in ("near", "random"):
            recalls, latency = [], []
            for qkind, tenant, q, truth in queries:
                if qkind != kind:
                    continue
                t = time.perf_counter()
                found = [c for c, _ in probe.search_dense(tenant, q, args.k)]
                latency.append((time.perf_counter() - t) * 1000)
                recalls.append(len(set(found) & set(truth)) / len(truth))
            rows.append((f"dense {name}", kind, _fmt(statistics.mean(recalls)), *_pct(latency)))
        probe.close()

    claims = [json.loads(line)["text"] for line in (SCIFACT / "queries.jsonl").open()]
    latency = []
    for i, claim in enumerate(claims[: args.queries * 20]):
        t = time.perf_counter()
        store.search_lexical(tenants[i % len(tenants)], query_terms(claim), 100)
        latency.append((time.perf_counter() - t) * 1000)
    rows.append(("lexical BM25 (k=100)", "claims", "", *_pct(latency)))
    _table(
        ["search", "queries", f"recall@{args.k}", "p50 ms", "p95 ms"],
        rows,
        f"{docs * PER_DOCUMENT} chunks / {len(tenants)} tenants: filtered recall vs exact",
    )
    store.close()


def _write(store: Store, tenant: str, uri: str, texts: list[str], vectors: np.ndarray) -> None:
    text = "\n\n".join(texts)
    document_id = str(uuid.uuid4())
    chash = content_hash(text)
    now = "2025-01-01T00:00:00+00:00"
    spans = [(i, sum(len(t) + 2 for t in texts[:i])) for i in range(len(texts))]
    chunks = [
        Chunk(
            str(uuid.uuid4()),
            tenant,
            document_id,
            chash,
            i,
            a,
            a + len(texts[i]),
            texts[i],
            texts[i],
        )
        for i, a in spans
    ]
    store.write_version(
        Document(document_id, tenant, uri, uri, created_at=now),
        Version(document_id, tenant, chash, text, "bench", "bench", now),
        chunks,
        vectors,
        vectors.mean(axis=0),
        expected_current=None,
    )


def _sentences() -> list[str]:
    with gzip.open(SCIFACT / "corpus.jsonl.gz", "rt", encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f]
    return [s.strip() + "." for t in texts for s in t.split(". ") if len(s) > 40]


# -- part 2: SciFact on both backends ---------------------------------------------


def scifact(url: str, dense: bool) -> None:
    modes = ["lexical", "dense", "hybrid"] if dense else ["lexical"]
    embedder: Literal["default"] | None = "default" if dense else None

    def run(db: str) -> RetrievalReport:
        return run_retrieval_eval(
            SCIFACT, modes=modes, embedder=embedder, db=db, routing_compare=False
        )

    with tempfile.TemporaryDirectory() as tmp:
        sqlite_db = str(Path(tmp) / "scifact.db")
        reports = {"sqlite": run(sqlite_db)}
        if dense:  # the same vectors on both sides: embed once, copy
            _copy(SQLiteStore(sqlite_db), PostgresStore(url))
        reports["postgres"] = run(url)
    rows = [
        (backend, r.name, _fmt(r.ndcg_at_10), _fmt(r.recall_at_100), *_ms(r))
        for backend, report in reports.items()
        for r in report.results
    ]
    _table(
        ["backend", "mode", "nDCG@10", "R@100", "p50 ms", "p95 ms"],
        rows,
        "SciFact test (300 queries), pincite eval retrieval",
    )
    if dense:
        _direct_dense(url)
        _filtered_dense(url, _database(url, "bench_scifact_tenants"))


def _copy(source: SQLiteStore, target: PostgresStore) -> None:
    """Every tenant's documents with their stored vectors (no re-embedding), and the meta."""
    for tenant in source.tenants():
        index = source.dense_index(tenant)
        vectors = dict(zip(index.chunk_ids, index.matrix, strict=True))
        routing = source.routing_index(tenant)
        routes = dict(zip(routing.document_ids, routing.matrix, strict=True))
        for document in source.list_documents(tenant):
            for version in source.versions(tenant, document.document_id):
                chunks = source.chunks(tenant, document.document_id, version.content_hash)
                matrix = np.vstack([vectors[c.chunk_id] for c in chunks]) if chunks else None
                target.write_version(
                    document,
                    version,
                    chunks,
                    matrix,
                    routes.get(document.document_id),
                    expected_current=None,
                )
    for key in ("embedder", "embedder_dim", "eval_fingerprint"):
        value = source.get_meta(key)
        if value is not None:
            target.set_meta(key, value)
    source.close()
    target.close()


def _direct_dense(url: str) -> None:
    """``search_dense`` on real MiniLM vectors: nDCG@10, and HNSW recall@20 against exact."""
    from pincite.embed.default import default_embedder
    from pincite.eval.beir import load_beir
    from pincite.eval.metrics import mean, ndcg_at_k

    dataset = load_beir(SCIFACT, "test")
    embedder = default_embedder()
    qids = dataset.evaluable_query_ids()
    vectors = [embedder.embed_query(dataset.queries[q]) for q in qids]
    exact: list[list[str]] = []
    rows = []
    configs: list[tuple[str, dict[str, Any]]] = [
        ("exact", {}),
        *((f"HNSW ef_search={ef}", {"exact_limit": 0, "ef_search": ef}) for ef in (40, 100)),
    ]
    for name, options in configs:
        store = PostgresStore(url, **options)
        scores, recalls, latency = [], [], []
        for i, (qid, qv) in enumerate(zip(qids, vectors, strict=True)):
            t = time.perf_counter()
            hits = [c for c, _ in store.search_dense("eval", qv, 100)]
            latency.append((time.perf_counter() - t) * 1000)
            if name == "exact":
                exact.append(hits)
            recalls.append(len(set(hits[:20]) & set(exact[i][:20])) / max(1, len(exact[i][:20])))
            chunks = store.chunks_by_id("eval", hits)
            docs = store.documents_by_id("eval", list({c.document_id for c in chunks.values()}))
            ranked = list(dict.fromkeys(docs[chunks[c].document_id].uri for c in hits))
            scores.append(ndcg_at_k(ranked, dataset.qrels[qid], 10))
        rows.append(
            (f"search_dense {name}", _fmt(mean(scores)), _fmt(mean(recalls)), *_pct(latency))
        )
        store.close()
    _table(
        ["postgres, dense without routing", "nDCG@10", "recall@20 vs exact", "p50 ms", "p95 ms"],
        rows,
        "SciFact through search_dense (k=100)",
    )


def _filtered_dense(source_url: str, url: str, tenants: int = 50) -> None:
    """SciFact's MiniLM vectors dealt over ``tenants`` tenants: filtered recall on real vectors.

    Each query searches the tenant holding its first relevant document (about
    2% of the index), through HNSW with the tenant filter in the scan.
    """
    from pincite.embed.default import default_embedder
    from pincite.eval.beir import load_beir

    source, target = PostgresStore(source_url), PostgresStore(url)
    index = source.dense_index("eval")
    vectors = dict(zip(index.chunk_ids, index.matrix, strict=True))
    home: dict[str, str] = {}
    for n, document in enumerate(source.list_documents("eval")):
        tenant = home[document.uri] = f"t{n % tenants:02d}"
        current = source.current_hash("eval", document.document_id)
        version = source.version("eval", document.document_id, (current or "")[:16])
        if version is None:
            continue
        chunks = source.chunks("eval", document.document_id, version.content_hash)
        moved = [replace(c, tenant=tenant) for c in chunks]
        matrix = np.vstack([vectors[c.chunk_id] for c in chunks]) if chunks else None
        target.write_version(
            replace(document, tenant=tenant),
            replace(version, tenant=tenant),
            moved,
            matrix,
            None,
            expected_current=None,
        )
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    dataset = load_beir(SCIFACT, "test")
    embedder = default_embedder()
    rows = []
    for ef in (40, 100):
        hnsw = PostgresStore(url, exact_limit=0, ef_search=ef)
        recalls, latency = [], []
        for qid in dataset.evaluable_query_ids():
            tenant = home[next(iter(dataset.qrels[qid]))]
            qv = embedder.embed_query(dataset.queries[qid])
            exact = target.dense_index(tenant)
            order = np.argsort(-(exact.matrix @ qv), kind="stable")[:20]
            truth = {exact.chunk_ids[i] for i in order}
            t = time.perf_counter()
            found = {c for c, _ in hnsw.search_dense(tenant, qv, 20)}
            latency.append((time.perf_counter() - t) * 1000)
            recalls.append(len(found & truth) / len(truth))
        rows.append((f"HNSW ef_search={ef}", _fmt(statistics.mean(recalls)), *_pct(latency)))
        hnsw.close()
    _table(
        ["search_dense, tenant filter", "recall@20", "p50 ms", "p95 ms"],
        rows,
        f"SciFact vectors over {tenants} tenants: filtered HNSW recall vs exact",
    )
    source.close()
    target.close()


# -- helpers --------------------------------------------------------------------


def _database(url: str, name: str, *, keep: bool = False) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not (keep and exists):
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def _unit(m: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    return np.asarray(m / np.linalg.norm(m, axis=1, keepdims=True), dtype=np.float32)


def _pct(values: list[float]) -> tuple[str, str]:
    return f"{np.percentile(values, 50):.1f}", f"{np.percentile(values, 95):.1f}"


def _ms(r: ModeResult) -> tuple[str, str]:
    return f"{r.latency_p50_ms:.1f}", f"{r.latency_p95_ms:.1f}"


def _fmt(x: float) -> str:
    return f"{x:.4f}"


def _table(header: list[str], rows: Sequence[tuple[object, ...]], title: str) -> None:
    widths = [max(len(str(r[i])) for r in [tuple(header), *rows]) for i in range(len(header))]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))


if __name__ == "__main__":
    main()
