"""The layout of a passage: which sentences are statements, and what they sit under.

Ingest keeps a document's characters exactly, page furniture included. Before
a sentence can be a claim the generator must know what it is: a heading
("10.4.9 408 Request Timeout"), a term label ("Rapid elasticity." at the start
of a line, its definition following on the same line), a lead-in to a list
("Service Models:"), a list item, a footnote ("2 A cloud infrastructure is
..."), a running header or footer ("Fielding, et al.  Standards Track
[Page 44]"), or a statement. Each statement records the title it sits under
and whether it is the first thing said there, which is where documents put a
definition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from pincite.generate.faq import stands_alone
from pincite.generate.glossary import glossary_terms
from pincite.generate.page_break import finishes
from pincite.generate.rows import is_table_rule, table_lines, table_rows
from pincite.generate.running_header import running_header, title_words
from pincite.generate.wording import (
    FIELD,
    VERBS,
    looks_like_code,
    names_a_term,
    sentence_case,
    short_statement,
)
from pincite.sentences import sentence_spans

__all__ = ["BULLET", "Role", "Unit", "is_statement", "layout"]

_NUMBERED_HEADING = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.\d+(?:\.\d+)*)\s+\S")
_TERMINAL = (".", "!", "?", ";", ")", '"', "”")


def is_statement(text: str) -> bool:
    """True for a sentence that can stand as a claim; false for headings and page furniture."""
    words = text.split()
    if len(words) < 5:
        return False
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.6 * len(letters):
        return False  # ALL-CAPS running headers and titles
    if _NUMBERED_HEADING.match(text) and not text.rstrip().endswith((".", "!", "?", ":")):
        return False
    if text.rstrip().endswith(":"):
        return False  # a lead-in to a list says nothing by itself
    return text.rstrip().endswith(_TERMINAL) or len(words) >= 12


class Role(StrEnum):
    STATEMENT = "statement"
    ITEM = "item"  # a bulleted or numbered list item
    HEADING = "heading"
    LABEL = "label"  # "Rapid elasticity." opening a definition on the same line
    LEADIN = "leadin"  # "Service Models:" (ends with a colon)
    FOOTNOTE = "footnote"
    FURNITURE = "furniture"  # running headers and footers, page numbers
    FRAGMENT = "fragment"  # too short or unfinished to stand alone


TITLES = frozenset({Role.HEADING, Role.LABEL, Role.LEADIN})


@dataclass(frozen=True, slots=True)
class Unit:
    """One sentence of a passage; offsets into the passage's text, end exclusive."""

    start: int
    end: int
    role: Role
    # The heading, label or lead-in this unit sits under inside the passage
    # ("" before the passage's first one), and its index in the unit list.
    title: str = ""
    title_index: int | None = None
    # True for the first statement or item after its title.
    first: bool = False
    # True for a line of a Markdown table, its header and rule included.
    row: bool = False


