"""Bytes to canonical text: the normalisation every parser applies.

Canonical text is what gets hashed and stored, so the steps here decide when two
files are "the same version". They are deliberately few: newlines to LF, no BOM,
NFC, and no NUL (PostgreSQL ``text`` cannot hold one). Everything else is kept.
"""

from __future__ import annotations

import codecs
import re
import unicodedata

_NEWLINES = re.compile(r"\r\n?")
_REPLACEMENT = "\ufffd"
_ENCODED_REPLACEMENT = _REPLACEMENT.encode("utf-8")


def decode_text(data: bytes) -> tuple[str, tuple[str, ...]]:
    """Decode UTF-8 (or BOM-marked UTF-16), replacing invalid bytes; say how many were replaced."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # What Windows editors call "Unicode". Its BOM says so unambiguously.
        try:
            return data.decode("utf-16"), ()
        except UnicodeDecodeError:
            text = data.decode("utf-16", errors="replace")
            return text, (f"invalid UTF-16 replaced at {_places(text.count(_REPLACEMENT))}",)
    text = data.decode("utf-8-sig", errors="replace")
    # Python replaces each maximal invalid subsequence with one U+FFFD and never
    # consumes a valid sequence, so the difference with the U+FFFD already
    # encoded in the input counts the replaced places exactly.
    bad = text.count(_REPLACEMENT) - data.count(_ENCODED_REPLACEMENT)
    warnings = (f"invalid UTF-8 replaced at {_places(bad)}",) if bad else ()
    return text, warnings


def canonical(text: str) -> tuple[str, tuple[str, ...]]:
    """Normalise newlines, drop a BOM, NFC, replace NULs; return the text and any warnings."""
    text = _NEWLINES.sub("\n", text.removeprefix("\ufeff"))
    text = unicodedata.normalize("NFC", text)
    nuls = text.count("\x00")
    if not nuls:
        return text, ()
    return text.replace("\x00", _REPLACEMENT), (f"NUL characters replaced at {_places(nuls)}",)


def collapse(text: str) -> str:
    """Collapse runs of whitespace to one space and strip: how titles are spelled."""
    return " ".join(text.split())


def strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` so it neither starts nor ends with whitespace (may become empty)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _places(n: int) -> str:
    return "1 place" if n == 1 else f"{n} places"
