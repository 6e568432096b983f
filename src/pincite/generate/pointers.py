"""Sentences that point back: what a claim must quote before them to say anything.

"These methods ought to be considered safe." names no method; "It applies to
company-owned devices" names no policy; "Its default value is 100
milliseconds." names no setting; "As a result, ..." states no cause.
``pointed_at`` walks back to the sentence each points at, so the claim quotes
both.

The other way round, a claim that ends where a sentence governed by it begins
("However, ...", "This allows a server to ...", "Since it cannot be combined
...") drops a qualification or a consequence the document attaches to it:
``leans_back`` names such a sentence, so the claim runs on to it.
"""

from __future__ import annotations

import re

from pincite.generate.base import Passage
from pincite.generate.layout import Role, Unit
from pincite.generate.page_break import ends_sentence
from pincite.generate.pool import Piece, resume, resumed
from pincite.generate.words import content_stems

__all__ = [
    "indent_of",
    "leans_back",
    "past_the_turn",
    "pointed_at",
    "points_at",
    "qualified",
]

# "These methods ...", "This property ...": nothing alone if the sentence before names it.
_ANAPHORA = re.compile(r"(?:These|This|Those|Such)\s+([a-z]\w+)\b")
# "It applies to ..." after "This policy sets ...": a bare pronoun subject says nothing
# alone (not "It is recommended": after an auxiliary it is often empty).
_PRONOUN_SUBJECT = re.compile(
    r"(?:It|They)\s+(?!(?:is|was|are|were|may|might|can|could|would|will|should|must|has|"
    r"have|had|seems|appears|does|do|did|also|not|follows|turns|remains|becomes|makes|takes|"
    r"happens|matters)\b|\w+n['’]t\b)[a-z]+\b"
)
# "Its default value is 100 milliseconds.": whose, the sentence before says. Not
# "Their", which may point further back than that.
_POSSESSIVE = re.compile(r"Its\s")
_LEADS_ON = re.compile(r"(?:As\s+a\s+result|Therefore|Consequently|Hence)\b")
# What names the text itself, not a sentence before it: "this document", "This
# Agreement", "these terms".
_THE_TEXT = (
    r"document|section|subsection|publication|guide|guideline|specification|standard"
    r"|chapter|appendix|memo|paper|work|study|article|report|table|figure|rfc|revision"
    r"|version|edition|part|policy|procedure|agreement|contract|terms?|addendum|notice"
    r"|handbook|page|faq|readme|release"
)
# Agreements and documents named by their letters: "This EULA", "This SLA".
_AGREEMENTS = r"eula|sla|dpa|msa|nda|sow|sop|bcp|nist|fips|sp"
# Further in: "The methods GET, HEAD, PUT and DELETE share this property.", "The
# value of this field", "when such devices are used". Not "of this document" or "in
# this paper", which point at the text itself, nor idioms ("in this case", "this
# way") that point at nothing a sentence before names.
_POINTER = re.compile(
    r"\b(?:(?:share|shares|have|has|with)\s+(?:this|these|that|those)|this|these|those|such)\s+"
    rf"(?!(?:{_THE_TEXT}|case|point|time|way|reason|purpose)s?\b)([a-z]\w+)\b"
)
# Sentences a chain of pointers back ("this field", "such devices") may reach.
_POINTER_CHAIN = 2


def pointed_at(p: Passage, units: list[Unit], i: int, start: int) -> int:
    """Where a sentence that points back must start so that what it points at is quoted.

    "These methods ought to be considered safe.": which methods, the sentence before
    says (what "It applies ..." applies, what "As a result, ..." results from, even
    across a paragraph); "The value of this field" after "This field MAY ..." after
    "The Retry-After response-header field ...": a chain of pointers is followed
    back, at most ``_POINTER_CHAIN`` sentences.
    """
    j, at = i, start
    while j > 0 and i - j < _POINTER_CHAIN:
        pointed = points_at(p.text, at, units[j].end)
        prev = units[j - 1]
        same_paragraph = "\n\n" not in p.text[prev.end : at]
        named = bool(pointed) and pointed <= set(content_stems(p.text[prev.start : prev.end]))
        leads_on = _LEADS_ON.match(p.text, at) is not None
        named = (
            named
            or leads_on
            or _PRONOUN_SUBJECT.match(p.text, at) is not None
            or _POSSESSIVE.match(p.text, at) is not None
        )
        if prev.role is not Role.STATEMENT or not (same_paragraph or leads_on) or not named:
            break
        j, at = j - 1, prev.start
    return at


def points_at(text: str, start: int, end: int) -> set[str]:
    """The stems of what the sentence at ``text[start:end]`` points back at; empty if nothing.

    "with that of thick clients", "Such as it is": a function word points at
    nothing in particular, so a later pointer of the sentence is read. A
    sentence that names its thing before pointing at it ("A client that
    receives a Retry-After field ... this field's request") points at nothing
    before it.
    """
    found = _ANAPHORA.match(text, start)
    matches = ([found] if found else []) + list(_POINTER.finditer(text, start, end))
    for m in matches:
        pointed = set(content_stems(m[1]))
        if not pointed:
            continue
        if pointed <= set(content_stems(text[start : m.start()])):
            return set()
        return pointed
    return set()


