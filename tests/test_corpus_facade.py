"""The facade carries the rules every surface needs: ask, erase, reindex, embedder checks."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from click.testing import CliRunner

import pincite
from pincite.cli import cli
from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError, InputError, NotFoundError

POLICY = (
    "Customer invoices are retained for seven years after the end of the fiscal year. "
    "Payroll records are retained for four years after the employee leaves."
)
TRAVEL = "Economy class is required for every flight shorter than six hours in duration."


class WordEmbedder:
    """A deterministic bag-of-letters embedder; ``dim`` is settable to fake a changed model."""

    def __init__(self, name: str = "test-words", dim: int = 26) -> None:
        self.name, self.dim = name, dim

    def _one(self, text: str) -> npt.NDArray[np.float32]:
        v = np.zeros(self.dim, np.float32)
        for ch in text.lower():
            if ch.isalpha():
                v[(ord(ch) - 97) % self.dim] += 1.0
        return v / (np.linalg.norm(v) or 1.0)

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.vstack([self._one(t) for t in texts]) if texts else np.zeros((0, self.dim))

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return self._one(text)


def test_ask_answers_with_checked_citations(tmp_path: Path, embedder: Embedder) -> None:
    with pincite.open(tmp_path / "a.db", embedder=embedder) as corpus:
        corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme")
        answer = corpus.ask("How long are customer invoices retained?", tenant="acme")
        assert isinstance(answer, pincite.Answer)
        assert answer.outcome is pincite.Outcome.ANSWERED and answer.answer is not None
        [claim] = answer.answer.claims
        assert "seven years" in claim.text
        for citation in answer.answer.sources(claim):
            assert citation.tenant == "acme"
            assert "seven years" in pincite.excerpt(citation, corpus.store)
        rendered = corpus.render(answer)
        assert "seven years" in rendered and "[1]" in rendered


def test_ask_never_answers_from_another_tenant(tmp_path: Path) -> None:
    with pincite.open(tmp_path / "a.db", embedder=None) as corpus:
        corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme")
        answer = corpus.ask("How long are customer invoices retained?", tenant="globex")
        assert answer.refused and answer.answer is None and answer.searched == ()


def test_ask_rejects_an_empty_question(tmp_path: Path) -> None:
    with pincite.open(tmp_path / "a.db", embedder=None) as corpus, pytest.raises(InputError):
        corpus.ask("   ", tenant="acme")


def test_a_given_generator_answers(tmp_path: Path) -> None:
    from pincite.generate.base import Generation

    class Declines:
        is_model = False

        def generate(self, question: str, passages: object, **_: object) -> Generation:
            return Generation(claims=(), sufficient_context=False)

    with pincite.open(tmp_path / "a.db", embedder=None, generator=Declines()) as corpus:  # type: ignore[arg-type]
        corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme")
        answer = corpus.ask("How long are customer invoices retained?", tenant="acme")
        assert answer.refused and answer.searched  # retrieved, then the generator declined


def test_erase_refuses_a_chunk_of_another_document(tmp_path: Path) -> None:
    with pincite.open(tmp_path / "a.db", embedder=None) as corpus:
        a = corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme")
        b = corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="acme")
        [version_b] = corpus.versions(b.document_id or "", tenant="acme")
        [chunk_b] = corpus.chunks(version_b)
        with pytest.raises(NotFoundError):
            corpus.erase(a.document_id or "", tenant="acme", chunk_id=chunk_b.chunk_id)
        assert not any(c.erased for c in corpus.chunks(version_b))
        assert corpus.erase(b.document_id or "", tenant="acme", chunk_id=chunk_b.chunk_id) == 1


def test_lexical_ingest_into_an_embedded_store_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    with pincite.open(db, embedder=WordEmbedder()) as corpus:
        corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme")
    with pincite.open(db, embedder=None) as corpus:
        with pytest.raises(ConfigurationError, match="test-words"):
            corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="acme")
        assert [d.uri for d in corpus.documents(tenant="acme")] == ["policy://retention"]
        # Reading without the embedder stays allowed (lexical search).
        assert corpus.retrieve("invoices", tenant="acme").hits


def test_an_embedder_on_a_lexical_store_is_told_to_reindex(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    with pincite.open(db, embedder=None) as corpus:
        corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme")
    with pytest.raises(ConfigurationError, match="reindex"):
        pincite.open(db, embedder=WordEmbedder())


def test_a_changed_dimension_under_the_same_name_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    with pincite.open(db, embedder=WordEmbedder(dim=26)) as corpus:
        corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme")
    with pytest.raises(ConfigurationError, match="26 dimensions"):
        pincite.open(db, embedder=WordEmbedder(dim=13))


def test_reindex_is_scoped_to_its_tenant(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    with pincite.open(db, embedder=None) as corpus:
        corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme")
        corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="globex")
        # Switching a store from lexical to vectors must cover every tenant.
        with pytest.raises(ConfigurationError, match="every tenant"):
            corpus.reindex(WordEmbedder(), tenant="acme")
        assert corpus.reindex(WordEmbedder(), tenant=None) == 2
        seen: list[str] = []
        n = corpus.reindex(WordEmbedder(), tenant="acme", on_document=lambda d: seen.append(d.uri))
        assert (n, seen) == (1, ["policy://retention"])
    with pincite.open(db, embedder=WordEmbedder()) as corpus:
        hits = corpus.retrieve("flight duration", tenant="globex").hits
        assert hits and hits[0].branches.dense_rank is not None


def test_cli_reindex_reaches_the_endpoint_from_the_environment(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    (tmp_path / "policy.txt").write_text(POLICY)
    runner = CliRunner()
    r = runner.invoke(
        cli, ["ingest", str(tmp_path / "policy.txt"), "--db", db, "--embedder", "none"]
    )
    assert r.exit_code == 0, r.output
    # Nothing listens on port 9: the embedder must try that endpoint and fail in one line.
    env = {"PINCITE_BASE_URL": "http://127.0.0.1:9/v1", "PINCITE_API_KEY": "k"}
    r = runner.invoke(cli, ["reindex", "--db", db, "--embedder", "openai:emb"], env=env)
    # Before settings were resolved once, reindex never saw PINCITE_BASE_URL.
    assert "needs a base URL" not in r.output
    assert r.exit_code == 1
    assert "error: embedding endpoint http://127.0.0.1:9/v1/embeddings" in r.output


def test_cli_reindex_of_one_tenant_cannot_switch_a_shared_store(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    with pincite.open(db, embedder=None) as corpus:
        corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme")
        corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="globex")
    r = CliRunner().invoke(cli, ["reindex", "--db", db, "--tenant", "acme", "--embedder", "none"])
    assert r.exit_code == 1 and "needs an embedder" in r.output


def test_a_folder_ingests_in_batches_and_reports_only_committed_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pincite.ingest.batches

    monkeypatch.setattr(pincite.ingest.batches, "BATCH_FILES", 4)
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(10):
        (folder / f"note-{i:02d}.txt").write_text(f"Note {i} says the gate code is {1000 + i}.\n")
    db = tmp_path / "c.db"
    corpus = pincite.open(db, embedder=None)
    other = pincite.open(db, embedder=None)
    seen: list[str] = []
    visible: list[int] = []
    for report in corpus.ingest_paths([folder]):
        assert report.status is pincite.IngestStatus.NEW
        seen.append(report.document_id or "")
        # Another connection already finds every document reported so far.
        committed = {d.document_id for d in other.documents()}
        assert committed >= set(seen)
        visible.append(len(committed))
    # Committed four files at a time: 4, 8, then the last two.
    assert visible == [4] * 4 + [8] * 4 + [10] * 2
    hits = other.retrieve("gate code 1007", k=1)
    assert "1007" in hits.hits[0].chunk.text


def test_erase_inside_a_batch_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    corpus = pincite.open(tmp_path / "c.db", embedder=None)
    report = corpus.ingest_text("The vault code is 4321.", uri="u://vault")
    with corpus.batch(), pytest.raises(ConfigurationError, match="inside a batch"):
        corpus.erase(report.document_id or "")
    assert "4321" in corpus.retrieve("vault code", k=1).hits[0].chunk.text


def test_vectors_asked_for_inside_a_batch_are_made_after_it_commits(tmp_path: Path) -> None:
    calls: list[bool] = []

    class Watching(WordEmbedder):
        def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
            calls.append(corpus.store._batched)  # type: ignore[attr-defined]
            return super().embed_documents(texts)

    corpus = pincite.open(tmp_path / "c.db", embedder=Watching())
    with corpus.batch():
        for i in range(3):
            corpus.ingest_text(f"Note {i}: the badge office opens at {8 + i} am.", uri=f"u://{i}")
        assert calls == [] and corpus.store.vector_coverage("default") == (0, 3)
    assert calls and not any(calls)  # embedded, and never inside the transaction
    assert corpus.store.vector_coverage("default") == (3, 3)
    hit = corpus.retrieve("badge office 10 am", k=1).hits[0]
    assert hit.branches.dense_score is not None


def test_files_are_read_before_their_batch_opens(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(5):
        (folder / f"n{i}.txt").write_text(f"Note {i} names room {100 + i}.\n")
    corpus = pincite.open(tmp_path / "c.db", embedder=None)
    inside: list[bool] = []
    reports = list(
        corpus.ingest_paths(
            [folder],
            on_file=lambda _: inside.append(corpus.store._batched),  # type: ignore[attr-defined]
        )
    )
    assert len(reports) == 5 and inside == [False] * 5  # the write lock waits for no parse


def test_erasure_leaves_no_copy_in_the_dedup_cache(tmp_path: Path) -> None:
    from pincite.retrieve.dedup import normalize_for_dedup

    corpus = pincite.open(tmp_path / "c.db", embedder=None)
    report = corpus.ingest_text("The vault combination is 4321 and never changes.", uri="u://v")
    corpus.retrieve("vault combination", k=3)
    assert normalize_for_dedup.cache_info().currsize > 0
    corpus.erase(report.document_id or "")
    assert normalize_for_dedup.cache_info().currsize == 0


def test_opening_a_missing_store_to_read_it_is_an_error_not_a_new_store(tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    with pytest.raises(ConfigurationError, match="no pincite store at"):
        pincite.open(missing, embedder=None, create=False)
    assert not missing.exists()
    with pytest.raises(ConfigurationError, match="is a directory"):
        pincite.open(tmp_path, embedder=None)
    with pincite.open(missing, embedder=None) as corpus:  # the default still creates it
        assert corpus.store.list_documents("default") == []
    assert missing.exists()
    pincite.open(missing, embedder=None, create=False).close()
