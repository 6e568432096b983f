"""Number words, shared by every module that reads a count written out ("seven")."""

from __future__ import annotations

__all__ = ["NUMBER_WORDS"]

#: "zero" to "nineteen", each at its own value's index.
NUMBER_WORDS: tuple[str, ...] = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
