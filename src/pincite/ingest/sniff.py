"""Is the content what its extension says? Magic bytes and a binary test.

The extension picks the parser, so a PNG renamed ``.md`` would otherwise be
"decoded" into chunks of replacement characters. A small table of signatures
names the common impostors (a dependency such as ``puremagic`` knows hundreds
more, but the decision here needs only "PDF or not" and "text or not", and the
binary test below catches every format the table misses).
"""

from __future__ import annotations

import codecs

from pincite.errors import ParseError

# (signature, name): formats people actually mislabel or mis-save.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "a PDF"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"PK\x03\x04", "a ZIP archive (or DOCX/XLSX/EPUB)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Office document"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\x7fELF", "an executable"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x00asm", "a WebAssembly module"),
)
# The PDF standard lets the header start anywhere in the first 1024 bytes.
_PDF_HEADER_WITHIN = 1024
# Text is judged on its first 64 KiB: enough to see a binary file for what it is.
_SAMPLE = 64 * 1024
# Stray bad bytes happen in real text (a Latin-1 "é" pasted into UTF-8); a file
# where more than 1% of the sample (at least 16 places) is NUL, a control
# character or invalid UTF-8 is not text.
_TOLERANCE_SHARE = 0.01
_TOLERANCE_MIN = 16
# C0 controls that never occur in text (tab, newlines, form feed and ESC do).
_CONTROLS = bytes(b for b in range(0x20) if b not in b"\t\n\v\f\r\x1b")


def check_pdf(data: bytes, source: str) -> None:
    """Raise ParseError unless ``data`` has a PDF header."""
    if b"%PDF-" in data[:_PDF_HEADER_WITHIN]:
        return
    kind = identify(data)
    seen = f"the content is {kind}" if kind else "no %PDF- header"
    raise ParseError(source, f"unreadable PDF ({seen})")


def check_text(data: bytes, source: str) -> None:
    """Raise ParseError when ``data``, named as a text format, is binary content."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return  # UTF-16 text is full of NULs by design; its BOM says what it is
    kind = identify(data)
    if kind == "a PDF":
        raise ParseError(source, "the content is a PDF; name the file .pdf to ingest it")
    if kind is not None:
        raise ParseError(source, f"the content is {kind}, not text")
    sample = data[:_SAMPLE]
    odd = len(sample) - len(sample.translate(None, _CONTROLS)) + _invalid_utf8(sample)
    if odd > max(_TOLERANCE_MIN, _TOLERANCE_SHARE * len(sample)):
        raise ParseError(
            source,
            f"binary content, not text ({odd} NUL, control or invalid UTF-8 bytes "
            f"in the first {len(sample)} bytes)",
        )


def identify(data: bytes) -> str | None:
    """The known format ``data`` starts with, as a phrase ("a PNG image"), or None."""
    return next((name for signature, name in _SIGNATURES if data.startswith(signature)), None)


def _invalid_utf8(sample: bytes) -> int:
    """How many places Python's decoder replaces (each maximal invalid run is one).

    A character cut in half at the end of the sample is not counted: the
    incremental decoder holds it back instead of replacing it.
    """
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    replaced = decoder.decode(sample, final=False).count("\ufffd")
    return replaced - sample.count("\ufffd".encode())
