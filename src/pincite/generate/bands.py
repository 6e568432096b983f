"""A table's band rows: the row whose range holds a figure the question states.

Tables of tiers key each row by a range: "| 2 to 5 years | 10 weeks |" in a
sick-pay table, "| 95.0% to below 99.0% | 10% |" in a service-credit table,
"| Up to £250k | Line manager |" in an approval matrix. A question states
its own case ("I've been here 3 years", "if availability was 97%") and the
row that holds it is the entry it asks of, though no word of the two is the
same. Figures compare in one unit: percentages with percentages, amounts
with amounts of the same currency, durations as days (a year 365.25, a
month a twelfth of it). A range keeps its ends as written: "to below 99.0%"
leaves 99.0 out, "up to £500" keeps 500 in. A question's own comparator
moves its figure just past the end it names: "over 3 years" is a little
more than 3 years, "below 95%" a little less than 95 %.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Band", "Quantity", "asks_value", "in_band", "quantities", "stated_values"]

_YEAR = 365.25
_DAYS = {"year": _YEAR, "month": _YEAR / 12, "week": 7.0, "day": 1.0, "hour": 1 / 24}
_CURRENCY = {"£": "gbp", "$": "usd", "€": "eur", "gbp": "gbp", "usd": "usd", "eur": "eur"}
_SCALE = {"k": 1e3, "m": 1e6, "bn": 1e9, "thousand": 1e3, "million": 1e6, "billion": 1e9}
# A figure with its unit: "3 years", "97%", "99.0 %", "£1,200", "GBP2,500.01", "£250k",
# "£1 million", "5+ years". Not a figure inside a word or a code ("COVID19", "Q3", "H100").
_QUANTITY = re.compile(
    r"(?P<cur>[£$€]|\b(?:GBP|USD|EUR)\s?)?"
    r"(?<![\d.,_])(?:(?<=GBP)|(?<=USD)|(?<=EUR)|(?<![A-Za-z]))"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:(?P<scale>k|m|bn|\s?(?:thousand|million|billion))(?![A-Za-z]))?(?P<plus>\+)?"
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
    (re.compile(r"(?:<=|≤|=<)\s*$"), "hi", True),
    (re.compile(r"(?:>=|≥|=>)\s*$"), "lo", True),
    (re.compile(r"<\s*$"), "hi", False),
    (re.compile(r">\s*$"), "lo", False),
    (re.compile(r"\b(?:below|under|less\s+than|fewer\s+than|lower\s+than)\s*$", re.I), "hi", False),
    (re.compile(r"\b(?:up\s+to|at\s+most|a\s+maximum\s+of)\s*$", re.I), "hi", True),
    (
        re.compile(
            r"\b(?:above|over|more\s+than|greater\s+than|exceeding|in\s+excess\s+of)\s*$", re.I
        ),
        "lo",
        False,
    ),
    (re.compile(r"\b(?:at\s+least|from|a\s+minimum\s+of)\s*$", re.I), "lo", True),
]
_OPEN_ABOVE = re.compile(r"^\s*(?:\+|or\s+more|or\s+over|and\s+(?:above|over|more))", re.I)
_OPEN_BELOW = re.compile(r"^\s*(?:or\s+less|or\s+fewer|or\s+under|and\s+(?:below|under))", re.I)
# Between two figures: "2 to 5 years", "GBP 500.01 - GBP 2,500", "95.0% to below 99.0%",
# "more than 2 years up to 5 years", "at least 2 but less than 5 years".
_BETWEEN = re.compile(r"^\s*(?:to|[-–—]|and|up\s+to|and\s+up\s+to)\s*$", re.I)
_BETWEEN_BELOW = re.compile(
    r"^\s*(?:(?:to|but|and)\s+(?:below|under|less\s+than)|to\s*<|but\s*<)\s*$", re.I
)
_BETWEEN_WORD = re.compile(r"^\s*between\s*$", re.I)
# "Below 99.0% but at least 97.0%": the second figure is the lower end.
_BUT_AT_LEAST = re.compile(r"^\s*but\s+(?:at\s+least|not\s+(?:less\s+than|below))\s*$", re.I)
# A figure asked for, not stated as the case: "Which length of service gets 10 weeks
# of full pay?", "What availability earns a 10% credit?", "... means 4 weeks' notice".
_ASKED = re.compile(
    r"\b(?:gets?|earns?|receives?|means?|gives?|pays?|entitles?\s+\w+\s+to|qualif(?:y|ies)\s+"
    r"for)\s+(?:(?:a|an|the|only|up\s+to|at\s+least)\s+)?$",
    re.I,
)
# How much of the words before and after a figure its comparator is read from.
_BEFORE, _AFTER = 40, 20


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


@dataclass(frozen=True, slots=True)
class _Figure:
    unit: str  # "" when the figure states none
    raw: float
    scale: float  # the multiplier it was written with (k, m), 1 without
    factor: float  # what its unit multiplies by (days per month), 1 without


def _figure(m: re.Match[str]) -> _Figure:
    raw = float(m["num"].replace(",", ""))
    currency = m["cur"] or m["cur2"]
    scale = _SCALE[m["scale"].strip().casefold()] if m["scale"] else 1.0
    if m["pct"]:
        return _Figure("pct", raw, 1.0, 1.0)
    if m["time"]:
        word = m["time"].casefold().split()[-1].rstrip("s")
        return _Figure("days", raw, 1.0, _DAYS[word])
    if currency:
        return _Figure("money:" + _CURRENCY[currency.strip().casefold()], raw, scale, 1.0)
    # "500k" in "£250-500k" takes the currency of the range's other end (``_band``).
    return _Figure("", raw, scale, 1.0)


def _value(f: _Figure) -> float:
    return f.raw * f.scale * f.factor


def quantities(text: str) -> list[Quantity]:
    """The figures of ``text`` that carry a unit; a bare number carries none."""
    found = []
    for m in _QUANTITY.finditer(text):
        f = _figure(m)
        if f.unit:
            found.append(Quantity(f.unit, _value(f), m.start(), m.end()))
    return found


def _bound(before: str, after: str) -> tuple[str, bool] | None:
    """Which end of a range a figure is, read from the words around it."""
    before, after = before[-_BEFORE:], after[:_AFTER]
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

    A unit written once serves both ends ("2 to 5 years", "£250-500k"); a band
    whose figures are in no unit, or in two kinds of unit, is no band.
    """
    found = list(_QUANTITY.finditer(cell))
    if not found or len(found) > 2:
        return None
    figures = [_figure(m) for m in found]
    units = {f.unit for f in figures if f.unit}
    if len(units) != 1:
        return None
    (unit,) = units
    if len(figures) == 2:
        a, b = figures
        # The unit, or the multiplier, written at one end only serves both.
        if not a.unit:
            a = _Figure(unit, a.raw, a.scale if a.scale != 1.0 else b.scale, b.factor)
        if not b.unit:
            b = _Figure(unit, b.raw, b.scale if b.scale != 1.0 else a.scale, a.factor)
        if a.scale == 1.0 and b.scale != 1.0 and a.raw < b.raw:
            a = _Figure(unit, a.raw, b.scale, a.factor)  # "£250-500k"
        low, high = _value(a), _value(b)
        gap = cell[found[0].end() : found[1].start()]
        before = cell[: found[0].start()]
        first = _bound(before, "")
        if first is None and before.strip() and not _BETWEEN_WORD.match(before):
            return None  # "Tier 1 – 0%": a name's number, then a figure
        low_in = first is None or first[1]
        if _BETWEEN.match(gap):
            if first is not None and first[0] == "lo":
                return Band(unit, low, high, low_in=low_in)  # "more than 2 years up to 5"
            return Band(unit, min(low, high), max(low, high))
        if _BETWEEN_BELOW.match(gap) and low <= high:
            return Band(unit, low, high, low_in=low_in, high_in=False)
        if _BUT_AT_LEAST.match(gap) and first is not None and first[0] == "hi":
            return Band(unit, high, low, high_in=first[1])
        return None
    m, f = found[0], figures[0]
    if m["plus"]:
        return Band(unit, _value(f))
    bound = _bound(cell[: m.start()], cell[m.end() :])
    if bound is None:
        return None
    end, included = bound
    if end == "hi":
        return Band(unit, high=_value(f), high_in=included)
    return Band(unit, low=_value(f), low_in=included)


