"""The term a definition question asks about: "What is rapid elasticity?", "define
'security category' in the fips standards", "head of line blocking - what is it".

The whole question must be one of these wordings with a short term, so "what is
the maximum length of a URI" (a limit) asks for no term. The term loses its
quotes, an aside ("technical controls, as opposed to management ones") and the
document it is asked in ("the approving authority for FIPS 200").
"""

from __future__ import annotations

import re

from pincite.generate.words import content_stems

__all__ = [
    "ARTICLE",
    "END",
    "HABITUALLY",
    "QUOTED",
    "TOPIC_ASK",
    "defined_term",
    "document_asked_of",
]

ARTICLE = r"(?:(?:a|an|the)\s+)?"
END = r"\s*[?.!]*\s*$"
# "... in HTTP/1.1", "... under RFC 7230": a document or version named after the
# question, not a phrase of it ("the money for in the reserve account").
_IN_NAMED_DOCUMENT = (
    r"(?:\s+(?:in|under|per)\s+(?:the\s+)?"
    r"(?:(?-i:[A-Z0-9])|(?:rfc|sp|fips|nist|iso|iec|http|https|tls|ssl|ipv|ieee)\s?[/-]?\d)"
    r"[^?]*?)"
)
# "head of line blocking in http/1.1 - what is it": the topic, a dash, then the
# question ("management controls - what are they in FIPS 200 terms?", "KIT day -
# what does it stand for?"). Not a scene ("I read about VMI - what is it?", "Got a
# 406 back - what does it mean?": the scene's named thing is asked about), a
# greeting ("Ok - what is that?", "Quick question - what is it?") or a question
# ("What is DLP - what does it stand for?").
TOPIC_ASK = re.compile(
    r"^(?!(?:i|we|my|our|you|they|he|she|it|this|that|ok|okay|hi|hello|hey|thanks|sorry|so|"
    r"well|quick|question|regarding|about|re|what|which|how|when|where|who|why|got|get|"
    r"getting|keep|kept|seeing|saw|see|noticed|found|read|heard|hit|hitting|received)\b)"
    r"(?P<x>[^?]+?)\s+[-–—]\s+"
    r"what\s+(?:(?:is|are)\s+(?:it|they|that|this)|(?:does|do)\s+(?:it|they|that|this)\s+"
    r"stand\s+for)"
    rf"(?:\s+(?:in|under|according\s+to|per)\s+[^?]{{1,40}}?)?{END}",
    re.I,
)
HABITUALLY = r"typically|usually|commonly|often|generally|mostly|normally|mainly|primarily"
# "What are gateways typically used for?" asks for their uses, not what they are.
# "What is mutual authentication supposed to achieve?": its aim, not its meaning.
AIM_ASKED = re.compile(
    r"(?:supposed|meant|intended|designed)\s+to\s+(?:achieve|accomplish|provide)\b", re.I
)
_USES = re.compile(rf"^what\s+(?:is|are)\s+.+?\s+(?:{HABITUALLY})\s+used\s+for\b", re.I)
# Definitions: the whole question is "what is X" / "what does X mean" with a
# short X, so "what is the maximum length of a URI" (a limit) is not one.
_DEFINITION = [
    re.compile(
        rf"^what\s+is\s+the\s+(?:\w+\s+)?(?:definition|meaning)\s+of\s+{ARTICLE}(?P<x>.+?){END}",
        re.I,
    ),
    re.compile(rf"^what\s+is\s+meant\s+by\s+{ARTICLE}(?P<x>.+?){END}", re.I),
    # "What is the If-Range header for?", "What is the Pragma header meant for in
    # HTTP/1.1?": what it is for is what it is (not "What are gateways typically used
    # for?": ``_USES``).
    re.compile(
        rf"^what\s+(?:is|are)\s+{ARTICLE}(?P<x>.+?)\s+(?:(?:used|meant|intended)\s+)?for"
        rf"{_IN_NAMED_DOCUMENT}?{END}",
        re.I,
    ),
    re.compile(rf"^(?:what|who)\s+(?:is|are|was|were)\s+{ARTICLE}(?P<x>.+?){END}", re.I),
    re.compile(
        rf"^what\s+(?:does|do|did)\s+{ARTICLE}(?P<x>.+?)\s+(?:(?:actually|really|exactly)\s+)?"
        rf"(?:mean|stand\s+for|refer\s+to|"
        rf"denote|indicate|signify)(?:\s+(?:in|under|per)\s+.+?)?{END}",
        re.I,
    ),
    re.compile(rf"^(?:define|explain)\s+{ARTICLE}(?P<x>.+?){END}", re.I),
    # "What does it mean for a response to be 'cacheable'?": what being it means. Not
    # "what does it mean when status 410 is returned?" (what the status means).
    re.compile(
        rf"^what\s+does\s+it\s+mean\s+(?:for\s+[^?]+?\s+)?to\s+be\s+{ARTICLE}"
        rf"(?P<x>(?!(?:\w+ed|present|sent|done|made|seen)\b)[^?]+?){END}",
        re.I,
    ),
    re.compile(rf"^(?:what\s+is\s+)?the\s+(?:meaning|definition)\s+of\s+(?P<x>.+?){END}", re.I),
    # "Under FIPS 199, what counts as a loss of availability?", "What kinds of material count
    # as records?", "How does SP 800-46 define BYOD?"
    re.compile(
        rf"^(?:.+?,\s*)?what\s+(?:(?:kinds?|types?|sorts?)\s+of(?:\s+[\w'-]+){{1,3}}?\s+(?:count|qualify|"
        rf"are\s+considered)|counts|qualifies|is\s+considered|is\s+regarded)\s+as\s+"
        rf"{ARTICLE}(?P<x>.+?){END}",
        re.I,
    ),
    # "does an automated process count as a 'user' in FIPS 200, or only people?", "is a
    # USB stick considered removable media?": the term's definition says what it takes
    # in. Not "Is it considered good practice to ...?".
    re.compile(
        r"^(?:does|do|would|will|could|can|is|are)\s+(?!(?:it|this|that|there)\b)[^?]+?\s+"
        r"(?:(?:count|qualify)\s+as|"
        r"(?:be\s+)?(?:considered|regarded)(?:\s+(?:as|to\s+be))?)\s+"
        # Not "Is overtime considered when calculating my bonus?": a clause, no term.
        r"(?!(?:when|whenever|if|for|in|while|during|part|before|after)\b)"
        rf"{ARTICLE}(?P<x>[^?,]+?)(?:\s+(?:if|when|unless|because|since)\b[^?]*)?"
        rf"(?:,?\s+or\s+[^?]*)?{END}",
        re.I,
    ),
    re.compile(rf"^how\s+(?:does|do|did|is)\s+.+?\s+defined?\s+{ARTICLE}(?P<x>.+?){END}", re.I),
    re.compile(rf"^how\s+(?:is|are)\s+{ARTICLE}(?P<x>.+?)\s+defined(?:\s+in\s+.+?)?{END}", re.I),
    # What is typed into a search box: "transparent negotiation http meaning".
    re.compile(
        r"^(?!(?:what|which|how|why|when|who|where|is|are|was|were|does|do|did|can|could|will|"
        r"would|should|must|may|has|have|give|tell|show|find|explain|list|name)\b)"
        rf"(?P<x>.+?)\s+(?:meaning|definition)(?:\s+(?:in|from|per)\s+.+?)?{END}",
        re.I,
    ),
    TOPIC_ASK,
    # "what does threat modeling actually involve ...": what it is made of.
    re.compile(
        rf"^what\s+(?:does|do)\s+{ARTICLE}(?P<x>.+?)\s+(?:(?:actually|really|exactly)\s+)?"
        rf"(?:involve|entail)(?:\s+(?:when|if|for|in)\b.*)?{END}",
        re.I,
    ),
]
_MAX_TERM_WORDS = 6
# "... in FIPS 199", "... in http/1.1", "... under sp 800-46": a document or version,
# capitalised or typed in lower case with its number (not "the fee for the first 3
# months").
_QUALIFIER = re.compile(
    r"\s+(?:for|in|of|under)\s+(?:the\s+)?"
    r"(?=[A-Z0-9]|(?:rfc|sp|fips|nist|iso|iec|http|https|tls|ssl|ipv|ieee)\s?[/-]?\d)"
)
# "What counts as a seat in the contract?", "... under this policy": the document
# the term is defined in, named by what it is.
_IN_DOCUMENT = re.compile(
    r"\s+(?:in|under|per|according\s+to)\s+(?:the|this|that|our|your|their)\s+"
    r"(?:[\w-]+\s+){0,3}?(?P<document>contract|agreement|policy|handbook|manual|guide|"
    r"guidelines|standard|document|documentation|docs|terms|msa|sla|dpa|faq|runbook|spec|"
    r"specification)\s*$",
    re.I,
)
# "covered", "included", "required"; not "seed", "need", "red".
_PARTICIPLE = re.compile(r"^\w{2,}[^\We]ed$", re.I)
# "covered under the policy", "included in our SLA": what a scope covers, no term.
_PARTICIPLE_OF = re.compile(
    r"^\w{2,}[^\We]ed\s+(?:under|in|by|for|with|from|on|at|to|within)\b", re.I
)
_ASIDE = re.compile(
    r",\s*(?:as\s+opposed\s+to|unlike|compared\s+(?:with|to)|rather\s+than|versus|vs\.?|"
    r"not|and\s+not|as\s+(?:used|defined|described)|in\s+(?:the|this)|according\s+to)\b"
)
# A phrase in quotes, as a question quotes a term or a message it was shown.
QUOTED = re.compile(r"(?<!\w)[\"“‘']([^\"”’']{1,60})[\"”’'](?!\w)")
# Words that make a short "what is X" a request for a value, not a meaning.
_VALUE_WORDS = frozenset(
    {"name", "purpose", "role", "goal", "aim", "reason", "cause", "effect", "result"}
    | {"difference", "relationship", "default", "value", "format"}
)


