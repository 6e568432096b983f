"""Whether what follows a page break finishes the sentence before it.

A PDF's page ends mid-sentence ("If no Accept-Language header is present in the
request, the server"), then come the footer, a form feed and the next page's
header, then the rest ("SHOULD assume that all languages are equally
acceptable."). ``layout`` quotes the two halves as one claim, and the answerer
joins two retrieved chunks the same way, when ``finishes`` says the rest is
the first half's.
"""

from __future__ import annotations

import re

__all__ = ["ends_sentence", "finishes"]

_WORD = re.compile(r"\w+")
# A requirement's keyword in capitals, which may open the rest of a sentence a page
# break cut ("... is present in the request, the server" | "SHOULD assume that ...").
_REQUIREMENT = re.compile(r"(?:MUST|SHOULD|MAY|SHALL|REQUIRED|RECOMMENDED|OPTIONAL|NOT)\b")
# Words no sentence ends on: a line ending on one breaks off mid-sentence.
_RUNS_ON = frozenset(
    _WORD.findall(
        "a an the of to in on at by for from with and or nor but that which whose than as "
        "is are was were be been its their this these those"
    )
)
_ITEM_RUNS_ON = _RUNS_ON - {"in", "on", "at", "as", "by"}


def ends_sentence(text: str) -> bool:
    return text.rstrip().endswith((".", "!", "?", ";", ":", ")", '"', "”"))


def finishes(first: str, rest: str, *, item: bool = False) -> bool:
    """True when ``rest``, found after a page break, finishes the sentence ``first`` began.

    The rest starts in lower case ("as described in section 3.2.2)."), or with
    a requirement's keyword ("SHOULD assume ..."), or the first half stops on a
    word no sentence ends on ("without rewriting the" | "HTTP-version might
    ...") or inside a parenthesis ("a 502 (Bad" | "Gateway) response ...").
    A list ``item`` may end on a particle ("- Sign in") or a capital ("- Plan A"):
    it is whole, and the capitalised sentence after the break the next page's.
    """
    if ends_sentence(first) or not ends_sentence(rest):
        return False
    if rest[:1].islower() or _REQUIREMENT.match(rest):
        return True
    words = first.split()
    if not words:
        return False
    # "- Sign in", "- Log on": a particle ends an item; "- Have it approved by the" goes on.
    runs_on = _ITEM_RUNS_ON if item else _RUNS_ON
    return words[-1] in runs_on or first.count("(") > first.count(")")
