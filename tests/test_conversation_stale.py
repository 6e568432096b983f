"""Stale answers: stored turns and memories whose cited versions changed, re-anchored."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

import pincite
from conversation_texts import RETENTION, TRAVEL, TURNS
from pincite.cli import cli
from pincite.embed.base import Embedder
from pincite.errors import TenantCrossingError
from pincite.ground.fetch import FetchStatus
from pincite.stale import remember

# Revision 2: a number changed, a line break moved, the deletion rule dropped.
RETENTION_V2 = (
    "Customer invoices are retained for ten years after the end of the fiscal year.\n"
    "Invoices are stored in the encrypted\narchive managed by the finance team. "
    "Refunds are handled by the treasury desk within thirty days of a request."
)


def _answered(path: Path, embedder: Embedder) -> tuple[pincite.Corpus, str]:
    corpus = pincite.open(path, embedder=embedder)
    corpus.ingest_text(RETENTION, uri="policy://retention", tenant="acme")
    corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="acme")
    conversation = corpus.conversation(tenant="acme")
    for q in TURNS:
        assert not conversation.ask(q).refused
    return corpus, conversation.id


def test_nothing_is_stale_while_the_documents_stand(tmp_path: Path, embedder: Embedder) -> None:
    corpus, _ = _answered(tmp_path / "s.db", embedder)
    with corpus:
        assert corpus.stale(tenant="acme") == []


def test_a_new_version_lists_every_turn_with_where_its_text_went(
    tmp_path: Path, embedder: Embedder
) -> None:
    corpus, cid = _answered(tmp_path / "s.db", embedder)
    with corpus:
        corpus.ingest_text(RETENTION_V2, uri="policy://retention", tenant="acme")
        found = corpus.stale(tenant="acme")
        assert [(f.kind, f.conversation_id, f.seq) for f in found] == [
            ("turn", cid, 0),
            ("turn", cid, 1),
            ("turn", cid, 2),
        ]
        assert [f.text for f in found] == list(TURNS)
        by_status = {}
        for item in found:
            for c in item.citations:
                assert c.state == "superseded" and c.anchor is not None
                by_status.setdefault(c.anchor.status.value, []).append(c)
        [changed] = {c.evidence_id: c for c in by_status["changed"]}.values()
        assert changed.anchor is not None and "[-seven-] {+ten+}" in changed.anchor.diff
        assert 0.6 <= changed.anchor.similarity < 1.0
        # Re-anchored ids resolve, in the current version, to the text they point at.
        for c in by_status["changed"] + by_status["unchanged"]:
            assert c.current_evidence_id is not None
            [now] = corpus.fetch([c.current_evidence_id], tenant="acme")
            assert now.status is FetchStatus.OK and not now.superseded
            [then] = corpus.fetch([c.evidence_id], tenant="acme")
            if c in by_status["unchanged"]:
                assert " ".join(now.text.split()) == " ".join(then.text.split())
        assert any(
            c.anchor is not None and c.anchor.whitespace_only for c in by_status["unchanged"]
        )
        assert (
            "ten years" in corpus.fetch([changed.current_evidence_id or ""], tenant="acme")[0].text
        )
        [removed] = by_status["removed"]
        assert removed.current_evidence_id is None
        assert "finance director" in corpus.fetch([removed.evidence_id], tenant="acme")[0].text
        # Another workspace sees nothing of it.
        assert corpus.stale(tenant="globex") == []


def test_deleted_and_erased_documents_make_their_citations_stale(
    tmp_path: Path, embedder: Embedder
) -> None:
    corpus, _ = _answered(tmp_path / "s.db", embedder)
    with corpus:
        [doc] = [d for d in corpus.documents(tenant="acme") if d.uri == "policy://retention"]
        corpus.delete(doc.document_id, tenant="acme")
        found = corpus.stale(tenant="acme")
        assert {c.state for f in found for c in f.citations} == {"deleted"}
        assert all(c.anchor is None for f in found for c in f.citations)
        corpus.ingest_text(RETENTION, uri="policy://retention", tenant="acme")  # restored
        assert corpus.stale(tenant="acme") == []
        corpus.erase(doc.document_id, tenant="acme")
        states = {c.state for f in corpus.stale(tenant="acme") for c in f.citations}
        assert states == {"erased"}


def test_memories_are_stored_and_go_stale(tmp_path: Path, embedder: Embedder) -> None:
    corpus, _ = _answered(tmp_path / "s.db", embedder)
    with corpus:
        answer = corpus.ask(TURNS[0], tenant="acme")
        assert answer.answer is not None
        record = pincite.MemoryRecord("Invoices: seven years.", answer.answer.citations)
        memory_id = remember(corpus, record, tenant="acme")
        [stored] = corpus.store.memories("acme")
        assert stored.memory_id == memory_id and stored.evidence_ids == tuple(record.provenance())
        with pytest.raises(TenantCrossingError):
            remember(corpus, record, tenant="globex")
        assert corpus.store.memories("globex") == []
        corpus.ingest_text(RETENTION_V2, uri="policy://retention", tenant="acme")
        [memory] = [f for f in corpus.stale(tenant="acme") if f.kind == "memory"]
        assert memory.memory_id == memory_id and memory.text == "Invoices: seven years."
        assert {c.anchor.status.value for c in memory.citations if c.anchor} == {"changed"}


def test_pincite_stale_prints_the_report(tmp_path: Path, embedder: Embedder) -> None:
    db = tmp_path / "s.db"
    corpus, cid = _answered(db, embedder)
    corpus.close()
    runner = CliRunner()
    args = ["stale", "--db", str(db), "--tenant", "acme"]
    assert "No stored answer" in runner.invoke(cli, args).stdout
    with pincite.open(db, embedder=embedder) as c:
        c.ingest_text(RETENTION_V2, uri="policy://retention", tenant="acme")
    shown = runner.invoke(cli, args)
    assert shown.exit_code == 0, shown.output
    assert f"turn {cid}#0: {TURNS[0]}" in shown.stdout
    assert "superseded, changed" in shown.stdout and "diff: " in shown.stdout
    assert "removed" in shown.stdout
    lines = runner.invoke(cli, [*args, "--json"]).stdout.splitlines()
    assert [json.loads(x)["seq"] for x in lines] == [0, 1, 2]
    other = runner.invoke(cli, ["stale", "--db", str(db), "--tenant", "globex"])
    assert "No stored answer" in other.stdout


def test_erasure_and_purge_blank_the_text_stored_turns_copied(
    tmp_path: Path, embedder: Embedder
) -> None:
    db = tmp_path / "s.db"
    corpus, cid = _answered(db, embedder)
    with corpus:
        other = corpus.conversation(tenant="acme")
        other.ask("Where are boarding passes stored?")
        [doc] = [d for d in corpus.documents(tenant="acme") if d.uri == "policy://retention"]
        corpus.erase(doc.document_id, tenant="acme")
        turns = corpus.conversation(cid, tenant="acme").turns()
        for t in turns:
            assert {c["text"] for c in t.answer["claims"]} == {"[erased]"}
            assert t.summary == "" and t.evidence_ids  # the ids stay for an audit
            assert "finance" not in json.dumps(t.answer) and "seven years" not in t.summary
        [kept] = corpus.conversation(other.id, tenant="acme").turns()
        assert "travel portal" in kept.answer["claims"][0]["text"] and kept.summary
        [travel] = [d for d in corpus.documents(tenant="acme") if d.uri == "policy://travel"]
        corpus.purge(travel.document_id, tenant="acme")
        [purged] = corpus.conversation(other.id, tenant="acme").turns()
        assert purged.answer["claims"][0]["text"] == "[erased]"
    # Nothing of the erased sentences is left in the file, stored turns included.
    raw = db.read_bytes()
    assert b"finance director" not in raw and b"encrypted archive" not in raw


def test_sp800_46_r2_over_r1_lists_the_r1_answers_and_only_them(tmp_path: Path) -> None:
    # The bundled public revisions (pincite/demo_data): real PDFs, no ../shared needed.
    # Lexical only keeps it quick; re-anchoring reads text, not vectors.
    data = resources.files("pincite") / "demo_data"
    uri = "nist://sp800-46"
    with (
        resources.as_file(data) as folder,
        pincite.open(tmp_path / "nist.db", embedder=None) as corpus,
    ):
        r1 = corpus.ingest_path(folder / "SP800-46r1.pdf", uri=uri, tenant="nist")
        conversation = corpus.conversation(tenant="nist")
        asked = [
            "What should remote access servers be kept?",
            "Where are they usually placed?",
            "Who should manage them?",
        ]
        answered = [seq for seq, q in enumerate(asked) if not conversation.ask(q).refused]
        assert len(answered) >= 2
        first = corpus.ask(asked[0], tenant="nist")
        assert first.answer is not None
        record = pincite.MemoryRecord("Patch the servers.", first.answer.citations)
        memory_id = remember(corpus, record, tenant="nist")
        assert corpus.stale(tenant="nist") == []

        r2 = corpus.ingest_path(folder / "SP800-46r2.pdf", uri=uri, tenant="nist")
        assert r2.status.value == "updated" and r2.document_id == r1.document_id
        later = corpus.conversation(tenant="nist")
        assert not later.ask(asked[0]).refused  # answered from r2: current, never listed
        found = corpus.stale(tenant="nist")
        turns = [(f.conversation_id, f.seq, f.text) for f in found if f.kind == "turn"]
        assert turns == [(conversation.id, seq, asked[seq]) for seq in answered]
        assert [f.memory_id for f in found if f.kind == "memory"] == [memory_id]
        for item in found:
            assert item.citations
            for c in item.citations:
                assert c.state == "superseded" and c.document_id == r1.document_id
                assert c.evidence_id.split(":")[3] == r1.hash16
                assert c.current_hash16 == r2.hash16 and c.anchor is not None
                if c.current_evidence_id is not None:
                    [now] = corpus.fetch([c.current_evidence_id], tenant="nist")
                    assert now.status is FetchStatus.OK and now.hash16 == r2.hash16
                    assert not now.superseded
        assert corpus.stale(tenant="other") == []