def defined_term(q: str) -> str | None:
    """The term ``q`` asks the meaning of, or ``None`` when it asks for no term."""
    if _USES.match(q) or AIM_ASKED.search(q):
        return None
    for pattern in _DEFINITION:
        m = pattern.match(q)
        if m is None:
            continue
        # "the approving authority for FIPS 200": the term, not the document it is in.
        term = _QUALIFIER.split(_bare_term(m.group("x")), maxsplit=1)[0]
        cut = _IN_DOCUMENT.sub("", term)
        # "Who is covered under the policy?" asks what the policy covers, not what
        # "covered" means: a participle is no term.
        if not _PARTICIPLE.search(cut):
            term = cut
        if _is_term(term):
            return term.strip()
    return None


def document_asked_of(q: str) -> str:
    """The word by which ``q`` names, last, the kind of document it asks of
    ("contract" of "in the contract", "policy" of "under the security policy"), or
    ``""``. Its other words ("security") still say which document."""
    m = _IN_DOCUMENT.search(q.rstrip("?.! "))
    return m["document"] if m else ""


def _bare_term(x: str) -> str:
    """The term a definition question asks about, without its quotes or an aside.

    "'information resources' in the FIPS 199 / FIPS 200 definitions" asks
    about information resources; "technical controls, as opposed to
    management or operational ones" about technical controls.
    """
    x = _ASIDE.split(x, maxsplit=1)[0]
    quoted = QUOTED.match(x)
    if quoted is not None:
        return quoted.group(1).strip()  # "'security category' in the fips standards"
    return QUOTED.sub(r"\1", x).strip()


_PRONOUNS = ("it", "this", "that", "they", "these", "those")
# "What is this telling me?" asks; "What is this routing table?" names a noun.
_ASKING_VERBS = frozenset(
    {"telling", "saying", "trying", "doing", "meaning", "referring", "showing", "indicating"}
)


def _is_term(x: str) -> bool:
    if not content_stems(x):
        return False  # "What is it?": a pronoun names no term
    words = x.split()
    if not 0 < len(words) <= _MAX_TERM_WORDS:
        return False
    if _PARTICIPLE_OF.match(x):
        return False
    first = words[0].casefold()
    # "what is it telling me?": a pronoun names no term, even with words after it
    # ("IT governance" is a term; "this policy" names its noun).
    pronoun = (
        first in _PRONOUNS
        and not words[0].isupper()
        and (len(words) == 1 or words[1].casefold() in _ASKING_VERBS or first in ("it", "they"))
    )
    return first not in _VALUE_WORDS and first not in ("of", "in", "to", "for") and not pronoun
