"""Section headings and page furniture found in plain lines of text.

Shared by the text parser and the PDF parser when a PDF has no outline. The
style recognised is the one RFCs and standards use: a heading is a line that
starts at column 0 with a section number (``3.2.1 General Syntax``,
``2.1.  Client/Server Messaging``, ``A.1.  Changes``, ``Appendix B``); when the
body text is indented (as in RFCs), short unnumbered column-0 lines between
blank lines (``Abstract``, ``Status of This Memo``) are headings too.
Running headers and footers repeat on most pages and are never headings.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pincite.ingest.base import Heading, PageSpan
from pincite.ingest.textutil import collapse

_NUMBERED = re.compile(
    r"(?P<num>\d{1,2}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+)\.?[ \t]+(?P<title>\S.*)"
)
_APPENDIX = re.compile(
    r"(?:Appendix|APPENDIX|Annex|ANNEX)[ \t]+(?P<num>[A-Z](?:\.\d{1,3})*)\b[.:—–-]?(?P<title>.*)"
)
# Table-of-contents lines: dot leaders, or a title followed by a far-off page number.
_TOC = re.compile(r"(?:\.{4,}|(?:\. ){3,}|…{2,}|\s{2,}\d+\s*$)")
_PAGE_FOOTER = re.compile(r"\[Page (\w+)\]")
_CLAUSE_END = re.compile(r"[,;:]$")

# How many lines at the top and bottom of each page may be running headers/footers.
_FURNITURE_DEPTH = 3


@dataclass(frozen=True, slots=True)
class Line:
    start: int
    end: int  # exclusive; excludes the newline
    text: str

    @property
    def blank(self) -> bool:
        return not self.text.strip()


def split_lines(text: str) -> list[Line]:
    lines: list[Line] = []
    pos = 0
    for raw in text.split("\n"):
        lines.append(Line(pos, pos + len(raw), raw))
        pos += len(raw) + 1
    return lines


def footer_label(page_text: str) -> str | None:
    """The printed page number of an RFC-style ``[Page N]`` footer, if the page has one."""
    found = _PAGE_FOOTER.findall(page_text)
    return found[-1] if found else None


def _furniture_key(line: str) -> str:
    return re.sub(r"\d+", "#", collapse(line)).lower()


def furniture_keys(lines: Sequence[Line], pages: Sequence[PageSpan]) -> frozenset[str]:
    """Lines that open or close many pages (digits ignored): running headers and footers."""
    if len(pages) < 3:
        return frozenset()
    counts: Counter[str] = Counter()
    index = 0
    for page in pages:
        on_page: list[Line] = []
        while index < len(lines) and lines[index].start < page.end:
            if lines[index].start >= page.start and lines[index].text.strip("\f \t"):
                on_page.append(lines[index])
            index += 1
        edge = on_page[:_FURNITURE_DEPTH] + on_page[-_FURNITURE_DEPTH:]
        counts.update({_furniture_key(line.text) for line in edge})
    threshold = max(2, len(pages) // 3)
    return frozenset(key for key, n in counts.items() if n >= threshold)


def _numbered(line: str) -> tuple[int, str] | None:
    """Level and title of a numbered heading line, or None."""
    match = _APPENDIX.fullmatch(line)
    if match is None:
        match = _NUMBERED.fullmatch(line)
        if match is None:
            return None
        first = match["title"][0]
        # "3.2.2 http URL" is a heading; "2 or more ..." is a sentence.
        if not (first.isupper() or first.isdigit() or "." in match["num"]):
            return None
        if _CLAUSE_END.search(match["title"]):
            return None
        if not any(ch.isalpha() for ch in match["title"]):
            return None
    title = collapse(line)
    if len(title) > 100 or len(title.split()) > 16 or _TOC.search(line):
        return None
    return 1 + match["num"].count("."), title


def _unnumbered(line: str) -> bool:
    title = line.strip()
    return (
        len(title) <= 60
        and title[0].isupper()
        and len(title.split()) <= 8
        and ":" not in title
        and "   " not in title
        and title[-1] not in ".,;:"
        and not _TOC.search(title)
    )


def detect_headings(
    text: str,
    pages: Sequence[PageSpan] = (),
    *,
    accept: Callable[[Line], bool] | None = None,
) -> tuple[Heading, ...]:
    """Numbered (and, in indented documents, unnumbered) headings of ``text``.

    ``accept`` lets a caller veto a candidate line with what it knows beyond
    the characters (a PDF parser rejects lines set smaller than body text).
    """
    lines = split_lines(text)
    furniture = furniture_keys(lines, pages)
    content = [
        line
        for line in lines
        if not line.blank
        and _furniture_key(line.text) not in furniture
        and not _PAGE_FOOTER.search(line.text)
    ]
    indented = sum(line.text[0] in " \t" for line in content) > len(content) / 2
    page_starts = {p.start for p in pages}
    keep = {line.start for line in content}

    def separated(above: int, below: int) -> bool:
        """Whether nothing but blank lines, furniture or a page break lies between two lines."""
        if above < 0 or below >= len(lines):
            return True
        return (
            lines[above].start not in keep
            or lines[below].start not in keep
            or lines[below].start in page_starts
        )

    headings: list[Heading] = []
    for i, line in enumerate(lines):
        if line.start not in keep or line.text[0] in " \t\f":
            continue
        found = _numbered(line.text.rstrip())
        if (
            found is None
            and indented
            and _unnumbered(line.text)
            and separated(i - 1, i)
            and separated(i, i + 1)
        ):
            found = (1, collapse(line.text))
        if found is None or (accept is not None and not accept(line)):
            continue
        level, title = found
        end = line.start + len(line.text.rstrip())
        headings.append(Heading(line.start, end, level, title))
    return tuple(headings)
