"""Seconds per `pincite ask` on the shared documents, warm: p50 and p95.

Ingests ../shared/data/documents into a SQLite file once (reused when it is
already there), opens it the way `pincite ask` does (default embedder,
extractive generator, default support checker), warms the process with a few
questions of its own (model sessions, the quantised support model), then
times each question of a QUESTIONS.jsonl once. Each timing is the whole
answer path: embed the question, retrieve, generate, cite, check, support;
no question is timed twice, so no per-question cache helps it.

    .venv/bin/python benchmarks/ask_latency.py [--questions data/qa/documents-dev.jsonl]
        [--db ask-latency.db]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from shared_data import DATA as SHARED_DATA

import pincite
from pincite.answer.pipeline import answer_question
from pincite.generate.extractive import ExtractiveGenerator
from pincite.support.heuristic import support_checker_for

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = SHARED_DATA / "documents"
TENANT = "default"
WARM_UP = (
    "What is a hybrid cloud?",
    "Which methods does HTTP/1.1 define?",
    "How long may a session stay idle?",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=ROOT / "data/qa/documents-dev.jsonl")
    parser.add_argument("--documents", type=Path, default=DOCUMENTS)
    parser.add_argument("--db", default="ask-latency.db")
    args = parser.parse_args()
    if not args.documents.is_dir():
        print(f"documents not found at {args.documents} (pass --documents)", file=sys.stderr)
        return 2
    questions = [json.loads(line)["question"] for line in args.questions.open() if line.strip()]
    with pincite.open(args.db) as corpus:
        if not corpus.documents(tenant=TENANT):
            t0 = time.perf_counter()
            list(corpus.ingest_paths([args.documents], tenant=TENANT))
            print(f"ingested {args.documents} in {time.perf_counter() - t0:.0f} s")
        generator = ExtractiveGenerator(corpus.embedder)
        support = support_checker_for(corpus.embedder)

        def ask(question: str) -> float:
            t = time.perf_counter()
            answer_question(corpus, question, generator, tenant=TENANT, support=support)
            return time.perf_counter() - t

        for q in WARM_UP:
            ask(q)
        times = [ask(q) for q in questions]
    p95 = statistics.quantiles(times, n=20)[-1] if len(times) >= 2 else times[0]
    print(
        f"{len(times)} asks over {len(questions)} questions, warm: "
        f"p50 {statistics.median(times):.3f} s, p95 {p95:.3f} s, max {max(times):.3f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
