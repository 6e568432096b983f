"""Conversations through the facade: follow-ups searched in context, turns stored per tenant."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

import pincite
from conversation_texts import RETENTION, TRAVEL, TURNS
from pincite.conversation import delete_conversation, list_conversations
from pincite.embed.base import Embedder
from pincite.errors import InputError, NotFoundError
from pincite.generate.base import GeneratedClaim, Generation, Passage
from pincite.generate.words import content_stems


def _open(path: Path, embedder: Embedder) -> pincite.Corpus:
    corpus = pincite.open(path, embedder=embedder)
    if not corpus.documents(tenant="acme"):
        corpus.ingest_text(RETENTION, uri="policy://retention", tenant="acme")
        corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="acme")
    return corpus


def _uris(answer: pincite.Answer) -> set[str]:
    assert answer.answer is not None, answer.message
    return {c.locator.uri for c in answer.answer.citations}


def test_follow_ups_search_in_context_and_cite_their_own_turn(
    tmp_path: Path, embedder: Embedder
) -> None:
    with _open(tmp_path / "c.db", embedder) as corpus:
        conversation = corpus.conversation(tenant="acme", title=TURNS[0])
        answers = [conversation.ask(q) for q in TURNS]
        # Alone, a follow-up cannot tell the policies apart: each of its words is in
        # both or in neither ("stored", "approves ... deletion"), so only the
        # conversation's context can make it cite the retention policy alone.
        retention, travel = set(content_stems(RETENTION)), set(content_stems(TRAVEL))
        for q in TURNS[1:]:
            words = content_stems(q)
            assert words and all((w in retention) == (w in travel) for w in words), q
        for answer in answers:
            assert _uris(answer) == {"policy://retention"}
        assert answers[1].answer is not None and answers[2].answer is not None
        assert any("encrypted archive" in c.text for c in answers[1].answer.claims)
        assert any("finance director" in c.text for c in answers[2].answer.claims)
        turns = conversation.turns()
        assert [t.question for t in turns] == list(TURNS)
        assert turns[0].standalone == TURNS[0]
        # The offline generator offers no condense call: the deterministic rewrite searched.
        assert [t.rewritten_by for t in turns] == ["asked", "offline", "offline"]
        for t in turns[1:]:
            assert "invoices" in t.standalone.casefold() and t.standalone != t.question
        for t, answer in zip(turns, answers, strict=True):
            assert t.standalone == answer.question
            assert t.outcome == "answered"
            # Citations are per turn: every cited id was retrieved for this turn.
            assert t.evidence_ids
            assert set(t.evidence_ids) <= set(t.answer["searched"]) | {
                c.evidence_id
                for c in answer.answer.citations  # type: ignore[union-attr]
            }
            for c in answer.answer.citations:  # type: ignore[union-attr]
                assert any(c.chunk_id == s.chunk_id for s in answer.searched)
        # The running summary grows with the turns it has seen.
        assert turns[2].summary.count("Q: ") == 3
        assert conversation.record.turn_count == 3


def test_a_reopened_conversation_goes_on_where_it_stopped(
    tmp_path: Path, embedder: Embedder
) -> None:
    with _open(tmp_path / "c.db", embedder) as corpus:
        first = corpus.conversation(tenant="acme")
        first.ask(TURNS[0])
        cid = first.id
    with _open(tmp_path / "c.db", embedder) as corpus:
        again = corpus.conversation(cid, tenant="acme")
        answer = again.ask(TURNS[1])
        assert "invoices" in answer.question.casefold()
        assert [t.seq for t in again.turns()] == [0, 1]


def test_another_tenants_conversation_is_missing(tmp_path: Path, embedder: Embedder) -> None:
    with _open(tmp_path / "c.db", embedder) as corpus:
        mine = corpus.conversation(tenant="acme")
        mine.ask(TURNS[0])
        with pytest.raises(NotFoundError) as other:
            corpus.conversation(mine.id, tenant="globex")
        with pytest.raises(NotFoundError) as missing:
            corpus.conversation("no-such-id", tenant="globex")
        assert str(other.value) == str(missing.value).replace("no-such-id", mine.id)
        with pytest.raises(NotFoundError):
            delete_conversation(corpus, mine.id, tenant="globex")
        assert [c.id for c in list_conversations(corpus, tenant="globex")] == []
        assert [c.id for c in list_conversations(corpus, tenant="acme")] == [mine.id]
        delete_conversation(corpus, mine.id, tenant="acme")
        with pytest.raises(NotFoundError):
            corpus.conversation(mine.id, tenant="acme")


def test_an_empty_question_is_refused_before_anything_is_stored(
    tmp_path: Path, embedder: Embedder
) -> None:
    with _open(tmp_path / "c.db", embedder) as corpus:
        conversation = corpus.conversation(tenant="acme")
        with pytest.raises(InputError):
            conversation.ask("   ")
        assert conversation.turns() == []


def test_a_deleted_conversation_cannot_take_a_turn(tmp_path: Path, embedder: Embedder) -> None:
    with _open(tmp_path / "c.db", embedder) as corpus:
        conversation = corpus.conversation(tenant="acme")
        delete_conversation(corpus, conversation.id, tenant="acme")
        with pytest.raises(NotFoundError):
            conversation.ask(TURNS[0])


class SummaryModel:
    """A protocol double of a model generator: cites passage 1, writes its own running summary."""

    name = "summary-double"
    is_model = True

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        summary: str = "",
        feedback: str | None = None,
    ) -> Generation:
        self.seen.append((question, summary))
        first = passages[0]
        claim = GeneratedClaim(first.text.split(". ")[0] + ".", (1,), "inference")
        return Generation((claim,), True, summary=f"{summary}|turn {len(self.seen)}")


def test_a_models_running_summary_is_kept_and_handed_to_the_next_turn(
    tmp_path: Path, embedder: Embedder
) -> None:
    model = SummaryModel()
    with _open(tmp_path / "c.db", embedder) as corpus:
        corpus.generator = model
        conversation = corpus.conversation(tenant="acme")
        for q in TURNS:
            assert not conversation.ask(q).refused
        assert [s for _, s in model.seen] == ["", "|turn 1", "|turn 1|turn 2"]
        assert [q for q, _ in model.seen][1] == "Where are customer invoices stored?"
        assert [t.summary for t in conversation.turns()][-1] == "|turn 1|turn 2|turn 3"