_FURNITURE = re.compile(
    r"\[Page \d+\]|^RFC \d{3,5}\s{2,}|^Page \d+( of \d+)?$|^[ivxlc\d]{1,4}$"
    r"|\S\s{6,}\S\s{6,}\S|_{10}"
    # "2-3" (chapter-page numbers), "ES-1" and "A-3" (an executive summary's and an
    # appendix's)
    r"|^\d{1,2}-\d{1,3}$|^[A-Z]{1,2}-\d{1,3}$"
    # a footnote that is only a link ("11 http://dx.doi.org/10.6028/NIST.SP.800-77")
    r"|^\d{1,3}\s+https?://\S+$",
    re.I,
)
# A line ending in a link or a mail address, no full stop after it: a footer, an
# example header ("Location: http://..."), or a sentence saying where to go.
_ENDS_IN_LINK = re.compile(r"(?:^|\s)\(?https?://\S*[^\s.;]$", re.I)
# What a sentence says just before the address it points to ("... at", "email", ":").
_POINTS_TO = re.compile(
    r"(?:\b(?:at|from|to|via|on|in|through|under|see|visit|email|e-mail|contact|call|write)|:)\s*$",
    re.I,
)
# "... available free of charge from: http://...": a link after a colon, as a footer puts it.
_FOOTER_LINK = re.compile(r":\s+\(?https?://\S*[^\s.;]$", re.I)
_ENDS_IN_ADDRESS = re.compile(r"(?:^|\s)[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_FOOTNOTE = re.compile(r"^\d{1,2}\s+[A-Z]")
# What opens a bulleted item ("- ", "• "), and what PDF symbol fonts extract it to.
BULLET = "[-*•·‣◦▪●○–—−+\ue000-\uf8ff]"
# The number of a numbered item or step ("3." or "3)").
_ITEM_NUMBER = r"\d{1,3}"
_ITEM = re.compile(
    # "(iv)", "a)", "ii)"; not "RDP)", the end of a parenthesis a line break split off.
    rf"^(?:{BULLET}|{_ITEM_NUMBER}[.)]|\([a-zA-Z0-9]{{1,4}}\)"
    r"|(?:[a-zA-Z]|[ivx]{1,4}|[IVX]{1,4}|\d{1,2}[a-z])\)|[a-z][.)])\s"
)
# A bullet or a number, not "(URL)": a parenthesis a line break may open a line with.
_MARKED_ITEM = re.compile(rf"^(?:{BULLET}|{_ITEM_NUMBER}[.)])\s")
_MD_HEADING = re.compile(r"^#{1,6}\s")
# A table of contents' dot leaders ("10. Acknowledgments ....72").
_LEADERS = re.compile(r"\.{4,}|…{2,}|(?:\. ){3,}")
_STEP = re.compile(rf"({_ITEM_NUMBER})[.)]\s")
_WORD = re.compile(r"\w+")
# Pseudo-code reads as words ("length := 0 read chunk-size ... while (chunk-size > 0) {")
# but an assignment or a block of braces is no prose.
_PSEUDOCODE = re.compile(r"\w\s*:=\s*\w|\)\s*\{|\{\s*$|^\s*\}", re.M)
_LABEL_WORDS = 7
_NUMBERED_LABEL = re.compile(r"^\d{1,2}\.\s+[A-Z][^.]*\.$")
_LEADIN_WORDS = 25
_HEADING_WORDS = 12


def layout(text: str, title: str = "") -> list[Unit]:
    """Every sentence of ``text`` with its role and the title it sits under.

    ``title`` is the document's: a line that repeats it is a running header.
    """
    rows = table_lines(text)
    spans, terms = glossary_terms(text, _whole_md_headings(text, sentence_spans(text)))
    spans = table_rows(text, spans, rows)
    # A glossary's term labels its definition as "Rapid elasticity." does the
    # sentence after it: the claim quotes the term with it.
    roles = [
        Role.LABEL if s in terms else _role(text, spans, i, rows) for i, (s, _) in enumerate(spans)
    ]
    header_words = title_words(title)
    for i, role in enumerate(roles):
        line = text[slice(*spans[i])]
        # "2. The NIST Definition of Cloud Computing" is a section's heading.
        numbered = _NUMBERED_HEADING.match(line) or _MD_HEADING.match(line)
        if (
            role in (Role.HEADING, Role.FRAGMENT)
            and not numbered
            and running_header(line, header_words)
        ):
            roles[i] = Role.FURNITURE
    _footers(text, spans, roles, rows)
    _steps(text, spans, roles)
    _page_cuts(text, spans, roles, rows)
    for i in range(1, len(roles)):
        # "4. Approving Authority.\n\nSecretary of Commerce.": a short line
        # under a heading that ends like a sentence is that heading's body.
        previous, current = text[slice(*spans[i - 1])], text[slice(*spans[i])]
        both = roles[i - 1] is Role.HEADING and roles[i] is Role.HEADING
        if both and previous.rstrip().endswith(".") and current.rstrip().endswith("."):
            roles[i] = Role.STATEMENT
    units: list[Unit] = []
    title, title_index, seen = "", None, False
    for i, ((s, e), role) in enumerate(zip(spans, roles, strict=True)):
        if role in TITLES:
            units.append(Unit(s, e, role, title, title_index))
            title, title_index, seen = text[s:e], i, False
            continue
        first = role in (Role.STATEMENT, Role.ITEM) and title_index is not None and not seen
        if role in (Role.STATEMENT, Role.ITEM):
            seen = True
        units.append(Unit(s, e, role, title, title_index, first, row=s in rows))
    return units


def _footers(
    text: str, spans: list[tuple[int, int]], roles: list[Role], rows: dict[int, int]
) -> None:
    """Make a PDF's per-page link footer furniture ("This publication is available
    free of charge from: http://..." under every page number of SP 800-46r2)."""
    # Page furniture: not a table's rule, nor a line that is only a link.
    page = [
        r is Role.FURNITURE and s not in rows and not _ENDS_IN_LINK.search(text[s:e])
        for r, (s, e) in zip(roles, spans, strict=True)
    ]
    for i, role in enumerate(roles):
        if role is not Role.STATEMENT or not _FOOTER_LINK.search(text[slice(*spans[i])]):
            continue
        # Beside a page number or a running header; or first or last in a
        # passage, whose page number may sit in the passage next to it, when
        # the passage has page furniture of its own or the link is a DOI.
        beside = [j for j in (i - 1, i + 1) if 0 <= j < len(roles) and page[j]]
        doi = "doi.org/" in text[slice(*spans[i])].casefold()
        edge = i in (0, len(roles) - 1) and (any(page) or doi)
        if beside or edge:
            roles[i] = Role.FURNITURE


def _page_cuts(
    text: str, spans: list[tuple[int, int]], roles: list[Role], rows: dict[int, int]
) -> None:
    """Make a sentence a page break cuts one statement, begun where it begins.

    "If no Accept-Language header is present in the request, the server", a
    page's footer and the next page's header, then "SHOULD assume that all
    languages are equally acceptable.": the first half is too short to stand
    as a statement on its own, and the rest, standing alone, would be a claim
    without its subject. The first half becomes the statement (``pool.resumed``
    quotes the rest with it) and the rest a fragment, no claim of its own.
    """
    rests: set[int] = set()
    for i, role in enumerate(roles):
        if i in rests or role not in (Role.STATEMENT, Role.FRAGMENT, Role.ITEM):
            continue
        if role is Role.FRAGMENT and (
            spans[i][0] in rows or looks_like_code(text[slice(*spans[i])], False)
        ):
            continue  # grammar and table rows stay what they are
        j = i + 1
        while j < len(roles) and roles[j] is Role.FURNITURE:
            j += 1
        if j == i + 1 or j == len(roles) or roles[j] not in (Role.STATEMENT, Role.FRAGMENT):
            continue
        if "\f" not in text[spans[i][1] : spans[j][0]]:
            continue
        if finishes(text[slice(*spans[i])], text[slice(*spans[j])], item=role is Role.ITEM):
            if role is Role.FRAGMENT:
                roles[i] = Role.STATEMENT
            roles[j] = Role.FRAGMENT
            rests.add(j)


def _steps(text: str, spans: list[tuple[int, int]], roles: list[Role]) -> None:
    """Make numbered steps items, however short and verbless: "1. Open the HR portal."
    over "2. Choose Request leave."; item n + 1 after item n at its column, a blank
    line between or not ('2. "Semantics and Content" [RFC7231]' ends as no
    sentence does); not a table of contents ("10. Acknowledgments ....72")."""
    for i in range(len(roles) - 1):
        if not {roles[i], roles[i + 1]} <= {Role.HEADING, Role.ITEM}:
            continue
        here, nxt = _STEP.match(text[slice(*spans[i])]), _STEP.match(text[slice(*spans[i + 1])])
        lines = text[spans[i][0] : spans[i + 1][1]]
        if not (here and nxt and int(nxt[1]) == int(here[1]) + 1) or _LEADERS.search(lines):
            continue
        gap = text[spans[i][1] : spans[i + 1][0]]
        alone = gap.strip(" \t") == "\n" and _ends_line(text, spans[i + 1][1])
        # At item n's column, unless item n opens the passage (its indent left out).
        opens = not text[: spans[i][0]].strip()
        same = opens or _column(text, spans[i][0]) == _column(text, spans[i + 1][0])
        follows = roles[i] is Role.ITEM and _opens_line(text, spans[i + 1][0]) and same
        if roles[i + 1] is Role.ITEM or follows or (alone and _opens_line(text, spans[i][0])):
            roles[i] = roles[i + 1] = Role.ITEM


def _whole_md_headings(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` with each Markdown heading line one span.

    "## 3. Expenses" is one heading; a sentence splitter sees "## 3." end
    with its stop and leaves "Expenses" as a fragment, so the statements below
    would sit under "## 3." and lose the words that say what they are about.
    """
    if "#" not in text:
        return spans  # no Markdown heading: PDFs and plain text skip the pass
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and _MD_HEADING.match(text[out[-1][0] : out[-1][1]]):
            line_end = text.find("\n", out[-1][0])
            if line_end == -1 or s < line_end:
                out[-1] = (out[-1][0], e)
                continue
        out.append((s, e))
    return out


def _items_follow(text: str, spans: list[tuple[int, int]], i: int) -> bool:
    """True when the next sentence is a bulleted or numbered line: what a long
    sentence ending in a colon leads into ("A transparent proxy MUST NOT modify
    any of the following fields ... if not already present:" over "- ETag")."""
    if i + 1 >= len(spans):
        return False
    s, e = spans[i + 1]
    return _opens_line(text, s) and _ITEM.match(text[s:e]) is not None


def _column(text: str, s: int) -> int:
    """How far ``text[s]`` sits from its line's start."""
    return s - (text.rfind("\n", 0, s) + 1)


def _ends_line(text: str, e: int) -> bool:
    """True when only spaces and tabs stand between ``text[e]`` and the line's end."""
    end = text.find("\n", e)
    return not text[e : len(text) if end < 0 else end].strip()


def _opens_line(text: str, s: int) -> bool:
    """True when ``text[s:]`` starts a line (spaces and tabs before it aside)."""
    return s == 0 or text[:s].rstrip(" \t").endswith(("\n", "\r", "\f"))


def _role(text: str, spans: list[tuple[int, int]], i: int, rows: dict[int, int]) -> Role:
    s, e = spans[i]
    sentence = text[s:e]
    words = sentence.split()
    at_line_start = _opens_line(text, s)
    if _FURNITURE.search(sentence):
        return Role.FURNITURE
    stripped = sentence.rstrip()
    if _MD_HEADING.match(sentence):
        return Role.HEADING  # before the code test: "## Remote Access" is mostly "#"
    if s in rows:
        # "|------|-------|" rules the header row off; a row is a line no sentence
        # holds, quoted only with its header row (``select._record``).
        return Role.FURNITURE if is_table_rule(sentence) else Role.FRAGMENT
    own_item = at_line_start and _ITEM.match(sentence) is not None
    marked = at_line_start and _MARKED_ITEM.match(sentence) is not None
    if looks_like_code(sentence, marked) or _PSEUDOCODE.search(sentence):
        return Role.FRAGMENT  # grammar (ABNF) and code: not prose a claim can quote
    if stripped.endswith((":", "—", "–")) and (
        len(words) <= _LEADIN_WORDS or (_items_follow(text, spans, i) and not own_item)
    ):
        return Role.LEADIN  # "Service Models:", "The potential impact is LOW if—"
    unfinished = not stripped.endswith(_TERMINAL)
    if _NUMBERED_HEADING.match(sentence) and unfinished and len(words) <= _HEADING_WORDS:
        return Role.HEADING
    verbless = not any(w.casefold() in VERBS for w in words)
    if _NUMBERED_LABEL.match(sentence) and verbless and len(words) <= _LABEL_WORDS:
        return Role.HEADING  # "4. Approving Authority."
    if at_line_start and _ITEM.match(sentence):
        return Role.ITEM
    web = _ENDS_IN_LINK.search(sentence)
    link = web or _ENDS_IN_ADDRESS.search(sentence)
    if link and not (at_line_start and _FOOTNOTE.match(sentence)):
        # "Submit every claim through the portal: https://..." and "For HR
        # questions, email hr@example.com" say where to go, whether or not the
        # writer put a full stop after the address.
        said = sentence[: link.start()]
        says = _POINTS_TO.search(said) or any(w.casefold() in VERBS for w in said.split())
        if says and is_statement(sentence.rstrip() + "."):
            return Role.STATEMENT
        # A bare link, a reference ("NIST SP 800-77, Guide to IPsec VPNs
        # http://...", "Telework guidance and resources https://...") or a
        # signature: no claim, and no heading either.
        return Role.FURNITURE if web else Role.FRAGMENT
    if (
        at_line_start
        and _FOOTNOTE.match(sentence)
        and len(words) >= 5
        and stripped.endswith(_TERMINAL)
    ):
        return Role.FOOTNOTE
    if at_line_start and stripped.endswith(".") and len(words) <= _LABEL_WORDS:
        nxt = spans[i + 1][0] if i + 1 < len(spans) else None
        same_line = nxt is not None and "\n" not in text[e:nxt]
        verbless = not any(w.casefold() in VERBS for w in words)
        if (
            verbless
            and sentence[:1].isupper()
            and names_a_term(words)
            and not FIELD.match(sentence)
        ):
            # "Platform as a Service (PaaS)." alone on its line is a heading.
            return Role.LABEL if same_line else Role.HEADING
    if stands_alone(text, s, e):
        return Role.HEADING  # an FAQ's question over its answer ("<summary>Can I …?")
    if is_statement(sentence) or short_statement(words):
        return Role.STATEMENT
    if not at_line_start and sentence_case(words) and stripped.endswith("."):
        # A release note's "Adds dark mode." inside its paragraph; not a title run in
        # ("Incident Response Plan.", "3. Access Control Policy.").
        return Role.STATEMENT
    if stripped.endswith((",", ";")) or stripped.casefold() in ("and", "or"):
        # "SC sensor data = {(confidentiality, NA), ...},\n\nand": a line that runs on
        # into the next is no title of what follows.
        return Role.FRAGMENT
    if unfinished and len(words) <= _HEADING_WORDS and at_line_start:
        return Role.HEADING
    return Role.FRAGMENT
