"""Markdown tables in a passage: which lines are rows, each kept whole as one unit."""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["cells", "is_table_row", "is_table_rule", "table_lines", "table_rows"]

_TABLE_ROW = re.compile(r"^\|.*\|$")
_TABLE_RULE = re.compile(r"^\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$")
# "--- | :---:": a rule with a bar between its cells, if none at its ends.
_FENCES = ("```", "~~~")
_BARLESS_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?$")
# What a row's cells are split at: a bar, not an escaped one ("\\|"); as in GitHub's
# tables, a bar in a code span splits too, and "\\\\|" is a backslash, then a bar.
_CELL_PART = re.compile(r"\\.|(\|)")


def table_lines(text: str) -> dict[int, int]:
    """Each line of a Markdown table, as its first and past-its-last non-blank character.

    A line with a bar at both ends is a row wherever it stands; GitHub's
    tables may leave the outer bars off ("Item | Cap" over "--- | ---"), and
    such a line is a row only in a block whose second line rules its header off.
    """
    if "|" not in text:
        return {}
    lines: list[tuple[int, str]] = []
    at = 0
    for line in text.splitlines(keepends=True):
        lines.append((at + len(line) - len(line.lstrip()), line.strip()))
        at += len(line)
    found: dict[int, int] = {}
    # A chunk may open or end inside a code block; fences that do not pair up
    # tell neither, and are ignored.
    fences = sum(1 for _, line in lines if line.startswith(_FENCES))
    fenced = False
    i = 0
    while i < len(lines):
        lead, line = lines[i]
        if fences % 2 == 0 and line.startswith(_FENCES):
            fenced = not fenced  # a code block's bars are no table
        elif fenced:
            pass
        elif is_table_row(line):
            found[lead] = lead + len(line)
        elif "|" in line and i + 1 < len(lines) and _BARLESS_RULE.match(lines[i + 1][1]):
            while i < len(lines) and "|" in lines[i][1]:
                found[lines[i][0]] = lines[i][0] + len(lines[i][1])
                i += 1
            continue
        i += 1
    return found


def table_rows(
    text: str, spans: list[tuple[int, int]], rows: dict[int, int]
) -> list[tuple[int, int]]:
    """``spans`` with each line of a Markdown table (``rows``) one span, whole.

    A sentence splitter reads a table as one run of text with no stop in it,
    or cuts a row at a full stop inside a cell; a row ("| Hotel (per night) |
    EUR 150 |") is the unit that states a fact, under the header row that
    says what its cells are.
    """
    if not rows:
        return spans
    extents = sorted(rows.items())
    ends = [b for _, b in extents]
    out: list[tuple[int, int]] = []
    done: set[int] = set()
    for s, e in spans:
        first = bisect_right(ends, s)  # rows end in order: the first that ends past s
        inside = []
        for a, b in extents[first:]:
            if a >= e:
                break
            inside.append((a, b))
        at = s
        for a, b in inside:
            out.extend(_stripped(text, at, a))
            if a not in done:
                out.append((a, b))
                done.add(a)
            at = max(at, b)
        out.extend(_stripped(text, at, e))
    return out


def _stripped(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``[start, end)`` without whitespace at its ends; nothing when that leaves nothing."""
    piece = text[start:end]
    if not piece.strip():
        return []
    first = start + len(piece) - len(piece.lstrip())
    return [(first, start + len(piece.rstrip()))]


def is_table_row(line: str) -> bool:
    """True for a line of a Markdown table ("| Hotel (per night) | EUR 150 |")."""
    return _TABLE_ROW.match(line) is not None


def is_table_rule(line: str) -> bool:
    """True for the line under a Markdown table's header row ("|------|:-----:|")."""
    return _TABLE_RULE.match(line) is not None


def cells(row: str) -> list[str]:
    """A table row's cells, stripped, without the empty ones outside its outer bars."""
    row = row.strip()
    parts: list[str] = []
    at = 0
    for m in _CELL_PART.finditer(row):
        if m.group(1) is not None:
            parts.append(row[at : m.start()])
            at = m.end()
    parts.append(row[at:])
    if row.startswith("|"):
        parts = parts[1:]
    if row.endswith("|") and len(parts) > 1:
        parts = parts[:-1]
    return [c.strip() for c in parts]
