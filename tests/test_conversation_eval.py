"""`pincite eval conversations`: recall@k per turn index, raw vs rewritten vs history."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pincite.cli import cli
from pincite.eval.conversations import KS, Task, load_tasks, queries, run_conversation_eval
from shared_paths import DATA

MTRAG = DATA / "mtrag_human_eval" / "reference_subset_with_human_evaluations.json.gz"


def _write(path: Path) -> Path:
    documents = [
        {"document_id": "inv", "title": "", "text": "Customer invoices are kept seven years."},
        {"document_id": "arc", "title": "", "text": "Invoices sit in the encrypted archive."},
        {"document_id": "bp", "title": "", "text": "Boarding passes sit in the travel portal."},
    ]
    user = lambda t: {"speaker": "user", "text": t}  # noqa: E731
    agent = {"speaker": "agent", "text": "..."}
    first = "How long are customer invoices kept?"

    def task(turns: list[dict[str, str]], refs: list[str]) -> dict[str, object]:
        contexts = [{"document_id": r} for r in refs]
        return {"input": turns, "contexts": contexts, "Collection": "c"}

    tasks = [
        task([user(first)], ["inv"]),
        task([user(first), agent, user("Where do they sit?")], ["arc"]),
        task([user("Where do boarding passes sit?")], ["bp"]),
        task([user("Hello")], []),
    ]
    data = {"documents": documents, "tasks": tasks}
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(data, f)
    return path


def test_tasks_keep_user_turns_and_references(tmp_path: Path) -> None:
    passages, tasks = load_tasks(_write(tmp_path / "m.json.gz"))
    assert [t.turns for t in tasks][1] == (
        "How long are customer invoices kept?",
        "Where do they sit?",
    )
    assert len(tasks) == 3  # a task with no reference passage is not scored
    assert sorted(d for d, _ in passages["c"]) == ["arc", "bp", "inv"]


def test_the_rewrite_resolves_the_follow_up_and_history_joins_turns() -> None:
    task = Task("c", ("How long are customer invoices kept?", "Where do they sit?"), frozenset())
    q = queries(task)
    assert q["raw"] == "Where do they sit?"
    assert "invoices" in q["rewritten"] and "they" not in q["rewritten"].split()
    assert q["history"] == " ".join(task.turns)


def test_the_rewrite_finds_the_passage_the_raw_turn_misses(tmp_path: Path) -> None:
    report = run_conversation_eval(_write(tmp_path / "m.json.gz"), embedder="none")
    assert report.tasks == {"1": 2, "2": 1, "3+": 0, "all": 3}
    assert report.recall["rewritten"]["2"][KS[0]] == 1.0
    assert report.recall["raw"]["2"][KS[0]] <= report.recall["rewritten"]["2"][KS[0]]
    assert report.recall["raw"]["1"] == report.recall["rewritten"]["1"]
    assert "| 2 | 1 |" in report.as_table()


def test_a_file_of_another_shape_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"tasks": 3}')
    result = CliRunner().invoke(cli, ["eval", "conversations", str(bad), "--embedder", "none"])
    assert result.exit_code != 0 and "not an MTRAG" in result.output
    assert "Traceback" not in result.output


@pytest.mark.skipif(not MTRAG.exists(), reason=f"shared MTRAG data absent: {MTRAG}")
def test_mtrag_loads_every_scored_task() -> None:
    passages, tasks = load_tasks(MTRAG)
    assert len(tasks) == 150 and sum(len(p) for p in passages.values()) == 350
    assert all(t.relevant for t in tasks)
