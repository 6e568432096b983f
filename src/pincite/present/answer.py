"""Turning an AnswerResult into text for people and JSON for programs."""

from __future__ import annotations

from typing import Any

from pincite.answer.pipeline import AnswerResult
from pincite.citation import Citation, Rendered, Source
from pincite.ground.fetch import FetchStatus, fetch_evidence
from pincite.present.render import render_answer
from pincite.store.base import Store


def rendered_answer(result: AnswerResult, *, notes: bool = False) -> Rendered | None:
    """The answer with ``[n]`` markers and its numbered sources; None for a refusal.

    Every renderer starts here, so an answer's sources carry the same numbers
    in the terminal, in JSON, over HTTP and over MCP. ``notes`` appends each
    claim's support verdict.
    """
    if result.refused:
        return None
    if result.rendered is not None:
        return result.rendered
    if result.answer is None:
        return None
    marks = {i: f" {{support: {v.verdict.value} {v.score:.2f}}}" for i, v in result.support.items()}
    return render_answer(result.answer, marks if notes else None)


def format_answer(result: AnswerResult, store: Store, *, excerpt_chars: int = 400) -> str:
    """The answer with [n] markers per claim, then numbered Sources with exact excerpts."""
    rendered = rendered_answer(result, notes=True)
    if rendered is None:
        lines = [result.message]
        lines += [f"  reason: {r}" for r in result.reasons]
        if result.searched:
            lines.append("Searched:")
            seen: set[tuple[str, str]] = set()
            for c in result.searched:
                if (c.document_id, c.hash16) not in seen:
                    seen.add((c.document_id, c.hash16))
                    lines.append(f"  - {c.locator.title} (version {c.hash16})")
        return "\n".join(lines)
    lines = [rendered.text]
    for conflict in result.conflicts:
        sides = "; ".join(
            f"{c.locator.title} (version {c.hash16}, retrieved {c.retrieved_at[:10]})"
            for c in conflict.citations
        )
        lines.append(f"\nConflict: {conflict.description} — {sides}")
    lines.append("\nSources:")
    for source in rendered.sources:
        lines.append(source.line())
        if source.is_link:
            lines.append(f"    {source.uri}")
        outcomes = fetch_evidence(store, source.evidence_ids, tenant=result.tenant)
        for o in outcomes:
            lines.append(f"    {o.id}")
            if o.status is FetchStatus.OK:
                text = " ".join(o.text.split())
                if len(text) > excerpt_chars:
                    text = text[:excerpt_chars] + " …"
                lines.append(f"    “{text}”")
            else:
                lines.append(f"    ({o.status.value})")
    return "\n".join(lines)


def source_json(source: Source) -> dict[str, Any]:
    return {
        "number": source.number,
        "title": source.title,
        "uri": source.uri,
        "hash16": source.hash16,
        "superseded": source.superseded,
        "evidence_ids": list(source.evidence_ids),
        "pages": list(source.pages),
        "section": list(source.section),
    }


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
    rendered = rendered_answer(result)
    if rendered is not None:
        data["sources"] = [source_json(s) for s in rendered.sources]
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
