"""Pick a parser by file extension: bytes in, canonical text and provenance out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path, PurePath
from types import MappingProxyType

from pincite.errors import ParseError
from pincite.ingest.base import ParsedDocument
from pincite.ingest.html import parse_html
from pincite.ingest.markdown import parse_markdown
from pincite.ingest.pdf import parse_pdf
from pincite.ingest.text import parse_text

Parser = Callable[[bytes, str], ParsedDocument]

PARSERS: Mapping[str, Parser] = MappingProxyType(
    {
        ".txt": parse_text,
        ".text": parse_text,
        ".md": parse_markdown,
        ".markdown": parse_markdown,
        ".html": parse_html,
        ".htm": parse_html,
        ".pdf": parse_pdf,
    }
)
SUPPORTED_SUFFIXES: frozenset[str] = frozenset(PARSERS)


def parse_bytes(data: bytes, filename: str) -> ParsedDocument:
    """Parse ``data`` as the format ``filename``'s extension names (case-insensitive).

    Raises ParseError for an unknown extension, an empty file, or content the
    format's parser cannot turn into text.
    """
    parser = _parser_for(filename)
    if not data.strip():
        raise ParseError(filename, "empty file")
    return parser(data, filename)


def parse_file(path: Path) -> ParsedDocument:
    """Read and parse a file. Raises ParseError as ``parse_bytes`` does, or if unreadable."""
    source = str(path)
    _parser_for(source)  # an unsupported file is refused before it is read
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ParseError(source, f"cannot read file ({exc.strerror or exc})") from None
    return parse_bytes(data, source)


def _parser_for(filename: str) -> Parser:
    suffix = PurePath(filename).suffix.lower()
    parser = PARSERS.get(suffix)
    if parser is None:
        supported = ", ".join(sorted(SUPPORTED_SUFFIXES))
        shown = suffix or "(none)"
        raise ParseError(filename, f"unsupported extension {shown}; supported: {supported}")
    return parser
