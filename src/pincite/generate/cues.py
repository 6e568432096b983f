"""What a question's kind asks a sentence to carry: a number, a date, a condition, a list.

A cue adds a little to a candidate's score (``Scoring.cue_bonus``); a number
question that asks for a duration, a date or an amount is marked down when the
sentence states none (``Scoring.type_penalty``). Cues read the sentence and
the question's wording only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pincite.generate.answer_types import asked_type, gives_type
from pincite.generate.bounds import BOUND, bounded
from pincite.generate.question import Question, QuestionKind
from pincite.generate.words import stem
from pincite.numbers import NUMBER_WORDS

__all__ = ["AMOUNT", "counts_asked", "kind_cue", "speaks_as_authors", "states_expected"]

_NUMBERISH = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|million|"
    r"limit|maximum|minimum|at\s+least|at\s+most|no\s+more\s+than|unbounded|any\s+length)\b",
    re.I,
)
_CONDITIONAL = re.compile(
    r"\b(?:if|when|whenever|unless|only|provided|until|before|after|in\s+case)\b", re.I
)
# "When do invoices have to be paid?" asks for a time as often as for a condition:
# "within thirty (30) days", "by the end of their last working day"; not "within the
# time the server was prepared to wait".
_WHEN = re.compile(r"\s*when\b", re.I)
_PROCEDURAL = re.compile(r"\b(?:MUST|SHOULD|SHALL|must|should|shall|first|then|step|by\s+\w+ing)\b")
# The same cues as ``_NUMBERISH``, one whole token at a time so each can be
# compared with the question's own words.
_NUMBER_CUE = re.compile(
    r"\d+(?:[.,]\d+)*|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|"
    r"million|limit|maximum|minimum|at\s+least|at\s+most|no\s+more\s+than|unbounded|"
    r"any\s+length)\b",
    re.I,
)
# "GET, HEAD, PUT and DELETE": a list given inline, in one sentence.
# One item, quoted or set as code; atomic, so that an item and the comma after it
# cannot share a quote mark and a long list that is no match fails at once.
_ITEM = r"(?>[`'\"“‘]?[\w/-]+(?:\.[\w/-]+)*[`'\"”’]?)"
# A comma, inside a closing quote too ('"none," "lz4," or "zstd"', American style),
# then a space, or a quote that opens the next item ("`GET`,`HEAD`"); never a
# digit, so "1,000" is no list.
_COMMA = r"(?>,(?:[`'\"”’](?=\s))?)(?:\s+|(?=[`'\"“‘]))"
_ENUMERATION = re.compile(
    # Items may be quoted or set as code: "`csv`, `xlsx` or `pdf`", '"none", "lz4" or "zstd"'.
    rf"(?<![\w`'\"“‘]){_ITEM}{_COMMA}{_ITEM}(?:{_COMMA}{_ITEM}){{0,40}}(?:,[`'\"”’]?)?\s+"
    r"(?:and|or)\s+[`'\"“‘-]*\w"
    # "chief information officers, senior agency officials, ..., and information owners"
    r"|(?:,(?:[^,.;:]|\.(?!\s+[A-Z]|\s*$)){2,80}){2,},\s*(?:and|or)\s+\w"
)
_AND_OR = re.compile(r"\b(?:and|or)\b", re.I)
_CAUSAL = re.compile(
    r"\b(?:because|since|so\s+that|in\s+order\s+to|due\s+to|reflecting|as\s+a\s+result|"
    r"therefore|thus|hence|the\s+reason|to\s+(?:ensure|prevent|avoid|allow|protect))\b",
    re.I,
)
_CURRENCY = "USD|EUR|GBP|CHF|JPY|CAD|AUD|NZD|CNY|INR|SEK|NOK|DKK"
_NUMBER_WORD = (
    r"(?:\d+(?:[.,]\d+)*|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|"
    r"sixty|seventy|eighty|ninety|hundred|several|few)"
    # A contract's "thirty (30)", "forty-five (45)": the word, then the figure.
    r"(?:-\w+)?(?:\s+\(\d+\))?"
)
# An amount as a sentence opens it: "$200", "USD 200", "forty-eight", "ninety (90)", "3".
AMOUNT = rf"(?:[$€£¥]\s?\d|(?:{_CURRENCY})\s?\d|{_NUMBER_WORD}\b)"
# "within 72 hours", "within one calendar month", not "within a single connection".
_DEADLINE = re.compile(
    rf"\b(?:within\s+{_NUMBER_WORD.replace('|an?|', '|', 1)}[\s-]+(?:\w+[\s-]+)?"
    r"(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b|no\s+later\s+than|"
    r"in\s+advance|by\s+the\s+end\s+of)",
    re.I,
)
# What a number question's expected quantity looks like in a sentence (``Question.expects``).
_TYPED = {
    "duration": re.compile(
        rf"\b{_NUMBER_WORD}[\s-]+(?:\w+[\s-]+)?(?:seconds?|minutes?|hours?|days?|weeks?|months?|"
        r"years?|decades?)\b|\b(?:annually|yearly|monthly|weekly|daily|hourly|quarterly|"
        r"biennially|immediately|indefinitely)\b"
        # A configuration's units: "`30s`", "500ms", "2h", "1m30s", "`5m`", "`300s`", "5 min";
        # not the "1990s" nor "503s" (a status's plural).
        r"|(?<![\w.])\d+(?:\.\d+)?(?-i:ms|h)\b|(?<![\w.])(?<!the\s)\d{1,2}(?:\.\d+)?(?-i:s)\b"
        r"|(?<![\w.])\d+(?-i:h|m)(?:\d+(?-i:ms|m|s))+\b"
        r"|(?<=`)\d+(?-i:m|s)(?=`)|\b\d+\s?(?:mins?|secs?|hrs?)\b",
        re.I,
    ),
    "date": re.compile(
        r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
        r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?\s+(?:\d{1,2},?\s+)?"
        r"(?:19|20)\d\d\b|\b\d{1,2}\s+(?:January|February|March|April|May|June|July|August|"
        r"September|October|November|December)\s+(?:19|20)\d\d\b|\b\d{1,4}[/-]\d{1,2}[/-]\d{1,4}\b",
    ),
    # "$5", "5 euros", "45p a mile", and the ISO code before or after the amount
    # ("EUR 0.30", "45 CHF").
    "money": re.compile(
        rf"[$€£¥]\s?\d|\b\d[\d,.]*\s*(?:dollars|euros|pounds|pence|cents|{_CURRENCY})\b"
        # "45p per mile", "is 45p.", "30c an hour", a cell's "| 45p |"; not "720p" or
        # "clause 12c".
        r"|\b\d{1,2}(?-i:p)\b(?=\s*(?:(?:per|a|an|each|for)\b|[/|.,;:)]|$))"
        r"|\b\d{1,2}(?-i:c)\b(?=\s*(?:(?:per|a|an|each)\b|[/|]))"
        rf"|\b(?:{_CURRENCY})\s?\d",
        re.I | re.M,
    ),
    "gain": re.compile(r"(?<!\w)\d|\b(?:twice|double[ds]?|tripled?|half)\b", re.I),
    "amount": re.compile(
        r"(?<!\w)\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b", re.I
    ),
    "percent": re.compile(r"\d\s*%|\bpercent\b|\b(?:half|third|quarter)\b", re.I),
    "pages": re.compile(rf"\b{_NUMBER_WORD}\s+(?:\w+\s+)?pages\b", re.I),
}
# "Table 5-1", "Section 2.3", "[RFC7231]": a number that names a part of a
# document points somewhere; it is not a quantity the sentence states.
_REFERENCE = re.compile(
    r"\b(?:Table|Figure|Section|Appendix|Chapter|Page|RFC|Publication|SP|FIPS|Revision|Rev\.)\s*\d[\d.-]*|\[\w*\d+\]",
    re.I,
)
_COUNT = re.compile(r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.I)
_WORD = re.compile(r"\w+")
# Words a sentence's subject is looked for in.
_SUBJECT_WORDS = 4
_OPENS_WITH_CONDITION = re.compile(
    r"\s*(?:[-−•]\s*)?(?:if|when|whenever|once|upon|unless|in\s+case|after)\b", re.I
)
# What answers yes or no: a permission, a duty or a denial ("may be developed and
# used at agency discretion", "SHOULD NOT be used", "is not applicable").
_VERDICT = re.compile(
    # "whether or not the client is willing to accept trailers" denies nothing; "is
    # always ignored by a private cache" does.
    r"\b(?:may|must|should|shall|can|cannot|(?<!\bor\s)not|never|always|ignor(?:e|es|ed|ing)|"
    r"only|allowed|permitted|prohibited|required|requires?|ought)\b",
    re.I,
)
# "Who approves claims over EUR 500?" is answered by someone: a role, a team, a party.
# After a leading clause too ("Under the travel policy, who approves trips?").
_WHO = re.compile(r"(?:^|.*[,;:]\s*)(?:who|whom|whose)\b", re.I)
_SOMEONE = re.compile(
    r"\b(?i:managers?|directors?|officers?|heads?\s+of|teams?|departments?|committees?|"
    r"owners?|administrators?|supervisors?|employees?|staff|chairs?|president|"
    r"secretary|service\s+desk|help\s*desk|commanders?|engineers?|contractors?|vendors?|"
    r"customers?|controllers?|processors?|approvers?|agency|agencies|authority|authorities|"
    r"people\s+operations|human\s+resources)\b(?!-)"
    r"|\b(?:C[A-Z]{1,2}O|DPO|HR|IT|IANA|IESG|IETF)\b"
)
_CUES = {
    QuestionKind.REASON: _CAUSAL,
    QuestionKind.LIST: _ENUMERATION,
    QuestionKind.NUMBER: _NUMBERISH,
    QuestionKind.CONDITION: _CONDITIONAL,
    QuestionKind.PROCEDURE: _PROCEDURAL,
}


def _named_by(role: str, asked: set[str]) -> bool:
    """True when the question names ``role`` itself ("the help desk", "managers'")."""
    return all(w in asked or w.rstrip("s") in asked for w in _WORD.findall(role.casefold()))


def kind_cue(question: Question, text: str, asked: set[str]) -> bool:
    """True when ``text`` carries what the question's kind asks for.

    A number the question itself names ("after a 503 response") is what it
    is about, not its answer, so it is no cue; a question that asks for a
    duration, a date or an amount is answered only by one; a yes/no question
    by a permission, a duty or a denial.
    """
    kind = question.kind
    typed = asked_type(question)
    if typed is not None:
        return gives_type(typed, text, asked)
    cue_re = _CUES.get(kind)
    if kind is QuestionKind.OTHER and question.whether:
        cue_re = _VERDICT
    elif kind is QuestionKind.OTHER and _WHO.match(question.text):
        # Someone the question itself names is what it asks about, not who answers it.
        return any(not _named_by(m.group(), asked) for m in _SOMEONE.finditer(text))
    if cue_re is None:
        return False
    if kind is QuestionKind.CONDITION and question.outcome:
        # "What happens when ...?": the sentence that opens with a condition
        # and goes on to its consequence, not one that mentions "when" in passing,
        # or whose subject is the code the condition names ("What happens if my
        # endpoint returns 410?": "A 410 Gone response disables ...").
        if _OPENS_WITH_CONDITION.match(text) is not None:
            return True
        # A code of three digits or more ("410", "E4012"), not a product's "P1", "2FA", "S3".
        return any(
            w.casefold() in asked and sum(c.isdigit() for c in w) >= 3
            for w in _WORD.findall(text)[:_SUBJECT_WORDS]
        )
    if kind is QuestionKind.LIST and (
        _announces_count(question, text) or _introduces_members(question, text)
    ):
        return True
    if kind is QuestionKind.CONDITION and _WHEN.match(question.text) and _DEADLINE.search(text):
        return True
    if kind is not QuestionKind.NUMBER:
        if cue_re is _ENUMERATION and _AND_OR.search(text) is None:
            return False  # no list ends without "and" or "or": spare the long search
        return cue_re.search(text) is not None
    if question.expects is not None:
        # Read of the claim, not of a table's row alone (``table_record``): its header
        # may say "Max seats".
        if question.expects in ("count", "limit") and not bounded(question, text):
            return False
        if question.expects == "duration" and _NOTICE_ASKED.search(question.text):
            return states_expected(question, text) and _NOTICE_GIVEN.search(text) is not None
        return states_expected(question, text)
    stated = _REFERENCE.sub(" ", text)
    return any(m.group().casefold() not in asked for m in _NUMBER_CUE.finditer(stated))


# A noun, then what introduces its members: "five datasets: (1) ...", "two rule-based
# baselines: Unif and Stopword", "argument components, namely claim, premise, ...".
_INTRODUCED = re.compile(
    r"\b(\w+)(?:\s*\([^)]{0,40}\))?\s*(?::|,?\s+(?:namely|such\s+as|including)\b)"
)


def _introduces_members(question: Question, text: str) -> bool:
    """True when the noun a list question asks for is followed by its members."""
    if not question.focus:
        return False
    head = question.focus[-1]
    return any(stem(m[1].casefold()) == head for m in _INTRODUCED.finditer(text))


def _announces_count(question: Question, text: str) -> bool:
    """True for "There are two major styles ...: direct ..., and indirect ..." when
    the question asks for "the two main ways": the count it names, then the items."""
    counts = {m.group().casefold() for m in _COUNT.finditer(question.text)}
    for m in _COUNT.finditer(text):
        if m.group().casefold() in counts and ":" in text[m.end() :]:
            return True
    return False


# "How many categories of client devices ...?": the thing counted.
# The words after "how many" up to its verb or preposition ("security-related areas",
# "large public parks", "categories" of "categories of ..."); ``_counted_word`` picks
# the one counted.
_HOW_MANY = re.compile(
    r"\bhow\s+many\s+(?:(?:of|the|these|those|different|distinct|separate)\s+)*"
    r"((?:[a-z][\w-]*\s+){0,3}?[a-z][\w-]*?)(?=\s+(?:of|do|does|did|are|is|were|was|can|could|"
    r"should|must|may|might|will|would|have|has|had|in|on|at|for|to|per|that|which|there|a|an|"
    r"the)\b|\s*[?.,;:!]|\s*$)",
    re.I,
)
_COUNT_WORDS = {w: str(n) for n, w in enumerate(NUMBER_WORDS[:13])}  # to "twelve", as _COUNT


def counts_asked(question: Question, text: str) -> bool:
    """True when ``text`` counts what a "how many X" question asks about.

    "There are seven categories of client devices" answers "How many
    categories of client devices are there?": a count, then the counted word
    with at most two words between ("three large public parks"; not "one in
    five of all the bird species"). A count the question itself states is no answer.
    """
    if question.kind is not QuestionKind.NUMBER:
        return False
    asked = _asked_count(question.text)
    if asked is None:
        return False
    counted, own = asked
    stated = _REFERENCE.sub(" ", text)  # "Table 2 lists the categories" counts none
    for m in _COUNT.finditer(stated):
        if _as_digits(m.group()) in own:
            continue
        after = _WORD.findall(stated[m.end() : m.end() + 60])[:3]
        if any(stem(w.casefold()) == counted for w in after):
            return True
    return False


# "We", "our", "us"; not "US" (the country, "US-CERT").
_FIRST_PERSON = re.compile(r"\b(?i:we|our)\b|\bus\b")


def speaks_as_authors(question: Question, text: str) -> bool:
    """True when a question about what the authors did meets a sentence in which they say it.

    "What baselines do they use?" is answered by "We compare against ...", not by
    a sentence about baselines in general or in others' work.
    """
    return question.asks_authors and _FIRST_PERSON.search(text) is not None


@lru_cache(maxsize=1024)
def _asked_count(question: str) -> tuple[str, frozenset[str]] | None:
    """The stem a "how many" question counts and the counts it states itself, read
    once per question rather than once per candidate sentence."""
    asked = _HOW_MANY.search(question)
    if asked is None:
        return None
    own = frozenset(_as_digits(m.group()) for m in _COUNT.finditer(question))
    return stem(_counted_word(asked[1]).casefold()), own


def _counted_word(phrase: str) -> str:
    """The noun a "how many" phrase counts: its first plural ("annotators" of
    "annotators tagged each text"), else its last word ("people")."""
    words = [w.split("-")[-1] for w in phrase.split()]
    plural = [w for w in words if w.casefold().endswith("s") and not w.casefold().endswith("ss")]
    return plural[0] if plural else words[-1]


def _as_digits(count: str) -> str:
    """ "Seven" and "7" as one count."""
    return _COUNT_WORDS.get(count.casefold(), count)


def states_expected(question: Question, text: str) -> bool:
    """True when ``text`` states the kind of quantity a number question expects (a date, ...)."""
    if question.expects == "limit" and _DEFAULT.search(text) and not BOUND.search(text):
        return False  # "The default page size is now 50": a default is no limit
    if question.expects in ("count", "limit"):
        return _states_count(question.text, text)
    if question.expects in ("gain", "amount"):
        text = _REFERENCE.sub(" ", text)  # "Table 3" states no gain
    return question.expects is not None and _TYPED[question.expects].search(text) is not None


_DEFAULT = re.compile(r"\bdefaults?\b", re.I)


# "How much notice do I need to give?", "How far in advance ...?": a time ahead of
# something ("at least 8 weeks before", "one month's notice", "for 12 months after the
# announcement"), not any duration ("after 90 days of service"); "How long is the
# notice period?" asks for any.
_NOTICE_ASKED = re.compile(r"\bhow\s+much\s+(?:notice|warning)\b|\bin\s+advance\b|\bahead\b", re.I)
_NOTICE_GIVEN = re.compile(
    rf"\b(?:{_NUMBER_WORD})[\s-]+(?:\w+[\s-]+)?(?:minutes?|hours?|days?|weeks?|months?|"
    r"fortnights?)(?:['’]s?)?\s+(?:\w+\s+)?(?:before|prior|in\s+advance|ahead|notice|beforehand|"
    r"after\s+(?:the\s+|its\s+|an?\s+|our\s+|your\s+)?(?:[\w-]+\s+)?announcements?)\b"
    r"|\bnotice\b",
    re.I,
)


# What states a count: a number that names no part of a document nor a thing
# ("3xx", "HTTP/1.1", "SHA-256", "UTF-8"), possibly with its unit glued on ("64KB",
# "100ms"); a number word, not inside a compound ("one-time", "two-factor"), or a round
# count in the plural ("thousands of concurrent connections"); or
# that there is no fixed count ("does not place any a priori limit", "no limits",
# "any number of"), but not "not limited to", which introduces examples.
_COUNT_STATED = re.compile(
    r"(?<![\w/.-])\d+(?:[.,]\d+)*(?:(?:[kKMGT]i?[bB]|ms|[xX])\b|(?![\w/]))"
    r"|(?<![\w-])(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|"
    r"fifty|sixty|seventy|eighty|ninety|twice|(?:hundred|thousand|million|billion|trillion|dozen)s?)(?![\w-])"
    r"|\b(?:unlimited|unbounded|no\s+(?:\w+\s+){0,2}(?:limit|limits|limitation|maximum)"
    r"|any\s+number|arbitrary\s+number|without\s+(?:any\s+)?limit"
    r"|not\s+limit(?:ed)?(?!\s+to\b)|any\s+(?:\w+\s+){0,2}limits?)\b",
    re.I,
)


# A status code names a response, it counts nothing: "as it would for a 500 response",
# "a 301 (Moved Permanently) redirect", "the 412 (Precondition Failed) response". Not a
# count with a label ("up to 200 (Standard) projects", "100 (Default) responses").
_REASON_PHRASE = r"\([A-Z][\w-]*(?:\s[A-Z][\w-]*)*\)"
_STATUS_CODE = re.compile(
    rf"\b(?i:an?|the|any|each|every|this|that)\s+[1-5]\d\d(?:\s*{_REASON_PHRASE}|"
    r"\s+(?i:response|status|error|code|redirect)\b(?!\s+(?i:limit|cap|maximum|per)\b))"
    rf"|\b[1-5]\d\d\s*{_REASON_PHRASE}\s+(?i:response|status|error|code|redirect)\b"
)


def _states_count(question: str, text: str) -> bool:
    """True when ``text`` states a count other than one the question itself names
    ("How many times should a client retry after a 503 response?" is not answered
    by a sentence about the 503 response, nor by one about a 500 response)."""
    own = _counts_in(question)
    stated = _STATUS_CODE.sub(" ", _REFERENCE.sub(" ", text))
    return any(_said(m.group()) not in own for m in _COUNT_STATED.finditer(stated))


@lru_cache(maxsize=1024)
def _counts_in(question: str) -> frozenset[str]:
    """The counts a question states, read once per question, not once per sentence."""
    return frozenset(_said(m.group()) for m in _COUNT_STATED.finditer(question))


def _said(count: str) -> str:
    """ "1,000" and "1000" as one count, "Twelve" and "twelve" as one word."""
    return count.casefold().replace(",", "")
