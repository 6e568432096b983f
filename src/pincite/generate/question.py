"""What a question asks for: its kind and the term it is about.

The extractive generator answers different questions from different parts of
a document: a definition from the entry that names the term, a list from the
items under a lead-in, a limit from the sentence that states a number. This
module reads only the question's wording; it never sees a passage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from pincite.generate.defined_term import END, TOPIC_ASK, defined_term, document_asked_of
from pincite.generate.expects import (
    AMOUNT_NOUNS,
    MONEY_NOUNS,
    QUANTITY_WORDS,
    expected_quantity,
)
from pincite.generate.framing import STEPS_WORDS, asked_stems, conversational_words
from pincite.generate.names import (
    digit_names,
    document_names,
    name_runs,
    named_thing,
    without_numbered_names,
)
from pincite.generate.scene import asks_its_meaning, scene_term
from pincite.generate.words import content_stems
from pincite.retrieve.query import STOPWORDS

__all__ = ["NAMING_KINDS", "Question", "QuestionKind", "asks_outcome", "parse_question"]


class QuestionKind(StrEnum):
    DEFINITION = "definition"  # what is X, what does X mean, define X
    LIST = "list"  # what are the N X, which X, list the X
    NUMBER = "number"  # numbers, dates, limits, sizes
    CONDITION = "condition"  # when is / under what conditions
    PROCEDURE = "procedure"  # how do I / what steps
    REASON = "reason"  # why
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    kind: QuestionKind
    # The phrase the question is about ("rapid elasticity", "408 status code";
    # for conditions, procedures and other questions the name they hold,
    # "304 Not Modified"), as stems; empty when the wording names none.
    focus: tuple[str, ...]
    stems: tuple[str, ...]
    # For a number question, the kind of quantity its answer must state
    # ("duration", "date", "gain", "money", "percent", "pages", "count", "limit",
    # "amount"); None when any number will do.
    expects: str | None = None
    # A definition question's term as written ("adequate security", "BYOD"),
    # for finding the entry that defines it; "" for other kinds.
    term: str = ""
    # Names holding a digit that may name a document ("revision 1", "rfc 7230",
    # "sp 800-46 revision 2"), case-folded.
    names: tuple[str, ...] = ()
    # True when the question asks what a document's authors did ("What datasets do
    # they use?", "in this work", "the authors"): papers answer in the first person.
    asks_authors: bool = False
    # True for a yes/no question ("Can an agency ...?") and for "What happens when
    # ...?", read from its main clause.
    whether: bool = False
    outcome: bool = False
    # For a list question, the stem of the noun its items are ("methods" in "Which
    # HTTP methods are safe?"): its last plural word, else its focus's last word.
    head: str = ""


_LIST = [
    # "What are examples of passive and active assessments ...?": the examples, listed.
    re.compile(
        r"^(?:what|which)\s+(?:are|were)\s+(?:some\s+(?:of\s+)?)?(?:the\s+)?(?:examples?|instances)"
        r"\s+of\s+(?P<x>.+?)(?:\s+(?:for|that|which|to|in|under|per|within|from|on|at|"
        r"as\s+(?:defined|described|listed)|according\s+to)\b.*)?" + END,
        re.I,
    ),
    re.compile(
        r"^(?:what|which)\s+(?:are|were)\s+the\s+(?:(?:\d+|two|three|four|five|six|seven|eight|"
        r"nine|ten|several|main|various|different|key|major)\s+)?(?P<x>.+?)(?:\s+(?:of|in|for|that|"
        r"which|defined|listed|described|used|does|do)\b.*)?" + END,
        re.I,
    ),
    # "Which HTTP methods are safe?"; a word of the noun may be a version ("http/1.1").
    re.compile(
        r"^which\s+(?P<x>(?:\w[\w./]*[\s-]){0,3}?\w+?)\s+(?:does|do|did|are|is|can|should|must|may|"
        r"will|has|have)\b.*" + END,
        re.I,
    ),
    re.compile(r"^(?:list|name|enumerate)\s+(?:all\s+)?(?:the\s+)?(?P<x>.+?)" + END, re.I),
    # "In what 8 languages is it offered?" asks for the languages; "In what cases ...?"
    # and "Under which conditions ...?" ask for a condition.
    re.compile(
        r"^(?:in|on|for|from|to|at|by|with|under|through|via)\s+(?:what|which)\s+(?:(?:\d+|two|three|four|five|"
        r"six|seven|eight|nine|ten)\s+)?(?!(?:cases|circumstances|conditions|situations|scenarios|"
        r"events|instances|contexts|settings|ways|means)\b)(?P<x>(?-i:[a-z]*[a-hj-rtv-z]s))\s+(?:is|are|"
        r"was|were|does|do|did|can|could|should|must|will|would|may|might|has|have)\b.*" + END,
        re.I,
    ),
    re.compile(r"^what\s+(?P<x>(?:\w+\s+){0,2}\w+)\s+(?:are\s+there|exist)\b.*" + END, re.I),
    # "What factors should an organization weigh ...?", "What baselines were used?": a
    # plural asked for, then its verb.
    # Not "What does TLS do?" or "What status ...": a lower-case plural (not -is, -ss, -us),
    # and no auxiliary opens it.
    re.compile(
        r"^what\s+(?!(?:does|do|did|is|are|was|were|has|have|happens|happened|should|must|can|could|will|would|may|might)\b)"
        r"(?P<x>(?:\w+\s+){0,2}(?-i:[a-z]*[a-hj-rtv-z]s))\s+(?:should|must|can|could|do|does|did|"
        r"will|would|may|might|are|were)\b.*" + END,
        re.I,
    ),
]
# Not inside a hyphenated name: "the max-age directive", "min-fresh", "Content-Length".
_NUMBER = re.compile(
    r"(?<![\w-])(?:how\s+(?:many|much|long|often|large|big|old|far|soon|quickly|promptly)|"
    r"how\s+fast\s+(?:do|does|did|will|would|must|should|can|could|are|is|was|were)\s+\w+|"
    r"maximum|minimum|max|min|"
    # Not the verb: "could limit the privacy loss", "to limit retries".
    r"(?<!\bto\s)(?<!\bcan\s)(?<!\bcould\s)(?<!\bwould\s)(?<!\bshould\s)(?<!\bmust\s)"
    r"(?<!\bmay\s)(?<!\bmight\s)(?<!\bwill\s)limits?|length|size|number\s+of|"
    r"what\s+(?:year|date|time|percentage|version|port)|"
    r"which\s+(?:year|date|version|port)|when\s+was|when\s+were|how\s+long|timeout|deadline|"
    # "When did FIPS 199 come out?" asks for a past date, never a condition.
    r"when\s+did|"
    # Not HTTP's "Range header" or "a Range request": a header's name, no span asked for.
    r"at\s+least|at\s+most|range(?!\s+(?:header|request|field|unit|specifier)s?\b)|by\s+when|"
    # "What is the daily meal allowance?" asks for the amount, not what an allowance is.
    # The word must end its noun: "the fee waiver process" asks for a process.
    r"what\s+(?:is|are|was|were)\s+the\s+(?:(?!(?:of|for|on|to|in|at|by|about|between|with|the|"
    r"a|an)\b)[\w-]+\s+){0,3}?(?:"
    + MONEY_NOUNS
    + "|"
    + AMOUNT_NOUNS
    + r")s?(?=\s*(?:[?.!,;:)]|$|(?:for|of|"
    r"on|per|in|at|during|when|if|to|under|with|from|and|or|that|which|now|currently|today|they|"
    r"we|you|i|charged|paid|applied|including|excluding)\b))|how\s+much\s+notice|"
    # "the largest value allowed", "the longest chunk size": a limit.
    r"(?:largest|smallest|highest|lowest|longest|shortest|biggest)\s+(?:\w+\s+)?"
    r"(?:value|number|size|length|amount|count|duration|period|version))(?![\w-])",
    re.I,
)
_CONDITION = re.compile(
    r"^(?:when|under\s+what|in\s+what|in\s+which|under\s+which|if|what\s+happens\s+(?:if|when))\b",
    re.I,
)
_REASON = re.compile(r"^(?:why|for\s+what\s+reason|what\s+is\s+the\s+reason)\b", re.I)
# "What happens when ... Max-Forwards is 0?" asks for a consequence, not a number.
_OUTCOME = re.compile(r"^what\s+happens\s+(?:if|when|after|once)\b", re.I)
# "What are the steps to claim expenses?": a procedure (``framing.STEPS_WORDS``).
_STEPS = re.compile(STEPS_WORDS, re.I)
_PROCEDURE = re.compile(
    r"^(?:how\s+(?:do|does|did|should|can|could|must|is|are|to)\b|what\s+steps|"
    r"what\s+(?:should|must)\b|what\s+is\s+the\s+(?:procedure|process)\b)",
    re.I,
)

# A question about what a document's authors did: "the authors", "in this paper",
# "What do they compare against?", "How big is their dataset?", "What dataset was
# used?". Not "Which port is used for HTTPS?" nor "What should teleworkers do if
# their laptop is lost?".
_AUTHORS = re.compile(
    r"\bthe\s+authors?\b|\b(?:in|of|by|from)\s+this\s+(?:paper|work|study|article)\b"
    r"|\b(?:do|does|did)\s+they\b|\b(?:is|are|was|were)\s+used\b(?!\s+(?:for|by|with)\b)|\bthey\s+(?:use|used|propose|proposed|compare|compared|"
    r"evaluate|evaluated|train|trained|test|tested|collect|collected|obtain|obtained|report|"
    r"reported|measure|measured|build|built|employ|employed|introduce|introduced)\b"
    r"|\btheir\s+(?:\w+\s+)?(?:model|models|method|methods|system|approach|dataset|datasets|"
    r"data|corpus|results?|experiments?|baselines?|work|paper|task|evaluation|annotators?|"
    r"architecture|framework|algorithm)\b",
    re.I,
)


# A question opening with its setting ("Under FIPS 199, ...", "In Revision 1, ...",
# "According to FIPS 200, ...", "Compared with ordinary telework, ..."): a
# condition ("When a client sends ..., what ...?") is no setting.
_SETTING = re.compile(
    r"^(?:in|under|according\s+to|compared\s+(?:with|to)|based\s+on|besides|beyond|per|"
    r"for|within|across|throughout|as\s+(?:of|per))\s+(?!(?:what|which|how|whom|whose)\b)"
    r"[^,?]{2,60},\s*"
    r"(?=(?:(?:in|on|for|from|to|at|by|with|under|through|via)\s+(?:what|which)|what|which|"
    r"when|how|why|who|whom|whose|where|is|are|was|were|can|could|does|do|"
    r"did|must|should|may|might|will|would|has|have)\b)",
    re.I,
)
# A scene set before the question ("Our proxy sits at the network firewall. What
# should it do with ...?", "our data has residency requirements - can a customer
# ...?"): the question is its last sentence; the scene's words still count.
# "i only started 4 months ago and i'm pregnant, do i get the enhanced maternity pay?":
# a scene set off by a comma, then a yes/no question about the one asking.
_TRAILING_YES_NO = re.compile(
    r",\s*(?:do|does|did|can|could|is|are|will|would|should|must|may|have|has)\s+"
    r"(?:i|we|you|they|my|our)\b[^,?]*\?*\s*$",
    re.I,
)
# A scene may end in a bracket or a quote: "... folded over several lines (obs-fold). What
# should it do with it?", 'I get "Access denied". What does it mean?'.
_SCENE = re.compile(
    r"^.*?[\w)\]\"'”’][.!:;]\s+(?=(?:what|which|when|how|why|who|where|under|is|are|can|could|"
    r"does|do|must|should|may)\b(?:[^.!]|[.!](?=\S))*\?*\s*$)|^.*?[\w)\]\"'”’]\s+[-–—]\s+(?=(?:what|which|"
    r"when|how|why|who|where|is|are|can|could|does|do|must|should|may)\b(?:[^.!]|[.!](?=\S))*"
    r"\?*\s*$)",
    re.I,
)
# "What is VMI and what does it provide?", "How is a weak ETag marked, and when ...?":
# a second question joined to the first.
_SECOND_ASK = re.compile(
    r"(?P<then>,?\s+and\s+(?:what|how|why|when|where|who|which)\b[^?]*\?*\s*$)",
    re.I,
)
# "what kinds of material count as 'records' - are photos included?": a question, a
# dash, then a yes/no question on it; the first is asked, not set as a scene. Its
# wh-word goes straight to a verb: "When I call the API I get a 406 - what does that
# mean?" and "What about contractors - are they covered?" open with a scene.
# (``then`` names where the second part starts, as in ``_SECOND_ASK``.)
_FIRST_ASK = re.compile(
    r"^(?:what|which|how|when|where|who|why)(?:\s+(?:kinds?|types?|sorts?)\s+of(?:\s+[\w'-]+){1,3}?"
    r"|\s+(?:long|many|much|often))?\s+(?:is|are|was|were|do|does|did|can|could|must|should|may|"
    r"will|would|has|have|counts?|qualif(?:y|ies))\b[^?]*?\w\??(?P<then>\s+[-–—]\s+)"
    r"(?=(?:is|are|can|could|does|do|did|must|should|may|will|would)\b)",
    re.I,
)
# "what's a thin VPN client": typed questions contract the verb the patterns read.
# Kinds whose focus is the name the question holds ("304 Not Modified").
NAMING_KINDS = frozenset(
    {QuestionKind.CONDITION, QuestionKind.PROCEDURE, QuestionKind.REASON, QuestionKind.OTHER}
)
_CONTRACTION = re.compile(r"\b(what|who|where|when|how|which|that)['’]s\b", re.I)


# "What factors should it weigh when deciding how much access ...?" asks for the
# factors: the quantity is what is decided, not what is asked.
_EMBEDDED_QUANTITY = re.compile(
    r"\b(?:decid|determin|choos|select|judg|assess|estimat)\w*\s+how\s+"
    r"(?:much|many|long|quickly|promptly|fast)\b",
    re.I,
)
# "What do we have to do, at a minimum, for a low-impact system?": an idiom for
# "at the least", which asks for what is required, not for a quantity.
_AT_A_MINIMUM = re.compile(
    r"\b(?:at|as)\s+(?:a\s+|the\s+)?(?:(?:very|bare|absolute)\s+)?minimum\b"
    # Not a noun's "minimum": "at the minimum wage", "as a minimum of 3 copies".
    r"(?=\s*(?:[,;:?.!)]|$)|\s+(?:for|in|on|to|per|when|if|and|or|what|which|how|who|"
    r"under|before|after|during|by|we|you|they|i|it)\b)",
    re.I,
)
# "Does RFC 7230 set a maximum number of connections?" asks whether, not how many;
# "Do you know how many pages it has?" still asks how many.
_HOW_QUANTITY = re.compile(
    r"\bhow\s+(?:many|much|long|often|large|big|old|far|soon|quickly|promptly|fast)\b", re.I
)
_YES_NO = re.compile(
    r"^(?:does|do|did|is|are|was|were|can|could|must|should|may|will|would|has|have)\b", re.I
)
_HOW_MANY_KINDS = re.compile(r"\bhow\s+many\s+(?:different\s+)?(?:kinds|types|sorts)\s+of\b", re.I)
# A lower-case plural: "methods", "fields", "activities"; not "class", "status",
# "analysis" (the plural test of ``_LIST``'s last pattern).
_PLURAL = re.compile(r"[a-z][a-z-]*[a-hj-rtv-z]s")
_KIND_WORDS = frozenset(content_stems("kinds types sorts different"))
_KINDS_OF = re.compile(r"(?:different\s+)?(?:kinds?|types?|sorts?)\s+of\s+", re.I)


def asks_outcome(text: str) -> bool:
    """True for "What happens when/if/after ...?": a consequence is asked for."""
    return _OUTCOME.match(text) is not None


def parse_question(text: str) -> Question:
    """The question's kind and focus, read from its wording alone."""
    q = _CONTRACTION.sub(lambda m: m[1] + " is", " ".join(text.split()))
    authors = _AUTHORS.search(q) is not None
    parsed = _parse(q)
    setting = _SETTING.match(q)
    topic = TOPIC_ASK.match(q) is not None and parsed.kind is QuestionKind.DEFINITION
    first = None if topic or setting else _FIRST_ASK.match(q)
    lead = None if topic or first else setting or _SCENE.match(q)
    second = first or _SECOND_ASK.search(q, lead.end() if lead else 0)
    if lead is not None or second is not None:
        # "Under RFC 7230, what must a server do ...?" asks what its main clause asks,
        # and "What is VMI and what does it provide?" first what its first clause
        # asks; the rest's words ("RFC 7230", "provide") still count among the
        # question's.
        start, end = lead.end() if lead else 0, second.start("then") if second else len(q)
        main_text = q[start:end].rstrip(" ,") + "?"
        main = _parse(main_text)
        said = tuple(s for s in parsed.stems if s not in main.stems)
        focus = main.focus
        if not focus and setting is None and main.kind in NAMING_KINDS:
            # "I read about VMI. What is it?": the scene names it (a setting names
            # the document, "Under RFC 7230, ...").
            focus = named_thing(_name_runs(q))
            term = scene_term(q[:start]) if asks_its_meaning(main_text) else ""
            if term:
                # "got a 406 back - what is it telling me?" asks what 406 means.
                focus = tuple(content_stems(term))
                main = replace(main, kind=QuestionKind.DEFINITION, term=term)
        parsed = replace(main, text=q, focus=focus, stems=main.stems + said)
    else:
        main_text = q
    whether = _YES_NO.match(main_text) is not None or _TRAILING_YES_NO.search(main_text) is not None
    parsed = replace(parsed, whether=whether, outcome=asks_outcome(main_text))
    names = document_names(q, digit_names(_name_runs(q)))
    return replace(parsed, names=names, asks_authors=authors)


