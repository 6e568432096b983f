"""Markdown tables as evidence: a row states a fact only under its header row."""

from __future__ import annotations

import re

from pincite.generate.bands import in_band, stated_values
from pincite.generate.base import Passage
from pincite.generate.cues import states_expected
from pincite.generate.layout import Unit, is_statement
from pincite.generate.names import named_in
from pincite.generate.pool import Piece
from pincite.generate.question import Question, QuestionKind
from pincite.generate.rows import cells, is_table_rule
from pincite.generate.words import content_stems, stem

__all__ = ["names_row", "table_record", "table_values"]


def table_record(
    question: Question,
    p: Passage,
    units: list[Unit],
    i: int,
    values: frozenset[tuple[str, float]] | None = None,
) -> tuple[Piece, ...] | None:
    """A table's row that may answer the question, with its header row; None for any other.

    "| Hotel (per night) | EUR 150 |" says what a limit is only under "| Item |
    Limit |": the claim quotes both rows, two pieces. The header is the
    table's first row (Markdown rules it off with "|---|"; HTML's rows are
    written alike at ingest). A row may answer:

    - a number question, when it states a number (of the kind asked for);
    - a question of another kind that names its key, its first cell ("What
      does a 409 error mean?" of "| 409 | The order is in a state ... |", "Who
      owns support tickets?"); not a list question, nor a yes/no question,
      which asks of something else than the entry ("Do we write a postmortem
      for a SEV3?" of the SEV3 row); or that states a figure the key's range
      holds ("I've been here 3 years" of "| 2 to 5 years | 10 weeks |", ``bands``);
    - any question, when a cell after its key is a sentence (``describes``),
      as a paragraph's sentence would.

    Never the header row itself, nor a row whose table starts before this
    passage does. ``values`` are the figures the passage's tables state
    (``table_values``), read here when not given.
    """
    row = p.text[units[i].start : units[i].end]
    described = describes(row)
    if question.kind is QuestionKind.NUMBER and not described:
        if not any(c.isdigit() for c in row):
            return None
        if question.expects is not None and not states_expected(question, row):
            return None
    elif not described and (
        question.kind is QuestionKind.LIST
        or question.whether
        or not (_keyed(question, row, None) or _band_of(question, row, _values(p, units, values)))
    ):
        return None
    # A name the passage's own title holds ("rfc 7230" of RFC 7230's rows) need not be
    # repeated in the row.
    elsewhere = [n for n in question.names if not named_in([n], p.title)]
    if elsewhere and not named_in(elsewhere, row):
        return None  # a row on SP 800-46 Revision 1 says nothing of Revision 3
    j = i
    while j > 0 and units[j - 1].row:
        j -= 1
        if j > 0 and units[j - 1].row and is_table_rule(p.text[units[j].start : units[j].end]):
            j -= 1  # the row the rule is under heads this table, not a table above it
            break
    header = units[j]
    if j == i or is_table_rule(p.text[header.start : header.end]):
        return None
    ruled = j + 1 < len(units) and is_table_rule(p.text[units[j + 1].start : units[j + 1].end])
    if j == 0 and p.start > 0 and not ruled:
        return None  # the chunk may open mid-table: its first row need not be the header
    head = p.text[header.start : header.end]
    keyed_only = question.kind is not QuestionKind.NUMBER and not described
    if keyed_only and not (
        _keyed(question, row, head) or _band_of(question, row, _values(p, units, values))
    ):
        return None
    return ((p, header.start, header.end), (p, units[i].start, units[i].end))


def describes(row: str) -> bool:
    """True when a cell after the row's first says something in a sentence of its own.

    A reference's row ("| `storage.max_buffer_size` | size | `10GiB` | When the
    buffer reaches this size, larkd stops accepting new data ... |") answers
    questions its key is never named in, as a paragraph would.
    """
    return any(is_statement(c) for c in cells(row)[1:])


def _keyed(question: Question, row: str, header: str | None) -> bool:
    """True when the question names the row's first cell, and the row says more than it.

    A short number alone ("| 1 |", "| 64 |") is named only with its column: "exit
    code 64" under "| Code |", "tier 1" under "| Tier |", not "tier 1" under "| # |"
    or "| Sl. No. |". Without the header (``table_record``'s first look) it may be.
    """
    return bool(_keyed_by(question, row, header))


def table_values(p: Passage, units: list[Unit]) -> frozenset[tuple[str, float]]:
    """The figures the passage's table rows state after their first cell (``bands``)."""
    rows = (cells(p.text[u.start : u.end]) for u in units if u.row)
    return stated_values([c for found in rows for c in found[1:]])


