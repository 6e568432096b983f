"""PDF through pdfium: per-page text, line boxes, outline or numbered headings.

pdfium's character list is read one character at a time (not through its text
API), so every character of the canonical text comes from one known character
of the page and each line's box is the union of its own characters' boxes.
Canonical page text is built line by line; lines are joined by ``\\n``, a blank
line marks a vertical gap wider than ordinary leading (a paragraph break), and
pages are joined by ``\\n\\f\\n``.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pincite.errors import ParseError
from pincite.ingest.base import Heading, PageSpan, ParsedDocument, TextBox
from pincite.ingest.headings import Line, detect_headings, footer_label
from pincite.ingest.limits import DEFAULT_LIMITS, ParseLimits
from pincite.ingest.pdftitle import document_title, find_title
from pincite.ingest.textutil import collapse, strip_span
from pincite.model import BBox, BoxOrigin

PARSER = "pincite-pdf/1"
PAGE_SEPARATOR = "\n\f\n"

# pdfium marks a hyphen it found in the content stream with STX.
_HYPHEN_MARK = 0x02
_LINE_ENDS = frozenset({0x0A, 0x0D})
# A gap between two lines' font boxes larger than this share of the smaller
# line's height is more than leading: a paragraph (or block) break.
_PARAGRAPH_GAP = 0.5
# Numbered headings are set at least as large as body text; footnotes and
# figure labels, which also start with numbers, are smaller.
_HEADING_MIN_SIZE = 0.95
_SECTION_NUMBER = re.compile(r"^(?:\d+|[A-Z])(?:\.\d+)*\.?\s+(?=\S)")


@dataclass(slots=True)
class _Line:
    text: str
    box: tuple[float, float, float, float] | None  # x0, y0, x1, y1
    size: float


def parse_pdf(data: bytes, source: str, limits: ParseLimits = DEFAULT_LIMITS) -> ParsedDocument:
    """Parse a PDF's text layer, in this process (see ``isolate`` for the guarded way).

    Raises ParseError for an empty, unreadable, encrypted or text-less PDF, or
    one with more pages or text than ``limits`` allow.
    """
    if not data.strip():
        raise ParseError(source, "empty file")
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        message = str(exc).replace("\n", " ")
        if "password" in message.lower():
            raise ParseError(source, "encrypted PDF (password required)") from None
        raise ParseError(source, f"unreadable PDF ({message})") from None
    try:
        return _parse(pdf, source, limits)
    finally:
        pdf.close()


def _parse(pdf: pdfium.PdfDocument, source: str, limits: ParseLimits) -> ParsedDocument:
    if len(pdf) == 0:
        raise ParseError(source, "PDF has no pages")
    if len(pdf) > limits.max_pdf_pages:
        raise ParseError(source, f"PDF has {len(pdf)} pages; the limit is {limits.max_pdf_pages}")
    parts: list[str] = []
    pages: list[PageSpan] = []
    boxes: list[TextBox] = []
    sizes: dict[int, float] = {}  # line start -> font size, to vet heading candidates
    empty_pages: list[int] = []
    pos = 0
    for index in range(len(pdf)):
        number = index + 1
        page = pdf[index]
        try:
            textpage = page.get_textpage()
            try:
                if pos + textpage.count_chars() > limits.max_text_chars:
                    raise ParseError(source, f"PDF text exceeds {limits.max_text_chars} characters")
                lines = list(_page_lines(textpage))
            finally:
                textpage.close()
            mediabox = page.get_mediabox()
        except pdfium.PdfiumError as exc:
            raise ParseError(source, f"unreadable page {number} ({exc})") from None
        finally:
            page.close()
        start = pos
        if not lines:
            empty_pages.append(number)
        previous: _Line | None = None
        for line in lines:
            if previous is not None:
                gap = "\n\n" if _paragraph_break(previous, line) else "\n"
                parts.append(gap)
                pos += len(gap)
            parts.append(line.text)
            first, last = strip_span(line.text, 0, len(line.text))
            sizes[pos] = line.size
            box = _clip(line.box, mediabox)
            if box is not None and first < last:
                x0, y0, x1, y1 = box
                bbox = BBox(number, x0, y0, x1, y1, BoxOrigin.BOTTOM_LEFT)
                boxes.append(TextBox(pos + first, pos + last, bbox))
            pos += len(line.text)
            previous = line
        if number < len(pdf):
            parts.append(PAGE_SEPARATOR)
            pos += len(PAGE_SEPARATOR)
        label = pdf.get_page_label(index) or None
        pages.append(PageSpan(number, start, pos, label))
    text = "".join(parts)
    if not text.strip():
        raise ParseError(source, "no text layer (scanned or image-only PDF)")
    pages = [
        p if p.label else PageSpan(p.page, p.start, p.end, footer_label(text[p.start : p.end]))
        for p in pages
    ]
    outline = _outline_headings(pdf, text, pages)
    headings = outline if outline else _numbered_headings(text, pages, sizes)
    warnings = (f"no text on pages {_ranges(empty_pages)}",) if empty_pages else ()
    return ParsedDocument(
        text=text,
        parser=PARSER,
        title=document_title(pdf.get_metadata_value("Title") or "", text),
        pages=tuple(pages),
        headings=headings,
        boxes=tuple(boxes),
        warnings=warnings,
    )


@dataclass(slots=True)
class _LineBuilder:
    """One line's characters, the union of their boxes, and its first font size."""

    chars: list[str] = field(default_factory=list)
    x0: float = float("inf")
    y0: float = float("inf")
    x1: float = float("-inf")
    y1: float = float("-inf")
    size: float = 0.0
    last: tuple[float, float, float, float] | None = None  # the last visible character's box

    def finish(self) -> _Line | None:
        text = unicodedata.normalize("NFC", "".join(self.chars).rstrip())
        if not text.strip():
            return None
        has_box = self.x0 < self.x1 and self.y0 < self.y1
        return _Line(text, (self.x0, self.y0, self.x1, self.y1) if has_box else None, self.size)


