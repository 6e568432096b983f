"""Markdown: the source itself is the canonical text; markdown-it finds the headings.

Keeping the markup makes offsets exact and trivially checkable against the file
a user can open; the cost is a few ``#`` and ``*`` in passages, which search and
embedding tolerate.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pincite.errors import ParseError
from pincite.ingest.base import Heading, ParsedDocument
from pincite.ingest.textutil import canonical, collapse, decode_text, strip_span

PARSER = "pincite-markdown/1"

# YAML front matter is not markdown: markdown-it would read its closing `---`
# as a setext underline and make a heading of the last key.
_FRONT_MATTER = re.compile(r"---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|$)", re.DOTALL)
_FRONT_MATTER_TITLE = re.compile(r"^title:[ \t]*(.+?)[ \t]*$", re.MULTILINE)


def parse_markdown(data: bytes, source: str) -> ParsedDocument:
    """Parse UTF-8 markdown. Raises ParseError when there is no text."""
    decoded, decode_warnings = decode_text(data)
    text, warnings = canonical(decoded)
    if not text.strip():
        raise ParseError(source, "no text (empty or whitespace only)")
    front = _FRONT_MATTER.match(text)
    body_start = front.end() if front else 0
    headings = tuple(h for h in _headings(text) if h.start >= body_start)
    title = next((h.title for h in headings if h.level == 1), None)
    if front:
        declared = _FRONT_MATTER_TITLE.search(front.group())
        if declared:
            title = collapse(declared.group(1).strip("\"'")) or title
    return ParsedDocument(
        text=text,
        parser=PARSER,
        title=title,
        headings=headings,
        warnings=decode_warnings + warnings,
    )


def _headings(text: str) -> list[Heading]:
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def offset(line: int) -> int:
        return line_starts[line] if line < len(line_starts) else len(text)

    tokens = MarkdownIt("commonmark").parse(text)
    headings: list[Heading] = []
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None or i + 1 >= len(tokens):
            continue
        inline = tokens[i + 1]
        first, last = token.map
        if token.markup not in ("=", "-"):  # ATX: the heading is one line
            last = first + 1
        else:  # setext: the underline is not heading text
            last -= 1
        region_start, region_end = offset(first), offset(last)
        found = text.find(inline.content, region_start, region_end) if inline.content else -1
        if found >= 0:
            start, end = found, found + len(inline.content)
        else:
            start, end = strip_span(text, region_start, region_end)
        if start == end:
            continue
        title = _plain(inline) or collapse(text[start:end])
        headings.append(Heading(start, end, int(token.tag[1:]), title))
    # Container blocks (lists, quotes) can nest; keep document order.
    headings.sort(key=lambda h: h.start)
    return headings


def _plain(inline: Token) -> str:
    """A heading's text without inline markup: what a reader sees."""
    parts: list[str] = []
    for child in inline.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(_plain(child))
    return collapse("".join(parts))
