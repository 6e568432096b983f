"""render_citations: evidence ids in an answer become numbered references plus Sources."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pincite.ground.check import CANDIDATE, clean
from pincite.ground.fetch import FetchOutcome, FetchStatus

_RENDERABLE = {FetchStatus.OK, FetchStatus.TRUNCATED, FetchStatus.PARTIAL}


@dataclass(frozen=True, slots=True)
class Source:
    number: int
    title: str
    uri: str
    hash16: str
    superseded: bool
    evidence_ids: tuple[str, ...]

    @property
    def is_link(self) -> bool:
        return self.uri.startswith(("http://", "https://"))

    def line(self) -> str:
        head = f"[{self.number}] "
        head += f"[{self.title}]({self.uri})" if self.is_link else self.title
        head += f" — version {self.hash16}"
        if self.superseded:
            head += " (superseded version)"
        return head


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    sources: tuple[Source, ...]
    unresolved: tuple[str, ...]

    def __str__(self) -> str:
        if not self.sources:
            return self.text
        return self.text + "\n\nSources:\n" + "\n".join(s.line() for s in self.sources)


def render_citations(
    text: str, outcomes: Mapping[str, FetchOutcome] | Iterable[FetchOutcome]
) -> Rendered:
    """Replace each resolvable id with ``[n]``; ids that did not resolve stay as written.

    Numbers follow first appearance; passages of the same document version share
    a number. Links come only from stored uris, never from the answer text.
    """
    by_id = outcomes if isinstance(outcomes, Mapping) else {o.id: o for o in outcomes}
    numbers: dict[tuple[str, str], int] = {}
    members: dict[tuple[str, str], list[str]] = {}
    firsts: dict[tuple[str, str], FetchOutcome] = {}
    unresolved: list[str] = []

    def number(match: re.Match[str]) -> str:
        written = match.group(0)
        raw = clean(written)
        outcome = by_id.get(raw)
        if outcome is None or outcome.status not in _RENDERABLE or outcome.document_id is None:
            if raw not in unresolved:
                unresolved.append(raw)
            return written
        key = (outcome.document_id, outcome.hash16 or "")
        if key not in numbers:
            numbers[key] = len(numbers) + 1
            firsts[key] = outcome
        if raw not in members.setdefault(key, []):
            members[key].append(raw)
        return f"[{numbers[key]}]" + written[len(raw) :]

    rendered = CANDIDATE.sub(number, text)
    sources = tuple(
        Source(
            number=n,
            title=firsts[key].title or key[0],
            uri=firsts[key].uri or "",
            hash16=key[1],
            superseded=firsts[key].superseded,
            evidence_ids=tuple(members[key]),
        )
        for key, n in numbers.items()
    )
    return Rendered(rendered, sources, tuple(unresolved))