def _name_runs(q: str) -> list[list[str]]:
    return name_runs(q, conversational_words(q))


# "How does a proxy's idle timeout differ from a server's?" asks a difference, not a time.
_DIFFERS = re.compile(r"\bhow\s+(?:does|do|is|are)\s+[^?]{1,200}?\s+differ\b", re.I)
# "How can a client limit retries?": after its subject, "limit" is the verb too.
_LIMIT_VERB = re.compile(
    r"^\s*how\s+(?:can|could|do|does|did|might|should|would|will|may|must)\s+(?:[\w'-]+\s+){1,4}?"
    r"(?P<verb>limits?)\b",
    re.I,
)


def _parse(q: str) -> Question:
    stems = asked_stems(q)
    yes_no = _YES_NO.match(q) is not None and _HOW_QUANTITY.search(q) is None
    runs = _name_runs(q)
    unnamed = without_numbered_names(_AT_A_MINIMUM.sub(" ", _EMBEDDED_QUANTITY.sub(" ", q)), runs)
    verb = _LIMIT_VERB.match(unnamed)
    if verb is not None:
        unnamed = unnamed[: verb.start("verb")] + unnamed[verb.end("verb") :]
    asks_number = _NUMBER.search(unnamed) and not yes_no and not _DIFFERS.search(q)
    if _STEPS.match(q):
        return Question(q, QuestionKind.PROCEDURE, named_thing(runs), stems)
    if asks_number and not asks_outcome(q):
        expects = expected_quantity(q)
        if expects is not None:
            # "On what date was it announced?": the answer states a date, not the word.
            stems = tuple(s for s in stems if s not in QUANTITY_WORDS[expects])
        if _HOW_MANY_KINDS.search(q):
            # "How many kinds of intermediaries?": "three common forms of intermediary".
            stems = tuple(s for s in stems if s not in _KIND_WORDS)
        return Question(q, QuestionKind.NUMBER, _focus_after(q), stems, expects)
    for pattern in _LIST:
        m = pattern.match(q)
        if m and content_stems(m.group("x")):
            x = m.group("x")
            kinds = _KINDS_OF.match(x)
            if kinds is not None and content_stems(x[kinds.end() :]):
                # "What sort of resources are pooled?" asks for the resources; a kind word
                # the rest names stays ("which types of content types ...?").
                x = x[kinds.end() :]
                framing = set(content_stems(kinds.group())) - set(content_stems(x))
                stems = tuple(s for s in stems if s not in framing)
            return Question(q, QuestionKind.LIST, tuple(content_stems(x)), stems, head=_head(x))
    term = defined_term(q)
    if term is not None:
        # "What counts as a seat in the contract?": its definition need not say "contract".
        where = set(content_stems(document_asked_of(q))) - set(content_stems(term))
        stems = tuple(s for s in stems if s not in where)
        return Question(q, QuestionKind.DEFINITION, tuple(content_stems(term)), stems, term=term)
    named = named_thing(runs)
    if _CONDITION.match(q):
        return Question(q, QuestionKind.CONDITION, named, stems)
    if _REASON.match(q):
        return Question(q, QuestionKind.REASON, named, stems)
    if _PROCEDURE.match(q):
        return Question(q, QuestionKind.PROCEDURE, named, stems)
    return Question(q, QuestionKind.OTHER, named, stems)


def _head(x: str) -> str:
    """The noun a list's items are: "HTTP methods" → method; "main ways remote desktop
    access" → way (a plural is what a list question asks for); else the last word."""
    words = [w for w in re.findall(r"\b[A-Za-z][\w-]*", x) if content_stems(w)]
    plural = [w for w in words if _PLURAL.fullmatch(w)]
    chosen = plural[-1] if plural else (words[-1] if words else "")
    # "add-ons": the stem of "ons" is the stopword "on", which a title's "Add-on" drops.
    stems = [s for s in content_stems(chosen) if s not in STOPWORDS]
    return stems[-1] if stems else ""


def _focus_after(q: str) -> tuple[str, ...]:
    """For a limit question, the thing limited: 'length of a URI' → (uri,)."""
    m = re.search(r"\b(?:of|for|on)\s+(?:an?\s+|the\s+)?(.+?)" + END, q, re.I)
    return tuple(content_stems(m.group(1))) if m else ()
