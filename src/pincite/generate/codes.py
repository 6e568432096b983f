"""The codes a text names (a version, a status code, a control), and whether a second
claim names another one than asked: "When was 4.2.0 released?" is not also
answered by 4.1.0's line."""

from __future__ import annotations

import re

__all__ = ["another_code", "codes"]

# A version, a code or a figure as written: "4.2.0", "410", "SEV1", "RFC 7231"'s "7231";
# a version's "v" is no part of it ("v4.2.0" is "4.2.0").
_CODE = re.compile(r"\w*\d[\w.-]*\w|\d")
_DIGIT = re.compile(r"\d")
_DIGITS = re.compile(r"\d+")
_VERSION_V = re.compile(r"v(?=\d)")


def codes(text: str) -> set[str]:
    """The codes of ``text``, less small numbers ("2", "30"), which name no release or code."""
    if not _DIGIT.search(text):
        return set()
    found = (_VERSION_V.sub("", m.group().casefold(), count=1) for m in _CODE.finditer(text))
    return {c for c in found if not (c.isdigit() and len(c) < 3)}


def another_code(asked: set[str], answered: set[str], held: set[str]) -> bool:
    """True when ``held`` names none of the ``asked`` codes but another of the form of
    those the best claim ``answered``.

    "Release 4.1.0 shipped on 2 July" names another release than "4.2.0"; a
    sentence naming "800-53" for a question on "FIPS 200", or no code at all,
    may still answer it, and so may the "403" sentence of "401 and 403".
    """
    if held & asked:
        return False
    forms = {form_of(c) for c in answered}
    return any(form_of(c) in forms for c in held)


def form_of(code: str) -> str:
    """A code's form: its runs of digits whatever their length ("4.10.0" as "4.2.0",
    "SEV10" as "SEV1", "AC-17" as "AC-2"); a bare number's digits one by one ("199" is
    not "12958")."""
    return _DIGIT.sub("9", code) if code.isdigit() else _DIGITS.sub("9", code)
