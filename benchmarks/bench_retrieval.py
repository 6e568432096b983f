"""Ingest throughput, query latency and memory of pincite retrieval, beside bm25s.

    .venv/bin/python benchmarks/bench_retrieval.py --chunks 10000 100000 --tenants 50

For each size it builds a corpus of about that many chunks over ``--tenants``
tenants from SciFact sentences (documents of ten ~900-character paragraphs,
cut by pincite's own chunker), once lexical-only and once with vectors, and
measures in a fresh subprocess per size:

- ingest throughput (chunks/s) through the real parse → chunk → write path;
- query latency p50/p95 of ``retrieve`` (k = 10) per mode, *excluding* the
  query embedding, which is timed on its own with the real embedder;
- peak resident memory (``ru_maxrss``) of the process after ingest, after
  pincite's queries (all tenants' vectors cached) and after the bm25s run;
- bm25s (a numpy BM25, the lexical peer) on the same chunk texts, with the
  same tenant restriction (``weight_mask``), against pincite's lexical channel
  at the same depth (k = 100), and the ratio.

Vectors: the real embedder runs at tens of passages/s here, so 100k chunks
would take over an hour. Its throughput is measured on a ``--embed-sample`` of
real chunk texts; the bulk of the vectors are random unit vectors (same shape,
same storage and search cost), and the with-embeddings ingest rate is derived
from the two measured rates. Random vectors have tiny cosines, so the latency
runs disable the dense score floor (``min_dense_score = -1``): every query
fuses full candidate lists, the costlier case.

Other processes on the machine skew timings; the load average is printed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from shared_data import DATA as SHARED_DATA

from pincite.eval.beir import BeirDoc
from pincite.eval.bulk import store_many
from pincite.retrieve.query import query_terms
from pincite.retrieve.search import SearchMode, SearchOptions, retrieve
from pincite.store.sqlite import SQLiteStore

DATA = SHARED_DATA / "scifact"
PARAGRAPHS_PER_DOC = 10
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


class RandomEmbedder:
    """Random unit vectors of the default model's shape, for bulk indexing only."""

    name = "random-unit-384"
    dim = 384

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        m = self._rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        return m / np.linalg.norm(m, axis=1, keepdims=True)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


