"""pincite at 10k → 100k → 1M chunks over 100 tenants, on SQLite and on PostgreSQL.

    .venv/bin/python benchmarks/bench_million.py --sizes 10000 100000 1000000 \
        --backends sqlite postgres

Each (backend, size) runs in a fresh subprocess (so its peak memory is its
own) against a fresh database, and its result is merged into
``benchmarks/results/million.json``; the markdown table and the log-log plot
(``million.md``, ``million.png``) are rewritten after every run, so sizes that
finish are kept when a larger one does not. ``--report`` only re-renders them.

Data: documents of ten ~1,000-character paragraphs (one chunk each, cut by
pincite's own chunker through the bulk ingest path), words drawn from SciFact's
vocabulary at their corpus frequencies. Vectors: 1,024 real SciFact abstracts
through the default (quantised MiniLM) embedder, each chunk one of them plus
Gaussian noise (cosine ≈ 0.89 to its source), routing vectors the mean of a
document's chunks. Queries: SciFact claims through the same embedder, each
asked of a random tenant; their embedding is timed by bench_query_peers.py and
left out here.

Steps and what each measures:
1. lexical ingest (no embedder) through ``store_many``: chunks/s, size/chunk;
2. vectors added with ``Store.replace_vectors``; on PostgreSQL with the HNSW
   index dropped, then ``VACUUM FULL`` and one bulk HNSW build (timed), as a
   bulk load should be done (per-row HNSW insertion runs ~170 chunks/s here);
3. every tenant's caches warmed, then ``retrieve`` k=10 p50/p95 per mode with
   the default options;
4. PostgreSQL: tenant-filtered recall@20 of pgvector HNSW (ef_search 40 and
   100, forced with ``exact_limit=0``) against exact search of the same tenant.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import re
import resource
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from million_report import render  # noqa: E402
from shared_data import DATA as SHARED_DATA  # noqa: E402

from pincite.eval.beir import BeirDoc  # noqa: E402
from pincite.eval.bulk import store_many  # noqa: E402
from pincite.retrieve.search import SearchMode, SearchOptions, retrieve  # noqa: E402
from pincite.store.base import Store  # noqa: E402

SHARED = SHARED_DATA / "scifact"
RESULTS = ROOT / "benchmarks" / "results"
PARAGRAPHS = 10
WORDS_PER_PARAGRAPH = 140
BASE_VECTORS = 1024
NOISE = 0.5  # of a unit vector's length: cosine 1 / sqrt(1 + 0.25) ≈ 0.89 to the source
DIM = 384


# -- data -------------------------------------------------------------------------


def _corpus() -> list[dict[str, str]]:
    with gzip.open(SHARED / "corpus.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def vocabulary() -> tuple[list[str], np.ndarray]:
    counts: Counter[str] = Counter()
    for row in _corpus():
        counts.update(w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]+", row["text"]))
    words = [w for w, c in counts.items() if c >= 2]
    freq = np.array([counts[w] for w in words], dtype=np.float64)
    return words, freq / freq.sum()


def tenant_documents(
    tenant: str, n_docs: int, words: list[str], p: np.ndarray, rng: np.random.Generator
) -> list[BeirDoc]:
    """``n_docs`` documents of ``PARAGRAPHS`` paragraphs of frequency-sampled words."""
    per_doc = PARAGRAPHS * WORDS_PER_PARAGRAPH
    drawn = rng.choice(len(words), size=(n_docs, per_doc), p=p)
    lengths = rng.integers(8, 20, size=per_doc)  # sentence lengths
    docs = []
    for i in range(n_docs):
        row = [words[j] for j in drawn[i]]
        paragraphs, pos = [], 0
        for _ in range(PARAGRAPHS):
            sentences, end = [], pos + WORDS_PER_PARAGRAPH
            while pos < end:
                n = min(int(lengths[pos % per_doc]), end - pos)
                sentences.append(" ".join(row[pos : pos + n]).capitalize() + ".")
                pos += n
            paragraphs.append(" ".join(sentences))
        title = " ".join(row[:6]).title()
        docs.append(BeirDoc(f"{tenant}/doc-{i}", title, "\n\n".join(paragraphs)))
    return docs


def real_vectors(workdir: Path) -> tuple[np.ndarray, list[str], np.ndarray]:
    """(base vectors, claims, claim vectors), embedded once and cached in ``workdir``."""
    cache = workdir / "vectors.npz"
    claims = [json.loads(line)["text"] for line in (SHARED / "queries.jsonl").open()][:400]
    if not cache.exists():
        from pincite.embed.default import default_embedder

        embedder = default_embedder()
        texts = [r["title"] + ". " + r["text"][:1000] for r in _corpus()[:BASE_VECTORS]]
        base = embedder.embed_documents(texts)
        queries = np.vstack([embedder.embed_query(c) for c in claims])
        np.savez(cache, base=base, queries=queries)
    loaded = np.load(cache)
    return loaded["base"], claims, loaded["queries"]


def _unit(m: np.ndarray) -> np.ndarray:
    return np.asarray(m / np.linalg.norm(m, axis=-1, keepdims=True), dtype=np.float32)


class Precomputed:
    """The claims' vectors, embedded beforehand (query embedding is not timed here)."""

    name = "minilm-quantized"
    dim = DIM

    def __init__(self, vectors: dict[str, np.ndarray]) -> None:
        self._vectors = vectors

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.vstack([self._vectors[t] for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._vectors[text]


# -- one run ----------------------------------------------------------------------


def run_one(
    backend: str, size: int, tenants: int, url: str | None, workdir: Path
) -> dict[str, Any]:
    rng = np.random.default_rng(size)
    words, p = vocabulary()
    base, claims, claim_vectors = real_vectors(workdir)
    names = [f"t{i:03d}" for i in range(tenants)]
    store, db_size = _open(backend, size, url, workdir)
    out: dict[str, Any] = {"backend": backend, "target_chunks": size, "tenants": tenants}

    ingest_s, ingest_cpu, chunks = 0.0, 0.0, 0
    per_tenant = max(1, size // tenants // PARAGRAPHS)
    cpu = _cpu_clock(store)
    for n, tenant in enumerate(names):
        docs = tenant_documents(tenant, per_tenant, words, p, rng)
        t, c = time.perf_counter(), cpu()
        chunks += store_many(store, None, docs, tenant=tenant, batch_documents=128).chunks
        ingest_s += time.perf_counter() - t
        ingest_cpu += cpu() - c
        if (n + 1) % 10 == 0:
            _log(f"{backend} {size}: {n + 1}/{tenants} tenants, {chunks / ingest_s:.0f} chunks/s")
    out.update(chunks=chunks, lexical_ingest_s=ingest_s, lexical_chunks_per_s=chunks / ingest_s)
    out["lexical_chunks_per_cpu_s"] = chunks / ingest_cpu
    out["bytes_per_chunk_lexical"] = db_size() / chunks

    db = _pg_database(url or "", f"million_{size}", False) if backend == "postgres" else None
    t = time.perf_counter()
    _add_vectors(store, db, names, base, rng)
    out["vectors_s"] = time.perf_counter() - t
    if db is not None:
        store.close()  # VACUUM FULL and CREATE INDEX take the table's exclusive lock
        out.update(_pg_bulk_index(db))
    else:
        store.close()
    out["bytes_per_chunk"] = db_size() / chunks
    store, _ = _open(backend, size, url, workdir, fresh=False)

    t = time.perf_counter()
    for tenant in names:
        store.dense_index(tenant)
        store.routing_index(tenant)
    out["warm_caches_s"] = time.perf_counter() - t
    qrng = np.random.default_rng(1)
    asked = [(i, names[int(qrng.integers(tenants))]) for i in range(len(claims))]
    embedder = Precomputed(dict(zip(claims, claim_vectors, strict=True)))
    out["latency_ms"], out["cpu_ms_per_query"] = {}, {}
    cpu = _cpu_clock(store)
    for mode in SearchMode:
        opts = replace(SearchOptions(), mode=mode)
        for i, tenant in asked[:20]:
            retrieve(store, embedder, claims[i], tenant=tenant, k=10, options=opts)
        times = []
        c = cpu()
        for i, tenant in asked:
            t = time.perf_counter()
            retrieve(store, embedder, claims[i], tenant=tenant, k=10, options=opts)
            times.append((time.perf_counter() - t) * 1000)
        out["cpu_ms_per_query"][mode.value] = (cpu() - c) * 1000 / len(asked)
        out["latency_ms"][mode.value] = _pct(times)
    if backend == "postgres" and url is not None:
        out["hnsw"] = _hnsw_recall(store, url, asked, claim_vectors)
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    store.close()
    return out


def _cpu_clock(store: Any) -> Any:
    """CPU seconds so far of this process and, on PostgreSQL, of the store's server backend.

    Steadier than wall time on a shared machine: other work delays a run but
    does not add to its CPU time.
    """
    if not hasattr(store, "ef_search"):
        return time.process_time
    import psutil

    backend = psutil.Process(int(store._query("SELECT pg_backend_pid()")[0][0]))

    def clock() -> float:
        used = backend.cpu_times()
        return time.process_time() + used.user + used.system

    return clock


def _open(backend: str, size: int, url: str | None, workdir: Path, fresh: bool = True) -> Any:
    if backend == "sqlite":
        from pincite.store.sqlite import SQLiteStore

        path = workdir / f"million-{size}.db"
        if fresh:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        return SQLiteStore(path), lambda: _sqlite_bytes(path)
    from pincite.store.postgres import PostgresStore

    assert url is not None
    db = _pg_database(url, f"million_{size}", fresh)
    return PostgresStore(db), lambda: _pg_bytes(db)


def _add_vectors(
    store: Store, pg_url: str | None, names: list[str], base: np.ndarray, rng: Any
) -> None:
    """Give every chunk a replicated real vector, every document the mean of its chunks.

    On PostgreSQL the HNSW index is dropped first (the store still believes it
    exists, so does not recreate it) and built once afterwards.
    """
    pg = pg_url is not None
    if pg_url is not None:
        import psycopg

        from pincite.store.postgres.migrations import dense_index_name

        store._ensure_dims(np.zeros((1, DIM), np.float32))  # type: ignore[attr-defined]
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f"DROP INDEX IF EXISTS {dense_index_name(DIM)}".encode())
    sql = "SELECT chunk_id, document_id FROM chunks WHERE tenant = {} ORDER BY chunk_id"
    sql = sql.format("%s" if pg else "?")
    for tenant in names:
        rows = store._query(sql, (tenant,))  # type: ignore[attr-defined]
        picks = rng.integers(len(base), size=len(rows))
        noise = rng.standard_normal((len(rows), DIM)).astype(np.float32)
        vectors = _unit(base[picks] + NOISE * noise / np.sqrt(DIM))
        by_doc: dict[str, list[int]] = {}
        for i, (_, doc) in enumerate(rows):
            by_doc.setdefault(doc, []).append(i)
        routing = {d: _unit(vectors[ix].mean(axis=0)) for d, ix in by_doc.items()}
        store.replace_vectors(tenant, {c: vectors[i] for i, (c, _) in enumerate(rows)}, routing)


def _pg_bulk_index(db: str) -> dict[str, float]:
    """Rewrite the updated table, then build the HNSW index in one pass (timed)."""
    import psycopg

    from pincite.store.postgres.migrations import ensure_dense_index

    out = {}
    with psycopg.connect(db, autocommit=True) as conn:
        t = time.perf_counter()
        conn.execute("VACUUM FULL chunks")
        out["vacuum_full_s"] = time.perf_counter() - t
        conn.execute("SET maintenance_work_mem = '3GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        t = time.perf_counter()
        ensure_dense_index(conn, DIM)
        out["hnsw_build_s"] = time.perf_counter() - t
        conn.execute("VACUUM ANALYZE")
    return out


def store_db_name(store: Any) -> str:
    return str(store._query("SELECT current_database()")[0][0])


def _hnsw_recall(
    store: Store, url: str, asked: list[tuple[int, str]], vectors: np.ndarray
) -> dict[str, Any]:
    from pincite.store.postgres import PostgresStore

    db = _pg_database(url, store_db_name(store), False)
    truth: list[set[str]] = []
    for i, tenant in asked:
        index = store.dense_index(tenant)
        order = np.argsort(-(index.matrix @ vectors[i]), kind="stable")[:20]
        truth.append({index.chunk_ids[j] for j in order})
    out = {}
    for ef in (40, 100):
        hnsw = PostgresStore(db, exact_limit=0, ef_search=ef)
        recalls, times = [], []
        for (i, tenant), want in zip(asked, truth, strict=True):
            t = time.perf_counter()
            found = {c for c, _ in hnsw.search_dense(tenant, vectors[i], 20)}
            times.append((time.perf_counter() - t) * 1000)
            recalls.append(len(found & want) / max(1, len(want)))
        out[f"ef{ef}"] = {"recall_at_20": float(np.mean(recalls)), "ms": _pct(times)}
        hnsw.close()
    return out


def _sqlite_bytes(path: Path) -> int:
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        pages, free, size = (
            conn.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("page_count", "freelist_count", "page_size")
        )
    finally:
        conn.close()
    return int((pages - free) * size)


def _pg_database(url: str, name: str, fresh: bool) -> str:
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    if fresh:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def _pg_bytes(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
    return int(row[0]) if row else 0


def _pct(values: list[float]) -> dict[str, float]:
    return {"p50": float(np.percentile(values, 50)), "p95": float(np.percentile(values, 95))}


def _log(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


# -- driver -----------------------------------------------------------------------


def _server() -> Iterator[str]:
    spec = importlib.util.spec_from_file_location("pg", ROOT / "tests/store/pg_embedded.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules["pg"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    server = module.start()
    try:
        yield server.url()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--tenants", type=int, default=100)
    parser.add_argument("--db", help="a postgresql:// server URL (default: a throwaway one)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pincite-million"))
    parser.add_argument("--json", type=Path, default=RESULTS / "million.json")
    parser.add_argument("--report", action="store_true", help="only re-render md and png")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.one:
        backend, size = args.one[0], int(args.one[1])
        print(json.dumps(run_one(backend, size, args.tenants, args.db, args.workdir)))
        return
    if args.report:
        render(args.json)
        return
    real_vectors(args.workdir)  # embed once, before any timing
    servers = _server() if "postgres" in args.backends and args.db is None else None
    url = next(servers) if servers is not None else args.db
    try:
        for backend in args.backends:
            for size in args.sizes:
                _log(f"{backend} {size} chunks over {args.tenants} tenants")
                cmd = [sys.executable, __file__, "--one", backend, str(size)]
                cmd += ["--tenants", str(args.tenants), "--workdir", str(args.workdir)]
                if backend == "postgres":
                    cmd += ["--db", str(url)]
                done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
                if done.returncode != 0:
                    _log(f"{backend} {size} failed (exit {done.returncode})")
                    continue
                result = json.loads(done.stdout.strip().splitlines()[-1])
                result["load_average"] = os.getloadavg()
                result["measured_at"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
                _merge(args.json, result)
                render(args.json)
    finally:
        if servers is not None:
            servers.close()


def _merge(path: Path, result: dict[str, Any]) -> None:
    results = json.loads(path.read_text()) if path.exists() else []
    key = (result["backend"], result["target_chunks"])
    results = [r for r in results if (r["backend"], r["target_chunks"]) != key] + [result]
    results.sort(key=lambda r: (r["backend"], r["target_chunks"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
