"""A table's band rows: the row whose range holds a figure the question states.

Tables of tiers key each row by a range: "| 2 to 5 years | 10 weeks |" in a
sick-pay table, "| 95.0% to below 99.0% | 10% |" in a service-credit table,
"| Up to GBP 500 | Line manager |" in an approval matrix. A question states
its own case ("I've been here 3 years", "if availability was 97%") and the
row that holds it is the entry it asks of, though no word of the two is the
same. Figures compare in one unit: percentages with percentages, amounts
with amounts (of the same currency when both name one), durations as days.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Quantity", "in_band", "quantities"]

_DAYS = {"year": 365.0, "month": 30.44, "week": 7.0, "day": 1.0, "hour": 1 / 24}
_CURRENCY = {"£": "gbp", "$": "usd", "€": "eur", "gbp": "gbp", "usd": "usd", "eur": "eur"}
# A figure with its unit: "3 years", "97%", "99.0 %", "£1,200", "GBP 2,500.01", "5+ years".
_QUANTITY = re.compile(
    r"(?P<cur>[£$€]|\b(?:GBP|USD|EUR)\s?)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<plus>\+)?"
    r"(?:\s?(?P<pct>%|per\s?cent\b|percent\b)"
    r"|\s?(?P<time>years?|months?|weeks?|(?:working\s+|business\s+)?days?|hours?)\b"
    r"|\s?(?P<cur2>GBP|USD|EUR)\b)?",
    re.I,
)
# Where a one-sided band opens or closes: "below 95.0%", "up to GBP 500", "over 5 years".
_UPPER = re.compile(r"\b(?:below|under|less\s+than|up\s+to|not\s+more\s+than|at\s+most)\s*$", re.I)
_LOWER = re.compile(r"\b(?:above|over|more\s+than|at\s+least|from)\s*$", re.I)
_OPEN_ABOVE = re.compile(r"^\s*(?:\+|or\s+more\b|and\s+(?:above|over|more)\b)", re.I)
# Between two figures: "2 to 5 years", "GBP 500.01 - GBP 2,500", "95.0% to below 99.0%".
_BETWEEN = re.compile(r"^\s*(?:to(?:\s+below|\s+under|\s+less\s+than)?|[-–—]|and)\s*$", re.I)
_AT_LEAST = re.compile(r"\bbut\s+at\s+least\s*$", re.I)


@dataclass(frozen=True, slots=True)
class Quantity:
    """A figure in one unit: ("pct", 97.0), ("days", 1095.0), ("gbp", 1200.0)."""

    unit: str
    value: float
    start: int
    end: int


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
    if m["pct"]:
        return "pct", value
    if m["time"]:
        word = m["time"].casefold().split()[-1].rstrip("s")
        return "days", value * _DAYS[word]
    currency = m["cur"] or m["cur2"]
    if currency:
        return "money:" + _CURRENCY[currency.strip().casefold()], value
    return "", value


def _band(cell: str) -> tuple[str, float, float] | None:
    """The range a row's key cell states, as (unit, low, high); None when it states none.

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
            scale = _unit(last)[1] / float(last["num"].replace(",", ""))
            v = v * scale
        values.append(v)
    if len(figures) == 2:
        gap = cell[figures[0].end() : figures[1].start()]
        if _BETWEEN.match(gap):
            return unit, min(values), max(values)
        if _AT_LEAST.search(gap) and _UPPER.search(cell[: figures[0].start()]):
            return unit, values[1], values[0]  # "Below 99.0% but at least 97.0%"
        return None
    before, after = cell[: figures[0].start()], cell[figures[0].end() :]
    if _UPPER.search(before):
        return unit, float("-inf"), values[0]
    if _LOWER.search(before) or _OPEN_ABOVE.match(after) or figures[0]["plus"]:
        return unit, values[0], float("inf")
    return None


def in_band(question: str, cell: str) -> Quantity | None:
    """The figure of ``question`` that the range ``cell`` states holds, if one does."""
    band = _band(cell)
    if band is None:
        return None
    unit, low, high = band
    for q in quantities(question):
        if q.unit == unit and low <= q.value <= high:
            return q
    return None
