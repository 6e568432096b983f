"""The thing a scene names, when the question after it asks what "it" is.

"got a 406 back from a server - what is it telling me?" asks what 406 means:
the scene names it, the pronoun stands for it.
"""

from __future__ import annotations

import re

from pincite.generate.defined_term import QUOTED
from pincite.generate.names import name_runs
from pincite.generate.words import content_stems

__all__ = ["asks_its_meaning", "scene_term"]

_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\s+[-–—]\s+")
# What a pronoun means, once a scene has named it: "what is it telling me?", "what
# does that mean?", "what's this?", "what does it stand for?".
_ITS_MEANING = re.compile(
    r"\s*what\s+(?:is|are|was|were)\s+(?:it|this|that|they|these|those)"
    r"(?:\s+(?:telling|saying|trying\s+to\s+(?:tell|say))(?:\s+(?:me|us))?)?"
    # "... what are those in NIST's remote access guidance?": where it is asked of.
    r"(?:\s+(?:in|under|per|according\s+to)\s+[^?]{1,50}?)?\s*\?*\s*$"
    r"|\s*what\s+(?:does|do|did)\s+(?:it|this|that|they|these|those)\s+"
    r"(?:mean|signify|indicate|stand\s+for)"
    r"\s*\?*\s*$",
    re.I,
)


def asks_its_meaning(question: str) -> bool:
    """True for "what is it (telling me)?", "what does that mean?", "what does it stand for?"."""
    return _ITS_MEANING.match(question) is not None


def scene_term(scene: str) -> str:
    """The name a scene sets up for "what is it?", or "" for none.

    A code ("406", "E0000011", "AC-2") comes first, then any other name
    ("VMI") or a quoted message ('"Access denied"'), then a bare number
    ("after 5 minutes"); among equals, the one nearest the question. Runs are
    read sentence by sentence, so none joins "VMI" to the next sentence; "I"
    is nobody's name, and a sentence's first word counts only when it looks
    like a name itself ("PIP came up …", not "Yesterday I got …").
    """
    best: list[str] = []
    best_rank = -1
    for sentence in _SENTENCE_END.split(scene):
        # A word before the sentence, so that its first word is read like any other.
        for run in name_runs("x " + sentence, frozenset()):
            run = [t for t in run if t != "I"]
            if run and run[0] == sentence.split()[0] and _ordinary_capital(run[0]):
                run = run[1:]
            if not run or not content_stems(" ".join(run)):
                continue
            rank = _name_rank(run)
            if rank >= best_rank:
                best, best_rank = run, rank
        # A quoted message is named by all its words; after the names, so it beats a
        # name it holds ("Access" of 'I get "Access denied"').
        for m in QUOTED.finditer(sentence):
            run = m.group(1).split()
            if run and content_stems(m.group(1)) and _name_rank(run) >= best_rank:
                best, best_rank = run, _name_rank(run)
    return " ".join(best)


def _ordinary_capital(token: str) -> bool:
    """ "Yesterday", "The": capitalised as a sentence opens, not as a name is."""
    return token[:1].isupper() and token[1:].islower() and token.isalpha()


def _name_rank(run: list[str]) -> int:
    """2 for a code ("406", "E0000011", "0x80070005", "AC-2"), 0 for a bare short
    number, 1 for any other name."""
    if any(
        sum(c.isdigit() for c in t) >= 3
        or (any(c.isdigit() for c in t) and any(c.isalpha() for c in t))
        or re.fullmatch(r"[A-Z]{1,4}-\d+", t)
        for t in run
    ):
        return 2
    if all(t.isdigit() for t in run):
        return 0
    return 1
