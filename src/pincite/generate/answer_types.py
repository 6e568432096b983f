"""Answers of a type the question names: a code, a control, examples, uses, a difference,
a purpose.

"Which warning code must a proxy add?" is answered by a sentence naming a
code, "Which SP 800-53 control covers backups?" by one naming a control
("CP-9"), "What are examples of passive assessments?" by one giving examples,
"What are gateways typically used for?" by one stating a use, "What
distinguishes a portal from a tunnel?" by one stating a difference, "What is
mutual authentication supposed to achieve?" by one stating an aim ("so that
a user can verify ..."). A
sentence without what is asked for is marked down as one without the date a
"when" question asks for is (``scoring.Scoring.type_penalty``). A yes/no
question keeps its own cue, a permission, a duty or a denial: "Are the
examples in this policy binding?" asks for no examples. A phrase the question
quotes is named by the sentence that answers it (``quoted_phrases``).
"""

from __future__ import annotations

import re

from pincite.generate.defined_term import AIM_ASKED, HABITUALLY, QUOTED
from pincite.generate.question import Question
from pincite.generate.words import content_stems

__all__ = ["asked_type", "gives_type", "names_quoted", "quoted_phrases"]

# "Which warning code must a proxy add ...?", "what HTTP status code ...?". Not "What
# code of conduct applies?" (no kind of code named) nor "What does status code 451
# mean?" (``asked_type`` leaves out a question naming its own code).
_CODE_ASKED = re.compile(
    r"\b(?:which|what)\s+(?:(?:http|status|warning|warn|error|response|reply|result|return)\s+)+"
    r"codes?\b",
    re.I,
)
# "401" and "the API returns 401."; not "$250", "13.1.5" or "2.0".
_CODE = re.compile(r"(?<![\w.$£€-])[1-5]\d\d(?!\w|[.-]\d)")
# "Which SP 800-53 control covers BYOD?", "which Cybersecurity Framework subcategory
# ...?", "which control number ...?": a catalogue's entry, named by its identifier. The
# catalogue must be named: "What security controls are recommended?" asks for
# controls in words, and "which set of controls ..." for a baseline.
_CONTROL_ASKED = re.compile(
    r"\b(?:which|what)\s+(?:(?:nist\s+)?(?:sp\s+)?800-53\s+(?:security\s+)?controls?"
    r"|(?:(?:nist\s+)?(?:cybersecurity\s+framework|csf)\s+)?subcategor(?:y|ies)"
    r"|(?:[\w.-]+\s+){0,3}?controls?\s+(?:number|id|identifier)s?)\b",
    re.I,
)
# "AC-20", "CP-9", "PR.AC-3", "AC-2 (1)": a control catalogue's identifiers.
_CONTROL = re.compile(r"(?<![\w.-])[A-Z]{2}(?:\.[A-Z]{2})?-\d{1,2}(?![\w-])")
# "Which NIST publication covers Bluetooth?", "which RFC does RFC 2616 point to ...?",
# "nist publication to follow for ...", "where can we find hardening guidance?": a
# publication, a section or a site, named. Not "which RFC 2616 header ...?" (the RFC
# named is what it is about), nor "where do I get my password?" (a place to go).
_SOURCE_ASKED = re.compile(
    r"\b(?:which|what|nist)\s+(?:[\w-]+\s+){0,2}?(?:publications?|rfcs?)(?!\s*[\d(])"
    # ... with what it does, or asked last: not "the publication deadline", "which
    # publication date", "which publications need approval".
    r"(?:\s*\?|(?!\s+(?:dates?|deadlines?|fees?|numbers?|costs?|process(?:es)?|schedules?|"
    r"requirements?|rules?)\b)(?:['’]s)?\s+(?:[\w-]+\s+){0,3}?(?:does|do|did|is|are|was|were|"
    r"should|must|would|on|about|to\s+(?:follow|read|consult|see)|[a-z]{3,}(?:s|ed))\b)"
    # "nist sp number of the password guide it cites", "Tell me the RFC number for TLS
    # 1.3": a publication's designation (``_NUMBERING``: not how such numbers work).
    r"|\b(?:sp|fips|rfc|nistir)\s+numbers?\b(?!\s+(?:field|format|scheme|range)s?\b)"
    r"|\bwhere\s+(?:can|could|should|do|does)\s+(?:i|we|you|one|they)\s+(?:find|read|look)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:information|guidance|details|documentation|more|further)\b",
    re.I,
)
# "Who assigns RFC numbers?", "How are RFC numbers allocated?", "the SP number on the
# invoice": how such numbers work, or a supplier's number, not a source asked for.
_NUMBERING = re.compile(
    r"^\s*(?:who|how)\b[^?]*\b(?:sp|fips|rfc|nistir)\s+numbers?\b|\binvoices?\b", re.I
)
# "NIST SP 800-88", "RFC 1590", "Section 4 of ...", "(http://checklists.nist.gov/)".
_SOURCE = re.compile(
    r"\b(?:RFC|SP|FIPS|NISTIR)\s*(\d[\d-]*)|\bSpecial\s+Publication\s+(\d[\d-]*)"
    r"|\bSection\s+(\d[\d.]*)|(https?://|www\.)",
    re.I,
)
# "What are examples of X?", "... looking for concrete examples", "for instance?".
_EXAMPLES_ASKED = re.compile(
    r"\bexamples?\s+of\b|\b(?:some|any|concrete|specific|give|list|with|few)\s+examples\b|"
    r"\bfor\s+(?:example|instance)\s*[,?]",
    re.I,
)
# "such as reviewing logs", "e.g. VPNs", "PII includes names, addresses and ..."; not
# any list ("policies, processes, and procedures are followed").
_EXAMPLES_GIVEN = re.compile(
    r"\b(?:such\s+as|for\s+example|for\s+instance|includ(?:e|es|ing))\b|\be\.g\.(?!\w)", re.I
)
# "What are gateways typically used for?", "the common uses of X".
_USES_ASKED = re.compile(
    rf"\b(?:{HABITUALLY})\s+used\s+(?:for|to)\b|\b(?:common|typical|usual|main)\s+uses\b",
    re.I,
)
_USE_GIVEN = re.compile(r"\bused\s+(?:to|for|in|by|as)\b|\buses\s+(?:include|are)\b", re.I)
# "What distinguishes a portal from a tunnel?", "the difference between a minor and a
# patch release", "how does X differ from Y?".
_DIFFERENCE_ASKED = re.compile(
    r"\bdifferences?\s+between\b|\bdistinguish(?:es|ed)?\b[^?]*\bfrom\b|"
    r"\bhow\s+(?:does|do|is|are)\s+[^?]+?\s+differ\b",
    re.I,
)
# "There is an important difference between tunnels and portals", "unlike a tunnel",
# "terminal servers present a desktop, while portals present a web page", "thin clients
# are more flexible than thick clients", "the controls for PCs and mobile devices are
# significantly different"; not any "different" ("uses different forms").
_DIFFERENCE_GIVEN = re.compile(
    r"\bdiffer(?:s|ed)?\b|\bdifferences?\b|\bdifferent(?:ly)?\s+(?:from|than|to)\b|\bunlike\b|"
    r"\b(?:are|is|remain|were)\s+(?:\w+ly\s+)?different(?=\s*(?:[.,;:)]|$)|\s+(?:as|in|for|"
    r"because|since|when|and|but)\b)|"
    r"\bwhereas\b|\bin\s+contrast\b|\bdistinguish\w*|\bdistinct\s+from\b|,\s+while\b|"
    r"\b(?:more|less|fewer|greater|better|worse)\s+(?:[\w-]+\s+){1,4}?than\b",
    re.I,
)
# "What is mutual authentication supposed to achieve?", "the purpose of X": what it
# is for, stated as an aim ("so that a user can verify ...", "to prevent ...").
# Asked as the question itself, not of a person or a time ("Who determines the
# purpose of processing?", "When must the purpose be documented?").
_PURPOSE_ASKED = re.compile(
    rf"\b{AIM_ASKED.pattern}|"
    r"^what\s+(?:is|was|are|were)\s+(?:the|its|their)\s+(?:purposes?|aims?|goals?)\s+of\b",
    re.I,
)
# A document's own purpose is stated by its scope sentence ("This policy sets out ..."),
# which ``scope`` keeps whole.
_OF_DOCUMENT = re.compile(
    r"\b(?:purposes?|aims?|goals?)\s+of\s+(?:this|the|our|that)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:contract|agreement|policy|handbook|manual|guide|guidelines|standard|document|"
    r"documentation|publication|paper|report|specification|spec|rfc|section|appendix)\b",
    re.I,
)
_PURPOSE_GIVEN = re.compile(
    r"\bso\s+(?:that|as\s+to)\b|\bin\s+order\s+(?:to|that)\b|\bpurpose\b|"
    r"\b(?:intended|designed|meant|used)\s+(?:to|for)\b|\bto\s+(?:ensure|prevent|avoid|"
    r"allow|protect|verify|enable|reduce|stop|detect)\b",
    re.I,
)
_ASKED = (
    ("code", _CODE_ASKED),
    ("control", _CONTROL_ASKED),
    ("uses", _USES_ASKED),
    ("difference", _DIFFERENCE_ASKED),
    ("examples", _EXAMPLES_ASKED),
    ("purpose", _PURPOSE_ASKED),
    ("source", _SOURCE_ASKED),
)
_GIVEN = {
    "uses": _USE_GIVEN,
    "difference": _DIFFERENCE_GIVEN,
    "examples": _EXAMPLES_GIVEN,
    "purpose": _PURPOSE_GIVEN,
}


