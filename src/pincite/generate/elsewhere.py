"""Sentences that send the reader elsewhere, and questions that ask where to read.

"See Section 6 of [RFC7231] for information about the semantics of status
codes" shares the question's words but answers nothing: it says where the
answer is. Such a sentence is marked down (``Scoring.elsewhere_factor``) unless
the question asks where to read ("Which RFC defines ...?") or what a reference list
gives ("Which STD number does the normative reference give for TCP?").
"""

from __future__ import annotations

import re

__all__ = ["asks_where", "sends_elsewhere"]

# A sentence whose point is where to read: "See section 19.6 for ...", "(See also
# Appendix A.)", "For more information on patch management, see NIST SP 800-40".
# "See RFC 7231, Section 6.5.6, which defines 406." says what is there (a section
# number's dots end no clause).
# A reference list's entry ("[RFC5234] Crocker, D., Ed. and P. Overell, "Augmented BNF
# ...", STD 68, RFC 5234, January 2008.") names a publication and answers nothing else.
ELSEWHERE = re.compile(
    r"(?-i:\[[\w.+-]{1,20}\]\s+[A-Z][\w'’-]+,\s+[A-Z]\.(?:,|\s+and\b|\s*[A-Z]\.))"
    r"|[(\s]*(?:please\s+)?(?:see|refer\s+to)\s+(?:also\s+)?(?:sections?|§|appendix|appendices|"
    r"table|figure|chapter|part|rfc|\[|nist|sp|fips|the\s+(?:\w+\s+){1,3}(?:policy|guide|"
    r"standard|document|section))(?![^()]*\)\s*\w)(?!(?:[^.;]|\.(?=\d))*[,;]\s*which\b)"
    r"|for\s+(?:more\s+|further\s+|additional\s+)?(?:information|details|guidance)\b[^.;]{0,150}?"
    r",\s*(?:please\s+)?(?:see|refer\s+to|consult)\b",
    re.I,
)
# "Where can I read more about ...?", "Which document covers ...?", "NIST publication to
# follow for ...?": a pointer answers it.
ASKS_WHERE = re.compile(
    r"\bwhere\b|\bmore\s+(?:information|details|about)\b|\bwhich\s+(?:\w+\s+)?"
    r"(?:documents?|guides?|publications?|sections?|standards?|rfcs?|specs?|specifications?)\b"
    r"|\bwhat\s+(?:documents?|guides?|publications?|sections?|standards?|rfcs?|specs?|"
    r"specifications?)\s+(?:defines?|covers?|describes?|explains?|specif(?:y|ies)|says?)\b"
    r"|\bfurther\s+reading\b"
    # "Which STD number does RFC 7230's normative reference give for TCP?", "listed
    # among the resources in Rev. 1": the reference list's entry is the answer.
    r"|\b(?:normative|informative)\s+references?\b|\breference\s+list\b"
    # "the RFC 2616 references", "among its references", "the guide's references"; not
    # "the object references" or "the weak references" (a document names the list).
    r"|\b(?:its|their|(?:rfc|fips|sp|iso|nist\s+sp)\s*[\d-]++|(?<![\w.-])[\w.-]++['’]s|"
    r"(?:guide|document|handbook|paper|policy|publication|standard|spec(?:ification)?)s?)"
    r"\s+references\b(?!\s+to\b)"
    r"|\blist(?:ed)?\s+(?:of|among|in)\s+(?:the\s+|its\s+)?(?:[\w.-]+\s+){0,2}(?:resources|references)\b"
    r"|\b(?:resources|references)\s+(?:list|section|appendix)\b|\b(?:std|bcp)\s+number\b"
    # "nist publication to follow for scrubbing laptops", "what guidance should we consult"
    r"|\b(?:documents?|guides?|guidance|publications?|standards?|rfcs?|specs?|specifications?)"
    r"\s+(?:to|(?:should|do|must|can)\s+(?:we|i|you)(?:\s+\w+)?)\s+"
    r"(?:follow|read|consult|see)\b",
    re.I,
)


def sends_elsewhere(sentence: str) -> bool:
    """True for a sentence whose point is a reference to another place."""
    return ELSEWHERE.match(sentence) is not None


def asks_where(question: str) -> bool:
    """True for a question that asks where to read ("Where can I read more ...?")."""
    return ASKS_WHERE.search(question) is not None
