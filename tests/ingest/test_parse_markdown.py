from __future__ import annotations

from pincite.ingest.chunk import chunk
from pincite.ingest.parse import parse_bytes

SAMPLE = """\
# Guide to *Widgets*

Intro paragraph.

## Installing `widget`

Run the installer.

```sh
# not a heading, a shell comment
```

Setext Section
--------------

### Deep ###

Deep text.

Top Again
=========

Last words.
"""


def test_headings_have_exact_offsets_levels_and_plain_titles() -> None:
    doc = parse_bytes(SAMPLE.encode(), "guide.md")
    assert doc.text == SAMPLE  # the markdown source is the canonical text
    got = [(h.level, h.title, doc.text[h.start : h.end]) for h in doc.headings]
    assert got == [
        (1, "Guide to Widgets", "Guide to *Widgets*"),
        (2, "Installing widget", "Installing `widget`"),
        (2, "Setext Section", "Setext Section"),
        (3, "Deep", "Deep"),
        (1, "Top Again", "Top Again"),
    ]
    assert doc.title == "Guide to Widgets"
    assert doc.pages == ()


def test_chunks_follow_the_heading_path() -> None:
    doc = parse_bytes(SAMPLE.encode(), "guide.md")
    chunks = chunk(doc, min_chars=1, target_chars=40, max_chars=80)
    by_text = {doc.text[c.start : c.end].splitlines()[-1]: c.section for c in chunks}
    assert by_text["Deep text."] == ("Guide to Widgets", "Setext Section", "Deep")
    assert by_text["Last words."] == ("Top Again",)
    assert by_text["```"] == ("Guide to Widgets", "Installing widget")


def test_front_matter_is_not_a_heading_and_may_give_the_title() -> None:
    text = "---\ntitle: Declared Title\ntags: [a]\n---\n\nBody text.\n\n# First\n"
    doc = parse_bytes(text.encode(), "f.md")
    assert [h.title for h in doc.headings] == ["First"]
    assert doc.title == "Declared Title"


def test_multiline_setext_heading_spans_its_lines() -> None:
    text = "Para.\n\nA heading\nover two lines\n===\n\nBody.\n"
    doc = parse_bytes(text.encode(), "s.md")
    (h,) = doc.headings
    assert doc.text[h.start : h.end] == "A heading\nover two lines"
    assert h.title == "A heading over two lines"


def test_no_h1_means_no_title() -> None:
    doc = parse_bytes(b"## Only a subsection\n\ntext\n", "x.markdown")
    assert doc.title is None
    assert [h.level for h in doc.headings] == [2]


def test_crlf_markdown_offsets_point_into_the_normalised_text() -> None:
    doc = parse_bytes(b"# One\r\n\r\ntext\r\n\r\n## Two\r\n", "crlf.md")
    assert "\r" not in doc.text
    assert [doc.text[h.start : h.end] for h in doc.headings] == ["One", "Two"]
