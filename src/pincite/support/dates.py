"""Dates in common layouts, as quantities (unit ``date``, value ``yyyymmdd``).

"2020-03-15", "15/03/2020", "March 15, 2020", "15 March 2020", "the 15th of
March" and "March 2020" are read; a part not written is 0 and matches any. A
slash date is read month-first ("03/15/2020") unless its first number is over
12; in a passage (``both_readings``) it is read both ways, since the claim
decides which one it means.
"""

from __future__ import annotations

import re
from collections.abc import Collection

__all__ = ["date_matches", "date_parts_stated", "dates"]

Quantity = tuple[float, str]

_MONTHS = {
    m: i
    for i, names in enumerate(
        (
            "january jan",
            "february feb",
            "march mar",
            "april apr",
            "may",
            "june jun",
            "july jul",
            "august aug",
            "september sep sept",
            "october oct",
            "november nov",
            "december dec",
        ),
        1,
    )
    for m in names.split()
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
_DATES = (
    re.compile(r"\b(?P<y>\d{4})-(?P<m>[01]?\d)-(?P<d>[0-3]?\d)\b"),
    re.compile(rf"\b(?P<month>{_MONTH})\.?\s+{_DAY}(?:,?\s+(?P<y>\d{{4}}))?\b", re.IGNORECASE),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?(?P<month>{_MONTH})\.?(?:,?\s+(?P<y>\d{{4}}))?\b", re.I),
    re.compile(rf"\b(?P<month>{_MONTH})\.?,?\s+(?P<y>\d{{4}})\b", re.IGNORECASE),
)
_SLASH_DATE = re.compile(r"\b(?P<a>[0-3]?\d)[/.](?P<b>[0-3]?\d)[/.](?P<y>\d{4})\b")


def _date(y: int, m: int, d: int) -> Quantity | None:
    if not (0 <= m <= 12 and 0 <= d <= 31) or (d and not m):
        return None
    return (float(y * 10000 + m * 100 + d), "date")


def dates(text: str, *, both_readings: bool) -> tuple[set[Quantity], list[tuple[int, int]]]:
    """The dates of ``text`` and the spans they cover."""
    found: set[Quantity] = set()
    spans: list[tuple[int, int]] = []
    if not any(c.isdigit() for c in text):
        return found, spans  # every layout has a day or a year in digits
    for pattern in _DATES:
        for match in pattern.finditer(text):
            if any(a < match.end() and match.start() < b for a, b in spans):
                continue
            parts = match.groupdict()
            month = parts.get("month")
            m = _MONTHS[month.lower()] if month else int(parts["m"])
            if month and (not month[0].isupper() or (month == "May" and not parts.get("y"))):
                continue  # "may", "mar", "dec" in lower case are words; "May 5" may be a verb
            date = _date(int(parts.get("y") or 0), m, int(parts.get("d") or 0))
            if date is not None:
                found.add(date)
                spans.append(match.span())
    for match in _SLASH_DATE.finditer(text):
        a, b, y = int(match["a"]), int(match["b"]), int(match["y"])
        readings = [(b, a), (a, b)] if a > 12 or both_readings else [(a, b)]  # (m, d)
        dates = [d for d in (_date(y, m, day) for m, day in readings) if d is not None]
        found.update(dates)
        if dates:
            spans.append(match.span())
    return found, spans


def date_matches(claimed: float, stated: float) -> bool:
    c, s = int(claimed), int(stated)
    parts = ((c // 10000, s // 10000), (c // 100 % 100, s // 100 % 100), (c % 100, s % 100))
    return all(not mine or mine == theirs for mine, theirs in parts)


def date_parts_stated(date: float, stated: Collection[Quantity]) -> bool:
    """A full date in a layout not parsed ("Sept. 23rd, 2015"): its year and day as numbers.

    A date without a day ("April 2020") is told apart by its month alone, so it
    needs a parsed date.
    """
    bare = {value for value, unit in stated if unit != "date"}
    y, d = int(date) // 10000, int(date) % 100
    return bool(y and d) and float(y) in bare and float(d) in bare