class Precomputed:
    """Returns query vectors computed (and timed) beforehand."""

    name = RandomEmbedder.name
    dim = 384

    def __init__(self, vectors: dict[str, np.ndarray]) -> None:
        self._vectors = vectors

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.vstack([self._vectors[t] for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._vectors[text]


def scifact() -> tuple[list[tuple[str, list[str]]], list[str]]:
    """(title, sentences) per abstract, and the claims."""
    with gzip.open(DATA / "corpus.jsonl.gz", "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    abstracts = [(r["title"], _SENTENCE.split(" ".join(r["text"].split()))) for r in rows]
    with (DATA / "queries.jsonl").open(encoding="utf-8") as f:
        claims = [json.loads(line)["text"] for line in f]
    return abstracts, claims


def build_documents(
    target_chunks: int, tenants: int, rng: random.Random
) -> list[tuple[str, BeirDoc]]:
    """(tenant, document) pairs: about ``target_chunks`` paragraphs of real sentences."""
    abstracts, _ = scifact()
    docs = []
    for i in range(max(1, target_chunks // PARAGRAPHS_PER_DOC)):
        title = rng.choice(abstracts)[0]
        paragraphs = []
        for _ in range(PARAGRAPHS_PER_DOC):
            _, sentences = rng.choice(abstracts)
            start = rng.randrange(len(sentences))
            words: list[str] = []
            while sum(len(w) + 1 for w in words) < 800:
                words.append(sentences[start % len(sentences)])
                start += 1
            paragraphs.append(" ".join(words)[:1100])
        docs.append((f"t{i % tenants:03d}", BeirDoc(f"doc-{i}", title, "\n\n".join(paragraphs))))
    return docs


def ingest(db: Path, docs: list[tuple[str, BeirDoc]], embedder: Any) -> tuple[float, int]:
    """Seconds and chunks to write every document through ``store_many``."""
    store = SQLiteStore(db)
    by_tenant: dict[str, list[BeirDoc]] = {}
    for tenant, doc in docs:
        by_tenant.setdefault(tenant, []).append(doc)
    start = time.perf_counter()
    chunks = 0
    for tenant, items in by_tenant.items():
        chunks += store_many(store, embedder, items, tenant=tenant, batch_documents=64).chunks
    seconds = time.perf_counter() - start
    store.close()
    return seconds, chunks


def pct(values: list[float]) -> dict[str, float]:
    return {"p50": float(np.percentile(values, 50)), "p95": float(np.percentile(values, 95))}


def run_one(size: int, tenants: int, queries: int, embed_sample: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    docs = build_documents(size, tenants, rng)
    out: dict[str, Any] = {"target_chunks": size, "tenants": tenants, "documents": len(docs)}
    with tempfile.TemporaryDirectory(prefix="pincite-bench-") as tmp:
        lex_s, n_chunks = ingest(Path(tmp) / "lexical.db", docs, None)
        vec_s, _ = ingest(Path(tmp) / "vectors.db", docs, RandomEmbedder(seed))
        out["chunks"] = n_chunks
        out["ingest_lexical_chunks_per_s"] = n_chunks / lex_s
        out["ingest_store_with_vectors_chunks_per_s"] = n_chunks / vec_s
        out["rss_after_ingest_mb"] = _peak_mb()
        del docs

        store = SQLiteStore(Path(tmp) / "vectors.db")
        from pincite.embed.default import default_embedder

        real = default_embedder(threads=1)
        sample = [t for _, _, t in _chunk_texts(store, embed_sample)]
        real.embed_documents(sample[:8])  # load the model outside the timing
        start = time.perf_counter()
        real.embed_documents(sample)
        embed_rate = len(sample) / (time.perf_counter() - start)
        out["embed_passages_per_s_1_thread"] = embed_rate
        # Each chunk is embedded once; routing adds one text per ten chunks.
        per_chunk = 1 / out["ingest_store_with_vectors_chunks_per_s"] + 1.1 / embed_rate
        out["ingest_with_real_embeddings_chunks_per_s_derived"] = 1 / per_chunk

        _, claims = scifact()
        asked = [(rng.choice(claims), f"t{rng.randrange(tenants):03d}") for _ in range(queries)]
        vectors, embed_ms = {}, []
        for claim, _ in asked:
            start = time.perf_counter()
            vectors[claim] = real.embed_query(claim)
            embed_ms.append((time.perf_counter() - start) * 1000)
        out["query_embedding_ms"] = pct(embed_ms)

        start = time.perf_counter()
        for t in range(tenants):
            store.dense_index(f"t{t:03d}")
            store.routing_index(f"t{t:03d}")
        out["load_all_vector_caches_s"] = time.perf_counter() - start
        out["latency_ms"] = _latencies(store, Precomputed(vectors), asked)
        out["lexical_channel_k100_ms"] = _lexical_channel(store, asked)
        out["rss_after_queries_mb"] = _peak_mb()
        out["bm25s"] = _bm25s(_chunk_texts(store), asked)
        out["bm25s"]["ratio_pincite_over_bm25s_p50"] = (
            out["lexical_channel_k100_ms"]["p50"] / out["bm25s"]["query_k100_ms"]["p50"]
        )
        out["peak_rss_mb"] = _peak_mb()
        store.close()
    return out


def _chunk_texts(store: SQLiteStore, limit: int = -1) -> list[tuple[int, str, str]]:
    """(rowid, tenant, embed_text) of the indexed chunks (all by default), in rowid order."""
    rows = store._query(
        "SELECT rowid, tenant, embed_text FROM chunks ORDER BY rowid LIMIT ?", (limit,)
    )
    return [(r[0], r[1], r[2]) for r in rows]


def _latencies(
    store: SQLiteStore, embedder: Precomputed, asked: list[tuple[str, str]]
) -> dict[str, dict[str, float]]:
    base = SearchOptions(min_dense_score=-1.0)
    out = {}
    for mode in SearchMode:
        opts = replace(base, mode=mode)
        for claim, tenant in asked[:10]:  # warm-up
            retrieve(store, embedder, claim, tenant=tenant, k=10, options=opts)
        times = []
        for claim, tenant in asked:
            start = time.perf_counter()
            retrieve(store, embedder, claim, tenant=tenant, k=10, options=opts)
            times.append((time.perf_counter() - start) * 1000)
        out[mode.value] = pct(times)
    return out


def _lexical_channel(store: SQLiteStore, asked: list[tuple[str, str]]) -> dict[str, float]:
    times = []
    for claim, tenant in asked:
        start = time.perf_counter()
        store.search_lexical(tenant, query_terms(claim), 100)
        times.append((time.perf_counter() - start) * 1000)
    return pct(times)


def _bm25s(texts: list[tuple[int, str, str]], asked: list[tuple[str, str]]) -> dict[str, Any]:
    import bm25s

    try:
        import Stemmer  # PyStemmer, bm25s's usual stemmer

        stem: Any = Stemmer.Stemmer("english").stemWords
    except ImportError:
        import snowballstemmer

        stem = snowballstemmer.stemmer("english").stemWords
    tenants = np.array([t for _, t, _ in texts])
    masks = {t: (tenants == t).astype(np.float32) for t in set(tenants.tolist())}
    start = time.perf_counter()
    tokens = bm25s.tokenize([t for _, _, t in texts], stemmer=stem, show_progress=False)
    model = bm25s.BM25()
    model.index(tokens, show_progress=False)
    index_s = time.perf_counter() - start
    times = []
    for claim, tenant in asked:
        start = time.perf_counter()
        query = bm25s.tokenize([claim], stemmer=stem, show_progress=False)
        model.retrieve(query, k=100, weight_mask=masks[tenant], show_progress=False, n_threads=1)
        times.append((time.perf_counter() - start) * 1000)
    return {
        "version": bm25s.__version__,
        "index_chunks_per_s": len(texts) / index_s,
        "query_k100_ms": pct(times),
    }


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def table(results: list[dict[str, Any]]) -> str:
    rows = [
        (
            "chunks / documents / tenants",
            lambda r: f"{r['chunks']} / {r['documents']} / {r['tenants']}",
        ),
        ("ingest, lexical only (chunks/s)", lambda r: f"{r['ingest_lexical_chunks_per_s']:.0f}"),
        (
            "ingest, store with vectors (chunks/s)",
            lambda r: f"{r['ingest_store_with_vectors_chunks_per_s']:.0f}",
        ),
        (
            "real embedder, 1 thread (passages/s)",
            lambda r: f"{r['embed_passages_per_s_1_thread']:.1f}",
        ),
        (
            "ingest with real embeddings (chunks/s, derived)",
            lambda r: f"{r['ingest_with_real_embeddings_chunks_per_s_derived']:.1f}",
        ),
        ("query embedding p50 / p95 (ms)", lambda r: _pp(r["query_embedding_ms"])),
        *[
            (
                f"retrieve {m} k=10 p50 / p95 (ms, no query embedding)",
                lambda r, m=m: _pp(r["latency_ms"][m]),
            )
            for m in ("lexical", "dense", "hybrid")
        ],
        (
            "pincite lexical channel k=100 p50 / p95 (ms)",
            lambda r: _pp(r["lexical_channel_k100_ms"]),
        ),
        ("bm25s k=100, tenant mask, p50 / p95 (ms)", lambda r: _pp(r["bm25s"]["query_k100_ms"])),
        (
            "ratio pincite / bm25s (p50)",
            lambda r: f"{r['bm25s']['ratio_pincite_over_bm25s_p50']:.2f}",
        ),
        ("bm25s index build (chunks/s)", lambda r: f"{r['bm25s']['index_chunks_per_s']:.0f}"),
        ("load all tenants' vector caches (s)", lambda r: f"{r['load_all_vector_caches_s']:.2f}"),
        (
            "peak RSS after ingest / queries / bm25s (MB)",
            lambda r: (
                f"{r['rss_after_ingest_mb']:.0f} / {r['rss_after_queries_mb']:.0f}"
                f" / {r['peak_rss_mb']:.0f}"
            ),
        ),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [" " * width + "".join(f"  {r['target_chunks']:>14}" for r in results)]
    for name, cell in rows:
        lines.append(name.ljust(width) + "".join(f"  {cell(r):>14}" for r in results))
    return "\n".join(lines)


def _pp(d: dict[str, float]) -> str:
    return f"{d['p50']:.2f} / {d['p95']:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--tenants", type=int, default=50)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--embed-sample", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        result = run_one(args.one, args.tenants, args.queries, args.embed_sample, args.seed)
        print(json.dumps(result))
        return
    results = []
    for size in args.chunks:
        print(f"building {size} chunks over {args.tenants} tenants ...", file=sys.stderr)
        cmd = [
            sys.executable,
            __file__,
            "--one",
            str(size),
            "--tenants",
            str(args.tenants),
            "--queries",
            str(args.queries),
            "--embed-sample",
            str(args.embed_sample),
            "--seed",
            str(args.seed),
        ]
        done = subprocess.run(cmd, check=True, capture_output=True, text=True)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(
        f"load average (1/5/15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"{os.cpu_count()} CPUs"
    )
    print("vectors: random unit vectors for the bulk; real-embedder rate measured on a sample")
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
