"""How surely a sentence is what a question's term is about: its definition, or its section.

A definition question is answered by the entry that defines its term: the
first statement under a label naming it ("Rapid elasticity. Capabilities
..."), a sentence that opens with the term and a defining verb ("X is", "X
means", "X acts as"), most surely the first thing said under a heading that
names the term. Other kinds are helped by a heading holding the question's
words ("10.3.5 304 Not Modified" for "When does a server send 304?").
``select`` adds these shares of its definition bonus to a candidate's score.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pincite.generate.base import Passage
from pincite.generate.defined_term import QUOTED
from pincite.generate.faq import turned_round
from pincite.generate.layout import Role, Unit
from pincite.generate.pool import Pool
from pincite.generate.question import NAMING_KINDS, Question, QuestionKind
from pincite.generate.words import STOPWORD_STEMS, content_stems

if TYPE_CHECKING:
    from pincite.generate.scoring import Scoring

__all__ = ["about", "defines"]

_DEFINING = re.compile(
    r"\b(?:is|are|means?|refers?\s+to|denotes?|is\s+defined\s+as|consists?\s+of|acts?\s+as|"
    r"serves?\s+as|involves?|entails?)\b|:\s|\s[—–]\s",
    re.I,
)
# "The term information technology includes computers, ... software, firmware": a
# legal definition's statement of what its term covers. Not any "X includes" ("The
# contract includes an annex on pricing" says what is in the contract, not what it is).
_TERM_INCLUDES = re.compile(r"^\s*the\s+terms?\s+(?P<term>.{1,80}?)\s+includes?\b", re.I)
# "VPN clients can be configured to be thin, which means that the client uses ...".
_WHICH_MEANS = re.compile(r",\s+which\s+means\b", re.I)
# "These checks are sometimes called health, suitability, screening, or assessment
# checks": the names come after the verb, and what they name was said just before.
_CALLED = re.compile(
    r"^(?:These|This|Such|Those)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:is|are)\s+(?:also\s+|sometimes\s+|"
    r"often\s+|commonly\s+|generally\s+)?(?:called|known\s+as|referred\s+to\s+as|termed)\s+"
)
_PASSIVE = re.compile(r"\s+(?:not\s+)?\w+ed\b")
# "Thin clients are generally more flexible than thick clients": a comparison, no definition.
_COMPARISON = re.compile(r"\s+(?:\w+ly\s+)?(?:more|less|better|worse|faster|slower)\b", re.I)
_CONDITIONAL_START = re.compile(r"\s*(?:if|when|unless|whether|although|because|since)\b", re.I)
# A term may carry a few words around it ("Many people telework (also known
# as telecommuting), which is ..."), not a clause ("One of the examples of X is").
_TERM_EXTRA_WORDS = 3
# Before ", which means": "However, many VPN clients can also be configured to be thin"
# (five), not "Many agencies that issue laptops to staff working at home also permit
# a thin client" (nine).
_WHICH_MEANS_EXTRA_WORDS = 6
# Words a question-worded heading may hold beyond the question's and still title its answer.
_HEADING_EXTRA_WORDS = 1
# A code's entry: its section number, the code, then the code's name ("10.4.7 406 Not
# Acceptable", "AC-20 Use of External Information Systems"). The name is the code's, so a
# question asking what the code means need not repeat it.
# A bare number is a code only after a section number ("2 Definitions" is a section), and
# an enhancement ("SC-7(5) Deny by Default") is not its base control's entry.
_CODE_ENTRY = re.compile(
    r"^[#\s]*(?:(?P<number>\d+(?:\.\d+)*\.?)\s+)?"
    r"(?P<code>[A-Za-z]{0,4}[-\u2010\u2011]?\d+)(?![\w.(\u2010\u2011-])(?!\s*\(\d)"
)
# How an FAQ numbers its questions: "Q1:", "Q.", "FAQ:", "4.2", "## Q3 -".
_FAQ_NUMBER = re.compile(r"^[#\s]*(?:(?:FAQ|Q\d*)\b\s*[:.)-]?|\d+(?:\.\d+)*\.?(?=\s))\s*", re.I)


def defines(
    question: Question, pool: Pool, p: Passage, units: list[Unit], u: Unit, scoring: Scoring
) -> float:
    """How surely this unit is what the question's term is about (0 when it is not).

    For a definition question: the first statement under a label naming the
    term ("Rapid elasticity. Capabilities ..."), a sentence that opens with
    the term and a defining verb ("X is", "X means", "X: ...", "X, which
    is"), most surely when it is also the first thing said under a heading
    naming the term; a heading alone names a section whose first sentence
    need not define anything. For other kinds, half the heading's share for
    the first statement under a heading (or label) that holds the question's
    words ("10.3.5 304 Not Modified" for "When does a server send 304?"), and
    a smaller one for a later statement of a section the question's words
    title; both are scaled by ``Scoring.heading_weight`` unless a meaning is
    asked, since a section's title says what it is about, not which sentence
    holds the rule or number asked for. The first statement under a FAQ's
    heading that asks the question gets twice the share, unscaled. Only the
    title's own words count: the heading path of the chunk names every
    sentence in it, not just the first.
    """
    title, role = _title_of(p, units, u)
    if title and turned_round(title, question.text, set(question.stems)):
        return 0.0  # "What is reimbursed?" is not answered under "What is not reimbursed"
    if question.kind is not QuestionKind.DEFINITION or not question.focus:
        # A heading says what its section is about, not which of its sentences holds
        # the rule, number or step asked for: only a meaning asked for takes its
        # whole weight.
        weight = 1.0 if question.kind is QuestionKind.DEFINITION else scoring.heading_weight
        if title:
            share = about(question, pool, p, title, scoring)
            # A question for a heading ("### Who do I tell if I'm sick?") is a
            # FAQ's entry: what is said first under it is its answer, not
            # something about its topic.
            if _asks_this(title, question):
                return 2 * share
            # Another question's heading titles that question's answer.
            return 0.0 if title.rstrip().endswith("?") else weight * share
        # Further into a section titled by the question's own words ("9.5 POST" for
        # "Can a response to a POST request be cached?"), wherever the chunk begins.
        over = (
            p.text[units[u.title_index].start : units[u.title_index].end]
            if (u.title_index is not None)
            else (p.section[-1] if p.section else "")
        )
        if over and _within_question(question, pool, over, scoring):
            return weight * 0.5 * scoring.term_match
        return 0.0
    named = _named(question.focus, title, p, pool) if title else 0.0
    if named < scoring.term_match:
        named = 0.0
    if named and (role is Role.LABEL or _only_the_term(question, title)):
        return named  # "Rapid elasticity.", "10.3.3 302 Found"
    opens, whole = _opens_with_term(question, pool, p.text[u.start : u.end], scoring)
    if opens and named:
        return max(opens, named)
    share = 1.0 if whole else scoring.pattern_share
    return max(share * opens, scoring.heading_share * named)


def _asks_this(title: str, question: Question) -> bool:
    """True for a heading worded as a question whose words the question holds, all but
    one, and which holds two of the question's words or half of them: "Are there API
    rate limits?" titles no answer to "Is there a guaranteed maximum API response
    latency?", though it names the API."""
    if not title.rstrip().endswith("?"):
        return False
    title = _FAQ_NUMBER.sub("", title, count=1)
    own = {t for t in content_stems(title) if t not in STOPWORD_STEMS and not t.isdigit()}
    if len(own - set(question.stems)) > _HEADING_EXTRA_WORDS:
        return False
    # Nor a heading holding only the name the question mentions: "What is Ledgerlark?"
    # does not ask "How can I download all of my data out of Ledgerlark?". Two shared
    # words suffice: "How do I reset my password?" is asked by a question that adds
    # "if I no longer have access to my email account".
    asked = {t for t in question.stems if t not in STOPWORD_STEMS and not t.isdigit()}
    held = len(asked & own)
    return held >= 2 or 2 * held >= len(asked)


def about(question: Question, pool: Pool, p: Passage, title: str, scoring: Scoring) -> float:
    """Half the share of the question a title names: the question's words, or the name it holds."""
    if not title:
        return 0.0
    m = _named(question.stems, title, p, pool)
    if question.focus and question.kind in NAMING_KINDS:
        m = max(m, _named(question.focus, title, p, pool))
    if m >= scoring.term_match:
        return 0.5 * m
    if _within_question(question, pool, title, scoring):
        return 0.5 * scoring.term_match
    return 0.0


def _within_question(question: Question, pool: Pool, title: str, scoring: Scoring) -> bool:
    """True for a title every word of which the question asks about ("11. Waivers.").

    A section named by the question's rarer words is about what it asks,
    even when the question also names the document ("waivers to FIPS 200").
    """
    own = {t for t in content_stems(title) if not t.isdigit()}
    own = {t for t in own if t not in STOPWORD_STEMS or t in question.stems}
    if not own or not own <= set(question.stems):
        return False
    held = [t for t in question.stems if t in pool.present]
    return pool.match(held, own) >= scoring.topic_share


def _named(terms: Sequence[str], title: str, p: Passage, pool: Pool) -> float:
    """How much of ``terms`` a title names, read with the heading path above it.

    "10.3.3 302 Found" under "10 Status Code Definitions" names "the 302
    status code"; but the title itself must name part of the term, or every
    first sentence in a section would define the section's subject.
    """
    own = set(content_stems(title))
    if not pool.match(terms, own):
        return 0.0
    return pool.match(terms, own | set(content_stems(" ".join(p.section))))


def _only_the_term(question: Question, title: str) -> bool:
    """True for a title that names the asked-about term and nothing else.

    "10.3.3 302 Found" is the entry for "the 302 Found status code";
    "2.2 Remote Access Methods" is a section about more than remote access.
    """
    code = _CODE_ENTRY.match(title)
    if code is not None and (code["number"] or not code["code"].isdigit()):
        named = content_stems(code["code"])
        # The code as the question's own word, not inside "HTTP/2", "1.3" or "SC-7(5)".
        alone = rf"(?<![\w/.-]){re.escape(code['code'])}(?![\w/(-]|\.\d)"
        if named and set(named) <= set(question.focus) and re.search(alone, question.text, re.I):
            return True  # "10.4.7 406 Not Acceptable" for "got a 406 - what is it telling me?"
    own = [t for t in content_stems(title) if not t.isdigit() or t in question.stems]
    own = [t for t in own if t not in STOPWORD_STEMS or t in question.stems]
    return all(t in question.stems for t in own)


def _title_of(p: Passage, units: list[Unit], u: Unit) -> tuple[str, Role | None]:
    """The title a first statement sits under, and its role; ("", None) for any other unit."""
    if not u.first or u.title_index is None:
        return "", None
    t = units[u.title_index]
    return p.text[t.start : t.end], t.role


def _opens_with_term(
    question: Question, pool: Pool, sentence: str, scoring: Scoring
) -> tuple[float, bool]:
    """The focus's share of what precedes a defining verb at the sentence's start (0 if none),
    and whether the sentence marks the term as the one it defines.

    A term the sentence puts in quotes ('A "tunnel" acts as ...') is the one it
    defines, as a label's would be: ``defines`` gives it the whole bonus, not
    the pattern share. "X ..., which means that ..." defines the X just before
    it, with the checks of a defining verb and a little more room before it.
    """
    head = sentence[:200]
    if _CONDITIONAL_START.match(head):
        return 0.0, False  # "If the X is received", "When a thin client is used, which means"
    called = _CALLED.match(head)
    if called is not None:
        m = pool.match(question.focus, set(content_stems(head[called.end() :])))
        return (m, False) if m >= scoring.term_match else (0.0, False)
    includes = _TERM_INCLUDES.match(head)
    if includes is not None:
        m = pool.match(question.focus, set(content_stems(includes["term"])))
        return (m, False) if m >= scoring.term_match else (0.0, False)
    means = _WHICH_MEANS.search(head)
    if means is not None:
        before = content_stems(head[: means.start()])
        extra = [t for t in before if t not in question.focus and t not in STOPWORD_STEMS]
        m = pool.match(question.focus, set(before))
        if m >= scoring.term_match and len(extra) <= _WHICH_MEANS_EXTRA_WORDS:
            return m, False
    verb = _DEFINING.search(head)
    if verb is None or _PASSIVE.match(head, verb.end()) or _COMPARISON.match(head, verb.end()):
        return 0.0, False
    before = content_stems(head[: verb.start()])
    extra = [t for t in before if t not in question.focus and t not in STOPWORD_STEMS]
    if len(extra) > _TERM_EXTRA_WORDS:
        return 0.0, False  # "One of the examples of X is"
    m = pool.match(question.focus, set(before))
    if m < scoring.term_match:
        return 0.0, False
    # The term a sentence defines, in quotes: 'A "tunnel" acts as', '“Agency” means'; not
    # another term holding it ('A "transparent proxy" is a proxy ...' for "What is a
    # proxy?").
    quoted = QUOTED.search(head[: verb.start()])
    term = set(content_stems(quoted[1])) if quoted is not None else set()
    whole = (
        bool(term)
        and pool.match(question.focus, term) >= m
        and not term - set(question.focus) - STOPWORD_STEMS
    )
    # "SECURITY CATEGORY: The characterization ...": a glossary's label, the term alone.
    label = verb.group().strip() == ":" and not extra
    return m, whole or label
