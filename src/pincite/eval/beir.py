"""Load a retrieval test collection laid out as BEIR distributes it.

The layout (Thakur et al., "BEIR", NeurIPS 2021 Datasets and Benchmarks)::

    <folder>/corpus.jsonl      or corpus.jsonl.gz   {"_id", "title", "text", ...} per line
    <folder>/queries.jsonl                          {"_id", "text", ...} per line
    <folder>/qrels/<split>.tsv                      header "query-id corpus-id score", tab-separated

Like BEIR's own ``GenericDataLoader``, only queries that have at least one
qrels row in the split are kept, and a repeated (query, document) row keeps the
last score.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pincite.errors import InputError, ParseError


@dataclass(frozen=True, slots=True)
class BeirDoc:
    """One corpus document; ``title`` is ``""`` when the corpus has none."""

    id: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class BeirDataset:
    """A corpus, the queries judged in one split, and their judgements.

    ``qrels[query_id][doc_id]`` is the graded judgement; grades ≤ 0 are
    judged non-relevant.
    """

    name: str
    split: str
    corpus: dict[str, BeirDoc]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]

    def evaluable_query_ids(self) -> list[str]:
        """Query ids with at least one relevant (grade > 0) document, in file order.

        Average metrics over these only: a query without a relevant document
        has no meaningful score (every metric is 0 whatever the ranking).
        """
        return [qid for qid in self.queries if any(g > 0 for g in self.qrels[qid].values())]


def available_splits(folder: str | os.PathLike[str]) -> list[str]:
    """The split names under ``<folder>/qrels`` (``test``, ``train``, ...), sorted."""
    qrels_dir = Path(folder) / "qrels"
    if not qrels_dir.is_dir():
        return []
    return sorted(p.stem for p in qrels_dir.glob("*.tsv") if p.is_file())


def load_beir(
    folder: str | os.PathLike[str], split: str = "test", *, name: str | None = None
) -> BeirDataset:
    """Read a BEIR-layout folder; ``name`` defaults to the folder's name.

    Raises ``InputError`` when the folder, the corpus, the queries or the
    split's qrels file is missing (listing the splits that exist), or when
    qrels name a query that ``queries.jsonl`` lacks; ``ParseError`` (an
    ``InputError``) on a malformed line, naming file and line number.
    """
    root = Path(folder)
    if not root.is_dir():
        raise InputError(f"BEIR folder not found: {root}")
    corpus_path = _corpus_path(root)
    queries_path = root / "queries.jsonl"
    if not queries_path.is_file():
        raise InputError(f"{root} has no queries.jsonl")
    qrels_path = root / "qrels" / f"{split}.tsv"
    if not qrels_path.is_file():
        splits = available_splits(root)
        raise InputError(
            f"{root} has no qrels for split {split!r}; available splits: "
            + (", ".join(splits) if splits else "none (no qrels/*.tsv)")
        )

    qrels = _read_qrels(qrels_path)
    all_queries = {qid: _str_field(row, "text", src) for qid, row, src in _jsonl(queries_path)}
    missing = [qid for qid in qrels if qid not in all_queries]
    if missing:
        raise InputError(
            f"{qrels_path} judges {len(missing)} queries absent from {queries_path.name}, "
            f"e.g. {missing[:5]}"
        )
    queries = {qid: text for qid, text in all_queries.items() if qid in qrels}
    corpus = {
        doc_id: BeirDoc(
            id=doc_id, title=_str_field(row, "title", src, ""), text=_str_field(row, "text", src)
        )
        for doc_id, row, src in _jsonl(corpus_path)
    }
    return BeirDataset(
        name=name if name is not None else root.name,
        split=split,
        corpus=corpus,
        queries=queries,
        qrels={qid: qrels[qid] for qid in queries},
    )


def _corpus_path(root: Path) -> Path:
    for candidate in ("corpus.jsonl", "corpus.jsonl.gz"):
        path = root / candidate
        if path.is_file():
            return path
    raise InputError(f"{root} has neither corpus.jsonl nor corpus.jsonl.gz")


def _jsonl(path: Path) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Yield ``(_id, record, "path:line")`` for each non-blank line."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for lineno, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            src = f"{path}:{lineno}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ParseError(src, f"not JSON: {exc.msg}") from exc
            if not isinstance(row, dict):
                raise ParseError(src, "a line must hold a JSON object")
            doc_id = row.get("_id")
            if isinstance(doc_id, int) and not isinstance(doc_id, bool):
                doc_id = str(doc_id)
            if not isinstance(doc_id, str) or not doc_id:
                raise ParseError(src, "missing or empty '_id'")
            yield doc_id, row, src


def _str_field(row: dict[str, Any], field: str, src: str, default: str | None = None) -> str:
    value = row.get(field, default)
    if value is None and default is not None:
        value = default
    if not isinstance(value, str):
        raise ParseError(src, f"field {field!r} must be a string, got {type(value).__name__}")
    return value


def _read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8") as lines:
        for lineno, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            fields = line.rstrip("\r\n").split("\t")
            if len(fields) != 3:
                raise ParseError(
                    f"{path}:{lineno}", f"expected 3 tab-separated fields, got {len(fields)}"
                )
            query_id, doc_id, score = fields
            try:
                grade = int(score)
            except ValueError:
                if lineno == 1:  # the "query-id corpus-id score" header
                    continue
                raise ParseError(f"{path}:{lineno}", f"score {score!r} is not an integer") from None
            qrels.setdefault(query_id, {})[doc_id] = grade
    return qrels
