"""The names a question holds: "304 Not Modified", "RFC 7230", "Revision 1".

A name is a run of name tokens (capitalised, all capitals, or holding a
digit) after the question's first word. The longest run is what a condition
or procedure question is about; runs holding a digit may name a document;
a numbered name ("416 Requested Range Not Satisfiable") asks for no number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pincite.generate.words import HYPHENATED_NAME, VERSION, content_stems, stem
from pincite.revisions import spell_revisions

if TYPE_CHECKING:
    from pincite.generate.base import Passage

__all__ = [
    "digit_names",
    "document_names",
    "documents_named",
    "is_document_number",
    "name_runs",
    "named_in",
    "named_thing",
    "naming_stems",
    "without_numbered_names",
]

# A token of a name: capitalised, all capitals, or holding a digit ("304",
# "HTTP/1.1", "FIPS", "Not", "Modified").
_NAME_TOKEN = re.compile(r"^(?:[A-Z][\w/.-]*|[\w/.-]*\d[\w/.-]*)$")
# "a 504 gateway timeout": a three-digit status number after an article (not "FIPS 200
# minimum ...") and the words naming it, up to what the question asks of it.
_STATUS_PHRASE = re.compile(
    r"\b(?:a|an|the|status|code)\s+[1-5]\d\d"
    r"(?:\s+(?!(?:mean|means|actually|really|status|code|response|error)\b)[a-z][\w-]*){1,4}",
    re.I,
)


def name_runs(q: str, skip: frozenset[str] = frozenset()) -> list[list[str]]:
    """The runs of name tokens after the question's first word, in order.

    ``skip`` holds stems that are how the question is asked ("OK" in "Is it
    OK to ...?"), never part of a name.
    """
    runs: list[list[str]] = []
    run: list[str] = []
    raw = q.split()[1:]
    for i, w in enumerate(w.strip("?.!,;:()\"'") for w in raw):
        if raw[i].startswith("(") and _abbreviates(w, raw[:i]):
            # "a system's security category (SC)": the acronym restates the words before
            # it, which are the name when they are name tokens ("Transport Layer Security
            # (TLS) 1.3"); alone, "SC" would name a heading of its own.
            continue
        # "RFC 2616's rules": a possessive ends the numbered name it closes; "Kestrelbay's"
        # names an owner, no document, and stays out as before.
        owner = w[:-2] if w.endswith(("'s", "’s")) and any(c.isdigit() for c in w) else ""
        if owner:
            w = owner
        if w and _NAME_TOKEN.match(w) and stem(w.casefold()) not in skip:
            run.append(w)
            if owner:
                runs.append(run)
                run = []
        elif run:
            runs.append(run)
            run = []
    return [*runs, run] if run else runs


def _abbreviates(w: str, before: list[str]) -> bool:
    """True for an acronym in parentheses spelling the initials of the words before it."""
    if not (2 <= len(w) <= 6 and w.isupper() and w.isalpha()) or not before:
        return False
    words = [b.strip("?.!,;:()\"'") for b in before[-len(w) :]]
    return len(words) == len(w) and "".join(b[:1] for b in words).upper() == w


def without_numbered_names(q: str, runs: list[list[str]]) -> str:
    """The question without the numbered names it holds, for spotting a request for a number.

    "When should a server reply with 416 Requested Range Not Satisfiable?" and
    "what does a 504 gateway timeout actually mean" name a status; its words
    ("Range", "timeout") ask for no quantity. A numbered name is a run of
    name tokens opening with a number and holding a word (not "How Many
    Pages Is SP 800-46", a question in title case), or, in lower case, the
    words right after a status-like number up to the question's verb; and a
    hyphenated name in capitals ("If-Range", "Max-Forwards").
    """
    for run in runs:
        if len(run) >= 2 and run[0][:1].isdigit():
            q = q.replace(" ".join(run), " ")
    # "If-Range", "Max-Forwards", "Content-Length": a header's name, whose words
    # ("range", "max", "length") ask for no quantity.
    q = HYPHENATED_NAME.sub(" ", q)
    return _STATUS_PHRASE.sub(" ", q)


def named_thing(runs: list[list[str]]) -> tuple[str, ...]:
    """The longest run of name tokens, as stems.

    "When does a server respond with 304 Not Modified?" is about "304 Not
    Modified", the title of the section that answers it. Empty when the
    question names nothing.
    """
    best = max(runs, key=len, default=[])
    return tuple(content_stems(" ".join(best)))


def _spelled(folded: str) -> str:
    # "v1", standing alone (not "api-v1", "V8-based"): "version 1", as a name too.
    return VERSION.sub(r"version \1", spell_revisions(folded))


def digit_names(runs: list[list[str]]) -> tuple[str, ...]:
    """The runs that hold a digit ("Revision 1", "RFC 7230"), case-folded.

    A lone number ("408") names a status code or a section, not a document.
    "Rev. 2" is spelled "revision 2", as titles write it, and "v1" "version 1".
    """
    return tuple(
        _spelled(" ".join(run).casefold())
        for run in runs
        if any(ch.isdigit() for t in run for ch in t) and (len(run) > 1 or not run[0].isdigit())
    )


# A standard's or a series' number however it is typed: "rfc 7230", "fips 200", "nist sp
# 800-46 rev 2", "FIPS PUB 199", "BCP 14"; a NIST SP's number has its series ("800-").
_SERIES = (
    r"(?:nist\s+)?(?:(?:rfc|fips(?:\s+pub)?|bcp|std)\s*\d+|sp\s*\d{3,4}-\d+)"
    r"(?:\s*,?\s*rev(?:ision)?\.?\s*\d+|r\d+)?"
)
_DESIGNATOR = re.compile(rf"(?<![\w-]){_SERIES}(?![\w-])", re.I)
# A revision alone ("we follow rev 1 of sp 800-46"), a name only beside a series'.
_REVISION = re.compile(r"(?<![\w-])rev(?:ision)?\.?\s*\d+(?![\w-])", re.I)


def _designated(typed: str) -> str:
    """A document number as titles spell it: "rfc 7230", "sp 800-46 revision 2"."""
    typed = re.sub(r"(?<=\d)r(?=\d)", " revision ", typed.casefold())  # "800-46r2"
    name = _spelled(" ".join(re.sub(r"(?<=[a-z])(?=\d)", " ", typed).split()))
    return (
        name.removeprefix("nist ").replace("fips pub ", "fips ").replace(", revision", " revision")
    )


def document_names(q: str, names: Sequence[str]) -> tuple[str, ...]:
    """``names`` (``digit_names``) with the document numbers ``q`` types spelled as
    titles spell them, and those the name runs miss added: lower case ("per rfc
    7230") or the question's first word ("FIPS 199 lists ...") hide them from the
    runs, and "RFC2616" or "FIPS PUB 199" is "rfc 2616" or "fips 199" in a title."""
    spelled = [_designated(n) if _DESIGNATOR.fullmatch(n) else n for n in names]
    found: list[str] = []
    series = [_designated(m.group()) for m in _DESIGNATOR.finditer(q)]
    revisions = [_designated(m.group()) for m in _REVISION.finditer(q)] if series else []
    for name in (*series, *revisions):
        if not any(named_in([name], n) for n in (*spelled, *found)):
            found.append(name)
    return tuple(dict.fromkeys((*spelled, *found)))


def is_document_number(name: str) -> bool:
    """True for a name (``document_names``) that is a document's number, not a version
    ("http/1.1") or a status code a title may also hold."""
    return _DESIGNATOR.fullmatch(name) is not None


def named_in(names: Sequence[str], text: str) -> list[str]:
    """The ``names`` (a question's, case-folded) that ``text`` holds as whole words.

    "FIPS 199" is in "FIPS PUB 199"'s title only when spelled alike; "Rev. 2"
    and "Revision 2" are (``spell_revisions``), "v1" and "version 1".
    """
    folded = _spelled(" ".join(text.casefold().split()))
    return [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", folded)]


def naming_stems(text: str, names: Sequence[str]) -> dict[str, set[str]]:
    """Each of ``names`` with the stems only it gives ``text`` (a question): "rfc" and
    "2616" for "Under RFC 2616, may I ...?", not a word the question also says apart."""
    folded = _spelled(" ".join(text.casefold().split()))
    for n in names:
        folded = re.sub(rf"(?<![\w-]){re.escape(n)}(?![\w-])", " ", folded)
    said = set(content_stems(folded))
    return {n: set(content_stems(n)) - said for n in names}


def documents_named(names: Sequence[str], passages: Sequence[Passage]) -> dict[int, set[str]]:
    """The passages whose document title the question names ("Revision 1", "RFC 7230"),
    each with the stems of the names its own title holds.

    A name (of ``Question.names``) names a document when its title holds it as
    whole words; "FIPS 200 or FIPS 199" gives a FIPS 199 passage the words of
    "FIPS 199" alone. Empty when the question names no document among the
    passages'.
    """
    found: dict[int, set[str]] = {}
    for p in passages:
        held = named_in(names, p.title)
        if held:
            found[p.number] = set(content_stems(" ".join(held)))
    return found
