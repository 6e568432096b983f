"""Conversations that remember: each turn searched as a standalone question, kept per tenant.

A :class:`Conversation` is a stored sequence of turns. Asking in one rewrites
the turn into the question a search needs (``pincite.generate.rewrite``: one
forced ``condense_question`` call when the generator is a model that offers
it, the deterministic rewrite otherwise),
answers it through the corpus exactly like ``Corpus.ask`` (so citations are
per turn: a claim cites only passages retrieved for its own turn), and stores
the turn: the question asked, the standalone question searched, the answer
(claims, citations as evidence ids with their versions, support verdicts),
the outcome and the running summary.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pincite import ids
from pincite.answer.pipeline import AnswerResult, SupportPolicy, answer_question
from pincite.errors import EvidenceIdError, InputError, NotFoundError
from pincite.generate.base import Exchange, Generator
from pincite.generate.rewrite import HISTORY_TURNS, Rewritten, rewrite_turn
from pincite.model import Chunk
from pincite.present.answer import answer_json
from pincite.retrieve.search import SearchOptions
from pincite.store.conversations import ConversationRecord, TurnRecord
from pincite.store.erasure import ERASED_TITLE, derived_from, erased_uri
from pincite.tenancy import DEFAULT_TENANT, check_tenant

if TYPE_CHECKING:
    from pincite.corpus import Corpus

__all__ = ["Conversation", "ConversationTurn", "delete_conversation", "list_conversations"]

# The running summary keeps the last few exchanges: enough for a model to
# follow the thread, short enough to stay a small part of its prompt.
SUMMARY_TURNS = 4
_SUMMARY_ANSWER_CHARS = 200
# How much of an earlier answer the condense call sees: its gist, not its quotes.
_HISTORY_ANSWER_CHARS = 600
TITLE_CHARS = 80


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True, slots=True)
class ConversationTurn:
    """One stored turn; ``answer`` is the answer as ``answer_json`` writes it."""

    seq: int
    question: str
    standalone: str
    outcome: str
    message: str
    summary: str
    created_at: str
    answer: dict[str, Any]

    @classmethod
    def from_record(cls, record: TurnRecord) -> ConversationTurn:
        data = record.payload()
        return cls(
            seq=record.seq,
            question=str(data.get("asked", data.get("question", ""))),
            standalone=str(data.get("standalone", data.get("question", ""))),
            outcome=str(data.get("outcome", "")),
            message=str(data.get("message", "")),
            summary=str(data.get("running_summary", data.get("summary", ""))),
            created_at=record.created_at,
            answer=data,
        )

    @property
    def rewritten_by(self) -> str:
        """``asked``, ``model`` or ``offline``: what made the standalone question."""
        return str(self.answer.get("rewrite", ""))

    def exchange(self) -> Exchange:
        """The turn as the next turn's rewrite reads it."""
        claims = " ".join(str(c.get("text", "")) for c in self.answer.get("claims", []))
        said = claims or f"({self.outcome}) {self.message}"
        return Exchange(self.question, self.standalone, said[:_HISTORY_ANSWER_CHARS])

    @property
    def evidence_ids(self) -> tuple[str, ...]:
        """The evidence ids the turn's claims cite, in order, without repeats."""
        cited = [str(c.get("evidence_id")) for c in self.answer.get("citations", [])]
        return tuple(dict.fromkeys(cited))

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "question": self.question,
            "standalone": self.standalone,
            "outcome": self.outcome,
            "message": self.message,
            "summary": self.summary,
            "created_at": self.created_at,
            "answer": self.answer,
        }


