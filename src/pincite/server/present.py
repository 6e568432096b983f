"""Answers as the API returns them: claims with [n] markers, sources as viewer links."""

from __future__ import annotations

from collections.abc import Callable

from pincite.answer.pipeline import AnswerResult
from pincite.present.answer import answer_json, rendered_answer
from pincite.server.schemas import AnswerOut, SourceOut


def answer_out(result: AnswerResult, link: Callable[[str], str]) -> AnswerOut:
    """``answer_json`` plus rendered text whose numbered sources open in the viewer."""
    data = answer_json(result)
    for citation in data.get("citations", []):
        citation["view_url"] = link(citation["evidence_id"])
    rendered = rendered_answer(result)
    sources: list[SourceOut] = []
    if rendered is None:
        text = "\n".join([result.message, *(f"reason: {r}" for r in result.reasons)])
    else:
        lines = [s.line(link(s.evidence_ids[0])) for s in rendered.sources]
        text = rendered.text + "\n\nSources:\n" + "\n".join(lines)
        sources = [
            SourceOut(
                number=s.number,
                title=s.title,
                uri=s.uri,
                hash16=s.hash16,
                superseded=s.superseded,
                view_url=link(s.evidence_ids[0]),
                evidence_ids=list(s.evidence_ids),
                view_urls=[link(i) for i in s.evidence_ids],
            )
            for s in rendered.sources
        ]
    return AnswerOut(
        question=result.question,
        outcome=result.outcome.value,
        message=result.message,
        text=text,
        sources=sources,
        claims=data.get("claims", []),
        citations=data.get("citations", []),
        reasons=list(result.reasons),
        searched=data["searched"],
    )