def _page_lines(textpage: pdfium.PdfTextPage) -> Iterator[_Line]:
    """The page's lines in pdfium's order: NFC text, union of font boxes, first font size.

    pdfium ends lines with CR LF, except after a hyphen it marked: there the next
    visual line follows directly, so a character drawn below and left of the
    previous one starts a new line too.
    """
    # This loop runs once per character of the document: raw calls, locals.
    handle = textpage.raw
    get_unicode = pdfium_c.FPDFText_GetUnicode
    get_box = pdfium_c.FPDFText_GetLooseCharBox
    rect = pdfium_c.FS_RECTF()
    line = _LineBuilder()
    count = textpage.count_chars()
    i = 0
    while i < count:
        code = get_unicode(handle, i)
        index = i
        if 0x20 < code < 0x7F:
            char = chr(code)
            i += 1
        elif code in _LINE_ENDS:
            done, line = line.finish(), _LineBuilder()
            if done is not None:
                yield done
            i += 1
            continue
        else:
            decoded, i = _decode(handle, code, i, count)
            if decoded is None:
                continue
            char = decoded
            if char.isspace():
                line.chars.append(char)
                continue
        if not get_box(handle, index, rect) or rect.right <= rect.left or rect.top <= rect.bottom:
            line.chars.append(char)
            continue
        left, bottom, right, top = rect.left, rect.bottom, rect.right, rect.top
        last = line.last
        # Loose boxes of adjacent lines overlap; a centre below the previous
        # box's bottom is a lower line, a superscript's neighbour is not.
        if last is not None and top + bottom < 2 * last[1] and left < last[0]:
            done, line = line.finish(), _LineBuilder()
            if done is not None:
                yield done
        line.chars.append(char)
        line.last = (left, bottom, right, top)
        if left < line.x0:
            line.x0 = left
        if bottom < line.y0:
            line.y0 = bottom
        if right > line.x1:
            line.x1 = right
        if top > line.y1:
            line.y1 = top
        if not line.size:
            line.size = pdfium_c.FPDFText_GetFontSize(handle, index)
    done = line.finish()
    if done is not None:
        yield done