class Conversation:
    """A tenant's stored conversation; ``ask`` answers a turn in its context and keeps it."""

    def __init__(self, corpus: Corpus, record: ConversationRecord) -> None:
        self.corpus = corpus
        self.record = record
        # How the latest ``ask`` was searched (for adapters to show a fallback note).
        self.last_rewrite: Rewritten | None = None

    @property
    def id(self) -> str:
        return self.record.conversation_id

    @property
    def tenant(self) -> str:
        return self.record.tenant

    @property
    def title(self) -> str:
        return self.record.title

    def turns(self) -> list[ConversationTurn]:
        return [
            ConversationTurn.from_record(r) for r in self.corpus.store.turns(self.tenant, self.id)
        ]

    def ask(
        self,
        question: str,
        *,
        k: int = 6,
        policy: SupportPolicy | str = SupportPolicy.REJECT,
        options: SearchOptions | None = None,
        generator: Generator | None = None,
    ) -> AnswerResult:
        """Answer ``question`` as a turn of this conversation and store the turn.

        The result's ``question`` is the standalone question that was searched.
        ``generator`` answers instead of the corpus's own (a server's, say).
        A model generator that offers ``condense`` rewrites a follow-up first
        (one forced tool call, then the answer call); if its reply is unusable
        the offline rewrite is searched and ``last_rewrite`` says so (``note``)
        and why (``error``).
        Raises ``NotFoundError`` when the conversation was deleted meanwhile and
        ``ConcurrentWriteError`` when another writer appended a turn first.
        """
        if not question.strip():
            raise InputError("the question is empty")
        turns = self.turns()
        rewritten = rewrite_turn(
            question,
            [t.exchange() for t in turns[-HISTORY_TURNS:]],
            summary=turns[-1].summary if turns else "",
            generator=generator if generator is not None else self.corpus.generator,
        )
        searched, summary = rewritten.standalone, rewritten.summary
        if generator is None:
            result = self.corpus.ask(
                searched, tenant=self.tenant, k=k, policy=policy, options=options, summary=summary
            )
        else:
            result = answer_question(
                self.corpus,
                searched,
                generator,
                tenant=self.tenant,
                k=k,
                options=options,
                support=self.corpus.support,
                policy=SupportPolicy(policy),
                summary=summary,
            )
        data = answer_json(result)
        data["asked"] = question.strip()
        data["standalone"] = searched
        data["rewrite"] = rewritten.by
        # Beside ``generator_calls`` (the answer and its repair): the model's cost of the turn.
        data["rewrite_calls"] = rewritten.calls
        if rewritten.note:
            data["rewrite_note"] = rewritten.note
        data["running_summary"] = _running_summary(summary, result, searched)
        record = TurnRecord(
            self.tenant, self.id, len(turns), _now(), json.dumps(data, ensure_ascii=False)
        )
        if not self.corpus.store.append_turn(record):
            raise NotFoundError("conversation", self.id)
        self.record = self.corpus.store.conversation(self.tenant, self.id) or self.record
        self.last_rewrite = rewritten
        return result


def _running_summary(before: str, result: AnswerResult, searched: str) -> str:
    """The model's updated summary when it wrote one; otherwise the last exchanges, in order."""
    if result.summary and result.summary != before:
        return result.summary
    if result.answer is not None and result.answer.claims:
        said = result.answer.claims[0].text[:_SUMMARY_ANSWER_CHARS]
    else:
        said = f"({result.outcome.value}) {result.message}"
    lines = [line for line in before.splitlines() if line.strip()]
    lines.append(f"Q: {searched} A: {said}")
    return "\n".join(lines[-SUMMARY_TURNS:])


def open_conversation(
    corpus: Corpus,
    conversation_id: str | None = None,
    *,
    tenant: str = DEFAULT_TENANT,
    title: str = "",
) -> Conversation:
    """A stored conversation (another tenant's reads as missing), or a new one if ``None``."""
    check_tenant(tenant)
    if conversation_id is None:
        now = _now()
        record = ConversationRecord(
            tenant, str(uuid.uuid4()), title.strip()[:TITLE_CHARS], now, now
        )
        corpus.store.create_conversation(record)
        return Conversation(corpus, record)
    found = corpus.store.conversation(tenant, conversation_id)
    if found is None:
        raise NotFoundError("conversation", conversation_id)
    return Conversation(corpus, found)


def list_conversations(corpus: Corpus, *, tenant: str = DEFAULT_TENANT) -> list[Conversation]:
    """The tenant's conversations, most recently updated first."""
    return [Conversation(corpus, r) for r in corpus.store.conversations(check_tenant(tenant))]


def delete_conversation(
    corpus: Corpus, conversation_id: str, *, tenant: str = DEFAULT_TENANT
) -> None:
    """Remove a conversation and its turns; ``NotFoundError`` when there is none."""
    if not corpus.store.delete_conversation(check_tenant(tenant), conversation_id):
        raise NotFoundError("conversation", conversation_id)


# Put where erased text stood in a stored turn.
ERASED_TEXT = "[erased]"


