"""Ingest chunks/s through the library's own ingest path, per embedder.

Two corpora: the shared long documents (``../shared/data/documents``: seven
PDFs and text files, ingested as ``pincite ingest`` does) and the first N
SciFact abstracts, each a document ingested with ``Corpus.ingest_text``,
committed 256 (or a second's worth) to a ``Corpus.batch()`` as a folder is.
Both go as ``pincite ingest`` goes: every text committed first (searchable by
its words), then the vectors.
Each run writes a fresh SQLite file in a temporary folder and uses
onnxruntime with one thread per CPU, as the CLI does.

    PYTHONPATH=src .venv/bin/python benchmarks/ingest_speed.py \\
        [--embedder default minilm-float none] [--corpus documents scifact] [--scifact 10000]

Prints wall-clock chunks/s, chunks per CPU-second (all threads of the
process and its parser subprocesses; it moves less than wall time when
other work shares the machine)
and the share of wall time spent inside ``embed_documents``. The model is
loaded before the clock starts. Numbers depend on what else the machine is
doing: the load average is printed at the start and end of each run.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from shared_data import DATA

import pincite
from pincite.embed.base import Embedder, Vectors
from pincite.ingest.batches import in_batches
from pincite.ingest.embedding import embed_pending
from pincite.ingest.pipeline import IngestReport, IngestStatus
from pincite.settings import EmbedderSettings
from pincite.tenancy import DEFAULT_TENANT


class Timed:
    """An embedder that adds up the wall time spent in it."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.seconds = inner, 0.0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        start = time.perf_counter()
        try:
            return self.inner.embed_documents(texts)
        finally:
            self.seconds += time.perf_counter() - start

    def embed_query(self, text: str) -> Vectors:
        return self.inner.embed_query(text)


def cpu_seconds() -> float:
    """CPU time of this process's threads and of its finished children (PDFs parse in one)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def scifact(n: int) -> list[tuple[str, str, str]]:
    """(id, title, text) of the first ``n`` SciFact abstracts."""
    out = []
    with gzip.open(DATA / "scifact" / "corpus.jsonl.gz", "rt", encoding="utf-8") as f:
        for _, line in zip(range(n), f, strict=False):
            doc = json.loads(line)
            out.append((str(doc["_id"]), doc["title"], doc["text"]))
    return out


def ingest(
    corpus: pincite.Corpus, name: str, abstracts: list[tuple[str, str, str]]
) -> list[IngestReport]:
    """As ``pincite ingest`` does: every text committed first (in batches), then vectors."""
    if name == "documents":
        reports = list(corpus.ingest_paths([DATA / "documents"], embed=False))
    else:
        # Committed as the CLI commits a folder: 256 documents (or a second) a batch.
        reports = list(
            in_batches(
                abstracts,
                lambda doc: doc,
                lambda doc: corpus.ingest_text(
                    doc[2], uri=f"scifact:{doc[0]}", title=doc[1], embed=False
                ),
                corpus.batch,
            )
        )
    if corpus.embedder is not None:
        embed_pending(corpus.store, corpus.embedder, DEFAULT_TENANT)
    return reports


def run(corpus_name: str, spec: str, n_scifact: int) -> dict[str, float | str]:
    built = EmbedderSettings(spec).build()  # one thread per CPU, as the CLI
    embedder = Timed(built) if built is not None else None
    if embedder is not None:
        embedder.embed_query("warm up")  # load (and derive) the model before the clock
    # Reading the dataset's gzipped JSON is the benchmark's work, not ingest's.
    abstracts = scifact(n_scifact) if corpus_name == "scifact" else []
    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="pincite-ingest-speed-") as tmp:
        corpus = pincite.open(Path(tmp) / "bench.db", embedder=embedder)
        with corpus:
            start, cpu = time.perf_counter(), cpu_seconds()
            reports = ingest(corpus, corpus_name, abstracts)
            wall, cpu_s = time.perf_counter() - start, cpu_seconds() - cpu
    failed = [r for r in reports if r.status is IngestStatus.FAILED]
    if failed:
        raise SystemExit(f"{len(failed)} inputs failed, e.g. {failed[0].source}: {failed[0].error}")
    chunks = sum(r.chunks for r in reports)
    return {
        "corpus": corpus_name,
        "embedder": spec,
        "documents": len(reports),
        "chunks": chunks,
        "wall_s": wall,
        "chunks_per_s": chunks / wall,
        "chunks_per_cpu_s": chunks / cpu_s,
        "embed_share": (embedder.seconds / wall) if embedder is not None else 0.0,
        "load": f"{load_start:.1f}-{os.getloadavg()[0]:.1f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", nargs="+", default=["default", "none"])
    parser.add_argument("--corpus", nargs="+", choices=["documents", "scifact"])
    parser.add_argument("--scifact", type=int, default=10_000, help="abstracts (max 5,183)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write every run here")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; {args.repeats} run(s) per cell, best and median shown")
    header = ("corpus", "embedder", "docs", "chunks", "best ch/s", "median ch/s", "ch/CPU-s")
    print("  ".join(f"{h:>16}" for h in header) + "  embed share  load")
    rows = []
    for corpus_name in args.corpus or ["documents", "scifact"]:
        for spec in args.embedder:
            runs = [run(corpus_name, spec, args.scifact) for _ in range(args.repeats)]
            rows += runs
            rates = [float(r["chunks_per_s"]) for r in runs]
            cpu_rate = statistics.median(float(r["chunks_per_cpu_s"]) for r in runs)
            share = statistics.median(float(r["embed_share"]) for r in runs)
            first = runs[0]
            print(
                f"{corpus_name:>16}  {spec:>16}  {first['documents']:>16}  {first['chunks']:>16}  "
                f"{max(rates):>16.1f}  {statistics.median(rates):>16.1f}  {cpu_rate:>16.1f}  "
                f"{share:>11.0%}  {' '.join(str(r['load']) for r in runs)}",
                flush=True,
            )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
