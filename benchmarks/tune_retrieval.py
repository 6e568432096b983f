"""Tune hybrid fusion on a split that is never reported.

    .venv/bin/python benchmarks/tune_retrieval.py ../shared/data/scifact
    .venv/bin/python benchmarks/tune_retrieval.py ../shared/data/cranfield --fold odd

Without ``--split`` the development split is used: ``dev`` when the folder has
one, else ``train`` (SciFact's); never ``test``, the reported split, unless
asked for together with ``--fold`` (a collection with only a test split is
tuned on one half and reported on the other). The index is the one
``pincite eval retrieval --db FILE`` builds (built here if missing; by default
in a reusable file in the temp directory, named after the folder).

Each question's lexical and dense candidate lists are computed once
(depth 200, no dense floor) and every fusion setting is scored on them with the
same pure function ``retrieve`` uses (``fuse_channels``), mapping
chunks to documents at their best rank. Near-duplicate removal is left out (it
only drops repeated text, which these corpora hardly have). ``--fold odd``
keeps questions with odd numeric ids (``even`` the others), so a collection
with a single split can be tuned on one half and reported on the other.

Prints nDCG@10 of each channel, of every grid point, and the best settings.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pincite.embed.default import default_embedder
from pincite.eval.beir import available_splits, load_beir
from pincite.eval.metrics import mean, ndcg_at_k, recall_at_k
from pincite.eval.retrieval import EVAL_TENANT, run_retrieval_eval
from pincite.retrieve import channels
from pincite.retrieve.fuse import FusionMethod, Normalization
from pincite.retrieve.query import query_terms
from pincite.retrieve.route import route
from pincite.retrieve.search import SearchOptions, fuse_channels
from pincite.store.sqlite import SQLiteStore

DEPTH = 200
Ranked = list[tuple[str, float]]


@dataclass(frozen=True, slots=True)
class Question:
    qrels: dict[str, int]
    lexical: Ranked
    dense: Ranked
    dense_routed: Ranked  # dense inside the documents the router picks (default width)


def gather(
    folder: Path, split: str, fold: str | None, db: str
) -> tuple[list[Question], dict[str, str]]:
    """Candidate lists per question, and the chunk → uri map."""
    dataset = load_beir(folder, split)
    qids = dataset.evaluable_query_ids()
    # Builds (or reuses) the index exactly as the evaluation does (one question asked).
    run_retrieval_eval(
        folder,
        split=split,
        modes=("dense",),
        routing_compare=False,
        db=db,
        embedder=default_embedder(2),
        query_ids=qids[:1],
    )
    if fold is not None:
        qids = [q for q in qids if int(q) % 2 == (1 if fold == "odd" else 0)]
    store = SQLiteStore(db)
    index = store.dense_index(EVAL_TENANT)
    rindex = store.routing_index(EVAL_TENANT)
    uri_of = {d.document_id: d.uri for d in store.list_documents(EVAL_TENANT)}
    chunk_uri = {c: uri_of[d] for c, d in zip(index.chunk_ids, index.document_ids, strict=True)}
    chunk_doc = dict(zip(index.chunk_ids, index.document_ids, strict=True))
    embedder = default_embedder(2)
    vectors = embedder.embed_documents([dataset.queries[q] for q in qids])
    top = max(50, int(len(rindex.document_ids) * 0.25))
    questions = []
    for qid, qv in zip(qids, vectors, strict=True):
        lexical = store.search_lexical(EVAL_TENANT, query_terms(dataset.queries[qid]), DEPTH)
        scores = index.matrix @ qv
        best = np.argsort(-scores, kind="stable")[:DEPTH]
        dense = [(index.chunk_ids[i], float(scores[i])) for i in best]
        routed = set(route(rindex, qv, top=top) or rindex.document_ids)
        inside = [
            (c, s)
            for c, s in zip(index.chunk_ids, scores.tolist(), strict=True)
            if chunk_doc[c] in routed
        ]
        inside.sort(key=lambda cs: -cs[1])
        questions.append(Question(dataset.qrels[qid], lexical, dense, inside[:DEPTH]))
    store.close()
    return questions, chunk_uri


def fused(
    options: SearchOptions, depth: int, lists: Callable[[Question], tuple[Ranked, Ranked]]
) -> Callable[[Question], Ranked]:
    """The fusion ``retrieve`` runs, on one question's cached lists."""

    def fuse(q: Question) -> Ranked:
        lexical, dense = lists(q)
        # The dense list is already cut at this run's floor; fusion pads it at
        # the options' floor, as retrieve does.
        cosines = channels.Ranked(
            channels.DENSE,
            tuple(dense),
            channels.COSINE_MIN,
            max(options.min_dense_score, channels.COSINE_MIN),
            upper_bound=1.0,
        )
        ranked = [channels.lexical_ranked(lexical), cosines]
        return fuse_channels(ranked, options, depth=depth)

    return fuse


