from __future__ import annotations

import pytest

from pincite.ingest.chunk import chunk
from pincite.ingest.parse import parse_bytes
from pincite.ingest.text import paginate

RFC_PAGE_1 = """\



Network Working Group                                      R. Fielding
Request for Comments: 9999                                   UC Irvine
Category: Standards Track                                    June 1999


                Example Transfer Protocol -- ETP/1.0

Status of this Memo

   This document specifies an example protocol.

Table of Contents

   1   Introduction ...................................................2
   1.1    Purpose......................................................2
   2   Protocol Parameters ............................................3
   10.4.5 404 Not Found ...............................................3

Fielding, et al.            Standards Track                     [Page 1]
\f
RFC 9999                        ETP/1.0                        June 1999


1 Introduction

1.1 Purpose

   The Example Transfer Protocol is an application-level protocol. It
   moves examples from here to there. Body text in an RFC is indented
   by three spaces, which is what tells section headings (at column 0)
   apart from the text around them, numbered or not.

Fielding, et al.            Standards Track                     [Page 2]
\f
RFC 9999                        ETP/1.0                        June 1999


2 Protocol Parameters

   Parameters are described here.

10.4.5 404 Not Found

   The server has not found anything matching the Request-URI.

3.2.2 http URL

   The "http" scheme is used to locate network resources.

Fielding, et al.            Standards Track                     [Page 3]
\f
"""


def test_form_feeds_make_pages_that_tile_the_text_with_footer_labels() -> None:
    doc = parse_bytes(RFC_PAGE_1.encode(), "rfc9999.txt")
    assert doc.page_count == 3  # the newline after the last form feed is no page
    assert [p.label for p in doc.pages] == ["1", "2", "3"]
    assert doc.pages[0].start == 0
    assert doc.pages[-1].end == len(doc.text)
    for before, after in zip(doc.pages, doc.pages[1:], strict=False):
        assert before.end == after.start
        assert doc.text[before.start : before.end].endswith("\f\n")
    assert "[Page 2]" in doc.text[doc.pages[1].start : doc.pages[1].end]


def test_text_without_form_feeds_has_no_pages() -> None:
    assert paginate("one page\nonly\n") == ()
    doc = parse_bytes(b"Just some text.\n", "a.txt")
    assert doc.pages == ()
    assert chunk(doc)[0].pages == ()


def test_rfc_headings_skip_table_of_contents_and_page_furniture() -> None:
    doc = parse_bytes(RFC_PAGE_1.encode(), "rfc9999.txt")
    titles = [(h.level, h.title) for h in doc.headings]
    assert titles == [
        (1, "Status of this Memo"),
        (1, "Table of Contents"),
        (1, "1 Introduction"),
        (2, "1.1 Purpose"),
        (1, "2 Protocol Parameters"),
        (3, "10.4.5 404 Not Found"),
        (3, "3.2.2 http URL"),
    ]
    for h in doc.headings:
        assert doc.text[h.start : h.end] == h.title
        assert doc.text[h.start - 1] == "\n"


def test_rfc_title_is_the_centred_title_line() -> None:
    doc = parse_bytes(RFC_PAGE_1.encode(), "rfc9999.txt")
    assert doc.title == "Example Transfer Protocol -- ETP/1.0"


def test_plain_title_is_the_first_non_empty_line() -> None:
    doc = parse_bytes(b"\n\n  My   notes  \nbody\n", "notes.txt")
    assert doc.title == "My notes"


def test_numbered_sentences_and_toc_lines_are_not_headings() -> None:
    text = (
        "Notes\n\n"
        "2 or more clients may connect at once.\n"
        "1 Introduction ....... 7\n"
        "1999 was a year.\n"
        "3. Scope\n"
        "Text.\n"
    )
    doc = parse_bytes(text.encode(), "n.txt")
    assert [h.title for h in doc.headings] == ["3. Scope"]


def test_heading_levels_count_dotted_components() -> None:
    text = "1 Top\n\nx\n\n1.2 Mid\n\ny\n\n1.2.3. Deep\n\nz\n\nAppendix A. Extra\n\nA.1. More\n"
    doc = parse_bytes(text.encode(), "n.txt")
    assert [(h.level, h.title) for h in doc.headings] == [
        (1, "1 Top"),
        (2, "1.2 Mid"),
        (3, "1.2.3. Deep"),
        (1, "Appendix A. Extra"),
        (2, "A.1. More"),
    ]


def test_newlines_bom_and_nfc_are_normalised_nothing_else() -> None:
    data = "\ufeffcafe\u0301\r\nline two  \rline three\t\n".encode()
    doc = parse_bytes(data, "a.txt")
    assert doc.text == "caf\u00e9\nline two  \nline three\t\n"
    assert doc.warnings == ()


@pytest.mark.parametrize(
    ("data", "places"),
    [(b"ok \xff ok", "1 place"), (b"a\xff\xfeb \xc3 end", "3 places")],
)
def test_invalid_utf8_is_replaced_with_a_warning(data: bytes, places: str) -> None:
    doc = parse_bytes(data, "bad.txt")
    assert "\ufffd" in doc.text
    assert doc.warnings == (f"invalid UTF-8 replaced at {places}",)


def test_genuine_replacement_characters_are_not_counted_as_invalid() -> None:
    doc = parse_bytes("already \ufffd here".encode(), "ok.txt")
    assert doc.warnings == ()


def test_nul_characters_are_replaced_with_a_warning() -> None:
    doc = parse_bytes(b"a\x00b", "nul.txt")
    assert doc.text == "a\ufffdb"
    assert doc.warnings == ("NUL characters replaced at 1 place",)


def test_chunk_in_a_section_carries_the_heading_path_and_page_label() -> None:
    doc = parse_bytes(RFC_PAGE_1.encode(), "rfc9999.txt")
    chunks = chunk(doc, min_chars=20, target_chars=60, max_chars=200)
    heading = next(h for h in doc.headings if h.title == "10.4.5 404 Not Found")
    (found,) = [c for c in chunks if c.start <= heading.start < c.end]
    assert found.start == heading.start  # each heading starts a chunk
    assert found.section == ("2 Protocol Parameters", "10.4.5 404 Not Found")
    assert found.pages == (3,)
    assert found.page_label == "3"
    toc = next(c for c in chunks if "404 Not Found ....." in doc.text[c.start : c.end])
    assert toc.section == ("Table of Contents",)


def test_utf16_with_a_bom_is_decoded() -> None:
    data = "\ufeffcafé\r\nnext".encode("utf-16-le")
    doc = parse_bytes(data, "windows.txt")
    assert doc.text == "café\nnext"
    assert doc.warnings == ()
