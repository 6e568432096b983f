from __future__ import annotations

import pytest

from pincite.errors import ParseError
from pincite.ingest.chunk import chunk
from pincite.ingest.parse import parse_bytes

PAGE = """<!doctype html>
<html><head><title> Widget   Manual </title>
<style>h1 { color: red }</style><script>var secret = "hidden";</script></head>
<body>
<h1>The <em>Widget</em></h1>
<p>First   paragraph
   spans lines.<br>After a break.</p>
<noscript>Enable JS</noscript>
<template><p>Template text</p></template>
<section><h2>Setup</h2>
<ul><li>Plug in</li><li>Switch on</li></ul>
<h3>Caf&eacute; mode</h3><p>Brew.</p></section>
<table><tr><th>Key</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
<pre>  indented
    code</pre>
<h2>Other</h2><div>Tail <span>text</span>.</div>
</body></html>"""


def test_visible_text_only_in_blocks() -> None:
    doc = parse_bytes(PAGE.encode(), "manual.html")
    assert doc.title == "Widget Manual"
    for hidden in ("secret", "color", "Enable JS", "Template text"):
        assert hidden not in doc.text
    assert "First paragraph spans lines.\nAfter a break." in doc.text
    assert "- Plug in\n\n- Switch on" in doc.text  # an item opens with its marker
    # A row's cells stay told apart; the header row is underlined, rows are lines.
    assert "| Key | Value |\n| --- | --- |\n| a | 1 |" in doc.text
    assert "  indented\n    code" in doc.text  # <pre> keeps its whitespace
    assert "Tail text." in doc.text


def test_headings_have_exact_offsets_and_paths() -> None:
    doc = parse_bytes(PAGE.encode(), "manual.htm")
    got = [(h.level, h.title, doc.text[h.start : h.end]) for h in doc.headings]
    assert got == [
        (1, "The Widget", "The Widget"),
        (2, "Setup", "Setup"),
        (3, "Café mode", "Café mode"),
        (2, "Other", "Other"),
    ]
    chunks = chunk(doc, min_chars=1, target_chars=20, max_chars=60)

    def section_of(words: str) -> tuple[str, ...]:
        (found,) = [c for c in chunks if words in doc.text[c.start : c.end]]
        return found.section

    assert section_of("Brew.") == ("The Widget", "Setup", "Café mode")
    assert section_of("Switch on") == ("The Widget", "Setup")
    assert section_of("Tail text.") == ("The Widget", "Other")


def test_a_table_row_is_one_line_whatever_its_cells_hold() -> None:
    html = (
        b"<table><tr><th>Item</th><th>Limit</th></tr>"
        b"<tr><td><p>Hotel</p><p>(per night)</p></td><td>EUR<br>150</td></tr>"
        b"<tr><td> </td><td></td></tr>"
        b"<tr><td>Taxi <table><tr><td>per trip</td></tr></table></td><td>EUR 60</td></tr>"
        b"</table><p>After the table.</p>"
    )
    doc = parse_bytes(html, "limits.html")
    assert doc.text.split("\n") == [
        "| Item | Limit |",
        "| --- | --- |",
        "| Hotel (per night) | EUR 150 |",
        "| Taxi | per trip | EUR 60 |",
        "",
        "After the table.",
    ]
    assert doc.parser == "pincite-html/3"


def test_list_items_open_with_the_marker_a_browser_shows() -> None:
    html = (
        b"<ol start='5'><li>Five</li><li>Six<ul><li>a point</li></ul></li><li>Seven</li></ol>"
        b"<ol reversed><li>Counted down</li></ol><ol><li>One</li></ol>"
    )
    assert parse_bytes(html, "steps.html").text.split("\n\n") == [
        "5. Five",
        "6. Six",
        "  - a point",  # nested under its item, as Markdown indents it
        "7. Seven",
        "- Counted down",  # numbers a count of items cannot follow are not made up
        "1. One",
    ]


def test_title_falls_back_to_first_h1() -> None:
    doc = parse_bytes(b"<h2>Sub</h2><h1>Main</h1><p>x</p>", "t.html")
    assert doc.title == "Main"


def test_page_with_no_visible_text_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="no visible text"):
        parse_bytes(b"<html><script>only()</script></html>", "s.html")


def test_deep_nesting_does_not_overflow() -> None:
    html = "<div>" * 5000 + "deep" + "</div>" * 5000
    assert parse_bytes(html.encode(), "deep.html").text == "deep"


def test_decomposed_entities_are_nfc() -> None:
    doc = parse_bytes(b"<p>cafe&#x301;</p>", "nfc.html")
    assert doc.text == "caf\u00e9"


def test_invalid_utf8_in_html_is_a_warning() -> None:
    doc = parse_bytes(b"<p>bad \xff byte</p>", "bad.html")
    assert doc.text == "bad \ufffd byte"
    assert doc.warnings == ("invalid UTF-8 replaced at 1 place",)