def score(
    questions: Sequence[Question],
    chunk_uri: dict[str, str],
    fuse: Callable[[Question], Ranked],
) -> tuple[float, float]:
    ndcg, r100 = [], []
    for q in questions:
        ranked = list(dict.fromkeys(chunk_uri[c] for c, _ in fuse(q)))
        ndcg.append(ndcg_at_k(ranked, q.qrels, 10))
        r100.append(recall_at_k(ranked, q.qrels, 100))
    return mean(ndcg), mean(r100)


def tuning_split(folder: Path, split: str | None, fold: str | None) -> str:
    """The split to tune on: ``split`` if given, else ``dev``, else ``train``.

    Raises ``SystemExit`` with one line when only the reported split is left
    and no ``--fold`` keeps half of it apart.
    """
    splits = available_splits(folder)
    if split is None:
        split = next((s for s in ("dev", "train") if s in splits), "test")
    if split == "test" and fold is None:
        raise SystemExit(
            f"{folder}: tuning on the reported test split needs --fold odd|even "
            f"(available splits: {', '.join(splits) or 'none'})"
        )
    return split


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--split", help="default: dev, else train (never test without --fold)")
    parser.add_argument("--fold", choices=("odd", "even"))
    parser.add_argument("--db", help="index file (default: one per folder in the temp directory)")
    args = parser.parse_args(argv)
    split = tuning_split(args.folder, args.split, args.fold)
    db = args.db or str(Path(tempfile.gettempdir()) / f"pincite-tune-{args.folder.name}.db")
    questions, chunk_uri = gather(args.folder, split, args.fold, db)
    print(f"{len(questions)} questions ({split}, fold {args.fold or 'all'})")

    def dense_of(q: Question, depth: int, floor: float, routing: bool) -> Ranked:
        return [(c, s) for c, s in (q.dense_routed if routing else q.dense) if s >= floor][:depth]

    results: list[tuple[float, float, str]] = []

    def record(name: str, fuse: Callable[[Question], Ranked]) -> None:
        ndcg, r100 = score(questions, chunk_uri, fuse)
        results.append((ndcg, r100, name))

    for depth in (50, 100, 200):
        record(f"lexical depth={depth}", lambda q, d=depth: q.lexical[:d])
        record(f"dense depth={depth}", lambda q, d=depth: dense_of(q, d, 0.2, False))
    # The 0.2 dense floor is kept: it is what lets an off-topic question retrieve
    # nothing. Routing stays on (the default); on SciFact and Cranfield it changes
    # nDCG@10 by less than 0.002 either way (see the evaluation's two hybrid rows).
    grid = itertools.product((50, 100, 200), (0.2,), (True,))
    for depth, floor, routing in grid:
        tag = f"depth={depth} floor={floor} routing={routing}"

        def lists(
            q: Question, d: int = depth, f: float = floor, r: bool = routing
        ) -> tuple[Ranked, Ranked]:
            return q.lexical[:d], dense_of(q, d, f, r)

        for k, w in itertools.product((5, 10, 20, 40, 60, 100), (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)):
            opts = SearchOptions(
                fusion=FusionMethod.RRF, rrf_k=k, weights=(("lexical", 1.0), ("dense", w))
            )
            record(f"rrf k={k} w_dense={w} {tag}", fused(opts, depth, lists))
        for norm in Normalization:
            for alpha in np.arange(0.1, 0.95, 0.05):
                a = round(float(alpha), 2)
                opts = SearchOptions(
                    fusion=FusionMethod.CONVEX,
                    normalization=norm,
                    weights=(("lexical", 1 - a), ("dense", a)),
                )
                record(f"convex {norm.value} w_dense={a} {tag}", fused(opts, depth, lists))
    results.sort(reverse=True)
    for name in ("lexical depth=100", "dense depth=100"):
        print(next(f"{n:.4f} R@100 {r:.4f}  {s}" for n, r, s in results if s == name))
    for label, name in (
        ("plain RRF", "rrf k=60 w_dense=1.0 depth=100 floor=0.2 routing=True"),
        ("default", "convex theoretical_min w_dense=0.8 depth=100 floor=0.2 routing=True"),
    ):
        print(label, next(f"{n:.4f} R@100 {r:.4f}  {s}" for n, r, s in results if s == name))
    print("best 25:")
    for ndcg, r100, name in results[:25]:
        print(f"  {ndcg:.4f} R@100 {r100:.4f}  {name}")
    for family in ("rrf", "convex minmax", "convex zscore", "convex theoretical_min"):
        ndcg, r100, name = next(x for x in results if x[2].startswith(family))
        print(f"best {family}: {ndcg:.4f} R@100 {r100:.4f}  {name}")


if __name__ == "__main__":
    main()