def asked_type(question: Question) -> str | None:
    """ "code", "control", "uses", "difference", "examples", "purpose" or "source" when
    the question asks for one; None for a yes/no question and for a code or control question that
    names its own ("404 or 410?": the codes are what it is about)."""
    if question.whether:
        return None
    for name, pattern in _ASKED:
        if pattern.search(question.text) is not None:
            if name == "code" and _CODE.search(question.text):
                return None
            if name == "control" and _CONTROL.search(question.text.upper()):
                return None
            if name == "purpose" and _OF_DOCUMENT.search(question.text):
                return None  # "What is the purpose of this policy?": its scope sentence
            if name == "source" and _NUMBERING.search(question.text):
                return None
            if name == "source" and question.expects is not None:
                return None  # "What is the publication date of ...?": a date
            return name
    return None


def gives_type(kind: str, text: str, asked: set[str]) -> bool:
    """True when ``text`` gives what an ``asked_type`` of ``kind`` asks for; ``asked``
    holds the question's own words, case-folded (a code it names is no answer)."""
    if kind == "code":
        return any(m.group() not in asked for m in _CODE.finditer(text))
    if kind == "control":
        return _CONTROL.search(text) is not None
    if kind == "source":
        # A publication the question names is what it asks about: "Which RFC does RFC
        # 2616 point to ...?" is not answered by a sentence naming RFC 2616.
        return any(
            m.group(4) or (m.group(1) or m.group(2) or m.group(3)).rstrip(".-") not in asked
            for m in _SOURCE.finditer(text)
        )
    return _GIVEN[kind].search(text) is not None


def quoted_phrases(question: Question) -> tuple[tuple[str, ...], ...]:
    """The phrases the question quotes ('which headers make a GET a "conditional GET"?'),
    as stems: the sentence that answers it names what it quotes."""
    phrases = (tuple(content_stems(m.group(1))) for m in QUOTED.finditer(question.text))
    return tuple(p for p in phrases if p)


def names_quoted(text: str, phrases: tuple[tuple[str, ...], ...]) -> bool:
    """True when ``text`` holds one of ``phrases`` word after word (its case, hyphens and
    quotes as it likes): "the difference between 'fresh' and 'stale'" is answered by a
    sentence defining either."""
    stems = content_stems(text)
    return any(
        any(tuple(stems[i : i + len(p)]) == p for i in range(len(stems) - len(p) + 1))
        for p in phrases
    )
