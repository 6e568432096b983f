"""The three evidence tools (search, fetch_evidence, check_citations) over one tenant.

What every in-process agent framework exposes (``pincite.integrations``): one
:class:`EvidenceTools` per run, fixed to one tenant and carrying that run's
:class:`FetchLedger`, so ``check_citations`` calls an id valid only when this
run read it in full. The semantics follow the MCP server's tools: search
returns previews and ids, only complete (``ok``) reads count as fetched, and
invented, unread and foreign ids share one verdict.

A retriever that hands a framework whole chunks has read them in full, so
:meth:`EvidenceTools.retrieve` records what it returns in the ledger through
the same ``fetch_evidence`` path; a chain's final text can then be checked
with :func:`check_answer`. :func:`evidence_metadata` and
:func:`citation_metadata` are what pins a hit or a citation, as the plain
values a framework carries; :func:`numbered_answer` lays a checked answer out
as claims with ``[n]`` and the exact text of each source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pincite.citation import INFERENCE_LABEL, Citation, ClaimKind
from pincite.corpus import Answer, Corpus
from pincite.errors import InputError, UngroundedCitationError
from pincite.ground.check import CitationVerdict, Verdict, check_citations
from pincite.ground.fetch import FetchLedger
from pincite.ground.resolve import excerpt
from pincite.model import Hit
from pincite.tenancy import check_tenant

__all__ = [
    "CHECK_DESCRIPTION",
    "FETCH_DESCRIPTION",
    "SEARCH_DESCRIPTION",
    "CitedSource",
    "EvidenceTools",
    "answer_metadata",
    "check_answer",
    "citation_metadata",
    "claims_metadata",
    "evidence_metadata",
    "numbered_answer",
    "search_results",
]

SEARCH_DESCRIPTION = (
    "Search the workspace's current documents. Returns up to k (1-50) passages with "
    "evidence ids and short previews; fetch a passage with fetch_evidence before citing it."
)
FETCH_DESCRIPTION = (
    "Read the exact stored text behind evidence ids (1-50). Status per id: ok, partial, "
    "truncated, erased, deleted, not_found, malformed. Only ok reads can be cited."
)
CHECK_DESCRIPTION = (
    "Check the evidence ids an answer cites against what this run fetched in full. Give "
    "text (an answer containing ids) or ids (a list). Verdicts: valid, malformed, unfetched."
)
_PREVIEW_CHARS = 300
_MAX_IDS = 50


def evidence_metadata(hit: Hit) -> dict[str, Any]:
    """Everything that pins a hit, as plain JSON values a framework can carry as metadata.

    ``evidence_id`` fetches the same text back (``pincite fetch``); ``start``/``end``
    are code points into the version ``content_hash`` names.
    """
    chunk, branches = hit.chunk, hit.branches
    return {
        "evidence_id": hit.evidence_id,
        "tenant": chunk.tenant,
        "document_id": chunk.document_id,
        "content_hash": chunk.content_hash,
        "hash16": chunk.hash16,
        "chunk_id": chunk.chunk_id,
        "start": chunk.start,
        "end": chunk.end,
        "pages": list(chunk.pages),
        "page_label": chunk.page_label,
        "section": list(chunk.section),
        "title": hit.document.title,
        "uri": hit.document.uri,
        "superseded": hit.superseded,
        "score": hit.score,
        **{k: v for k, v in branches.as_dict().items() if k != "routed"},
    }


def search_results(hits: Sequence[Hit]) -> dict[str, Any]:
    """The ``search`` tool's answer: numbered previews with evidence ids, never whole passages."""
    return {
        "results": [
            {
                "n": n,
                "evidence_id": h.evidence_id,
                "title": h.document.title,
                "uri": h.document.uri,
                "hash16": h.chunk.hash16,
                "pages": list(h.chunk.pages),
                "section": list(h.chunk.section),
                "score": h.score,
                "preview": h.chunk.text[:_PREVIEW_CHARS],
            }
            for n, h in enumerate(hits, start=1)
        ]
    }


