from __future__ import annotations

import pytest
from pdf_builder import Bookmark, Text, build_pdf

from pincite.errors import ParseError
from pincite.ingest.chunk import chunk
from pincite.ingest.parse import parse_bytes
from pincite.ingest.pdf import PAGE_SEPARATOR
from pincite.model import BoxOrigin

BODY = [
    Text(72, 700, "1. Introduction", 16),
    Text(72, 670, "The quick brown fox jumps over the lazy dog."),
    Text(72, 656, "It keeps running across the field."),
    Text(72, 620, "A new paragraph starts after a wider gap."),
]


def test_pages_join_with_a_separator_and_tile_the_text() -> None:
    data = build_pdf([BODY, [Text(72, 700, "Second page text.")]])
    doc = parse_bytes(data, "two.pdf")
    assert doc.page_count == 2
    first, second = doc.pages
    assert (first.start, first.end, second.end) == (0, second.start, len(doc.text))
    assert doc.text[first.start : first.end].endswith(PAGE_SEPARATOR)
    assert doc.text[second.start :] == "Second page text."
    assert doc.text.startswith(
        "1. Introduction\n\nThe quick brown fox jumps over the lazy dog.\n"
        "It keeps running across the field.\n\nA new paragraph"
    )


def test_each_line_has_a_bottom_left_box_where_it_was_drawn() -> None:
    doc = parse_bytes(build_pdf([BODY]), "one.pdf")
    assert len(doc.boxes) == len(BODY)
    for drawn, box in zip(BODY, doc.boxes, strict=True):
        assert doc.text[box.start : box.end] == drawn.text
        b = box.box
        assert b.page == 1
        assert b.origin is BoxOrigin.BOTTOM_LEFT
        assert b.x0 == pytest.approx(drawn.x, abs=2)
        assert b.y0 < drawn.y < b.y1  # the baseline lies inside the font box
        assert b.y1 - b.y0 < 2 * drawn.size


def test_boxes_are_clipped_to_the_media_box() -> None:
    data = build_pdf([[Text(-20, 5, "Off the edge at the bottom left")]])
    (box,) = parse_bytes(data, "edge.pdf").boxes
    assert box.box.x0 >= 0
    assert box.box.y0 >= 0


def test_outline_headings_are_found_on_their_pages() -> None:
    pages = [
        [Text(72, 700, "Contents"), Text(72, 680, "1. Introduction ........ 2")],
        [*BODY, Text(72, 590, "1.1 Scope", 13), Text(72, 570, "Scope text here.")],
        [Text(72, 700, "2. Details", 16), Text(72, 680, "Detail text.")],
    ]
    outline = [
        Bookmark("1.  introduction", 1, (Bookmark("1.1 Scope", 1),)),
        Bookmark("2. Details", 2),
    ]
    doc = parse_bytes(build_pdf(pages, outline=outline), "outlined.pdf")
    got = [(h.level, h.title) for h in doc.headings]
    assert got == [(1, "1. Introduction"), (2, "1.1 Scope"), (1, "2. Details")]
    intro = doc.headings[0]
    assert doc.pages[1].start <= intro.start < doc.pages[1].end  # not the contents entry
    chunks = chunk(doc, min_chars=1, target_chars=30, max_chars=80)
    scope = next(c for c in chunks if "Scope text" in doc.text[c.start : c.end])
    assert scope.section == ("1. Introduction", "1.1 Scope")
    assert scope.pages == (2,)


def test_single_outline_root_is_the_document_not_a_section() -> None:
    outline = [Bookmark("Whole Document", 0, (Bookmark("1. Introduction", 0),))]
    doc = parse_bytes(build_pdf([BODY], outline=outline), "rooted.pdf")
    assert [(h.level, h.title) for h in doc.headings] == [(1, "1. Introduction")]


def test_numbered_headings_without_outline_ignore_small_print() -> None:
    page = [
        *BODY,
        Text(72, 580, "2 Requirements", 14),
        Text(72, 560, "Requirement text follows here."),
        Text(72, 100, "3 A footnote set in small type", 7),
    ]
    doc = parse_bytes(build_pdf([page]), "numbered.pdf")
    assert [(h.level, h.title) for h in doc.headings] == [
        (1, "1. Introduction"),
        (1, "2 Requirements"),
    ]


