"""`pincite chat` fed through a pipe: turns answered in context, stored, resumable."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import pincite
from conversation_texts import RETENTION, TRAVEL, TURNS
from pincite.cli import cli
from pincite.embed.base import Embedder


def _seed(db: Path, embedder: Embedder) -> None:
    with pincite.open(db, embedder=embedder) as corpus:
        corpus.ingest_text(RETENTION, uri="policy://retention", tenant="acme")
        corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="acme")


def test_chat_answers_follow_ups_and_resumes(tmp_path: Path, embedder: Embedder) -> None:
    db = tmp_path / "chat.db"
    _seed(db, embedder)
    runner = CliRunner()
    args = ["chat", "--db", str(db), "--tenant", "acme"]
    first = runner.invoke(cli, args, input="\n".join(TURNS[:2]) + "\n")
    assert first.exit_code == 0, first.output
    assert "seven years" in first.stdout and "encrypted archive" in first.stdout
    assert "(searched: Where are customer invoices stored?)" in first.stdout
    assert "Sources:" in first.stdout
    cid = first.stderr.split()[1]
    with pincite.open(db, embedder=embedder) as corpus:
        assert [t.question for t in corpus.conversation(cid, tenant="acme").turns()] == list(
            TURNS[:2]
        )

    resumed = runner.invoke(
        cli, [*args, "--conversation", cid, "--json"], input=f"{TURNS[2]}\n/quit\nignored\n"
    )
    assert resumed.exit_code == 0, resumed.output
    [line] = resumed.stdout.splitlines()
    turn = json.loads(line)
    assert turn["conversation_id"] == cid and turn["seq"] == 2 and turn["asked"] == TURNS[2]
    assert "invoices" in turn["question"] and turn["rewrite"] == "offline"
    assert {c["locator"]["uri"] for c in turn["citations"]} == {"policy://retention"}


def test_chat_with_another_workspaces_id_is_a_one_line_error(
    tmp_path: Path, embedder: Embedder
) -> None:
    db = tmp_path / "chat.db"
    _seed(db, embedder)
    runner = CliRunner()
    made = runner.invoke(cli, ["chat", "--db", str(db), "--tenant", "acme"], input="")
    cid = made.stderr.split()[1]
    theirs = runner.invoke(
        cli, ["chat", "--db", str(db), "--tenant", "globex", "--conversation", cid], input=""
    )
    nobody = runner.invoke(
        cli, ["chat", "--db", str(db), "--tenant", "globex", "--conversation", "zz"], input=""
    )
    assert theirs.exit_code == nobody.exit_code != 0
    assert theirs.output.replace(cid, "zz") == nobody.output
    assert len(theirs.output.strip().splitlines()) == 1 and "Traceback" not in theirs.output