def _values(
    p: Passage, units: list[Unit], values: frozenset[tuple[str, float]] | None
) -> frozenset[tuple[str, float]]:
    return table_values(p, units) if values is None else values


def _band_of(
    question: Question, row: str, values: frozenset[tuple[str, float]] = frozenset()
) -> set[str]:
    """The stems of the question's figure that the row's key, a range, holds; else none.

    "I've been here 3 years" is asked of "| 2 to 5 years | 10 weeks |" (``bands``);
    a figure among the table's ``values`` is what is asked for, not the case.
    """
    found = cells(row)
    if len(found) < 2 or not any(found[1:]):
        return set()
    figure = in_band(question.text, found[0], values)
    if figure is None:
        return set()
    return set(content_stems(question.text[figure.start : figure.end])) or {"#"}


def _banded(
    question: Question, row: str, header: str, values: frozenset[tuple[str, float]]
) -> bool:
    """True when the row's range holds the question's figure and the row or its header
    holds another of its words: what is asked of the tier ("full salary" under "| Full
    pay |"), not only its figure."""
    figure = _band_of(question, row, values)
    if not figure:
        return False
    rest = set(question.stems) - figure
    return bool(rest & set(content_stems(f"{' '.join(cells(row)[1:])} {header}")))


def _keyed_by(question: Question, row: str, header: str | None) -> set[str]:
    """The key the question names the row by (``_keyed``); empty when it names none."""
    key = _key(row, set(question.stems))
    if not key or not key <= set(question.stems):
        return set()
    if header is None or not all(w.isdigit() and len(w) <= 2 for w in key):
        return key
    head = cells(header)
    return key if head and set(content_stems(head[0])) & set(question.stems) else set()


# Question words, besides the key, a row and its header may lack and still be the entry
# asked about ("What does a 409 error mean?" under "| Code | Meaning |": "error").
_UNSAID = 1
# A code, then its label: "P3 – Medium", "SEV1 (Critical)", "E4012: Card declined".
# A hyphen only with spaces round it: "3rd-party", "24-hour" are words, not codes.
_LABELLED_CODE = re.compile(r"\s*([A-Za-z]{0,8}\d[A-Za-z\d]*)(?:\s*[–—:(]|\s+-\s)\s*[A-Za-z]")
# The quantity a "how ..." question asks for, which a row states as a figure.
_HOW = re.compile(
    r"\bhow\s+(long|often|soon|fast|quickly|promptly|much|many|large|big|far|old)\b", re.I
)


def names_row(
    question: Question,
    row: str,
    header: str = "",
    values: frozenset[tuple[str, float]] = frozenset(),
) -> bool:
    """True when a question names a row's key (under ``header``), and the key is specific.

    Such a row is an entry of the table, as a label is of a glossary: "409"
    or "Support tickets" is; one common word ("Free", "Standard") is not, as
    a question may use it in passing. Nor for a yes/no question (see
    ``table_record``), nor when the row and its header lack more than one of the
    question's other words: what is asked of the entry is not there ("Who approves
    a SEV1 postmortem?" is not asked of the SEV1 row).
    """
    if question.kind is QuestionKind.LIST or question.whether:
        return False
    key = _keyed_by(question, row, header)
    if not key:
        return _banded(question, row, header, values)
    if len(key) < 2 and not any(c.isdigit() for w in key for c in w):
        return False
    # "What's the maximum value allowed for workers.count?", "What happens if I quit
    # after primary caregiver leave?": the key is named, but what is asked of it is
    # not in the row; the row is that entry only when it holds the rest of the question.
    said = set(content_stems(f"{row} {header}"))
    asked = {stem(m.group(1)) for m in _HOW.finditer(question.text)}  # "how long": "3 years"
    return len(set(question.stems) - key - said - asked) <= _UNSAID


def _key(row: str, asked: set[str]) -> set[str]:
    """The content stems of a row's first cell; none when no other cell says anything.

    A cell that opens with a code and labels it ("P3 – Medium", "SEV1 (Critical)")
    is named by its code alone ("a P3 ticket"), when the question does not name
    the whole cell.
    """
    found = cells(row)
    if len(found) < 2 or not any(found[1:]):
        return set()
    key = set(content_stems(found[0]))
    labelled = _LABELLED_CODE.match(found[0])
    if labelled and not key <= asked:
        return set(content_stems(labelled.group(1)))
    return key