def test_page_labels_from_the_catalog() -> None:
    data = build_pdf([BODY] * 3, page_labels="0 << /S /r >> 1 << /S /D /St 7 >>")
    doc = parse_bytes(data, "labels.pdf")
    assert [p.label for p in doc.pages] == ["i", "7", "8"]
    assert chunk(doc)[0].page_label == "i"


def test_page_labels_from_rfc_footers_when_the_pdf_has_none() -> None:
    page = [*BODY, Text(72, 40, "Fielding & Reschke Standards Track [Page 12]")]
    doc = parse_bytes(build_pdf([page, BODY]), "rfc.pdf")
    assert [p.label for p in doc.pages] == ["12", None]


def test_title_from_first_line_without_metadata() -> None:
    assert parse_bytes(build_pdf([BODY]), "t.pdf").title == "1. Introduction"


COVER = [
    Text(72, 720, "Request for Comments: 7230", 10),
    Text(72, 690, "Hypertext Transfer Protocol (HTTP/1.1): Message Syntax and Routing", 14),
    *BODY[1:],
]


def test_a_title_symbol_the_producer_misencoded_is_read_as_the_cover_prints_it() -> None:
    # html2ps with Ghostscript writes "(" and ")" as bytes 0x81 and 0x82, which
    # PDFDocEncoding reads as a dagger and a double dagger.
    declared = (
        b"RFC 7230 - Hypertext Transfer Protocol \x81HTTP/1.1\x82: Message Syntax and Routing"
    )
    doc = parse_bytes(build_pdf([COVER], info_title=declared), "rfc.pdf")
    assert (
        doc.title == "RFC 7230 - Hypertext Transfer Protocol (HTTP/1.1): Message Syntax and Routing"
    )


def test_a_title_symbol_the_cover_does_not_print_is_kept_as_declared() -> None:
    def title(declared: bytes, *lines: str) -> str | None:
        page = [Text(72, 720 - 20 * n, line) for n, line in enumerate(lines)] + BODY[1:]
        return parse_bytes(build_pdf([page], info_title=declared), "t.pdf").title

    assert title(b"Field Guide \x81 Annex", "Field Guide Annex") == "Field Guide \u2020 Annex"
    # Printed glued to the next word, a mark is not the declared one standing alone.
    assert title(b"Cats \x81 Dogs: Care and Feeding", "(Dogs: Care and Feeding") == (
        "Cats \u2020 Dogs: Care and Feeding"
    )
    # A bullet between short parts: "Q3/2020" on the cover is not the title's "Q3 \u2022 2020".
    assert title(b"Quarterly Review \x80 Q3 \x80 2020", "Q3/2020 results") == (
        "Quarterly Review \u2022 Q3 \u2022 2020"
    )
    # Too long to be a title: not matched against the cover at all.
    words = " ".join(["Protocol"] * 70)
    long = title(f"{words} \x81HTTP/1.1\x82".encode("latin-1"), f"{words} (HTTP/1.1)")
    assert long == f"{words} \u2020HTTP/1.1\u2021"
    assert title(b"Routing (Draft)", "Routing (Draft)") == "Routing (Draft)"


def test_blank_pages_are_kept_and_reported() -> None:
    doc = parse_bytes(build_pdf([BODY, [], BODY]), "blank.pdf")
    assert doc.page_count == 3
    assert doc.warnings == ("no text on pages 2",)
    assert all(2 not in c.pages for c in chunk(doc, min_chars=1, target_chars=20, max_chars=50))


def test_pdf_without_text_layer_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="no text layer"):
        parse_bytes(build_pdf([[], []]), "scan.pdf")


def test_encrypted_pdf_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="encrypted") as caught:
        parse_bytes(build_pdf([BODY], encrypted=True), "locked.pdf")
    assert caught.value.source == "locked.pdf"


@pytest.mark.parametrize(
    "data",
    [b"not a pdf at all, just words", b"%PDF-1.4\n%garbage\x00\x01\x02", bytes(range(256)) * 4],
)
def test_garbage_named_pdf_is_a_parse_error(data: bytes) -> None:
    with pytest.raises(ParseError, match="unreadable PDF") as caught:
        parse_bytes(data, "fake.pdf")
    assert "\n" not in caught.value.reason


def test_truncated_pdf_is_a_parse_error() -> None:
    data = build_pdf([BODY])
    with pytest.raises(ParseError):
        parse_bytes(data[: len(data) // 3], "cut.pdf")
