"""What a parser hands the chunker: canonical text plus where each part of it came from.

All offsets are code points into ``ParsedDocument.text`` (the canonical text
that is stored and hashed), end exclusive.
"""

from __future__ import annotations

from dataclasses import dataclass

from pincite.model import BBox


@dataclass(frozen=True, slots=True)
class PageSpan:
    """The canonical-text range of one physical page (1-based) and its printed label."""

    page: int
    start: int
    end: int
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading whose text occupies ``[start, end)``; ``level`` 1 is the outermost."""

    start: int
    end: int
    level: int
    title: str


@dataclass(frozen=True, slots=True)
class TextBox:
    """A run of canonical text ``[start, end)`` (a line or word) and where it is drawn."""

    start: int
    end: int
    box: BBox


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    text: str
    parser: str
    title: str | None = None
    pages: tuple[PageSpan, ...] = ()
    headings: tuple[Heading, ...] = ()
    boxes: tuple[TextBox, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def page_count(self) -> int:
        return max((p.page for p in self.pages), default=0)


@dataclass(frozen=True, slots=True)
class ChunkDraft:
    """A chunk before it is stored: a span plus its provenance."""

    ordinal: int
    start: int
    end: int
    section: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    page_label: str | None = None
    bboxes: tuple[BBox, ...] = ()
