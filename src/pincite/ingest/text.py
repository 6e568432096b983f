"""Plain text: the bytes are the text; form feeds make pages, RFC conventions give structure."""

from __future__ import annotations

from pincite.errors import ParseError
from pincite.ingest.base import PageSpan, ParsedDocument
from pincite.ingest.headings import detect_headings, footer_label
from pincite.ingest.textutil import canonical, collapse, decode_text

PARSER = "pincite-text/1"

# An RFC names itself in its header block, within the first lines of page 1.
_RFC_HEADER_LINES = 40


def parse_text(data: bytes, source: str) -> ParsedDocument:
    """Parse UTF-8 plain text. Raises ParseError when there is no text."""
    decoded, decode_warnings = decode_text(data)
    text, warnings = canonical(decoded)
    if not text.strip():
        raise ParseError(source, "no text (empty or whitespace only)")
    pages = paginate(text)
    return ParsedDocument(
        text=text,
        parser=PARSER,
        title=_title(text),
        pages=pages,
        headings=detect_headings(text, pages),
        warnings=decode_warnings + warnings,
    )


def paginate(text: str) -> tuple[PageSpan, ...]:
    """Pages separated by form feeds, tiling the text; none when there is no form feed.

    Each form feed (and the newline right after it) ends its page, so the next
    page starts at a line start. Whitespace after the last form feed is no page
    of its own: files usually end with one.
    """
    if "\f" not in text:
        return ()
    starts = [0]
    pos = text.find("\f")
    while pos != -1:
        cut = pos + 1
        if text.startswith("\n", cut):
            cut += 1
        starts.append(cut)
        pos = text.find("\f", cut)
    if starts[-1] == len(text) or not text[starts[-1] :].strip():
        starts.pop()
    ends = [*starts[1:], len(text)]
    return tuple(
        PageSpan(number, start, end, footer_label(text[start:end]))
        for number, (start, end) in enumerate(zip(starts, ends, strict=True), start=1)
    )


def _title(text: str) -> str | None:
    lines = text.split("\n")
    head = lines[:_RFC_HEADER_LINES]
    if any("Request for Comments:" in line for line in head):
        title = _rfc_title(lines)
        if title:
            return title
    first = next((line for line in lines if line.strip()), "")
    return collapse(first)[:200] or None


def _rfc_title(lines: list[str]) -> str | None:
    """The centred title after an RFC's header block, joined if it wraps."""
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    while i < len(lines) and lines[i].strip():  # the header block
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    title: list[str] = []
    while i < len(lines) and lines[i].startswith(" ") and lines[i].strip():
        title.append(lines[i])
        i += 1
    return collapse(" ".join(title)) or None
