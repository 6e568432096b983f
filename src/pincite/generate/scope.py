"""A document's words about itself: "This policy explains who may work remotely ...".

Such a sentence repeats the words of the questions its document answers
("Who can work remotely?") and answers none of them; the answer is in the
section it announces. It answers only what is asked of the document itself:
its purpose, its scope, what it covers.
"""

from __future__ import annotations

import re

from pincite.generate.question import Question

__all__ = ["asks_scope", "describes_itself"]

# Not "plan" ("This plan covers dental cleanings" is what a plan pays for).
_SELF = (
    r"(?:policy|document|standard|schedule|guide|guideline|guidance|procedure|section|"
    r"chapter|handbook|specification|spec|publication|page|manual|memo|appendix|"
    r"runbook|FAQ|notice|statement|framework|playbook|charter)"
)
# "This policy explains", "The following section describes", "This Remote Work Policy
# sets out", also as a bullet; "This section covers how to ...". What a document
# "specifies" or "covers" otherwise is its content ("This standard specifies the
# Rijndael algorithm", "This policy covers all employees"), and a paper's own
# "This paper proposes X" a claim of the paper.
_DESCRIBES_ITSELF = re.compile(
    rf"\s*(?:[-*•]\s+)?(?:This|The\s+following|The\s+present)\s+(?:[\w-]+\s+){{0,3}}?"
    rf"{_SELF}s?\s+(?:also\s+|further\s+|briefly\s+)?"
    r"(?:explains|describes|sets\s+out|outlines|summari[sz]es|discusses|presents|"
    r"introduces|documents|addresses|gives\s+an?\s+overview|"
    r"(?:covers|specifies)\s+(?:how|what|when|where|who|whom|why|which|"
    r"the\s+(?:steps|procedures?|process(?:es)?|rules|requirements)\b)|"
    r"provides\s+(?:an?\s+)?(?:overview|guidance|information|details|instructions))\b",
    re.I,
)
# Words after a self-description's colon that say what it announces.
_SAYS_WORDS = 4
# What may be asked of a document itself.
_SCOPE_WORDS = re.compile(
    r"\b(?:purpose|scope|aim|aims|goal|objective|objectives|intended|intent|overview|"
    r"cover|covers|covered|about|describe|describes|explain|explains|summary|summari[sz]e|"
    r"outline|outlines|address|addresses|introduce|introduces|specify|specifies)\b",
    re.I,
)


def describes_itself(text: str) -> bool:
    """True for a sentence that says what its own document or section is about.

    Not one that goes on to say it ("This section covers what happens if either
    party terminates early: the Customer pays all fees due ...").
    """
    m = _DESCRIBES_ITSELF.match(text)
    if m is None:
        return False
    _, colon, said = text[m.end() :].partition(": ")
    return not (colon and len(said.split()) >= _SAYS_WORDS)


def asks_scope(question: Question) -> bool:
    """True when the question asks what a document is for or what it covers."""
    return _SCOPE_WORDS.search(question.text) is not None
