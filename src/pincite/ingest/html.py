"""HTML: the visible text, one block per paragraph-like element, with h1–h6 as headings.

The text reads as Markdown writes the same page. Blocks are separated by a
blank line, so the chunker sees paragraphs; inside a block whitespace
collapses as a browser would, except in ``<pre>``. A table's rows are
consecutive lines with their cells between bars ("| Hotel (per night) | EUR
150 |"), its header row (``<thead>``, or a first row of ``<th>`` cells)
underlined "| --- |", so the answerer reads each row under its own table's
header. A list item opens with its marker, "1. " in an ordered list and "- "
in any other, and a nested item or an item's later paragraph is indented
under it (two spaces a level: pincite's reader compares indents, it does
not count a marker's width). A ``<dd>`` follows its ``<dt>`` on the next
line as ": definition".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from selectolax.lexbor import LexborHTMLParser, LexborNode

from pincite.errors import ParseError
from pincite.ingest.base import Heading, ParsedDocument
from pincite.ingest.textutil import canonical, collapse, decode_text

# 2: table rows written "| cell | cell |" and list items "1. " / "- " (1 had neither).
# 3: a table's rows on consecutive lines, its header row underlined; a <dd> under its
# <dt> as ": definition"; an item's marker before its first paragraph, not alone.
PARSER = "pincite-html/3"

_SKIP = frozenset({"script", "style", "noscript", "template", "head", "title"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = frozenset(
    {
        *_HEADINGS,
        "address", "article", "aside", "blockquote", "body", "caption", "dd", "details",
        "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
        "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "p",
        "pre", "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul",
    }
)  # fmt: skip
_CELLS = frozenset({"td", "th"})
_SPACE = re.compile(r"[ \t\n\r\f]+")
_SPACES = re.compile(r" {2,}")
_BLOCK_SEPARATOR = "\n\n"
# Deepest indent of nested items: a page of unclosed <li>s must not grow without bound.
_MAX_INDENT = 8


@dataclass
class _Builder:
    """Collects inline text and cuts it into blocks at block-element boundaries."""

    # Each block with its heading level (None for body text) and what separates
    # it from the block before.
    blocks: list[tuple[str, int | None, str]] = field(default_factory=list)
    inline: list[str] = field(default_factory=list)
    pre_depth: int = 0
    heading: int | None = None
    # Inside a table cell, block elements (a <p> in a <td>) do not cut the row.
    cell_depth: int = 0
    # The lists an item sits in: a count of its items for <ol>, None for <ul>.
    lists: list[int | None] = field(default_factory=list)
    # What opens the next block with text: an item's "- " waits there, so
    # "<li><p>Text</p></li>" reads "- Text", not "-" over "Text".
    marker: str = ""
    separator: str = _BLOCK_SEPARATOR
    # Rows written so far by each open table, outermost first.
    tables: list[int] = field(default_factory=list)
    # The current row's header and data cells (colspan counted), and whether
    # it sits in a <thead>.
    header_cells: int = 0
    data_cells: int = 0
    in_head: bool = False
    # The last block written was a term or its definition: a <dd> follows on the next line.
    in_entry: bool = False
    entry_start: int = 0  # blocks written before the open <dt> or <dd>
    # The open list items, innermost last: whether each has written a block yet.
    items: list[bool] = field(default_factory=list)

    def text(self, value: str) -> None:
        self.inline.append(value if self.pre_depth else _SPACE.sub(" ", value))

    def flush(self) -> None:
        raw = "".join(self.inline)
        self.inline.clear()
        if self.pre_depth:
            block = raw.strip("\n").rstrip()
        else:
            lines = (_SPACES.sub(" ", line).strip(" ") for line in raw.split("\n"))
            block = "\n".join(lines).strip()
        if not block.strip():
            return
        marker, indent = self._prefix(block)
        first, *rest = block.split("\n")
        # A block's later lines (a <br>) sit under its first line's text.
        block = "\n".join(
            [indent + marker + first, *(indent + " " * len(marker) + x for x in rest)]
        )
        # A heading stands a paragraph apart, even at a <dd>'s place.
        separator = _BLOCK_SEPARATOR if self.heading is not None else self.separator
        self.blocks.append((unicodedata.normalize("NFC", block), self.heading, separator))
        self.separator = _BLOCK_SEPARATOR
        self.in_entry = False

    def _prefix(self, block: str) -> tuple[str, str]:
        """The marker and the indent this block opens with; each is taken once.

        Markdown's indents: a nested item under its parent, an item's later
        paragraph under its first line, so neither ends the list. A heading, a
        table and a ``<pre>`` stand at the margin with no marker: their text
        must read as what it is (a heading's offsets, a row's bars).
        """
        marker, self.marker = self.marker, ""
        depth = min(sum(self.items), _MAX_INDENT)
        self.items = [True] * len(self.items)
        if self.heading is not None or self.pre_depth or block.startswith("|"):
            return "", ""
        return marker, "  " * depth


def parse_html(data: bytes, source: str) -> ParsedDocument:
    """Parse UTF-8 HTML. Raises ParseError when there is no visible text."""
    decoded, decode_warnings = decode_text(data)
    markup, warnings = canonical(decoded)
    if not markup.strip():
        raise ParseError(source, "no text (empty or whitespace only)")
    tree = LexborHTMLParser(markup)
    builder = _Builder()
    _walk(tree.body or tree.root, builder)
    builder.flush()
    parts: list[str] = []
    headings: list[Heading] = []
    pos = 0
    for block, level, separator in builder.blocks:
        if parts:
            parts.append(separator)
            pos += len(separator)
        if level is not None:
            headings.append(Heading(pos, pos + len(block), level, collapse(block)))
        parts.append(block)
        pos += len(block)
    text = "".join(parts)
    if not text.strip():
        raise ParseError(source, "no visible text")
    title_node = tree.css_first("title")
    title = collapse(title_node.text()) if title_node is not None else ""
    if not title:
        title = next((h.title for h in headings if h.level == 1), "")
    return ParsedDocument(
        text=text,
        parser=PARSER,
        title=title or None,
        headings=tuple(headings),
        warnings=decode_warnings + warnings,
    )


def _walk(root: LexborNode | None, builder: _Builder) -> None:
    """Depth-first, with an explicit stack: real pages nest deeper than Python recursion."""
    if root is None:
        return
    stack: list[tuple[LexborNode, bool]] = [(root, True)]
    while stack:
        node, entering = stack.pop()
        if node.is_text_node:
            builder.text(node.text_content or "")
            continue
        if not node.is_element_node:
            continue
        tag = node.tag or ""
        if entering:
            if tag in _SKIP:
                continue
            _open(tag, builder, node)
            stack.append((node, False))
            children = list(node.iter(include_text=True))
            stack.extend((child, True) for child in reversed(children))
        else:
            _close(tag, builder)


def _open(tag: str, builder: _Builder, node: LexborNode) -> None:
    if tag == "br":
        # Appended directly: outside <pre>, text() would collapse it to a space.
        # A row stays one line.
        builder.inline.append(" " if builder.cell_depth else "\n")
    elif tag in _CELLS:
        builder.text(" | ")
        if not builder.cell_depth:
            span = re.fullmatch(r"\s*([0-9]{1,3})\s*", node.attributes.get("colspan") or "")
            cells = max(1, int(span[1])) if span else 1
            if tag == "th":
                builder.header_cells += cells
            else:
                builder.data_cells += cells
        builder.cell_depth += 1
    elif builder.cell_depth:
        if tag in _BLOCKS:
            builder.text(" ")
    elif tag in _BLOCKS and builder.heading is None:
        entry = builder.in_entry
        builder.flush()
        if tag == "table":
            builder.tables.append(0)
        elif tag == "thead":
            builder.in_head = True
        elif tag == "tr":
            builder.header_cells = builder.data_cells = 0
        elif tag == "dl":
            builder.in_entry = False
        elif tag in ("dt", "dd"):
            builder.entry_start = len(builder.blocks)
            if tag == "dd":
                # "Confidential" over "Customer data ...": a definition list reads as
                # Markdown writes one, "Confidential\n: Customer data ...".
                builder.marker = ": "
                if entry:
                    builder.separator = "\n"
        if tag in _HEADINGS:
            builder.heading = _HEADINGS[tag]
        elif tag == "pre":
            builder.pre_depth += 1
        elif tag in ("ol", "ul"):
            first = _first_number(node) if tag == "ol" else None
            builder.lists.append(None if first is None else first - 1)
        elif tag == "li":
            builder.items.append(False)
            # "1. Open the portal.", "- Plug in": an item says it is one, as Markdown does.
            # An item opening straight into another keeps both ("1. - a point").
            count = builder.lists[-1] if builder.lists else None
            if count is None:
                builder.marker += "- "
            else:
                builder.lists[-1] = count + 1
                builder.marker += f"{count + 1}. "


def _close(tag: str, builder: _Builder) -> None:
    if tag in _HEADINGS and builder.heading == _HEADINGS[tag]:
        builder.flush()
        builder.heading = None
    elif tag in _CELLS:
        builder.cell_depth = max(0, builder.cell_depth - 1)
    elif builder.cell_depth:
        if tag in _BLOCKS:
            builder.text(" ")
    elif tag == "tr" and builder.heading is None:
        if "".join(builder.inline).replace("|", "").strip():
            builder.text(" |")
            _close_row(builder)
        else:
            builder.inline.clear()  # a row of empty cells shows nothing
        builder.flush()
    elif tag in _BLOCKS and builder.heading is None:
        builder.flush()
        if tag in ("li", "dd"):
            # An empty item or definition leaves nothing waiting for the next block.
            builder.marker, builder.separator = "", _BLOCK_SEPARATOR
        if tag in ("dt", "dd"):
            builder.in_entry = len(builder.blocks) > builder.entry_start
        elif tag == "dl":
            builder.in_entry = False
        elif tag == "li" and builder.items:
            builder.items.pop()
        elif tag == "table" and builder.tables:
            builder.tables.pop()
        elif tag == "thead":
            builder.in_head = False
        if tag == "pre":
            builder.pre_depth = max(0, builder.pre_depth - 1)
        elif tag in ("ol", "ul") and builder.lists:
            builder.lists.pop()


def _close_row(builder: _Builder) -> None:
    """A table's rows are consecutive lines, its first row underlined as Markdown's header
    is ("| Record | Kept |\n| --- | --- |") when it is one, so each of two tables one
    after the other is read under its own header (a table in a cell is flattened into it)."""
    if not builder.tables:
        return
    rows = builder.tables[-1]
    if rows:
        builder.separator = "\n"
    if not rows and (builder.in_head or (builder.header_cells and not builder.data_cells)):
        builder.inline.append("\n|" + " --- |" * (builder.header_cells + builder.data_cells))
    builder.tables[-1] = rows + 1


def _first_number(ol: LexborNode) -> int | None:
    """The number an ``<ol>``'s first item shows: its ``start``, 1 by default.

    None for a ``reversed`` list, which counts down from a number a count of
    items cannot follow: its items are written as bullets, not wrong numbers.
    """
    attributes = ol.attributes
    if "reversed" in attributes:
        return None
    start = (attributes.get("start") or "").strip()
    return int(start) if start.lstrip("-").isdigit() else 1
