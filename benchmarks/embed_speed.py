"""Speed of the offline default embedder on real passages.

Indexing throughput (passages/s) and single-query latency at 1 and 2
onnxruntime threads, over SciFact abstracts (title + text, as BEIR indexes
them; most fill the 256-token window) and SciFact claims as queries.

    PYTHONPATH=src .venv/bin/python benchmarks/embed_speed.py [--passages 500] [--queries 100]

Numbers depend on what else the machine is doing: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import time

from shared_data import DATA as SHARED_DATA

from pincite.embed import MiniLMEmbedder

DATA = SHARED_DATA / "scifact"


def load(passages: int, queries: int) -> tuple[list[str], list[str]]:
    with gzip.open(DATA / "corpus.jsonl.gz", "rt", encoding="utf-8") as f:
        docs = [json.loads(line) for _, line in zip(range(passages), f, strict=False)]
    with (DATA / "queries.jsonl").open(encoding="utf-8") as f:
        claims = [json.loads(line)["text"] for _, line in zip(range(queries), f, strict=False)]
    return [f"{d['title']} {d['text']}".strip() for d in docs], claims


def bench(threads: int, texts: list[str], queries: list[str]) -> tuple[float, float, float, float]:
    embedder = MiniLMEmbedder(threads=threads)
    embedder.embed_documents(texts[:32])  # load the model and warm up outside the timing
    start, cpu_start = time.perf_counter(), time.process_time()
    embedder.embed_documents(texts)
    passages_per_s = len(texts) / (time.perf_counter() - start)
    # Per CPU-second as well: unlike wall time, it barely moves when the machine is busy.
    passages_per_cpu_s = len(texts) / (time.process_time() - cpu_start)
    latencies = []
    for query in queries:
        start = time.perf_counter()
        embedder.embed_query(query)
        latencies.append((time.perf_counter() - start) * 1000)
    p50 = statistics.median(latencies)
    p95 = statistics.quantiles(latencies, n=20)[-1]
    return passages_per_s, passages_per_cpu_s, p50, p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=500)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    texts, queries = load(args.passages, args.queries)
    load1 = os.getloadavg()[0]
    print(f"{len(texts)} SciFact passages, {len(queries)} claims as queries")
    # Other work on the machine skews wall-clock numbers; say how busy it was.
    print(f"{os.cpu_count()} CPUs, load average {load1:.2f} at start")
    header = ("threads", "passages/s", "per CPU-s", "query p50 ms", "query p95 ms")
    print("  ".join(f"{h:>12}" for h in header))
    for threads in args.threads:
        rate, cpu_rate, p50, p95 = bench(threads, texts, queries)
        print(f"{threads:>12}  {rate:>12.1f}  {cpu_rate:>12.1f}  {p50:>12.2f}  {p95:>12.2f}")


if __name__ == "__main__":
    main()
