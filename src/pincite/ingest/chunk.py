"""Cut a parsed document into passages: exact, ordered, non-overlapping spans.

Each heading starts a new chunk (a section shorter than ``min_chars`` joins the
next one instead of standing alone). Inside a section a chunk ends at the best
boundary between ``min_chars`` and ``max_chars`` from its start: a paragraph
break, else a sentence end, else a line break, else any whitespace, choosing
within that kind the one nearest ``target_chars``. Only a single token longer
than ``max_chars`` is cut mid-word. Spans never start or end with whitespace.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate, pairwise

from pincite.ingest.base import ChunkDraft, Heading, PageSpan, ParsedDocument, TextBox
from pincite.ingest.textutil import strip_span
from pincite.model import BBox

# 2: a section starts at its heading's line, so "## " is no longer left on the chunk before.
# 3: a chunk's section is the one it lies in as a whole (what the path at its first line
# and after each heading inside it share).
CHUNKER = "pincite-chunker/3"

# Most boxes one chunk carries; past this, neighbours on a page are merged.
MAX_BOXES = 50

_PARAGRAPH = re.compile(r"\n[^\S\n]*\n")
_SENTENCE = re.compile(r"[.!?][\"'”’)\]]*(?=\s+[\"'“‘(\[]?[A-Z0-9])")
_LINE = re.compile(r"\n")
_SPACE = re.compile(r"\s")
_WORDLIKE = re.compile(r"\w")
# (pattern, cut at the match's end rather than its start), best kind first.
_BOUNDARIES = ((_PARAGRAPH, False), (_SENTENCE, True), (_LINE, False), (_SPACE, False))
# How far past the window a boundary match may need to look (blank-line runs, lookaheads).
_LOOKAHEAD = 64


def chunk(
    doc: ParsedDocument,
    *,
    target_chars: int = 1000,
    max_chars: int = 1600,
    min_chars: int = 200,
) -> list[ChunkDraft]:
    """Chunks of ``doc.text`` with their section path, pages, page label and boxes.

    Raises ValueError unless ``0 < min_chars <= target_chars <= max_chars``.
    """
    if not 0 < min_chars <= target_chars <= max_chars:
        raise ValueError(
            f"need 0 < min_chars <= target_chars <= max_chars, got "
            f"{min_chars}, {target_chars}, {max_chars}"
        )
    text = doc.text
    headings = sorted(
        (h for h in doc.headings if 0 <= h.start <= h.end <= len(text)), key=lambda h: h.start
    )
    spans: list[tuple[int, int]] = []
    for start, end in _sections(text, headings, min_chars):
        spans.extend(_split(text, start, end, target_chars, max_chars, min_chars))
    paths = _section_paths(text, headings, spans)
    locate = _Locator(doc.pages, doc.boxes)
    drafts: list[ChunkDraft] = []
    for ordinal, ((start, end), path) in enumerate(zip(spans, paths, strict=True)):
        touched = locate.pages(start, end)
        drafts.append(
            ChunkDraft(
                ordinal=ordinal,
                start=start,
                end=end,
                section=path,
                pages=tuple(sorted({p.page for p in touched})),
                page_label=touched[0].label if touched else None,
                bboxes=locate.boxes(start, end),
            )
        )
    return drafts


def embed_text(title: str | None, section: tuple[str, ...], text: str) -> str:
    """What is indexed for a chunk: title and heading path above the text.

    ``"Title\\nSection > Subsection\\n\\ntext"``; absent parts are left out.
    """
    header = [part for part in (title or "", " > ".join(section)) if part]
    return "\n".join(header) + "\n\n" + text if header else text


def _sections(text: str, headings: Sequence[Heading], min_chars: int) -> list[tuple[int, int]]:
    """Ranges between heading starts, each too-short one joined to the next."""
    cuts = sorted({_line_start(text, h.start) for h in headings if 0 < h.start < len(text)})
    bounds = [0, *cuts, len(text)]
    groups: list[tuple[int, int]] = []
    open_start: int | None = None
    for start, end in pairwise(bounds):
        if open_start is None:
            open_start = start
        first, last = strip_span(text, open_start, end)
        if last - first >= min_chars:
            groups.append((open_start, end))
            open_start = None
    if open_start is not None:  # a short last section has no next to join
        groups.append((open_start, len(text)))
    return groups


def _line_start(text: str, start: int) -> int:
    """Where the heading at ``start`` begins with its markup ("## ", "> ### ").

    A parser's heading is its text; cut there, the "##" before it would end
    the previous chunk and the next one would open on a bare line whose
    heading nobody can see ("## What if I am ill?" read as a question).
    """
    line = text.rfind("\n", 0, start) + 1
    return start if _WORDLIKE.search(text, line, start) else line


def _split(
    text: str, start: int, end: int, target: int, maximum: int, minimum: int
) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pos, end = strip_span(text, start, end)
    while pos < end:
        if end - pos <= maximum:
            spans.append((pos, end))
            break
        cut = _cut(text, pos, end, target, maximum, minimum)
        first, last = strip_span(text, pos, cut)
        if first < last:
            spans.append((first, last))
        pos, _ = strip_span(text, cut, end)
    return spans


def _cut(text: str, pos: int, end: int, target: int, maximum: int, minimum: int) -> int:
    """Where the chunk starting at ``pos`` should end (exclusive); ``pos < cut < end``."""
    low, high, aim = pos + minimum, pos + maximum, pos + target
    if end - minimum >= low:  # leave the rest at least a minimum chunk, when possible
        high = min(high, end - minimum)
    stop = min(end, high + _LOOKAHEAD)
    for pattern, at_end in _BOUNDARIES:
        cuts = [m.end() if at_end else m.start() for m in pattern.finditer(text, low, stop)]
        cuts = [c for c in cuts if low <= c <= high]
        if cuts:
            return min(cuts, key=lambda c: abs(c - aim))
    # No whitespace in the window: end before the long token if it does not
    # start the chunk; otherwise the token alone exceeds the maximum.
    before = max((m.start() for m in _SPACE.finditer(text, pos + 1, low)), default=-1)
    return before if before > pos else high


def _first_line_end(text: str, start: int, end: int) -> int:
    newline = text.find("\n", start, end)
    return newline if newline >= 0 else end


def _section_paths(
    text: str, headings: Sequence[Heading], spans: Sequence[tuple[int, int]]
) -> list[tuple[str, ...]]:
    """The heading path (outermost first) each span lies in as a whole.

    A short section joins the next, so one chunk may hold "### Can I claim
    for travel insurance?" and "### Who do I contact about a late payment?":
    the chunk is in "Questions", not in the first of them, or a citation of
    its second answer would name the first question's section. So a chunk's
    path is what the path at its first line and the path after each heading
    inside it have in common.
    """
    paths: list[tuple[str, ...]] = []
    stack: list[Heading] = []
    index = 0

    def enter(heading: Heading) -> None:
        while stack and stack[-1].level >= heading.level:
            stack.pop()
        stack.append(heading)

    for start, end in spans:
        # A heading on a chunk's first line is in force for it ("# Policy" starts
        # the chunk at the "#", before the heading text itself).
        cutoff = _first_line_end(text, start, end)
        while index < len(headings) and headings[index].start < cutoff:
            enter(headings[index])
            index += 1
        common = tuple(h.title for h in stack)
        while index < len(headings) and headings[index].start < end:
            heading = headings[index]
            enter(heading)
            index += 1
            if not text[_first_line_end(text, heading.start, end) : end].strip():
                continue  # a title closing the chunk heads the next one's text, not this
            path = tuple(h.title for h in stack)
            shared = 0
            while shared < min(len(common), len(path)) and common[shared] == path[shared]:
                shared += 1
            common = common[:shared]
        paths.append(common)
    return paths


class _Locator:
    """Pages and boxes overlapping a span, found by bisection."""

    def __init__(self, pages: Sequence[PageSpan], boxes: Sequence[TextBox]) -> None:
        self._pages = sorted((p for p in pages if p.start < p.end), key=lambda p: p.start)
        self._page_starts = [p.start for p in self._pages]
        self._boxes = sorted(boxes, key=lambda b: b.start)
        # Running maximum of box ends: boxes before the first value past a
        # span's start all end before it, even if boxes overlap each other.
        self._reach = list(accumulate((b.end for b in self._boxes), max))

    def pages(self, start: int, end: int) -> list[PageSpan]:
        index = max(0, bisect_right(self._page_starts, start) - 1)
        touched = []
        while index < len(self._pages) and self._pages[index].start < end:
            if self._pages[index].end > start:
                touched.append(self._pages[index])
            index += 1
        return touched

    def boxes(self, start: int, end: int) -> tuple[BBox, ...]:
        """One box per line of the text overlapping ``[start, end)``, at most MAX_BOXES."""
        index = bisect_right(self._reach, start)
        lines: list[BBox] = []
        while index < len(self._boxes) and self._boxes[index].start < end:
            box = self._boxes[index]
            if box.end > start:
                if lines and _same_line(lines[-1], box.box):
                    lines[-1] = _union(lines[-1], box.box)
                else:
                    lines.append(box.box)
            index += 1
        while len(lines) > MAX_BOXES:
            fewer = _pair_up(lines)
            if len(fewer) == len(lines):
                break
            lines = fewer
        return tuple(lines)


def _pair_up(boxes: Sequence[BBox]) -> list[BBox]:
    """Neighbours (first and second, third and fourth, ...) merged when on one page."""
    out: list[BBox] = []
    i = 0
    while i < len(boxes):
        if i + 1 < len(boxes) and boxes[i].page == boxes[i + 1].page:
            out.append(_union(boxes[i], boxes[i + 1]))
            i += 2
        else:
            out.append(boxes[i])
            i += 1
    return out


def _same_line(a: BBox, b: BBox) -> bool:
    if a.page != b.page or a.origin != b.origin:
        return False
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap >= 0.5 * min(a.y1 - a.y0, b.y1 - b.y0)


def _union(a: BBox, b: BBox) -> BBox:
    return BBox(
        a.page, min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1), a.origin
    )
