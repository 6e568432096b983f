"""A table's band rows: the row whose range holds a figure the question states.

Tables of tiers key each row by a range: "| 2 to 5 years | 10 weeks |" in a
sick-pay table, "| 95.0% to below 99.0% | 10% |" in a service-credit table,
"| Up to £250k | Line manager |" in an approval matrix. A question states
its own case ("I've been here 3 years", "if availability was 97%") and the
row that holds it is the entry it asks of, though no word of the two is the
same. Figures compare in one unit: percentages with percentages, amounts
with amounts of the same currency, durations as days (a year 365.25, a
month a twelfth of it). A range keeps its ends as written: "to below 99.0%"
leaves 99.0 out, "up to £500" keeps 500 in; so does a question's own
comparator ("if availability drops below 95%").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["Band", "Quantity", "in_band", "quantities", "stated_values"]

_YEAR = 365.25
_DAYS = {"year": _YEAR, "month": _YEAR / 12, "week": 7.0, "day": 1.0, "hour": 1 / 24}
_CURRENCY = {"£": "gbp", "$": "usd", "€": "eur", "gbp": "gbp", "usd": "usd", "eur": "eur"}
_SCALE = {"k": 1e3, "m": 1e6, "bn": 1e9}
# A figure with its unit: "3 years", "97%", "99.0 %", "£1,200", "GBP 2,500.01", "£250k",
# "5+ years". Not a figure inside a word or a code ("COVID19", "Q3", "H100").
_QUANTITY = re.compile(
    r"(?P<cur>[£$€]|\b(?:GBP|USD|EUR)\s?)?"
    r"(?<![\w.,])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:(?P<scale>k|m|bn)(?![A-Za-z]))?(?P<plus>\+)?"
    r"(?:\s?(?P<pct>%|per\s?cent\b|percent\b)"
    r"|\s?(?P<time>years?|months?|weeks?|(?:working\s+|business\s+)?days?|hours?)\b"
    r"|\s?(?P<cur2>GBP|USD|EUR)\b)?"
    r"(?![A-Za-z\d])",
    re.I,
)
# What bounds a figure from the left: (lower or upper end, whether it is included).
# Negations first: "not less than" is "at least", "no more than" is "at most".
_BOUND_BEFORE = [
    (re.compile(r"\b(?:not|no)\s+(?:less\s+than|below|under|fewer\s+than)\s*$", re.I), "lo", True),
    (re.compile(r"\b(?:not|no)\s+(?:more\s+than|above|over|greater\s+than)\s*$", re.I), "hi", True),
    (re.compile(r"\b(?:below|under|less\s+than|fewer\s+than|lower\s+than)\s*$", re.I), "hi", False),
    (re.compile(r"\b(?:up\s+to|at\s+most|a\s+maximum\s+of)\s*$", re.I), "hi", True),
    (re.compile(r"\b(?:above|over|more\s+than|greater\s+than|exceeding)\s*$", re.I), "lo", False),
    (re.compile(r"\b(?:at\s+least|from|a\s+minimum\s+of)\s*$", re.I), "lo", True),
]
_OPEN_ABOVE = re.compile(r"^\s*(?:or\s+more|or\s+over|and\s+(?:above|over|more))\b", re.I)
_OPEN_BELOW = re.compile(r"^\s*(?:or\s+less|or\s+fewer|or\s+under|and\s+(?:below|under))\b", re.I)
# Between two figures: "2 to 5 years", "GBP 500.01 - GBP 2,500", "95.0% to below 99.0%".
_BETWEEN = re.compile(r"^\s*(?:to|[-–—]|and)\s*$", re.I)
_BETWEEN_BELOW = re.compile(r"^\s*to\s+(?:below|under|less\s+than)\s*$", re.I)
# "Below 99.0% but at least 97.0%": the second figure is the lower end.
_BUT_AT_LEAST = re.compile(r"^\s*but\s+(?:at\s+least|not\s+(?:less\s+than|below))\s*$", re.I)


@dataclass(frozen=True, slots=True)
class Quantity:
    """A figure in one unit: ("pct", 97.0), ("days", 1095.75), ("money:gbp", 1200.0)."""

    unit: str
    value: float
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Band:
    """A range of one unit, each end in or out of it."""

    unit: str
    low: float = -math.inf
    high: float = math.inf
    low_in: bool = True
    high_in: bool = True

    def holds(self, value: float) -> bool:
        above = value > self.low or (self.low_in and value == self.low)
        below = value < self.high or (self.high_in and value == self.high)
        return above and below

    def within(self, other: Band) -> bool:
        """True when every value of this band is one of ``other``'s."""
        if self.unit != other.unit:
            return False
        low_ok = self.low > other.low or (
            self.low == other.low and (other.low_in or not self.low_in)
        )
        high_ok = self.high < other.high or (
            self.high == other.high and (other.high_in or not self.high_in)
        )
        return low_ok and high_ok


