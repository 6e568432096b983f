"""Numbered sources: one (document, version) is one number, in every rendering of an answer.

:func:`render_citations` turns evidence ids in free text (an agent's answer)
into ``[n]``; :func:`render_answer` marks a :class:`CitedAnswer`'s claims the
same way. Both number through :class:`SourceList`, so the terminal, JSON, HTTP
and MCP renderings of one answer agree on every number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pincite.citation import INFERENCE_LABEL, Citation, CitedAnswer, ClaimKind, Rendered, Source
from pincite.ground.check import CANDIDATE, clean
from pincite.ground.fetch import FetchOutcome, FetchStatus

_RENDERABLE = {FetchStatus.OK, FetchStatus.TRUNCATED, FetchStatus.PARTIAL}


@dataclass(slots=True)
class SourceList:
    """Numbers (document, version) pairs once, in order of first use."""

    _firsts: dict[tuple[str, str], Source] = field(default_factory=dict)
    _members: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def number(self, first: Source, document_id: str, evidence_id: str) -> int:
        """The number of ``first``'s (document, version); ``first`` describes it if new."""
        key = (document_id, first.hash16)
        if key not in self._firsts:
            self._firsts[key] = first
            self._members[key] = []
        if evidence_id not in self._members[key]:
            self._members[key].append(evidence_id)
        return list(self._firsts).index(key) + 1

    def sources(self) -> tuple[Source, ...]:
        return tuple(
            Source(
                n,
                s.title,
                s.uri,
                s.hash16,
                s.superseded,
                tuple(self._members[key]),
                s.pages,
                s.section,
            )
            for n, (key, s) in enumerate(self._firsts.items(), start=1)
        )


def render_citations(
    text: str, outcomes: Mapping[str, FetchOutcome] | Iterable[FetchOutcome]
) -> Rendered:
    """Replace each resolvable id with ``[n]``; ids that did not resolve stay as written.

    Numbers follow first appearance; passages of the same document version share
    a number. Links come only from stored uris, never from the answer text.
    """
    by_id = outcomes if isinstance(outcomes, Mapping) else {o.id: o for o in outcomes}
    numbering = SourceList()
    unresolved: list[str] = []

    def number(match: re.Match[str]) -> str:
        written = match.group(0)
        raw = clean(written)
        o = by_id.get(raw)
        if o is None or o.status not in _RENDERABLE or o.document_id is None:
            if raw not in unresolved:
                unresolved.append(raw)
            return written
        first = Source(
            0, o.title or o.document_id, o.uri or "", o.hash16 or "", o.superseded, (), o.pages,
            o.section,
        )  # fmt: skip
        return f"[{numbering.number(first, o.document_id, raw)}]" + written[len(raw) :]

    rendered = CANDIDATE.sub(number, text)
    return Rendered(rendered, numbering.sources(), tuple(unresolved))


def render_answer(answer: CitedAnswer, notes: Mapping[int, str] | None = None) -> Rendered:
    """The claims with ``[n]`` markers (claim ``i`` followed by ``notes[i]``), and their sources."""
    numbering = SourceList()
    body = []
    for i, claim in enumerate(answer.claims):
        marks = dict.fromkeys(
            f"[{numbering.number(_source_of(c), c.document_id, c.evidence_id)}]"
            for c in answer.sources(claim)
        )
        label = f"{INFERENCE_LABEL} " if claim.kind is ClaimKind.INFERENCE else ""
        note = (notes or {}).get(i, "")
        body.append(f"{label}{claim.text} {''.join(marks)}".rstrip() + note)
    return Rendered(" ".join(body), numbering.sources())


def _source_of(c: Citation) -> Source:
    loc = c.locator
    return Source(0, loc.title, loc.uri, c.hash16, c.superseded, (), loc.pages, loc.section)
