"""Answers as the API returns them: claims with [n] markers, sources as viewer links."""

from __future__ import annotations

from collections.abc import Callable

from pincite.ground.answer import AnswerResult
from pincite.ground.cite import Citation, ClaimKind
from pincite.ground.present import answer_json
from pincite.server.schemas import AnswerOut, SourceOut


def answer_out(result: AnswerResult, link: Callable[[str], str]) -> AnswerOut:
    """``answer_json`` plus rendered text whose numbered sources open in the viewer."""
    data = answer_json(result)
    for citation in data.get("citations", []):
        citation["view_url"] = link(citation["evidence_id"])
    sources: list[SourceOut] = []
    if result.answer is None:
        text = "\n".join([result.message, *(f"reason: {r}" for r in result.reasons)])
    else:
        numbers: dict[tuple[str, str], int] = {}
        members: dict[int, list[Citation]] = {}
        body = []
        for claim in result.answer.claims:
            marks = []
            for c in result.answer.sources(claim):
                n = numbers.setdefault((c.document_id, c.document_version), len(numbers) + 1)
                if c not in members.setdefault(n, []):
                    members[n].append(c)
                marks.append(f"[{n}]")
            label = "(Inference) " if claim.kind is ClaimKind.INFERENCE else ""
            body.append(f"{label}{claim.text} {''.join(dict.fromkeys(marks))}".rstrip())
        for n, cites in members.items():
            first = cites[0]
            ids = list(dict.fromkeys(c.evidence_id for c in cites))
            sources.append(
                SourceOut(
                    number=n,
                    title=first.locator.title,
                    uri=first.locator.uri,
                    hash16=first.hash16,
                    superseded=first.superseded,
                    view_url=link(ids[0]),
                    evidence_ids=ids,
                    view_urls=[link(i) for i in ids],
                )
            )
        text = (
            " ".join(body)
            + "\n\nSources:\n"
            + "\n".join(_line(s, members[s.number][0]) for s in sources)
        )
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


def _line(source: SourceOut, first: Citation) -> str:
    line = f"[{source.number}] [{_md(source.title)}]({source.view_url}) — version {source.hash16}"
    if source.superseded:
        line += " (superseded version)"
    if first.locator.pages:
        line += f", p. {','.join(map(str, first.locator.pages))}"
    if first.locator.section:
        line += f", § {' > '.join(first.locator.section)}"
    return line


def _md(text: str) -> str:
    """A title safe inside a Markdown link label."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