def _decode(handle: Any, code: int, i: int, count: int) -> tuple[str | None, int]:
    """One character of canonical text for pdfium character ``i``, and the next index."""
    if code == _HYPHEN_MARK:
        return "-", i + 1
    if code == 0:  # a glyph without a Unicode mapping: nothing to cite
        return None, i + 1
    if code < 0x20 or 0x7F <= code < 0xA0:
        # Symbol-font bullets often come through as C0 controls; Python counts
        # several of those as whitespace anyway, and none belong in stored text.
        return " ", i + 1
    if 0xD800 <= code < 0xDC00 and i + 1 < count:
        low = pdfium_c.FPDFText_GetUnicode(handle, i + 1)
        if 0xDC00 <= low < 0xE000:
            return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)), i + 2
    if 0xD800 <= code < 0xE000 or code > 0x10FFFF or code in (0xFFFE, 0xFFFF):
        return "\ufffd", i + 1
    return chr(code), i + 1


def _paragraph_break(above: _Line, below: _Line) -> bool:
    if above.box is None or below.box is None:
        return False
    _, above_y0, _, above_y1 = above.box
    _, below_y0, _, below_y1 = below.box
    if below_y0 > above_y1:  # moved up the page: a new column or a displaced block
        return True
    height = min(above_y1 - above_y0, below_y1 - below_y0)
    return above_y0 - below_y1 > _PARAGRAPH_GAP * height


def _clip(
    box: tuple[float, float, float, float] | None, mediabox: tuple[float, float, float, float]
) -> tuple[float, float, float, float] | None:
    """A box inside the page's media box (font boxes can poke past the edge), or None."""
    if box is None:
        return None
    left, bottom, right, top = mediabox
    x0, y0 = max(box[0], left), max(box[1], bottom)
    x1, y1 = min(box[2], right), min(box[3], top)
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _numbered_headings(
    text: str, pages: Sequence[PageSpan], sizes: dict[int, float]
) -> tuple[Heading, ...]:
    known = [size for size in sizes.values() if size > 0]
    body = statistics.median(known) if known else 0.0

    def large_enough(line: Line) -> bool:
        return sizes.get(line.start, body) >= _HEADING_MIN_SIZE * body

    return detect_headings(text, pages, accept=large_enough)


def _outline_headings(
    pdf: pdfium.PdfDocument, text: str, pages: Sequence[PageSpan]
) -> tuple[Heading, ...]:
    """Bookmarks located in the text of their target page (or the next one)."""
    entries: list[tuple[int, str, int | None]] = []
    for bookmark in pdf.get_toc():
        title = collapse(bookmark.get_title() or "")
        dest = bookmark.get_dest()
        index = dest.get_index() if dest is not None else None
        # Bookmarks made from stray numbering ("1.  ") name no section.
        if any(char.isalpha() for char in title):
            entries.append((bookmark.level, title, index))
    if not entries:
        return ()
    # One root holding everything else is the document's own title, not a section.
    if len(entries) > 1 and entries[0][0] < min(e[0] for e in entries[1:]):
        entries = entries[1:]
    top = min(level for level, _, _ in entries)
    headings: list[Heading] = []
    cursor = 0
    for level, title, index in entries:
        if index is None or not 0 <= index < len(pages):
            continue
        page = pages[index]
        region_end = pages[min(index + 1, len(pages) - 1)].end
        region_start = cursor if page.start <= cursor < page.end else page.start
        # Some layouts draw a section's number apart from its words; then the
        # words alone locate it.
        unnumbered = _SECTION_NUMBER.sub("", title, count=1)
        found = None
        for wanted in dict.fromkeys((title, unnumbered)):
            for start in dict.fromkeys((region_start, page.start)):
                found = found or find_title(text, wanted, start, region_end)
        if found is None:
            start, _ = strip_span(text, page.start, page.end)
            headings.append(Heading(start, start, level - top + 1, title))
            continue
        start, end = found
        spelled = collapse(text[start:end])
        # Prefer the page's spelling (outlines are often lower-cased) unless it lost the number.
        named = spelled if spelled.lower() == title.lower() else title
        headings.append(Heading(start, end, level - top + 1, named))
        cursor = end
    headings.sort(key=lambda h: h.start)
    return tuple(headings)


def _ranges(numbers: Sequence[int]) -> str:
    """``1, 3-5, 9`` for [1, 3, 4, 5, 9]."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and spans[-1][1] == n - 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