class EvidenceTools:
    """search, fetch_evidence and check_citations for one tenant and one run's ledger.

    Every method answers in the tenant given here; a tool has no tenant argument,
    so nothing a model sends can reach another workspace. Bad arguments raise
    ``InputError`` with a one-line message a framework can hand back to the model.
    """

    def __init__(self, corpus: Corpus, *, tenant: str, ledger: FetchLedger | None = None) -> None:
        self.corpus = corpus
        self.tenant = check_tenant(tenant)
        if ledger is not None and ledger.tenant != tenant:
            raise InputError("the ledger belongs to another tenant")
        self.ledger = ledger if ledger is not None else FetchLedger(tenant)

    def retrieve(self, query: str, k: int) -> tuple[Hit, ...]:
        """The top ``k`` hits, each recorded in the ledger as read in full."""
        _check_query(query)
        _check_range("k", k, 1, _MAX_IDS)
        hits = self.corpus.retrieve(query, tenant=self.tenant, k=k).hits
        if hits:
            self.corpus.fetch([h.evidence_id for h in hits], tenant=self.tenant, ledger=self.ledger)
        return hits

    def search(self, query: str, k: int = 8) -> dict[str, Any]:
        _check_query(query)
        _check_range("k", k, 1, _MAX_IDS)
        return search_results(self.corpus.retrieve(query, tenant=self.tenant, k=k).hits)

    def fetch_evidence(self, ids: Sequence[str], max_chars: int | None = None) -> dict[str, Any]:
        if isinstance(ids, str) or not all(isinstance(i, str) for i in ids):
            raise InputError("ids must be a list of evidence id strings")
        _check_range("the number of ids", len(ids), 1, _MAX_IDS)
        outcomes = self.corpus.fetch(
            list(ids), tenant=self.tenant, max_chars=max_chars, ledger=self.ledger
        )
        return {"results": [o.as_dict() for o in outcomes]}

    def check_citations(
        self, text: str | None = None, ids: Sequence[str] | None = None
    ) -> dict[str, Any]:
        if (text is None) == (ids is None):
            raise InputError("give exactly one of 'text' or 'ids'")
        verdicts = self.verdicts(text if text is not None else list(ids or ()))
        return {
            "all_valid": _all_valid(verdicts),
            "verdicts": [{"id": v.id, "verdict": v.verdict.value} for v in verdicts],
        }

    def verdicts(self, text_or_ids: str | Sequence[str]) -> list[CitationVerdict]:
        return check_citations(text_or_ids, self.ledger)

    def check_answer(self, text: str) -> str:
        return check_answer(text, self.ledger)


def check_answer(text: str, ledger: FetchLedger) -> str:
    """Return ``text`` if it cites ids and each was read in full into ``ledger``.

    Fails closed: raises ``UngroundedCitationError`` naming the ids that do not
    hold (malformed, unfetched, or another tenant's), or when the text cites
    nothing; the text is never repaired.
    """
    verdicts = check_citations(text, ledger)
    if _all_valid(verdicts):
        return text
    bad = [v.id for v in verdicts if v.verdict is not Verdict.VALID]
    reason = "cited ids were not fetched in full in this run" if bad else "no evidence id cited"
    raise UngroundedCitationError(reason, bad, sorted(ledger.entries))


def _all_valid(verdicts: Sequence[CitationVerdict]) -> bool:
    return bool(verdicts) and all(v.verdict is Verdict.VALID for v in verdicts)


def _check_query(query: object) -> None:
    if not isinstance(query, str) or not query.strip():
        raise InputError("the query is empty")


def _check_range(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{name} must be between {low} and {high}")


def citation_metadata(citation: Citation) -> dict[str, Any]:
    """What pins one citation of a checked answer, as plain JSON values."""
    branches, locator = citation.branches, citation.locator
    return {
        "evidence_id": citation.evidence_id,
        "citation_id": citation.citation_id,
        "tenant": citation.tenant,
        "document_id": citation.document_id,
        "content_hash": citation.document_version,
        "hash16": citation.hash16,
        "chunk_id": citation.chunk_id,
        "start": citation.span[0],
        "end": citation.span[1],
        "pages": list(locator.pages),
        "page_label": locator.page_label,
        "section": list(locator.section),
        "title": locator.title,
        "uri": locator.uri,
        "superseded": citation.superseded,
        "score": citation.score,
        **{k: v for k, v in branches.as_dict().items() if k != "routed"},
        "retrieved_at": citation.retrieved_at,
    }


@dataclass(frozen=True, slots=True)
class CitedSource:
    """One source of a checked answer: its citation and the exact text it pins."""

    number: int
    citation: Citation
    text: str


def numbered_answer(answer: Answer, corpus: Corpus) -> tuple[str, tuple[CitedSource, ...]]:
    """A checked answer's claims with ``[n]`` markers, and source ``n`` for each marker.

    Sources are the citations the claims rest on, in first-use order, each with
    the exact text its evidence id fetches; a refusal is its message and no
    sources. Raises ``NotFoundError`` if a cited passage became unreadable since.
    """
    if answer.answer is None:
        return " ".join([answer.message, *answer.reasons]).strip(), ()
    cited = answer.answer
    numbers = {cid: n for n, cid in enumerate(cited.provenance(), start=1)}
    sources = tuple(
        CitedSource(n, citation, excerpt(citation, corpus.store))
        for cid, n in numbers.items()
        if (citation := cited.citation(cid)) is not None
    )
    parts = []
    for claim in cited.claims:
        label = f"{INFERENCE_LABEL} " if claim.kind is ClaimKind.INFERENCE else ""
        marks = "".join(f"[{numbers[cid]}]" for cid in dict.fromkeys(claim.citation_ids))
        parts.append(f"{label}{claim.text} {marks}".strip())
    return " ".join(parts), sources


def answer_metadata(answer: Answer) -> dict[str, Any]:
    """What a framework's answer object carries beside its text: outcome, claims, reasons."""
    return {
        "outcome": answer.outcome.value,
        "claims": claims_metadata(answer),
        "reasons": list(answer.reasons),
    }


def claims_metadata(answer: Answer) -> list[dict[str, Any]]:
    """Each claim's text, kind and the evidence ids it rests on."""
    if answer.answer is None:
        return []
    cited = answer.answer
    return [
        {
            "text": claim.text,
            "kind": claim.kind.value,
            "evidence_ids": [c.evidence_id for c in cited.sources(claim)],
        }
        for claim in cited.claims
    ]
