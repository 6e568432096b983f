"""Turning an AnswerResult into text for people and JSON for programs."""

from __future__ import annotations

from typing import Any

from pincite.ground.answer import AnswerResult
from pincite.ground.cite import Citation, ClaimKind
from pincite.ground.fetch import FetchStatus, fetch_evidence
from pincite.store.base import Store


def _source_key(c: Citation) -> tuple[str, str]:
    return (c.document_id, c.document_version)


def format_answer(result: AnswerResult, store: Store, *, excerpt_chars: int = 400) -> str:
    """The answer with [n] markers per claim, then numbered Sources with exact excerpts."""
    if result.refused or result.answer is None:
        lines = [result.message]
        lines += [f"  reason: {r}" for r in result.reasons]
        if result.searched:
            lines.append("Searched:")
            seen: set[tuple[str, str]] = set()
            for c in result.searched:
                if _source_key(c) not in seen:
                    seen.add(_source_key(c))
                    lines.append(f"  - {c.locator.title} (version {c.hash16})")
        return "\n".join(lines)
    answer = result.answer
    numbers: dict[tuple[str, str], int] = {}
    used: dict[int, list[Citation]] = {}
    body = []
    for i, claim in enumerate(answer.claims):
        marks = []
        for c in answer.sources(claim):
            n = numbers.setdefault(_source_key(c), len(numbers) + 1)
            used.setdefault(n, []).append(c)
            marks.append(f"[{n}]")
        label = "(inference) " if claim.kind is ClaimKind.INFERENCE else ""
        verdict = result.support.get(i)
        note = f" {{support: {verdict.verdict.value} {verdict.score:.2f}}}" if verdict else ""
        body.append(f"{label}{claim.text} {''.join(dict.fromkeys(marks))}{note}")
    lines = [" ".join(body)]
    for conflict in result.conflicts:
        sides = "; ".join(
            f"{c.locator.title} (version {c.hash16}, retrieved {c.retrieved_at[:10]})"
            for c in conflict.citations
        )
        lines.append(f"\nConflict: {conflict.description} — {sides}")
    lines.append("\nSources:")
    for n, cites in used.items():
        first = cites[0]
        loc = first.locator
        head = f"[{n}] {loc.title} — version {first.hash16}"
        if first.superseded:
            head += " (superseded version)"
        if loc.pages:
            head += f", p. {','.join(map(str, loc.pages))}"
        if loc.section:
            head += f", § {' > '.join(loc.section)}"
        lines.append(head)
        if loc.uri.startswith(("http://", "https://")):
            lines.append(f"    {loc.uri}")
        outcomes = fetch_evidence(store, [c.evidence_id for c in cites], tenant=first.tenant)
        for c, o in zip(cites, outcomes, strict=True):
            lines.append(f"    {c.evidence_id}")
            if o.status is FetchStatus.OK:
                text = " ".join(o.text.split())
                if len(text) > excerpt_chars:
                    text = text[:excerpt_chars] + " …"
                lines.append(f"    “{text}”")
            else:
                lines.append(f"    ({o.status.value})")
    return "\n".join(lines)


def citation_json(c: Citation) -> dict[str, Any]:
    b = c.branches
    return {
        "citation_id": c.citation_id,
        "evidence_id": c.evidence_id,
        "document_id": c.document_id,
        "document_version": c.document_version,
        "hash16": c.hash16,
        "chunk_id": c.chunk_id,
        "span": list(c.span),
        "tenant": c.tenant,
        "score": c.score,
        "superseded": c.superseded,
        "retrieved_at": c.retrieved_at,
        "locator": {
            "uri": c.locator.uri,
            "title": c.locator.title,
            "pages": list(c.locator.pages),
            "page_label": c.locator.page_label,
            "section": list(c.locator.section),
        },
        "branches": b.as_dict(),
    }


def answer_json(result: AnswerResult) -> dict[str, Any]:
    data: dict[str, Any] = {
        "question": result.question,
        "tenant": result.tenant,
        "outcome": result.outcome.value,
        "message": result.message,
        "reasons": list(result.reasons),
        "generator_calls": result.generator_calls,
        "summary": result.summary,
        "searched": [c.evidence_id for c in result.searched],
    }
    if result.answer is not None:
        data["claims"] = [
            {
                "text": cl.text,
                "kind": cl.kind.value,
                "citation_ids": list(cl.citation_ids),
                "quote": cl.quote,
                "support": (
                    {
                        "verdict": v.verdict.value,
                        "score": v.score,
                        "sentence_ids": list(v.sentence_ids),
                    }
                    if (v := result.support.get(i))
                    else None
                ),
            }
            for i, cl in enumerate(result.answer.claims)
        ]
        data["citations"] = [citation_json(c) for c in result.answer.citations]
        data["conflicts"] = [
            {"description": cf.description, "evidence_ids": [c.evidence_id for c in cf.citations]}
            for cf in result.conflicts
        ]
    return data