# What opens an example of the claim before it ("For example, ...").
_EXAMPLE = r"For\s+(?:example|instance)|In\s+particular"
# Connectives that qualify or draw on what was just said. Not "Yet another header",
# "But for ...".
_TURNS_ON = (
    r"However|But(?!\s+for\b)|Yet(?!\s+(?:another|again|more|other)\b)|Nevertheless"
    r"|Nonetheless|Otherwise|Instead|Therefore|Thus|Hence|Consequently|Conversely|Likewise"
    r"|Similarly|Accordingly|As\s+a\s+(?:result|consequence)|For\s+(?:this|that|these)\s+reasons?"
    r"|Because\s+of\s+(?:this|that)"
    r"|In\s+(?:this|that|such|either|each|both)\s+(?:case|cases|event|situation|way)"
    r"|In\s+other\s+words|That\s+is(?=,)|(?:By\s+)?[Dd]oing\s+so"
    rf"|(?:{_EXAMPLE})(?=,)"
)
# An example illustrates the claim: it is quoted with it, but what one case was for or
# who did it there ("For example, one was recorded because a vendor needed access")
# is no reason or role the claim states.
_ILLUSTRATES = re.compile(rf"(?:{_EXAMPLE})\b")
# "This allows ...", "These may ...", "Since it cannot ...": a pronoun or a bare
# demonstrative standing for the sentence before. Not the text itself ("This
# document", "This Agreement", "This EULA": a defined term, but "This API" leans),
# nor "Those who ...", nor an "it" that stands for nothing ("It is RECOMMENDED that",
# "It is up to", "It should be noted that"; but "It is used to prevent replay" is the
# nonce).
_SUBORDINATORS = "Since|Because|As|Although|While|If|When|Unless"
_STANDS_FOR = (
    rf"(?:(?:{_SUBORDINATORS})\s+(?=[a-z]))?"
    r"(?:(?:[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Ss]uch)\b"
    rf"(?!\s+(?:(?i:{_THE_TEXT}|{_AGREEMENTS})s?\b|[A-Z][a-z]|who\b|which\b))"
    r"|[Tt]hey\b|[Ii]t\b(?:(?=\s+(?:is|was)\s+(?:used|designed|intended|meant)\s+(?:to|for|by)\b)"
    r"|(?!\s+(?:(?:is|was|are|should\s+be|must\s+be)\s+(?:[\w-]+\s+){0,2}?(?:that|to|for)\b"
    r"|(?:is|was)\s+(?:the\s+responsibility|up\s+to)\b|(?:should|must)\s+be\s+noted\b))))"
)
_TURNS = re.compile(rf"(?:{_TURNS_ON})\b")
_STANDS = re.compile(_STANDS_FOR)


def leans_back(sentence: str, *, pronouns: bool = True) -> bool:
    """True when ``sentence`` opens with a word that turns on the one before ("However,
    ...") or, with ``pronouns``, one that stands for it ("This allows ...")."""
    sentence = " ".join(sentence.split())
    return _TURNS.match(sentence) is not None or (pronouns and _STANDS.match(sentence) is not None)


def past_the_turn(sentence: str) -> str:
    """What a sentence leaning back says past its opening: "Thus, the archive needs 4 TB."
    says only that the archive needs 4 TB, gives no reason; "If this is needed urgently,
    call the desk." states no condition of the sentence before. A pronoun subject is
    kept ("Such placement is common because ...")."""
    sentence = " ".join(sentence.split())
    if _ILLUSTRATES.match(sentence):
        return ""
    turn = _TURNS.match(sentence)
    if turn is not None:
        return sentence[turn.end() :].lstrip(" ,")
    if _SUBORDINATE.match(sentence):
        _, comma, rest = sentence.partition(",")
        return rest.lstrip() if comma else ""
    return sentence


_SUBORDINATE = re.compile(rf"(?:{_SUBORDINATORS})\s")


# A blank line, or a line of spaces, or a page break: what a claim does not run across.
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n|\f")
# A new line and its indent; a tab reaches the next multiple of eight columns.
_NEW_LINE = re.compile(r"\n([ \t]*)")
_TAB = 8


def qualified(
    p: Passage,
    units: list[Unit],
    k: int,
    pieces: list[Piece],
    most: int,
    *,
    pronouns: bool,
    indent: int | None = None,
) -> tuple[int, int | None]:
    """Run the claim on to the sentences after ``units[k]`` that lean back on it ("However,
    ...", "This allows ..."), at most ``most`` of them, each whole and within the
    paragraph and the page; the index of the last unit quoted, and of the first added."""
    added: int | None = None
    while k + 1 < len(units) and (added is None or k + 1 - added < most):
        nxt = units[k + 1]
        between = p.text[pieces[-1][2] : nxt.start]
        if nxt.role is not Role.STATEMENT or _PARAGRAPH_BREAK.search(between):
            break
        if indent is not None and any(
            len(m[1].expandtabs(_TAB)) <= indent for m in _NEW_LINE.finditer(between)
        ):
            break  # past the list item's own lines, which are indented past its bullet
        said = p.text[nxt.start : nxt.end]
        if not leans_back(said, pronouns=pronouns):
            break
        # Whole: "Thus, if the body is meant for Danish readers, the appropriate field is"
        # ends at a chunk's edge or at page furniture with no rest after it.
        rest = resumed(p.text, units, k + 1)
        if rest is None and not ends_sentence(said):
            break
        pieces[-1] = (p, pieces[-1][1], nxt.end)
        added = k + 1 if added is None else added
        k = resume(p, units, k + 1, pieces)
    return k, added


def indent_of(text: str, at: int) -> int:
    """How far the line holding ``text[at]`` is indented."""
    line = text.rfind("\n", 0, at) + 1
    lead = text[line:at]
    return len(lead[: len(lead) - len(lead.lstrip(" \t"))].expandtabs(_TAB))
