"""Milliseconds per claim for the default support checker.

Each claim is a real SciFact claim checked against 5 passages of ~1,000
characters (SciFact abstracts, the claim's own cited abstract first).
Passages differ from claim to claim, so the checker's embedding cache never
helps: this is the cold cost. The first line is ``default_support_checker()``
as every answer uses it (quantised MiniLM, two intra-op threads, the checker
on its pool and the caller's thread); the others show what its parts cost: the
same checker on the float model the corpus embeds with, lexical signals
alone, and the lexical-overlap baseline.

    .venv/bin/python benchmarks/support_speed.py [--claims 200] [--embed-words N|none]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from shared_data import DATA as SHARED_DATA

from pincite.embed.default import default_embedder
from pincite.ids import encode_chunk
from pincite.support.base import SupportPassage
from pincite.support.baseline import LexicalOverlapChecker
from pincite.support.heuristic import (
    EMBED_WORDS,
    HeuristicSupportChecker,
    default_support_checker,
)
from pincite.support.scoring import clear_caches

_DOC = "00000000-0000-4000-8000-000000000000"


def _passages(abstracts: list[str], rng: random.Random, first: str) -> list[SupportPassage]:
    texts = [first, *rng.sample(abstracts, 4)]
    out = []
    for k, text in enumerate(texts):
        chunk = f"00000000-0000-4000-8000-{k:012d}"
        out.append(SupportPassage(encode_chunk(_DOC, "0" * 16, chunk), text[:1000], 0))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--claims", type=int, default=200)
    parser.add_argument(
        "--embed-words",
        default=str(EMBED_WORDS),
        help="words of the best sentence the model sees; 'none' for whole sentences "
        f"(default: {EMBED_WORDS}, the checker's default)",
    )
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    args = parser.parse_args()
    embed_words = None if args.embed_words.lower() == "none" else int(args.embed_words)
    scifact = args.data / "scifact"
    with gzip.open(scifact / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        corpus = {d["_id"]: d["text"] for d in map(json.loads, fh)}
    claims = []
    for line in (scifact / "claims_dev.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["evidence"]:
            claims.append((rec["claim"], corpus[next(iter(rec["evidence"]))]))
    abstracts = [t for t in corpus.values() if len(t) >= 1000]
    rng = random.Random(0)
    cases = [(c, _passages(abstracts, rng, a)) for c, a in (claims * 4)[: args.claims]]

    default = default_support_checker()
    quantised = default.embedder
    assert quantised is not None
    float_model = default_embedder(threads=os.cpu_count() or 1)  # as `pincite.open` builds it
    for model in (quantised, float_model):
        model.embed_query("warm up")  # loads (and, once per machine, derives) the model
    for label, checker in (
        (
            "default: heuristic + quantised model",
            HeuristicSupportChecker(quantised, embed_words=embed_words),
        ),
        ("heuristic + float model", HeuristicSupportChecker(float_model, embed_words=embed_words)),
        ("heuristic, lexical signals only", HeuristicSupportChecker()),
        ("lexical-overlap baseline", LexicalOverlapChecker()),
    ):
        for claim, passages in cases[:5]:  # warm caches of code paths, not of these texts
            checker.check(
                claim + " warm", [SupportPassage(p.evidence_id, p.text + " ", 0) for p in passages]
            )
        clear_caches()
        times = []
        for claim, passages in cases:
            t0 = time.perf_counter()
            checker.check(claim, passages)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
        print(
            f"{label:38s} n={len(times)} p50={statistics.median(times):6.1f} ms "
            f"p95={p95:6.1f} ms mean={statistics.fmean(times):6.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