def test_an_items_paragraphs_follow_its_marker_and_nest_as_markdown_does() -> None:
    page = (
        "<ul><li><p>Laptops are encrypted.</p><p>Keys stay in the vault.</p>"
        "<ul><li><p>Even spares.</p></li></ul></li><li>Phones lock.</li></ul>"
    )
    text = parse_bytes(page.encode(), "p.html").text
    # Not "-" alone over "Laptops ...": the marker opens the item's first paragraph.
    assert text == (
        "- Laptops are encrypted.\n\n  Keys stay in the vault.\n\n"
        "  - Even spares.\n\n- Phones lock."
    )


@pytest.mark.parametrize(
    ("page", "text"),
    [
        # A definition list reads as Markdown writes one.
        (
            "<dl><dt>Confidential</dt><dd>Customer data and contracts.</dd>"
            "<dt>Restricted</dt><dd><p>Keys and credentials.</p></dd><dd>Health records.</dd>"
            "</dl><p>Restricted data is encrypted.</p>",
            "Confidential\n: Customer data and contracts.\n\n"
            "Restricted\n: Keys and credentials.\n: Health records.\n\n"
            "Restricted data is encrypted.",
        ),
        # Tables one after another each keep their own header.
        (
            "<table><tr><th>Record</th><th>Kept</th></tr><tr><td>Logs</td><td>1 year</td></tr>"
            "</table><table><tr><th>Device</th><th>Owner</th></tr><tr><td>Laptop</td><td>IT</td>"
            "</tr></table><table><tr><td>no</td><td>header</td></tr><tr><td>just</td><td>rows</td>"
            "</tr></table>",
            "| Record | Kept |\n| --- | --- |\n| Logs | 1 year |\n\n"
            "| Device | Owner |\n| --- | --- |\n| Laptop | IT |\n\n"
            "| no | header |\n| just | rows |",
        ),
        # An empty item or definition leaves no marker waiting for what follows.
        ("<ul><li><img src=x.png></li></ul><h1>Title</h1><p>Body</p>", "Title\n\nBody"),
        ("<ul><li><hr></li></ul><p>after</p>", "after"),
        ("<dl><dt>A</dt><dd></dd><dt>B</dt><dd>b</dd></dl>", "A\n\nB\n: b"),
        ("<dl><dt>A</dt><dd>a</dd></dl><dl><dd>b</dd></dl>", "A\n: a\n\n: b"),
        # A heading, a table and preformatted text in an item stand at the margin.
        ("<ol><li><h3>Install</h3><p>Run it.</p></li></ol>", "Install\n\n  Run it."),
        (
            "<ul><li><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr>"
            "</table></li></ul>",
            "| A | B |\n| --- | --- |\n| 1 | 2 |",
        ),
        ("<ul><li><pre>  x = 1\n  y = 2</pre></li></ul>", "  x = 1\n  y = 2"),
        ("<dl><dt>T</dt><dd><h4>H</h4></dd></dl>", "T\n\nH"),
        # A line break in a nested item stays under the item's text.
        ("<ul><li>a<ul><li>b<br>c</li></ul></li></ul>", "- a\n\n  - b\n    c"),
        # An item opening straight into a nested list keeps its own number.
        ("<ol><li><ul><li>x</li></ul></li><li>b</li></ol>", "1. - x\n\n2. b"),
        # <thead> names the header row, whatever its cells; colspan counts.
        (
            "<table><thead><tr><td>A</td><td>B</td></tr></thead>"
            "<tbody><tr><td>1</td><td>2</td></tr></tbody></table>",
            "| A | B |\n| --- | --- |\n| 1 | 2 |",
        ),
        (
            "<table><tr><th colspan=2>A</th></tr><tr><td>1</td><td>2</td></tr></table>",
            "| A |\n| --- | --- |\n| 1 | 2 |",
        ),
    ],
)
def test_html_reads_as_markdown_writes_it(page: str, text: str) -> None:
    doc = parse_bytes(page.encode(), "page.html")
    assert doc.text == text
    # Every heading's offsets hold its text exactly, marker and indent left out.
    assert all(doc.text[h.start : h.end] == h.title for h in doc.headings)


def test_unclosed_items_nest_no_deeper_than_a_cap() -> None:
    doc = parse_bytes(b"<ul><li>item" * 1000, "deep.html")
    # Two spaces a level, capped: not a quadratic 1 MB of indent.
    assert max(len(line) - len(line.lstrip()) for line in doc.text.split("\n")) <= 16
    assert doc.text.count("- item") == 1000


def test_a_colspan_that_is_no_plain_number_counts_one_cell() -> None:
    page = '<table><tr><th colspan="2²">A</th></tr><tr><td>1</td></tr></table>'
    assert parse_bytes(page.encode(), "t.html").text == "| A |\n| --- |\n| 1 |"
