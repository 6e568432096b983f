"""The whole query path at 100k chunks over 50 tenants, beside bm25s and LanceDB hybrid.

    .venv/bin/python benchmarks/bench_query_peers.py [--chunks 100000 --tenants 50]

One process, one corpus, three systems, k = 10, every query restricted to one
tenant:

- **pincite**: embed the question (the default quantised MiniLM, one thread,
  as a server runs it) → hybrid ``retrieve`` (default options: routing, BM25
  and dense, convex fusion, dedup) → ``cite`` → ``check_grounding`` of a
  three-claim answer against the store. Timed end to end and per stage.
- **bm25s** (lexical only): tokenise + BM25 top-k with the tenant as a
  ``weight_mask`` (its documented way to restrict a search).
- **LanceDB hybrid**: the same question embedding, then its native FTS
  (BM25) + flat vector search, both prefiltered by tenant (BITMAP index), fused
  with its default RRF reranker; timed with and without the embedding.

Same data everywhere: the chunk texts (``embed_text``) and vectors are read
back from pincite's store. Corpus: bench_retrieval.py's SciFact-sentence
documents. Vectors: real MiniLM vectors of 1,024 SciFact abstracts, each chunk
one of them plus noise (bench_million.py); questions are SciFact claims
through the real embedder, each to a random tenant. The three systems run
interleaved query by query (rotating order), so machine load hits them alike.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_million import DIM, NOISE, _unit, real_vectors  # noqa: E402
from bench_retrieval import build_documents, scifact  # noqa: E402

from pincite.citation import CitedAnswer, Claim  # noqa: E402
from pincite.eval.bulk import store_many  # noqa: E402
from pincite.ground.cite import check_grounding, cite  # noqa: E402
from pincite.retrieve.search import SearchMode, SearchOptions, retrieve  # noqa: E402
from pincite.store.sqlite import SQLiteStore  # noqa: E402


class Replicated:
    """Real MiniLM vectors, replicated with noise, for bulk indexing only."""

    name = "minilm-quantized"
    dim = DIM

    def __init__(self, base: np.ndarray, seed: int) -> None:
        self._base, self._rng = base, np.random.default_rng(seed)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        picks = self._rng.integers(len(self._base), size=len(texts))
        noise = self._rng.standard_normal((len(texts), DIM)).astype(np.float32)
        return _unit(self._base[picks] + NOISE * noise / np.sqrt(DIM))

    def embed_query(self, text: str) -> np.ndarray:
        raise AssertionError("queries use the real embedder")


class Given:
    """Hands ``retrieve`` the question vector the caller just computed (and timed)."""

    name = Replicated.name
    dim = DIM
    vector: np.ndarray

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        raise AssertionError("not for documents")

    def embed_query(self, text: str) -> np.ndarray:
        return self.vector


def build_store(path: Path, chunks: int, tenants: int, base: np.ndarray) -> int:
    store = SQLiteStore(path)
    by_tenant: dict[str, list[Any]] = {}
    for tenant, doc in build_documents(chunks, tenants, random.Random(7)):
        by_tenant.setdefault(tenant, []).append(doc)
    embedder = Replicated(base, 7)
    n = sum(store_many(store, embedder, d, tenant=t).chunks for t, d in by_tenant.items())
    store.close()
    return n


def corpus_rows(store: SQLiteStore) -> tuple[list[str], list[str], list[str], np.ndarray]:
    """(chunk ids, tenants, embed texts, vectors) of every searchable chunk."""
    rows = store._query("SELECT chunk_id, tenant, embed_text, vector FROM chunks ORDER BY rowid")
    vectors = np.vstack([np.frombuffer(r[3], dtype=np.float32) for r in rows])
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], vectors


def pincite_path(store: SQLiteStore, embed: Callable[[str], np.ndarray]) -> Callable[..., Any]:
    given = Given()

    def ask(claim: str, tenant: str) -> tuple[float, float, float]:
        t0 = time.perf_counter()
        given.vector = embed(claim)
        t1 = time.perf_counter()
        result = retrieve(store, given, claim, tenant=tenant, k=10)
        t2 = time.perf_counter()
        retrieved = cite(result)
        used = retrieved.citations[:3]
        answer = CitedAnswer(
            tuple(Claim(f"claim {i}", (c.citation_id,)) for i, c in enumerate(used)), used
        )
        check_grounding(answer, retrieved, store=store)
        t3 = time.perf_counter()
        return t1 - t0, t2 - t1, t3 - t2

    return ask


def bm25s_path(
    texts: list[str], tenants: list[str], saved: Path | None
) -> Callable[[str, str], None]:
    import bm25s

    try:
        import Stemmer  # PyStemmer, bm25s's usual stemmer

        stem: Any = Stemmer.Stemmer("english").stemWords
    except ImportError:
        import snowballstemmer

        stem = snowballstemmer.stemmer("english").stemWords
    names = np.array(tenants)
    masks = {t: (names == t).astype(np.float32) for t in set(tenants)}
    if saved is not None and saved.exists():
        model = bm25s.BM25.load(saved)
    else:
        model = bm25s.BM25()
        model.index(bm25s.tokenize(texts, stemmer=stem, show_progress=False), show_progress=False)
        if saved is not None:
            model.save(saved)

    def ask(claim: str, tenant: str) -> None:
        query = bm25s.tokenize([claim], stemmer=stem, show_progress=False)
        model.retrieve(query, k=10, weight_mask=masks[tenant], show_progress=False, n_threads=1)

    return ask


def lancedb_path(
    folder: Path, ids: list[str], tenants: list[str], texts: list[str], vectors: np.ndarray
) -> Callable[[str, str, np.ndarray], Any]:
    import lancedb

    if (folder / "built").exists():
        return _lance_ask(lancedb.connect(folder).open_table("chunks"))
    import pyarrow as pa
    from lancedb.index import FTS, Bitmap

    flat = pa.array(vectors.astype(np.float32).ravel())
    table = lancedb.connect(folder).create_table(
        "chunks",
        pa.table(
            {
                "chunk_id": ids,
                "tenant": tenants,
                "text": texts,
                "vector": pa.FixedSizeListArray.from_arrays(flat, DIM),
            }
        ),
    )
    table.create_index("text", config=FTS())
    table.create_index("tenant", config=Bitmap())
    (folder / "built").touch()
    return _lance_ask(table)


def _lance_ask(table: Any) -> Callable[[str, str, np.ndarray], Any]:
    def ask(claim: str, tenant: str, vector: np.ndarray) -> Any:
        return (
            table.search(query_type="hybrid")
            .vector(vector)
            .text(claim)
            .where(f"tenant = '{tenant}'", prefilter=True)
            .limit(10)
            .to_list()
        )

    return ask


def run(args: argparse.Namespace) -> dict[str, Any]:
    from pincite.embed.default import default_embedder

    base, _, _ = real_vectors(args.workdir)
    embedder = default_embedder(threads=1)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="pincite-peers-") as tmp:
        folder = args.workdir / f"peers-{args.chunks}-{args.tenants}" if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / "peers.db"
        t = time.perf_counter()
        if not (folder / "built").exists():  # nothing kept, or an interrupted build
            db.unlink(missing_ok=True)
            shutil.rmtree(folder / "bm25s", ignore_errors=True)
            shutil.rmtree(folder / "lance", ignore_errors=True)
            build_store(db, args.chunks, args.tenants, base)
        _log(f"pincite store in {time.perf_counter() - t:.0f} s")
        store = SQLiteStore(db)
        ids, tenants, texts, vectors = corpus_rows(store)
        out["chunks"] = len(ids)
        t = time.perf_counter()
        bm25 = bm25s_path(texts, tenants, folder / "bm25s" if args.keep else None)
        out["bm25s_index_s"] = time.perf_counter() - t
        t = time.perf_counter()
        lance = lancedb_path(folder / "lance", ids, tenants, texts, vectors)
        (folder / "built").touch()
        out["lancedb_index_s"] = time.perf_counter() - t
        _log(f"bm25s {out['bm25s_index_s']:.0f} s, LanceDB {out['lancedb_index_s']:.0f} s")
        del ids, texts, vectors

        _, claims = scifact()
        rng = random.Random(11)
        names = sorted(set(tenants))
        asked = [(rng.choice(claims), rng.choice(names)) for _ in range(args.queries + 30)]
        ask = pincite_path(store, embedder.embed_query)
        for t_name in names:  # every tenant's caches, as a running server has them
            store.dense_index(t_name)
            store.routing_index(t_name)
        times: dict[str, list[float]] = {}
        cpu: dict[str, list[float]] = {}

        def timed(key: str, run: Callable[[], Any]) -> Any:
            """Wall and CPU seconds (every thread of this process: LanceDB uses several)."""
            t, c = time.perf_counter(), time.process_time()
            result = run()
            times.setdefault(key, []).append(time.perf_counter() - t)
            cpu.setdefault(key, []).append(time.process_time() - c)
            return result

        lexical = SearchOptions(mode=SearchMode.LEXICAL)

        def one_pincite(claim: str, tenant: str) -> None:
            e, r, c = timed("pincite", lambda: ask(claim, tenant))
            for key, value in (("embed", e), ("retrieve", r), ("cite_check", c)):
                times.setdefault(key, []).append(value)

        def one_pincite_lexical(claim: str, tenant: str) -> None:
            timed(
                "pincite_lexical",
                lambda: retrieve(store, None, claim, tenant=tenant, k=10, options=lexical),
            )

        def one_bm25s(claim: str, tenant: str) -> None:
            timed("bm25s", lambda: bm25(claim, tenant))

        def one_lance(claim: str, tenant: str) -> None:
            t, c = time.perf_counter(), time.process_time()
            vector = embedder.embed_query(claim)
            timed("lance", lambda: lance(claim, tenant, vector))
            times.setdefault("lance_e2e", []).append(time.perf_counter() - t)
            cpu.setdefault("lance_e2e", []).append(time.process_time() - c)

        systems = [one_pincite, one_pincite_lexical, one_bm25s, one_lance]
        for i, (claim, tenant) in enumerate(asked):
            if i == 30:  # the first 30 warm every system up
                times.clear()
                cpu.clear()
            for s in systems[i % 4 :] + systems[: i % 4]:
                s(claim, tenant)
        out["cpu_ms"] = {k: float(np.mean(v)) * 1000 for k, v in cpu.items()}
        out["ms"] = {k: _pct(v) for k, v in times.items()}
        out["queries"] = args.queries
        if args.profile:
            out["profile"] = _profile(ask, asked[: args.queries])
        store.close()
    return out


def _profile(ask: Callable[..., Any], asked: list[tuple[str, str]]) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for claim, tenant in asked:
        ask(claim, tenant)
    profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(40)
    return text.getvalue()


def _pct(seconds: list[float]) -> dict[str, float]:
    ms = np.array(seconds) * 1000
    return {"p50": float(np.percentile(ms, 50)), "p95": float(np.percentile(ms, 95))}


def _log(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def table(out: dict[str, Any]) -> str:
    ms = out["ms"]

    cpu = out["cpu_ms"]

    def row(name: str, key: str, against: str | None = None) -> str:
        p = ms[key]
        r = f"{ms[against]['p50'] / p['p50']:.2f}" if against else ""
        c = f"{cpu[key]:.2f}" if key in cpu else ""
        rc = f"{cpu[against] / cpu[key]:.2f}" if against in cpu and key in cpu else ""
        return f"| {name} | {p['p50']:.2f} | {p['p95']:.2f} | {r} | {c} | {rc} |"

    return "\n".join(
        [
            f"| {out['chunks']:,} chunks, {out['tenants']} tenants, k = 10,"
            f" {out['queries']} queries | p50 ms | p95 ms | pincite / this (p50)"
            " | CPU ms per query | pincite / this (CPU) |",
            "|---|---|---|---|---|---|",
            row("**pincite**: embed + hybrid retrieve + cite + check", "pincite"),
            row("  of which: embed the question", "embed"),
            row("  of which: hybrid retrieve", "retrieve"),
            row("  of which: cite + check_grounding", "cite_check"),
            row("LanceDB hybrid (FTS + vector, RRF) + the same embedding", "lance_e2e", "pincite"),
            row("LanceDB hybrid search alone (no embedding)", "lance", "retrieve"),
            row("pincite lexical retrieve (k = 10, no embedding)", "pincite_lexical"),
            row("bm25s, lexical only (tokenise + top-k, tenant mask)", "bm25s", "pincite"),
            row("bm25s against pincite's lexical retrieve", "bm25s", "pincite_lexical"),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--tenants", type=int, default=50)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pincite-million"))
    parser.add_argument(
        "--keep", action="store_true", help="keep the built indexes in --workdir and reuse them"
    )
    parser.add_argument("--profile", action="store_true", help="cProfile pincite's path too")
    parser.add_argument("--out", type=Path, help="also write the markdown table here")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    out = run(args)
    out["tenants"] = args.tenants
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    import bm25s
    import lancedb

    text = (
        f"{table(out)}\n\nbm25s {bm25s.__version__}, LanceDB {lancedb.__version__};"
        f" index build (or load, with --keep): bm25s {out['bm25s_index_s']:.0f} s, LanceDB"
        f" {out['lancedb_index_s']:.0f} s. Load average (1/5/15 min) {load},"
        f" {os.cpu_count()} CPUs.\n"
    )
    print(text)
    if args.profile:
        print(out["profile"])
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
