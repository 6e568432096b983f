from __future__ import annotations

from pathlib import Path

import pytest

from pincite.errors import InputError, ParseError
from pincite.ingest.parse import SUPPORTED_SUFFIXES, parse_bytes, parse_file


def test_supported_suffixes() -> None:
    assert {".txt", ".md", ".markdown", ".html", ".htm", ".pdf"} <= SUPPORTED_SUFFIXES


@pytest.mark.parametrize("name", ["a.txt", "a.md", "a.html", "a.pdf"])
@pytest.mark.parametrize("data", [b"", b"  \n\t\r\n  \f"])
def test_empty_or_blank_file_is_a_parse_error(name: str, data: bytes) -> None:
    with pytest.raises(ParseError, match="empty file") as caught:
        parse_bytes(data, name)
    assert caught.value.source == name
    assert isinstance(caught.value, InputError)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("name", ["sheet.xlsx", "README", "archive.tar.gz", "x.pdf.bak"])
def test_unknown_extension_is_a_parse_error_listing_the_supported_ones(name: str) -> None:
    with pytest.raises(ParseError, match="unsupported extension") as caught:
        parse_bytes(b"some text", name)
    assert ".pdf" in caught.value.reason
    assert "\n" not in caught.value.reason


def test_markup_with_nothing_visible_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        parse_bytes(b"<html><body>   </body></html>", "empty.html")


def test_extension_is_case_insensitive() -> None:
    assert parse_bytes(b"# Hi\n", "README.MD").headings[0].title == "Hi"
    assert parse_bytes(b"hello", "NOTES.TXT").text == "hello"


def test_parse_file_reads_and_dispatches(tmp_path: Path) -> None:
    path = tmp_path / "note.md"
    path.write_bytes(b"# Title\n\ntext\n")
    doc = parse_file(path)
    assert doc.title == "Title"
    assert doc.parser.startswith("pincite-markdown/")


def test_parse_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="cannot read file"):
        parse_file(tmp_path / "missing.txt")
    with pytest.raises(ParseError, match="unsupported extension"):
        parse_file(tmp_path / "missing.docx")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with pytest.raises(ParseError, match="empty file"):
        parse_file(empty)


def test_binary_content_named_txt_is_refused_but_a_stray_bad_byte_is_a_warning() -> None:
    with pytest.raises(ParseError, match="PNG image, not text"):
        parse_bytes(b"\x89PNG\r\n\x1a\n\xff\xd8\xff\xe0 binary", "image.txt")
    doc = parse_bytes(b"plain text with one \xff byte", "image.txt")
    assert doc.warnings and doc.warnings[0].startswith("invalid UTF-8 replaced at")
