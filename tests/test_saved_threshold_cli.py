"""`pincite eval qa --save-threshold` and `pincite threshold`: pick once, answer with it.

A tenant's threshold picked on its dev questions is kept in the store; these
tests show `ask`, `eval qa` and the library facade then answer with it, that
a flag still wins, that it stays with its tenant, and that misuse is a
message, not a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import pincite
from pincite.cli.app import cli

QUESTION = "For how many years are invoices kept after payment?"


@pytest.fixture
def store(tmp_path: Path) -> str:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "policy.md").write_text(
        "# Finance policy\n\n## Retention\n\nInvoices are kept for seven years after payment.\n\n"
        "## Travel\n\nTrain travel is booked in second class.\n"
    )
    db = str(tmp_path / "t.db")
    result = CliRunner().invoke(cli, ["ingest", str(folder), "--db", db, "--embedder", "none"])
    assert result.exit_code == 0, result.output
    return db


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, [*args])


def ask(db: str, *extra: str):  # type: ignore[no-untyped-def]
    return run("ask", QUESTION, "--db", db, "--embedder", "none", "--json", *extra)


def shown(db: str, *extra: str) -> dict:  # type: ignore[type-arg]
    result = run("threshold", "--db", db, "--embedder", "none", "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_a_saved_threshold_decides_until_cleared_and_a_flag_still_wins(store: str) -> None:
    assert ask(store).exit_code == 0
    assert shown(store, "--set", "50")["source"] == "saved"
    assert ask(store).exit_code == 3  # far above any score: refused
    assert ask(store, "--answer-threshold", "0.1").exit_code == 0
    # Another tenant of the same store keeps the shipped threshold.
    assert shown(store, "--tenant", "other")["source"] == "shipped"
    with pincite.open(store, embedder=None) as corpus:
        assert corpus.ask(QUESTION).refused
    cleared = shown(store, "--clear")
    assert cleared["source"] == "shipped" and cleared["saved"] is None
    assert ask(store).exit_code == 0


def write_questions(tmp_path: Path) -> Path:
    rows = [
        {
            "id": "keep",
            "question": QUESTION,
            "answerable": True,
            "gold_passages": ["Invoices are kept for seven years after payment."],
            "gold_answer": "seven years",
        },
        {"id": "bus", "question": "In which class is bus travel booked?", "answerable": False},
        {"id": "fly", "question": "How many years are flights kept?", "answerable": False},
    ]
    path = tmp_path / "dev.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_eval_qa_saves_what_its_report_picks_and_then_reports_with_it(
    store: str, tmp_path: Path
) -> None:
    questions = write_questions(tmp_path)
    args = ["eval", "qa", str(questions), "--db", store, "--embedder", "none", "--json"]
    first = run(*args, "--save-threshold")
    assert first.exit_code == 0, first.output
    picked = json.loads(first.stdout)["settings"]["refusal_threshold"]
    assert "saved answer threshold" in first.stderr
    now = shown(store)
    assert now["threshold"] == picked and now["saved"]["source"] == "dev.jsonl"
    assert (now["saved"]["answerable"], now["saved"]["unanswerable"]) == (1, 2)
    again = json.loads(run(*args).stdout)["settings"]
    assert (again["threshold"], again["threshold_source"]) == (picked, "saved")
    flagged = json.loads(run(*args, "--answer-threshold", "0.2").stdout)["settings"]
    assert (flagged["threshold"], flagged["threshold_source"]) == (0.2, "set")


def test_saving_needs_unanswerable_questions_and_the_extractive_generator(
    store: str, tmp_path: Path
) -> None:
    answerable_only = tmp_path / "a.jsonl"
    answerable_only.write_text(write_questions(tmp_path).read_text().splitlines()[0] + "\n")
    base = ["eval", "qa", "--db", store, "--embedder", "none", "--save-threshold"]
    result = run(*base, str(answerable_only))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "unanswerable questions" in result.output
    model = ["--generator", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    result = run(*base, str(write_questions(tmp_path)), *model)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "extractive generator" in result.output
    assert shown(store)["saved"] is None  # nothing was saved by either


@pytest.mark.parametrize(
    ("extra", "message"),
    [(["--set", "0.5", "--clear"], "alternatives"), (["--set", "nan"], "must be a number")],
)
def test_threshold_misuse_is_a_message(store: str, extra: list[str], message: str) -> None:
    result = run("threshold", "--db", store, "--embedder", "none", *extra)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert message in result.output
