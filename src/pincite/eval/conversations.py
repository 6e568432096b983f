"""Retrieval on multi-turn conversations: the raw turn, the rewrite, the whole history.

Reads MTRAG's human-evaluation subset (InspectorRAGet JSON: ``documents``,
``tasks[{input, contexts, Collection, Turn}]``). Each collection's passages
(the passages its tasks cite) are indexed in a tenant of their own (MTRAG
retrieves within one corpus); each
task's last user turn is searched three ways: as asked (``raw``), rewritten by
``pincite.generate.rewrite`` over the earlier user turns (``rewritten``), and
as all user turns joined (``history``, a common baseline). Recall@k of the
task's reference passages is averaged by turn index (1, 2, 3+). MTRAG gives no
standalone rewrite of its turns, so there is no upper-bound column.
"""

from __future__ import annotations

import gzip
import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pincite.errors import InputError

VARIANTS = ("raw", "rewritten", "history")
BUCKETS = ("1", "2", "3+")
KS = (5, 10)


@dataclass(frozen=True, slots=True)
class Task:
    collection: str
    turns: tuple[str, ...]
    relevant: frozenset[str]


@dataclass
class ConversationReport:
    """Mean recall@k per variant and turn bucket, with the number of tasks per bucket."""

    recall: dict[str, dict[str, dict[int, float]]] = field(default_factory=dict)
    tasks: dict[str, int] = field(default_factory=dict)
    mode: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "tasks": self.tasks, "recall": self.recall}

    def as_table(self) -> str:
        head = "| turn | tasks | " + " | ".join(f"{v} R@{k}" for k in KS for v in VARIANTS) + " |"
        lines = [head, "|" + "---|" * (2 + len(KS) * len(VARIANTS))]
        for b in (*BUCKETS, "all"):
            cells = [f"{self.recall[v][b][k]:.3f}" for k in KS for v in VARIANTS]
            lines.append(f"| {b} | {self.tasks[b]} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


def load_tasks(path: Path) -> tuple[dict[str, list[tuple[str, str]]], list[Task]]:
    """Passages per collection ``(document_id, text)`` and the tasks that have references."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        documents = {d["document_id"]: d for d in data["documents"]}
        raw_tasks = data["tasks"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: not an MTRAG InspectorRAGet file ({exc})") from exc
    tasks: list[Task] = []
    passages: dict[str, dict[str, str]] = {}
    for t in raw_tasks:
        relevant = frozenset(c["document_id"] for c in t.get("contexts", []))
        turns = tuple(m["text"] for m in t["input"] if m.get("speaker") == "user")
        if not relevant or not turns:
            continue
        tasks.append(Task(t["Collection"], turns, relevant))
    # A passage belongs to the collection of the tasks that cite it (each is cited).
    for t in raw_tasks:
        own = passages.setdefault(t["Collection"], {})
        for c in t.get("contexts", []):
            own.setdefault(c["document_id"], documents[c["document_id"]]["text"])
    return {c: sorted(p.items()) for c, p in passages.items()}, tasks


def _bucket(turn: int) -> str:
    return str(turn) if turn < 3 else "3+"


def queries(task: Task) -> dict[str, str]:
    from pincite.generate.rewrite import standalone

    previous: list[str] = []
    for turn in task.turns[:-1]:
        previous.append(standalone(turn, previous))
    return {
        "raw": task.turns[-1],
        "rewritten": standalone(task.turns[-1], previous),
        "history": " ".join(task.turns),
    }


def run_conversation_eval(
    path: Path,
    *,
    embedder: str | None = "default",
    progress: Callable[[int, int], None] | None = None,
) -> ConversationReport:
    import pincite
    from pincite.settings import EmbedderSettings

    passages, tasks = load_tasks(path)
    built = EmbedderSettings(spec=embedder or "none").build()
    report = ConversationReport()
    sums = {v: {b: dict.fromkeys(KS, 0.0) for b in (*BUCKETS, "all")} for v in VARIANTS}
    counts = dict.fromkeys((*BUCKETS, "all"), 0)
    with (
        tempfile.TemporaryDirectory() as tmp,
        pincite.open(Path(tmp) / "mtrag.db", embedder=built) as corpus,
    ):
        tenants = {c: f"c{i}" for i, c in enumerate(sorted(passages))}
        total = sum(len(p) for p in passages.values()) + len(tasks)
        done = 0
        for collection, items in passages.items():
            for document_id, text in items:
                corpus.ingest_text(text, uri=document_id, tenant=tenants[collection])
                done += 1
                if progress:
                    progress(done, total)
        report.mode = corpus.retrieve("x", tenant=tenants[tasks[0].collection], k=1).mode
        for task in tasks:
            bucket = _bucket(len(task.turns))
            counts[bucket] += 1
            counts["all"] += 1
            for variant, question in queries(task).items():
                result = corpus.retrieve(question, tenant=tenants[task.collection], k=max(KS) * 3)
                ranked = list(dict.fromkeys(h.document.uri for h in result.hits))
                for k in KS:
                    hit = len(task.relevant & set(ranked[:k])) / len(task.relevant)
                    sums[variant][bucket][k] += hit
                    sums[variant]["all"][k] += hit
            done += 1
            if progress:
                progress(done, total)
    report.tasks = counts
    report.recall = {
        v: {b: {k: sums[v][b][k] / max(counts[b], 1) for k in KS} for b in sums[v]}
        for v in VARIANTS
    }
    return report