def asks_value(question: str, q: Quantity) -> bool:
    """True when the question asks for the figure ``q`` rather than stating its case:
    "Which length of service gets 10 weeks of full pay?"."""
    return _ASKED.search(question[max(0, q.start - _BEFORE) : q.start]) is not None


def in_band(
    question: str, cell: str, stated: frozenset[tuple[str, float]] = frozenset()
) -> Quantity | None:
    """The figure of ``question`` that the range ``cell`` states holds, if one does.

    A figure the question asks for ("gets 10 weeks"), when the table states it
    among its values (``stated``, as (unit, value)), is no case of it. A figure
    the question bounds ("over 3 years") is taken just past that end.
    """
    band = _band(cell)
    if band is None:
        return None
    for q, value, asked in _cases(question):
        if q.unit != band.unit or (asked and (q.unit, q.value) in stated):
            continue
        if band.holds(value):
            return q
    return None


@lru_cache(maxsize=64)
def _cases(question: str) -> tuple[tuple[Quantity, float, bool], ...]:
    """Each figure of the question, the value a band must hold for it, and whether
    it is worded as asked for; read once per question, not once per row."""
    found = []
    for q in quantities(question):
        value = q.value
        bound = _bound(question[: q.start], question[q.end :])
        if bound is not None and not bound[1]:
            step = 1e-9 * max(1.0, abs(value))
            value += step if bound[0] == "lo" else -step
        found.append((q, value, asks_value(question, q)))
    return tuple(found)


def stated_values(cells: list[str]) -> frozenset[tuple[str, float]]:
    """The figures (unit, value) that a table's value cells state."""
    return frozenset((q.unit, q.value) for c in cells for q in quantities(c))
