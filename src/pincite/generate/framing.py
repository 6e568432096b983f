"""How a question is asked, apart from what it asks: the framing words no passage repeats.

"What happens to a leaver's account?" is answered by "Accounts of leavers are
disabled ...": "what happens to" frames the question. ``asked_stems`` gives a
question's words without its framing, for the answerer to find in a passage.
"""

from __future__ import annotations

import re

from pincite.generate.defined_term import AIM_ASKED
from pincite.generate.words import content_stems

__all__ = ["STEPS_WORDS", "asked_stems", "conversational_words"]

# "What are the steps to claim expenses?": a procedure, and "what are the steps"
# is how it is asked, not what the steps' heading says ("Claiming expenses").
STEPS_WORDS = r"^what\s+are\s+the\s+(?:steps|stages)\s+(?=(?:to|for|in)\b)"
# The wording of a definition question, not its subject: a passage need not repeat it.
_TEMPLATE = frozenset(content_stems("mean meaning meant define definition stand refer denote"))
# How people ask ("Is it OK to let teleworkers use RDP?"), not what they ask about;
# "OK" and "let" only in that wording ("When does a server send 200 OK?" is about OK).
_PERMISSION = re.compile(r"^(?:is|was)\s+it\s+(?:ok|okay|alright|fine)\s+(?:to|if)\b", re.I)
_CONVERSATIONAL = frozenset(content_stems("ok okay let"))
# Fillers of spoken questions ("what does a 504 actually mean", "what else must it
# send?"): no passage repeats them.
_PLEASE = frozenset(content_stems("please actually really exactly else"))
# "What does NIST say to do ...?": the document is the one saying, in its own words;
# not "What do I say to a customer who complains?", where the saying is asked.
_SAYS = re.compile(r"\b((?:does|do|did)\s+(?!(?:i|we|you)\b)(?:[\w.'’-]+\s+){1,5}?)say\b", re.I)
# How a question about a paper points at it ("in this work", "the authors", "do
# they use", "is used"): the paper need not repeat it in the sentence that answers.
_SELF_REFERENCE = re.compile(
    r"\b(?:in|of|by|from|for)\s+(?:this|the)\s+(?:paper|work|study|article)\b"
    r"|\bthe\s+authors?\b|\b(?:do|does|did)\s+(?:they|it)\s+use\b|\b(?:is|are|was|were)\s+used\b",
    re.I,
)
# How people frame what they ask, which no passage repeats: "What happens to a
# leaver's account?" is answered by "Accounts of leavers are disabled ...", "Do I
# need to change my password?" by "Passwords must be changed ...", "Do I get double
# the leave for twins?" by "The entitlement is not multiplied for twins ..." (an
# entitlement is written "receive", "is given", "applies"; not "How do I get a
# refund?", where getting is what is asked). ("What happens
# when/if ...?" keeps its words: ``question.asks_outcome`` reads it, and with every other
# word found in two sentences, the one opening with the condition must still win.)
_ASKING = re.compile(
    r"\bwhat\s+(?:happens|happened|(?:will|would|should)\s+happen)(?=\s+to\b)|\bneeds?\s+to\b"
    r"|(?<!\bhow\s)(?<!\bwhere\s)\b(?:do|did|can|may|will|would)\s+(?:i|we|they|employees|staff)"
    r"\s+get\b"
    r"|\b(?:counts?|qualif(?:y|ies))(?=\s+as\b(?!\s+(?:of|at)\b))"
    r"|\b(?:can|could|would)\s+you\s+(?:please\s+)?tell\s+me\b"
    r"|\bi\s+(?:want|would\s+like|need)\s+to\s+know\b|\bi\s+wonder\b"
    # "What is X supposed to achieve?": its aim, in whatever words the aim is stated.
    rf"|\b{AIM_ASKED.pattern}"
    r"|" + STEPS_WORDS,
    re.I,
)


def conversational_words(q: str) -> frozenset[str]:
    """The stems of "OK" and "let" when ``q`` asks permission with them ("Is it OK to
    let teleworkers use RDP?"), which then name nothing."""
    return _CONVERSATIONAL if _PERMISSION.match(q) else frozenset()


def asked_stems(q: str) -> tuple[str, ...]:
    """The content stems of ``q`` without the words that frame it."""
    framing = _TEMPLATE | _PLEASE | conversational_words(q)
    said = _ASKING.sub(" ", _SELF_REFERENCE.sub(" ", _SAYS.sub(r"\1", q)))
    return tuple(s for s in content_stems(said) if s not in framing)
