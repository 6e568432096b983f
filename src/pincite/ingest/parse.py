"""Pick a parser by file extension: bytes in, canonical text and provenance out.

Every input passes the same gate, whether it came from a path or an HTTP
upload: a size limit, content that matches its extension (``sniff``), a PDF
parsed in a child process under time and memory limits (``isolate``), and a
ceiling on the text that comes out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path, PurePath
from types import MappingProxyType

from pincite.errors import ParseError
from pincite.ingest.base import ParsedDocument
from pincite.ingest.files import read_source
from pincite.ingest.html import parse_html
from pincite.ingest.isolate import parse_pdf_isolated
from pincite.ingest.limits import DEFAULT_LIMITS, ParseLimits, size
from pincite.ingest.markdown import parse_markdown
from pincite.ingest.sniff import check_pdf, check_text
from pincite.ingest.text import parse_text

Parser = Callable[[bytes, str, ParseLimits], ParsedDocument]


def _text_format(parse: Callable[[bytes, str], ParsedDocument]) -> Parser:
    # Text parsers do work in proportion to their input, which the file-size
    # limit already bounds; only the PDF parser needs the limits passed in.
    def parser(data: bytes, source: str, limits: ParseLimits) -> ParsedDocument:
        check_text(data, source)
        return parse(data, source)

    return parser


def _pdf(data: bytes, source: str, limits: ParseLimits) -> ParsedDocument:
    check_pdf(data, source)
    return parse_pdf_isolated(data, source, limits)


PARSERS: Mapping[str, Parser] = MappingProxyType(
    {
        ".txt": _text_format(parse_text),
        ".text": _text_format(parse_text),
        ".md": _text_format(parse_markdown),
        ".markdown": _text_format(parse_markdown),
        ".html": _text_format(parse_html),
        ".htm": _text_format(parse_html),
        ".pdf": _pdf,
    }
)
SUPPORTED_SUFFIXES: frozenset[str] = frozenset(PARSERS)


def parse_bytes(
    data: bytes, filename: str, *, limits: ParseLimits = DEFAULT_LIMITS
) -> ParsedDocument:
    """Parse ``data`` as the format ``filename``'s extension names (case-insensitive).

    Raises ParseError for an unknown extension, an empty file, content that is
    not what the extension says, a file over ``limits``, or content the
    format's parser cannot turn into text.
    """
    parser = _parser_for(filename)
    if not data or data.isspace():
        raise ParseError(filename, "empty file")
    if len(data) > limits.max_file_bytes:
        raise ParseError(
            filename,
            f"the file is {size(len(data))}; the limit is {size(limits.max_file_bytes)}",
        )
    parsed = parser(data, filename, limits)
    if len(parsed.text) > limits.max_text_chars:
        raise ParseError(filename, f"the text exceeds {limits.max_text_chars} characters")
    return parsed


def parse_file(
    path: Path,
    *,
    root: Path | None = None,
    follow_symlinks: bool = False,
    limits: ParseLimits = DEFAULT_LIMITS,
) -> ParsedDocument:
    """Read and parse a file. Raises ParseError as ``parse_bytes`` does, or if unreadable.

    Only a regular file is read, and a symbolic link only if it resolves inside
    ``root`` (default: the file's directory) or ``follow_symlinks`` is set.
    """
    source = str(path)
    _parser_for(source)  # an unsupported file is refused before it is read
    data = read_source(path, limits, root=root, follow_symlinks=follow_symlinks)
    return parse_bytes(data, source, limits=limits)


def _parser_for(filename: str) -> Parser:
    suffix = PurePath(filename).suffix.lower()
    parser = PARSERS.get(suffix)
    if parser is None:
        supported = ", ".join(sorted(SUPPORTED_SUFFIXES))
        shown = suffix or "(none)"
        raise ParseError(filename, f"unsupported extension {shown}; supported: {supported}")
    return parser