def erased_by(chunk: Chunk | None) -> Callable[[str], bool]:
    """Which evidence ids of a document an erasure takes: all, or those inside ``chunk``."""
    if chunk is None:
        return lambda _: True

    def inside(evidence_id: str) -> bool:
        try:
            ref = ids.decode(evidence_id)
        except EvidenceIdError:
            return False
        if isinstance(ref, ids.ChunkRef):
            return ref.chunk_id == chunk.chunk_id
        return ref.hash16 == chunk.hash16 and ref.start < chunk.end and chunk.start < ref.end

    return inside


def scrub_turns(
    corpus: Corpus,
    document_id: str,
    *,
    tenant: str,
    gone: Callable[[str], bool],
    erased_texts: Sequence[str] | None,
) -> int:
    """Before an erasure or purge: blank the document's text that stored turns copied.

    A claim is written from the passages it cites (the extractive generator
    quotes them), so a claim citing an id of ``document_id`` for which
    ``gone`` holds loses its text and quote; the running summaries from that
    turn on are cleared, since each carries earlier answers forward, and a
    later standalone question a model wrote becomes the question as asked; the
    locators lose what the store's erasure blanks (``erased_texts`` is the
    erased chunk's text, ``None`` for the whole document). Evidence
    ids stay, so an audit still sees what the answer rested on (invariant 7).
    Runs before the store erases, so the SQLite erasure's checkpoint also
    folds these rewrites out of the log. Returns the turns changed.
    """
    store = corpus.store
    changed = 0
    for conversation in store.conversations(tenant):
        scrubbed_from: int | None = None
        for record in store.turns(tenant, conversation.conversation_id):
            data = record.payload()
            cites = data.get("citations", [])
            taken = {
                c["evidence_id"]
                for c in cites
                if c.get("document_id") == document_id and gone(str(c.get("evidence_id")))
            }
            for c in cites:
                if c.get("document_id") == document_id and isinstance(c.get("locator"), dict):
                    _blank_locator(
                        c["locator"], document_id, erased_texts, taken=c["evidence_id"] in taken
                    )
            # The numbered sources repeat each cited document's title, uri and section.
            for source in data.get("sources", []):
                eids = [str(e) for e in source.get("evidence_ids", [])]
                if any(_document_of(e) == document_id for e in eids):
                    _blank_locator(source, document_id, erased_texts, taken=bool(taken & set(eids)))
            if taken:
                by_id = {c["citation_id"]: c["evidence_id"] for c in cites}
                for claim in data.get("claims", []):
                    if any(by_id.get(i) in taken for i in claim.get("citation_ids", [])):
                        claim["text"], claim["quote"] = ERASED_TEXT, None
                for conflict in data.get("conflicts", []):
                    if set(conflict.get("evidence_ids", [])) & taken:
                        conflict["description"] = ERASED_TEXT
                if scrubbed_from is None:
                    scrubbed_from = record.seq
            if scrubbed_from is not None:
                data["running_summary"] = data["summary"] = ""
                if record.seq > scrubbed_from and data.get("rewrite") == "model":
                    # A model's standalone question may carry words of an erased answer.
                    data["standalone"] = data["question"] = data.get("asked", "")
            if data != record.payload():
                text = json.dumps(data, ensure_ascii=False)
                store.replace_turn(
                    TurnRecord(tenant, record.conversation_id, record.seq, record.created_at, text)
                )
                changed += 1
    return changed


def _document_of(evidence_id: str) -> str | None:
    try:
        return ids.decode(evidence_id).document_id
    except EvidenceIdError:
        return None


def _blank_locator(
    locator: dict[str, Any],
    document_id: str,
    erased_texts: Sequence[str] | None,
    *,
    taken: bool,
) -> None:
    """The store's erasure rules (``pincite.store.erasure``) applied to a stored locator."""
    if erased_texts is None:
        locator["title"], locator["uri"], locator["section"] = (
            ERASED_TITLE,
            erased_uri(document_id),
            [],
        )
        return
    title, section = str(locator.get("title", "")), list(locator.get("section", []))
    removed = derived_from(title, [section], erased_texts)
    if title in removed:
        locator["title"] = ERASED_TITLE
    locator["section"] = [] if taken else [x for x in section if x not in removed]
