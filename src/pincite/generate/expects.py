"""What a number question's answer is measured in, read from its wording alone.

"When was SP 800-145 published?" asks for a date, "How long is the notice
period?" for a duration, "How much is the stipend?" for money: an answer
that states no such quantity does not answer it (``cues.kind_cue``).
"""

from __future__ import annotations

import re

from pincite.generate.words import content_stems

__all__ = ["AMOUNT_NOUNS", "MONEY_NOUNS", "QUANTITY_WORDS", "expected_quantity"]

# What an amount asked for by name is called ("What is the daily meal allowance?"):
# some number, in whatever unit; and a price, which is money.
AMOUNT_NOUNS = "allowance|rate|cap|quota|threshold|period|wage"
MONEY_NOUNS = "cost|price|fee|budget|stipend|salary"

# What a number question's answer is measured in, read from its wording.
_EXPECTS = [
    (
        "date",
        re.compile(
            r"\b(?:what|which)\s+(?:year|date|day)\b|\bwhen\s+(?:was|were|did)\b.*\b(?:publish|"
            r"announc|releas|issu|made|sign|approv|adopt|revis|review|updat|creat|introduc|launch|"
            r"enact|ratif|(?:come|came)\s+out|(?:take|took)\s+effect|(?:go|went)\s+live)\w*",
            re.I,
        ),
    ),
    # Before "duration": "How long is SP 800-46 (number of pages)?" and "how long is it,
    # in pages" ask for a length in pages.
    (
        "pages",
        re.compile(
            r"\b(?:how\s+many|number\s+of)\s+pages\b|\bpage\s+count\b|\bin\s+(?:\w+\s+)?pages\b(?!\s*\d)",
            re.I,
        ),
    ),
    (
        "duration",
        re.compile(
            # Not "How long must passwords be?": a length, in any unit.
            # "How quickly must incidents be reported?"; not "how fast", which papers
            # answer with a speed ("How fast does the model run?").
            r"\bhow\s+long\b(?!.*\bbe\s*[?.!]*\s*$)|\bhow\s+(?:often|soon|quickly|promptly)\b"
            # "How much notice ...?" (not any period: "1 April to 31 March" is one).
            r"|\bhow\s+much\s+(?:notice|time|warning)\b"
            r"|\bhow\s+many\s+(?:seconds|minutes|hours|days|weeks|"
            r"months|years)\b|\bby\s+when\b|\bdeadline\b|\btimeout\b",
            re.I,
        ),
    ),
    # "By how much does the model improve ...?", "How much better ...?": a gain, stated
    # as any number; not when a price is named ("How much does it cost to store more ...?").
    (
        "gain",
        re.compile(
            r"^(?!.*\b(?:cost|costs|price|prices|fee|fees|charge|charges|spend)\b).*?(?:\bby\s+how\s+much\b|\bhow\s+much\s+(?:more|less|better|worse|"
            r"faster|slower|higher|lower|larger|smaller)\b|\bhow\s+much\s+(?:does|do|did|will|"
            r"would|can|could)\s+(?:[\w-]+\s+){1,4}?(?:improv|increas|decreas|reduc|outperform|"
            r"boost|gain)\w*)",
            re.I,
        ),
    ),
    (
        "money",
        re.compile(
            # Not "allowance": a leave or baggage allowance is days or kilos.
            r"\bhow\s+much\s+(?:money|does|do|is|are|will|would)\b|\b(?:cost|costs|price|fee|fees|"
            r"budget|stipend|salary|reimburse\w*)\b",
            re.I,
        ),
    ),
    ("percent", re.compile(r"\bwhat\s+(?:percentage|percent|share|fraction|proportion)\b", re.I)),
    # After the units above: "How many seconds ...?" asks for a duration, "How many
    # pages ...?" for pages; any other "how many" and "the maximum number of" for a count.
    (
        "count",
        re.compile(
            r"\bhow\s+many\b|\b(?:max(?:imum)?|min(?:imum)?|largest|smallest|greatest|total)\s+"
            r"number\s+of\b",
            re.I,
        ),
    ),
    (
        "limit",
        re.compile(
            r"(?<![\w-])(?:maximum|minimum|max|min|largest|smallest|highest|lowest|longest|"
            r"shortest|biggest)(?![\w-])\s+(?:[\w*-]+\s+){0,3}?(?:value|size|length|number|"
            r"version|amount|count|duration|period|age|lifetime|bytes|characters|digits)s?\b"
            r"|\bwhat\s+is\s+the\s+(?:\w+\s+)?limit\b",
            re.I,
        ),
    ),
    # "What is the daily meal allowance?", "the retention period", "the rate": some
    # number, in whatever unit (a meal allowance is money, a leave allowance days).
    (
        "amount",
        re.compile(
            rf"\bwhat\s+(?:is|are|was|were)\s+the\s+(?:[\w-]+\s+){{0,3}}?(?:{AMOUNT_NOUNS})s?\b",
            re.I,
        ),
    ),
]


# The words naming the kind of quantity asked for ("what date", "number of pages").
QUANTITY_WORDS = {
    "date": frozenset(content_stems("date year day")),
    "pages": frozenset(content_stems("number pages count")),
    # "How long is the notice period?": "four weeks' notice" need not say "period".
    "duration": frozenset(content_stems("much period")),
    # "How much is mileage paid?": "45p per mile" never says "much".
    "money": frozenset(content_stems("much")),
    "gain": frozenset(),
    "amount": frozenset(),
    "percent": frozenset(content_stems("percentage percent")),
    "count": frozenset(),
    "limit": frozenset(),
}


def expected_quantity(question: str) -> str | None:
    """ "date", "pages", "duration", "gain", "money", "percent", "count", "limit" or
    "amount"; None when the wording says none."""
    return next((name for name, pattern in _EXPECTS if pattern.search(question)), None)
