"""Markdown tables as evidence: a row states a fact only under its header row."""

from __future__ import annotations

from pincite.generate.base import Passage
from pincite.generate.cues import states_expected
from pincite.generate.layout import Unit, is_table_row, is_table_rule
from pincite.generate.names import named_in
from pincite.generate.pool import Piece
from pincite.generate.question import Question, QuestionKind

__all__ = ["table_record"]


def table_record(
    question: Question, p: Passage, units: list[Unit], i: int
) -> tuple[Piece, ...] | None:
    """A Markdown table's row stating the number a question asks for, with its header row.

    "| Hotel (per night) | EUR 150 |" says what a limit is only under "| Item |
    Limit |": the claim quotes both rows, two pieces. None for the header row
    itself, a row without a number, a question that asks for no number, or a
    row whose table has no header row in this passage.
    """
    row = p.text[units[i].start : units[i].end]
    if question.kind is not QuestionKind.NUMBER or not any(c.isdigit() for c in row):
        return None
    if question.expects is not None and not states_expected(question, row):
        return None
    if question.names and not named_in(question.names, row):
        return None  # a row on SP 800-46 Revision 1 says nothing of Revision 3
    j = i
    while j > 0 and is_table_row(p.text[units[j - 1].start : units[j - 1].end]):
        j -= 1
    rule = units[j + 1] if j + 1 < len(units) else None
    if j == i or rule is None or not is_table_rule(p.text[rule.start : rule.end]):
        return None
    return ((p, units[j].start, units[j].end), (p, units[i].start, units[i].end))
