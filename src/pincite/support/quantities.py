"""Quantities in text, and when a claim's quantity is stated by a passage.

A quantity is ``(value, unit)``: the number as written ("twelve" is 12, "2nd"
is 2, "twenty-five" is 25) and one canonical name for the unit word after it
("" for none). Units are compared by *dimension*, so a number restated in
another unit is agreement, not conflict:

- durations: 12 months = one year = 365 days = 52 weeks. A month is 30.4375
  days and a year 365.25 (the Gregorian means), so within ``CONVERTED_TOLERANCE``
  (2 %) "a month" is 30 or 31 days but not four weeks. A *business* or
  *working* day counts as a day: "within one business day" and "within 24 hours
  on working days" say the same; the checker does not model weekends.
- lengths, masses, volumes: metric and imperial units by their SI factors.
- money: "$5", "5 dollars" and "USD 5" agree; currencies are never converted
  (no exchange rate is known), so "€5" does not state "$5".
- percentages: "half" is 50 %, "a third" 33.3 %, "three quarters" 75 %; a
  percentage matches within half a point, so "one third" states "33 %".
- dates: "2020-03-15", "15/03/2020", "March 15, 2020" and "15 March 2020" are
  one date (unit ``date``, value ``yyyymmdd``; a part not written is 0 and
  matches any). A slash date in a passage is read both day- and month-first.

Reference markers ("[3]", "[1, 4]") are the answer's own numbering of its
sources, not quantities, and are skipped; so is a list item's number at the
start of a claim ("4. Turn on the diffuser"; a passage's is kept, since a quote
running on across its items repeats it). A span of years written short
("2018–19") states both whole years.

``missing_numbers`` is the test the support features apply.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from functools import lru_cache

from pincite.numbers import NUMBER_WORDS
from pincite.support.dates import date_matches, date_parts_stated, dates

__all__ = [
    "CONVERTED_TOLERANCE",
    "Quantity",
    "clear_cache",
    "missing_numbers",
    "number_matches",
    "numbers",
    "quantities",
]

#: A number with the unit word after it ("ten years" -> (10.0, "year")), "" for none.
Quantity = tuple[float, str]

#: Relative difference allowed between a claim's quantity and one stated in
#: another unit of the same dimension (the month and year lengths vary by 1.7 %).
CONVERTED_TOLERANCE = 0.02
#: Absolute difference, in points, allowed between two percentages ("a third" = 33 %).
PERCENT_TOLERANCE = 0.5

# unit -> (dimension, factor to the dimension's base unit), and its spellings.
# Ambiguous short forms ("m", "in", "t", "pound") are left out.
_UNITS: dict[str, tuple[str, float, str]] = {
    "second": ("duration", 1 / 86400, "sec secs second seconds"),
    "minute": ("duration", 1 / 1440, "min mins minute minutes"),
    "hour": ("duration", 1 / 24, "hr hrs hour hours"),
    "day": ("duration", 1.0, "day days"),
    "week": ("duration", 7.0, "wk wks week weeks"),
    "fortnight": ("duration", 14.0, "fortnight fortnights"),
    "month": ("duration", 30.4375, "mo mos month months"),
    "year": ("duration", 365.25, "yr yrs year years"),
    "decade": ("duration", 3652.5, "decade decades"),
    "century": ("duration", 36525.0, "century centuries"),
    "percent": ("percent", 1.0, "percent pct"),
    "dollar": ("dollar", 1.0, "dollar dollars usd"),
    "euro": ("euro", 1.0, "euro euros eur"),
    "sterling": ("sterling", 1.0, "gbp sterling"),
    "yen": ("yen", 1.0, "yen jpy"),
    "cent": ("cent", 1.0, "cent cents"),
    "millimetre": ("length", 0.001, "mm millimetre millimetres millimeter millimeters"),
    "centimetre": ("length", 0.01, "cm centimetre centimetres centimeter centimeters"),
    "metre": ("length", 1.0, "metre metres meter meters"),
    "kilometre": ("length", 1000.0, "km kms kilometre kilometres kilometer kilometers"),
    "mile": ("length", 1609.344, "mile miles"),
    "foot": ("length", 0.3048, "ft foot feet"),
    "inch": ("length", 0.0254, "inch inches"),
    "yard": ("length", 0.9144, "yd yds yard yards"),
    "milligram": ("mass", 0.001, "mg milligram milligrams milligramme milligrammes"),
    "gram": ("mass", 1.0, "gram grams gramme grammes"),
    "kilogram": ("mass", 1000.0, "kg kgs kilo kilos kilogram kilograms kilogramme kilogrammes"),
    "tonne": ("mass", 1e6, "tonne tonnes ton tons"),
    "ounce": ("mass", 28.349523125, "oz ounce ounces"),
    "lb": ("mass", 453.59237, "lb lbs"),
    "litre": ("volume", 1.0, "litre litres liter liters"),
    "millilitre": ("volume", 0.001, "ml millilitre millilitres milliliter milliliters"),
    "gallon": ("volume", 3.785411784, "gal gallon gallons"),
}
_CONVERTIBLE = frozenset({"duration", "length", "mass", "volume"})
_UNIT_OF = {w: unit for unit, (_, _, spellings) in _UNITS.items() for w in spellings.split()}
_CURRENCY_SIGN = {"$": "dollar", "us$": "dollar", "€": "euro", "£": "sterling", "¥": "yen"}
# Words that may sit between a number and its unit without changing it.
_UNIT_MODIFIERS = "business working calendar full consecutive straight whole more additional"
# The unit word after a number, also hyphenated ("a 20-year-old", "a 30-day notice").
_NEXT_WORD = re.compile(
    rf"(?:-|\s*)(?:(?:{'|'.join(_UNIT_MODIFIERS.split())})\s+)?([^\W\d_]+)", re.IGNORECASE
)
_CURRENCY_BEFORE = re.compile(r"(?:(US\$|[$€£¥])|\b(USD|EUR|GBP|JPY)\s?)\s?$", re.IGNORECASE)

_NUMBER = re.compile(
    r"(?<![\w.])[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![.,]?\d)"
    r"(?:\s*(?:%|percent\b|per cent\b))?"
    r"(?:st|nd|rd|th)?"
    r"(?:\s+(?P<scale>thousand|million|billion|trillion)\b)?",
    re.IGNORECASE,
)
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
# Reference markers an answer cites its sources with ("[3]", "[1, 4]", "[2-5]"):
# numbers of the answer's own list, not quantities the text states.
_MARKER = re.compile(r"\[\s*\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*\s*\]")
# A list item's number at the start of a text ("4. Turn on the diffuser"): the
# answer's own numbering, not a quantity, like a reference marker.
_LIST_NUMBER = re.compile(r"^\s*\d{1,2}[.)](?=\s)")
# A span of years with the second one cut to two digits ("2018–19", "1999-00").
# Written closed up: "1990 - 95 people" is a year and a count.
_YEAR_SPAN = re.compile(r"\b((?:1[5-9]|20)\d\d)([–-])(\d\d)\b(?![.,:]?\d|[–-]\d)")


def _whole_years(match: re.Match[str]) -> str:
    """``"2018–19"`` -> ``"2018–2019"``; ``"1999-00"`` -> ``"1999-2000"``.

    Only a span that runs forward, within the century: "2021-03" and
    "Resolution 2019-18" are no spans. With a hyphen, which also writes a
    year and month ("revised 2010-12"), only consecutive years are read.
    """
    first = int(match[1])
    second = first // 100 * 100 + int(match[3])
    if second <= first:
        second += 100
    if second - first > (1 if match[2] == "-" else 99):
        return match[0]
    return f"{match[1]}{match[2]}{second}"


_UNITS_WORDS = list(NUMBER_WORDS)
_SMALL = {w: float(i) for i, w in enumerate(_UNITS_WORDS)}
_SMALL["dozen"] = 12.0
_TENS = {
    w: 10.0 * i
    for i, w in enumerate(
        ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], 2
    )
}
# Ordinals from "third" on: "first" and "second" are mostly not counts.
_ORDINALS = {
    w: float(i)
    for i, w in enumerate(
        [
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
            "thirteenth",
            "fourteenth",
            "fifteenth",
            "sixteenth",
            "seventeenth",
            "eighteenth",
            "nineteenth",
            "twentieth",
        ],
        3,
    )
}
_NUMBER_WORD = "|".join(sorted([*_SMALL, *_TENS, "hundred", *_SCALES], key=len, reverse=True))
_WORD_RUN = re.compile(rf"\b(?:{_NUMBER_WORD})(?:[\s-]+(?:{_NUMBER_WORD}))*\b", re.IGNORECASE)
_ORDINAL = re.compile(rf"\b(?:{'|'.join(_ORDINALS)})\b(?!\s+of\b)", re.IGNORECASE)
# Fractions read as percentages; "half-life" and "half-time" are not.
_FRACTION = re.compile(
    r"\b(?:(?P<half>(?:one[\s-]|a\s)?half)(?![\w-])"
    r"|(?:a|one)[\s-](?P<one>third|quarter|fifth)\s+of\b"
    r"|(?P<many>two|three|four)[\s-](?P<parts>thirds|quarters|fifths)\b)",
    re.IGNORECASE,
)
_FRACTION_VALUE = {"third": 100 / 3, "quarter": 25.0, "fifth": 20.0}
# "a month", "an hour", "one business day": one of the unit; not "three times a day".
_ONE_UNIT = re.compile(
    r"(?<!times\s)(?<!once\s)(?<!twice\s)(?<!per\s)\b(?:a|an)\b(?=\s+(?P<unit>\S+(?:\s+\S+)?))",
    re.IGNORECASE,
)


def _unit_after(text: str, end: int) -> str:
    found = _NEXT_WORD.match(text, end)
    return _UNIT_OF.get(found.group(1).lower(), "") if found else ""


def _word_number(run: str) -> float | None:
    """The value of a run of number words ("two hundred and five" -> 205), None if malformed."""
    total = current = 0.0
    seen = False
    for word in re.split(r"[\s-]+", run.lower()):
        seen = True
        if word in _SMALL:
            current += _SMALL[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = (current or 1.0) * 100
        elif word in _SCALES:
            total += (current or 1.0) * _SCALES[word]
            current = 0.0
        else:  # pragma: no cover - the run pattern admits only number words
            return None
    return total + current if seen else None


def quantities(text: str, *, bare_scaled: bool = True) -> set[Quantity]:
    """The quantities of ``text`` (see ``_quantities``); cached, since every
    sentence is read for its terms and for its numbers."""
    return set(_quantities(text, bare_scaled))


def clear_cache() -> None:
    """Forget the cached readings of texts (``scoring.clear_caches`` calls it)."""
    _quantities.cache_clear()


@lru_cache(maxsize=8192)
def _quantities(text: str, bare_scaled: bool) -> frozenset[Quantity]:
    """The quantities of ``text``: numbers, number words, fractions and dates, with units.

    ``bare_scaled=False`` is how a claim is read, where every quantity must be
    found: "2 million" is 2,000,000 only (not also a bare 2), and a date is the
    date only (not also its day, month and year numbers).
    """
    if "[" in text:
        text = _MARKER.sub(lambda m: " " * len(m.group()), text)
    if not bare_scaled:
        # Only a claim's own numbering: a passage's "1. If the response ..." is
        # kept, for a quote that runs on across items states that "1" too.
        text = _LIST_NUMBER.sub(lambda m: " " * len(m.group()), text)
    text = _YEAR_SPAN.sub(_whole_years, text)
    found, date_spans = dates(text, both_readings=bare_scaled)

    def in_date(start: int) -> bool:
        return any(a <= start < b for a, b in date_spans)

    taken: list[tuple[int, int]] = []
    for match in _FRACTION.finditer(text):
        if match["half"]:
            value = 50.0
        elif match["one"]:
            value = _FRACTION_VALUE[match["one"].lower()]
        else:
            whole = {"two": 2, "three": 3, "four": 4}[match["many"].lower()]
            value = whole * _FRACTION_VALUE[match["parts"].lower().rstrip("s")]
        found.add((value, "percent"))
        taken.append(match.span())
    for match in _NUMBER.finditer(text):
        if not bare_scaled and in_date(match.start()):
            continue
        raw = match.group()
        digits = re.match(r"[-+−]?[\d,]*\d(?:\.\d+)?", raw)
        if digits is None:  # pragma: no cover - the pattern always starts with digits
            continue
        value = abs(float(digits.group().replace(",", "").replace("−", "-")))
        lowered = raw.lower()
        currency = _CURRENCY_BEFORE.search(text[max(0, match.start() - 5) : match.start()])
        if "%" in raw or "percent" in lowered or "per cent" in lowered:
            unit = "percent"
        elif currency:
            unit = _CURRENCY_SIGN.get((currency[1] or "").lower()) or _UNIT_OF.get(
                (currency[2] or "").lower(), ""
            )
        else:
            unit = _unit_after(text, match.end())
        scale = match.group("scale")
        if scale:
            found.add((value * _SCALES[scale.lower()], unit))
        if bare_scaled or not scale:
            found.add((value, unit))
    for match in _WORD_RUN.finditer(text):
        if any(a <= match.start() < b for a, b in taken):
            continue
        counted = _word_number(match.group())
        unit = _unit_after(text, match.end())
        first = match.group().split()[0].lower()
        if counted is None or first in _SCALES or (match.group().lower() == "one" and not unit):
            continue  # "one of the", "no one"; "million" after digits is read with them
        found.add((counted, unit))
    for match in _ORDINAL.finditer(text):
        found.add((_ORDINALS[match.group().lower()], ""))
    for match in _ONE_UNIT.finditer(text):
        unit = _unit_after(text, match.end())
        if unit and _UNITS[unit][0] not in ("percent",):
            found.add((1.0, unit))
    return frozenset(found)


def numbers(text: str) -> set[float]:
    """Numeric values mentioned in ``text``: digits, "3.5%", "1,200", "ten", "2 million".

    A scaled value ("2 million") is recorded both scaled and bare, so it agrees
    with "2,000,000" and with "2". Percent signs and ordinal suffixes are dropped.
    Dates count by their day, month and year numbers, not as one value.
    """
    return {value for value, unit in quantities(text) if unit != "date"}


def _decimals(value: float) -> int:
    text = repr(value)
    return len(text.split(".")[1].rstrip("0")) if "." in text else 0


def number_matches(claimed: float, stated: float) -> bool:
    """True when ``stated`` is ``claimed``, or rounds to it at the claim's precision.

    "3.5" matches 3.47; "10,000" (not a year) matches 10,234 within 5 %; a year
    such as 2000 matches only itself.
    """
    if claimed == stated:
        return True
    places = _decimals(claimed)
    if places and round(stated, places) == claimed:
        return True
    is_round = claimed >= 100 and claimed % 100 == 0 and not 1000 <= claimed <= 2100
    return is_round and abs(stated - claimed) <= 0.05 * claimed


def dimension(unit: str) -> str:
    """The dimension a unit measures ("month" -> "duration"); "" for none, "date" for dates."""
    if unit == "date":
        return "date"
    return _UNITS[unit][0] if unit in _UNITS else ""


def quantity_matches(claimed: Quantity, stated: Quantity) -> bool:
    """True when ``stated`` states ``claimed``: same value in the same or a converted unit."""
    (value, unit), (other, other_unit) = claimed, stated
    if unit == "date" or other_unit == "date":
        return unit == other_unit and date_matches(value, other)
    if unit == other_unit or not unit or not other_unit:
        if number_matches(value, other):
            return True
        return unit == "percent" == other_unit and abs(value - other) <= PERCENT_TOLERANCE
    kind = dimension(unit)
    if kind != dimension(other_unit) or kind not in _CONVERTIBLE:
        return False
    a, b = value * _UNITS[unit][1], other * _UNITS[other_unit][1]
    return abs(a - b) <= CONVERTED_TOLERANCE * max(abs(a), abs(b))


def missing_numbers(claimed: Iterable[Quantity], stated: Collection[Quantity]) -> list[Quantity]:
    """The claimed quantities that no stated one matches (``quantity_matches``).

    A bare number on either side matches by value; but when the claim names a
    unit whose dimension the text also uses, only the text's quantities of that
    dimension count ("10 staff ... 7 years" does not back "10 years", "30 days"
    backs "a month"). A claimed date needs a stated date, or its year and day
    stated as numbers (a layout not parsed).
    """
    missing = []
    for quantity in claimed:
        unit = quantity[1]
        kind = dimension(unit)
        if unit == "date":
            pool = [s for s in stated if s[1] == "date"]
            if not any(quantity_matches(quantity, s) for s in pool) and not date_parts_stated(
                quantity[0], stated
            ):
                missing.append(quantity)
            continue
        same = [s for s in stated if kind and dimension(s[1]) == kind]
        pool = same or [s for s in stated if s[1] != "date"]
        if not any(quantity_matches(quantity, s) for s in pool):
            missing.append(quantity)
    return missing
