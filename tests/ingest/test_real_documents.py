"""Every shared real document parses and chunks with exact, page-true provenance."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pincite.ingest.base import ChunkDraft, ParsedDocument
from pincite.ingest.chunk import chunk
from pincite.ingest.parse import parse_file
from pincite.model import BoxOrigin

PATHS = [
    "rfc/rfc2616.txt",
    "rfc/rfc7230.pdf",
    "nist/FIPS199.pdf",
    "nist/FIPS200.pdf",
    "nist/SP800-145.pdf",
    "nist/SP800-46r1.pdf",
    "nist/SP800-46r2.pdf",
]
PDFS = [p for p in PATHS if p.endswith(".pdf")]


@cache
def parsed(path: Path) -> tuple[ParsedDocument, tuple[ChunkDraft, ...]]:
    doc = parse_file(path)
    return doc, tuple(chunk(doc))


def page_of(doc: ParsedDocument, offset: int) -> int:
    (page,) = [p.page for p in doc.pages if p.start <= offset < p.end]
    return page


def squash(text: str) -> str:
    """Text compared across extractors: no whitespace, no hyphen marks or hyphens."""
    return re.sub(r"[\s\x02\ufffe-]", "", text)


def find_sentence(doc: ParsedDocument, sentence: str) -> int:
    """Offset of ``sentence`` in the text, whatever line breaks split it."""
    pattern = r"\s+".join(re.escape(word) for word in sentence.split())
    match = re.search(pattern, doc.text)
    assert match, sentence
    return match.start()


@pytest.mark.parametrize("name", PATHS)
def test_parses_and_chunks_into_exact_spans(documents: Path, name: str) -> None:
    manifest = {e["path"]: e for e in json.loads((documents / "manifest.json").read_text())}
    doc, chunks = parsed(documents / name)
    assert doc.page_count == manifest[name]["pages"]
    assert [p.page for p in doc.pages] == list(range(1, doc.page_count + 1))
    assert doc.pages[0].start == 0 and doc.pages[-1].end == len(doc.text)
    assert all(a.end == b.start for a, b in zip(doc.pages, doc.pages[1:], strict=False))
    assert doc.title
    assert len(chunks) > doc.page_count // 2
    previous_end = 0
    for ordinal, c in enumerate(chunks):
        span = doc.text[c.start : c.end]
        assert c.ordinal == ordinal
        assert span and span == span.strip()
        assert previous_end <= c.start < c.end <= len(doc.text)
        assert c.end - c.start <= 1600
        assert c.pages and all(1 <= p <= doc.page_count for p in c.pages)
        assert list(c.pages) == sorted(set(c.pages))
        assert c.pages[0] == page_of(doc, c.start)
        assert c.pages[-1] == page_of(doc, c.end - 1)
        previous_end = c.end
    # Nothing but whitespace falls between chunks.
    covered = "".join(doc.text[c.start : c.end] for c in chunks)
    assert "".join(covered.split()) == "".join(doc.text.split())


@pytest.mark.parametrize(
    ("name", "sentence", "page"),
    [
        (
            "nist/SP800-46r2.pdf",
            "Major security concerns for these technologies that would be included in most "
            "telework threat models are as follows",
            13,
        ),
        ("nist/FIPS199.pdf", "The potential impact is LOW if", 6),
        ("nist/FIPS199.pdf", "Security categories are to be used in conjunction", 5),
        ("rfc/rfc7230.pdf", "A server responds to a client's request by sending", 8),
        ("rfc/rfc2616.txt", "The Cache-Control general-header field is used", 108),
    ],
)
def test_known_sentence_is_on_its_page(
    documents: Path, name: str, sentence: str, page: int
) -> None:
    doc, chunks = parsed(documents / name)
    sentence = sentence.replace("'", "’") if name.endswith(".pdf") else sentence
    offset = find_sentence(doc, sentence)
    assert page_of(doc, offset) == page
    (holder,) = [c for c in chunks if c.start <= offset < c.end]
    assert page in holder.pages
    if name.endswith(".pdf"):  # and pdfium's own text of that page agrees
        with pdfium.PdfDocument(documents / name) as pdf:
            textpage = pdf[page - 1].get_textpage()
            assert squash(sentence) in squash(textpage.get_text_range())


def test_rfc2616_sections_and_printed_page_labels(documents: Path) -> None:
    doc, chunks = parsed(documents / "rfc/rfc2616.txt")
    assert doc.title == "Hypertext Transfer Protocol -- HTTP/1.1"
    assert [p.label for p in doc.pages] == [str(n) for n in range(1, 177)]
    titles = {h.title: h for h in doc.headings}
    for title in ("1 Introduction", "3.2.2 http URL", "10.4.5 404 Not Found", "14.45 Via"):
        assert title in titles
    assert not any("....." in h.title or "[Page" in h.title for h in doc.headings)
    assert not any(h.title.startswith(("RFC 2616", "Fielding")) for h in doc.headings)
    heading = titles["14.9 Cache-Control"]
    assert heading.level == 2
    (holder,) = [c for c in chunks if c.start <= heading.start < c.end]
    assert holder.start == heading.start
    assert holder.section == ("14 Header Field Definitions", "14.9 Cache-Control")
    assert holder.page_label == str(holder.pages[0]) == "108"
    after = titles["14.10 Connection"]
    inside = [c for c in chunks if heading.start <= c.start < after.start]
    assert len(inside) > 5
    for c in inside:
        assert c.section[:2] == ("14 Header Field Definitions", "14.9 Cache-Control")
    assert {c.section[-1] for c in inside} >= {
        "14.9.3 Modifications of the Basic Expiration Mechanism",
        "14.9.4 Cache Revalidation and Reload Controls",
    }


def test_rfc7230_pdf_numbered_sections_and_footer_labels(documents: Path) -> None:
    doc, chunks = parsed(documents / "rfc/rfc7230.pdf")
    assert [p.label for p in doc.pages][:3] == ["1", "2", "3"]
    heading = next(h for h in doc.headings if h.title == "2.2. Implementation Diversity")
    assert heading.level == 2
    assert page_of(doc, heading.start) == 8
    (holder,) = [c for c in chunks if c.start <= heading.start < c.end]
    assert holder.section == ("2. Architecture", "2.2. Implementation Diversity")
    assert any(h.title == "A.1. Changes from HTTP/1.0" and h.level == 2 for h in doc.headings)


def test_outline_headings_of_sp800_46r2(documents: Path) -> None:
    doc, chunks = parsed(documents / "nist/SP800-46r2.pdf")
    heading = next(h for h in doc.headings if h.title == "2.2.1 Tunneling")
    assert heading.level == 3  # the outline's document-title root is not a level
    assert page_of(doc, heading.start) == 15
    (holder,) = [c for c in chunks if c.start <= heading.start < c.end]
    assert holder.section == (
        "2. Overview of Enterprise Telework and Remote Access Security",
        "2.2 Remote Access Methods",
        "2.2.1 Tunneling",
    )


@pytest.mark.parametrize("name", PDFS)
def test_pdf_boxes_lie_on_their_page_and_cover_their_text(documents: Path, name: str) -> None:
    doc, chunks = parsed(documents / name)
    assert all(c.bboxes for c in chunks)
    with pdfium.PdfDocument(documents / name) as pdf:
        mediaboxes = [pdf[i].get_mediabox() for i in range(len(pdf))]
        for c in chunks:
            for box in c.bboxes:
                left, bottom, right, top = mediaboxes[box.page - 1]
                assert box.origin is BoxOrigin.BOTTOM_LEFT
                assert box.page in c.pages
                assert left <= box.x0 < box.x1 <= right
                assert bottom <= box.y0 < box.y1 <= top
        # Each line's box, asked back of pdfium, holds that line's text.
        textpages: dict[int, pdfium.PdfTextPage] = {}
        for line in doc.boxes[:: max(1, len(doc.boxes) // 150)]:
            assert page_of(doc, line.start) == line.box.page
            b = line.box
            if b.page not in textpages:
                textpages[b.page] = pdf[b.page - 1].get_textpage()
            textpage = textpages[b.page]
            inside = textpage.get_text_bounded(b.x0 - 0.5, b.y0 - 0.5, b.x1 + 0.5, b.y1 + 0.5)
            assert squash(doc.text[line.start : line.end]) in squash(inside)
