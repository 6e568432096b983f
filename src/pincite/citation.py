"""The values an answer is made of: citations, claims, cited answers, numbered sources.

Plain frozen data: nothing here reads a store or trusts a model. They are made
by :func:`pincite.ground.cite.cite` (from retrieval) and by the renderers in
:mod:`pincite.present.render` (numbering); everything above reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pincite.model import Branches


@dataclass(frozen=True, slots=True)
class Locator:
    uri: str
    title: str
    pages: tuple[int, ...] = ()
    page_label: str | None = None
    section: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Citation:
    """One retrieved passage (or a sentence inside it), pinned to its version."""

    citation_id: str
    evidence_id: str
    document_id: str
    document_version: str
    chunk_id: str
    span: tuple[int, int]
    tenant: str
    score: float
    branches: Branches
    retrieved_at: str
    locator: Locator
    superseded: bool = False

    @property
    def hash16(self) -> str:
        return self.document_version[:16]


# How every rendering marks an inference claim; one spelling everywhere.
INFERENCE_LABEL = "(Inference)"


class ClaimKind(StrEnum):
    FACT = "fact"
    INFERENCE = "inference"


@dataclass(frozen=True, slots=True)
class Claim:
    text: str
    citation_ids: tuple[str, ...] = ()
    kind: ClaimKind = ClaimKind.FACT
    quote: str | None = None


@dataclass(frozen=True, slots=True)
class CitedAnswer:
    """Claims and the citations they rest on (many-to-many; citation ids unique)."""

    claims: tuple[Claim, ...]
    citations: tuple[Citation, ...]

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for c in self.citations:
            if c.citation_id in seen:
                raise ValueError(f"duplicate citation id {c.citation_id!r}")
            seen.add(c.citation_id)

    @property
    def text(self) -> str:
        return " ".join(
            c.text if c.kind is ClaimKind.FACT else f"{INFERENCE_LABEL} {c.text}"
            for c in self.claims
        )

    def citation(self, citation_id: str) -> Citation | None:
        return next((c for c in self.citations if c.citation_id == citation_id), None)

    def sources(self, claim: Claim) -> list[Citation]:
        return [c for cid in claim.citation_ids if (c := self.citation(cid)) is not None]

    def provenance(self) -> list[str]:
        """Every citation id some claim rests on, in first-use order."""
        return list(dict.fromkeys(cid for claim in self.claims for cid in claim.citation_ids))


@dataclass(frozen=True, slots=True)
class Source:
    """One numbered (document, version), shown as its first cited passage locates it."""

    number: int
    title: str
    uri: str
    hash16: str
    superseded: bool
    evidence_ids: tuple[str, ...]
    pages: tuple[int, ...] = ()
    section: tuple[str, ...] = ()

    @property
    def is_link(self) -> bool:
        return self.uri.startswith(("http://", "https://"))

    def line(self, link: str | None = None) -> str:
        """``[n] title — version …``; the title links to ``link`` when one is given."""
        head = f"[{self.number}] "
        head += f"[{_md(self.title)}]({link})" if link else self.title
        head += f" — version {self.hash16}"
        if self.superseded:
            head += " (superseded version)"
        if self.pages:
            head += f", p. {','.join(map(str, self.pages))}"
        if self.section:
            head += f", § {' > '.join(self.section)}"
        return head


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    sources: tuple[Source, ...]
    unresolved: tuple[str, ...] = ()

    def __str__(self) -> str:
        if not self.sources:
            return self.text
        lines = (s.line(s.uri if s.is_link else None) for s in self.sources)
        return self.text + "\n\nSources:\n" + "\n".join(lines)


def _md(text: str) -> str:
    """A title safe inside a Markdown link label."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