def quantities(text: str) -> list[Quantity]:
    """The figures of ``text`` that carry a unit; a bare number carries none."""
    found = []
    for m in _QUANTITY.finditer(text):
        unit, value = _unit(m)
        if unit:
            found.append(Quantity(unit, value, m.start(), m.end()))
    return found


def _unit(m: re.Match[str]) -> tuple[str, float]:
    value = float(m["num"].replace(",", ""))
    currency = m["cur"] or m["cur2"]
    if m["scale"]:
        # "£250k", "£1.5m": an amount's multiplier; "5m" alone may be minutes or metres.
        if not currency:
            return "", value
        value *= _SCALE[m["scale"].casefold()]
    if m["pct"]:
        return "pct", value
    if m["time"]:
        word = m["time"].casefold().split()[-1].rstrip("s")
        return "days", value * _DAYS[word]
    if currency:
        return "money:" + _CURRENCY[currency.strip().casefold()], value
    return "", value


def _bound(before: str, after: str) -> tuple[str, bool] | None:
    """Which end of a range a figure is, read from the words around it."""
    for pattern, end, included in _BOUND_BEFORE:
        if pattern.search(before):
            return end, included
    if _OPEN_ABOVE.match(after):
        return "lo", True
    if _OPEN_BELOW.match(after):
        return "hi", True
    return None


def _band(cell: str) -> Band | None:
    """The range a row's key cell states; None when it states none.

    A unit written once serves both ends ("2 to 5 years"); a band whose figures are
    in no unit, or in two kinds of unit, is no band.
    """
    figures = list(_QUANTITY.finditer(cell))
    if not figures or len(figures) > 2:
        return None
    units = {u for u, _ in map(_unit, figures) if u}
    if len(units) != 1:
        return None
    (unit,) = units
    values = []
    for m in figures:
        u, v = _unit(m)
        if not u:  # "2 to 5 years": the first figure takes the last one's unit
            last = figures[-1]
            v *= _unit(last)[1] / float(last["num"].replace(",", ""))
        values.append(v)
    if len(figures) == 2:
        gap = cell[figures[0].end() : figures[1].start()]
        if values[0] <= values[1] and _BETWEEN.match(gap):
            return Band(unit, values[0], values[1])
        if values[0] <= values[1] and _BETWEEN_BELOW.match(gap):
            return Band(unit, values[0], values[1], high_in=False)
        first = _bound(cell[: figures[0].start()], "")
        if _BUT_AT_LEAST.match(gap) and first is not None and first[0] == "hi":
            return Band(unit, values[1], values[0], high_in=first[1])
        return None
    m = figures[0]
    if m["plus"]:
        return Band(unit, values[0])
    bound = _bound(cell[: m.start()], cell[m.end() :])
    if bound is None:
        return None
    end, included = bound
    if end == "hi":
        return Band(unit, high=values[0], high_in=included)
    return Band(unit, low=values[0], low_in=included)


def in_band(
    question: str, cell: str, stated: frozenset[tuple[str, float]] = frozenset()
) -> Quantity | None:
    """The figure of ``question`` that the range ``cell`` states holds, if one does.

    A figure of the question that the table states among its values
    (``stated``, as (unit, value)) is what it asks for, not its case: "Which
    length of service gets 10 weeks of full pay?". A figure the question
    bounds ("drops below 95%") must lie in the band as a whole.
    """
    band = _band(cell)
    if band is None:
        return None
    for q in quantities(question):
        if q.unit != band.unit or (q.unit, q.value) in stated:
            continue
        bound = _bound(question[: q.start], question[q.end :])
        if bound is None:
            if band.holds(q.value):
                return q
            continue
        end, included = bound
        asked = (
            Band(q.unit, high=q.value, high_in=included)
            if end == "hi"
            else Band(q.unit, low=q.value, low_in=included)
        )
        if asked.within(band):
            return q
    return None


def stated_values(cells: list[str]) -> frozenset[tuple[str, float]]:
    """The figures (unit, value) that a table's value cells state."""
    return frozenset((q.unit, q.value) for c in cells for q in quantities(c))
