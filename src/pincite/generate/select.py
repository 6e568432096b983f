"""Candidate answers from the passages' own characters, scored for one question.

A candidate is one or more contiguous pieces of passage text: a statement, a
definition with its label ("Rapid elasticity. Capabilities can be ..."), the
first sentences under a heading that names the question's term, or a list
item. A piece never starts or ends inside a sentence the passage holds whole,
and a piece that runs off the end of its passage may continue into the
passage that follows it in the same document version (the next chunk).

Scores combine what the sentence says (idf-weighted coverage of the
question's words, cosine to the question) with where it sits (under a
heading or label that names the asked-about term, the first thing said there)
and with cues of the question's kind (a number for a limit question).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pincite.generate.acronym_list import acronym_entry
from pincite.generate.acronyms import acronyms
from pincite.generate.answer_types import asked_type, names_quoted, quoted_phrases
from pincite.generate.base import Passage
from pincite.generate.cues import counts_asked, kind_cue, speaks_as_authors
from pincite.generate.defining import about, defines
from pincite.generate.deontic import obligations
from pincite.generate.elsewhere import asks_where, sends_elsewhere
from pincite.generate.faq import restates, turned_round
from pincite.generate.joins import CLAIMABLE, continues, finishes_previous, runs_into_next
from pincite.generate.layout import Role, Unit, layout
from pincite.generate.lists import run
from pincite.generate.names import documents_named, is_document_number, named_in, naming_stems
from pincite.generate.pointers import indent_of, past_the_turn, pointed_at, qualified
from pincite.generate.pool import Piece, Pool, adjacent, ends_sentence, resume
from pincite.generate.question import Question, QuestionKind
from pincite.generate.records import record_line
from pincite.generate.resources import asks_resource, resource_entries
from pincite.generate.scope import asks_scope, describes_itself
from pincite.generate.scoring import Scoring
from pincite.generate.tables import names_row, table_values
from pincite.generate.words import compounds, content_stems, joined_pairs, negated

__all__ = ["Candidate", "Scoring", "candidates"]

Embed = Callable[[list[str]], np.ndarray]


@dataclass(frozen=True, slots=True)
class Candidate:
    pieces: tuple[Piece, ...]
    score: float
    base: float
    definition: float
    cue: float
    role: Role

    @property
    def passage(self) -> Passage:
        return self.pieces[0][0]

    @property
    def text(self) -> str:
        return " ".join(" ".join(p.text[s:e].split()) for p, s, e in self.pieces)


_FOOTNOTE_NUMBER = re.compile(r"\d{1,2}\s+")
# "Note: The existence of the 503 status code does not imply ...": an aside about a
# term, not what the term means.
_ASIDE = re.compile(r"(?:Note|NOTE|Notes|Aside|Example|e\.g\.)\s*[:-]")
_WORD = re.compile(r"\w+")
_TWO_TERMS = re.compile(r"\b(?:and|or)\b|,")
# An entry of a contract's definitions: '"Customer Data" means ...', '“Term” shall mean ...'.
_NEXT_ENTRY = re.compile(
    r"[\"“‘'][^\"”’']{1,60}[\"”’']\s+(?:means|shall\s+mean|is\s+defined\s+as|refers\s+to)\b"
)
# Kinds a lead-in's items answer: conditions, steps, reasons, members of a list.
# "Where should servers be placed?" is no request for "The value of placing the
# server ... differs for the four types of remote access methods:" and its items.
_RUN_KINDS = frozenset(
    {QuestionKind.LIST, QuestionKind.CONDITION, QuestionKind.PROCEDURE, QuestionKind.REASON}
)
# An FAQ's reply opening the sentence after it, on the same line.
_REPLY = re.compile(r"(?:Yes|No)\.[ \t]+", re.I)
# "No provision is provided under FISMA for waivers", "available to contractors with a
# sponsor", "Primary carers with at least 26 weeks of service receive 20 weeks at full
# pay": a denial, whom a thing is open to, or the condition it is given on answers a
# yes/no question.
_SAYS_WHETHER = re.compile(
    r"\b(?:no|none|nothing|neither|nor|available|eligible|entitled|exempt|except|unless|"
    r"applies|apply|if|provided|at\s+(?:least|most)|(?:more|less|fewer)\s+than|as\s+long\s+as)\b",
    re.I,
)
# A body this short says nothing without the heading above it.
_SHORT_BODY = 5
# A sentence that opens with its verb has the heading above it for subject: "111
# Revalidation failed\n  MUST be included if a cache returns a stale response ...".
_SUBJECTLESS = re.compile(r"(?:MUST|SHOULD|SHALL|MAY|REQUIRED|RECOMMENDED)\b")
_SUBJECT_WORDS = 8


def candidates(
    question: Question,
    passages: Sequence[Passage],
    scoring: Scoring,
    embed: Embed | None,
) -> list[Candidate]:
    """Every claimable piece of the passages, best first."""
    pool = Pool(question, passages)
    # (claim pieces, pieces the score reads, title words, definition, role)
    drafts: list[tuple[tuple[Piece, ...], tuple[Piece, ...], set[str], float, Role]] = []
    subjects: dict[int, set[str]] = {}  # a record's own words beyond its text (``record_line``)
    # A claim of one sentence and what leans back on it: the kind's cue may lie in
    # either ("Such placement is common because ..."); what the second says.
    turns: dict[int, str] = {}
    resources = asks_resource(question)
    for p in pool.passages:
        units = pool.units[p.number]
        stated = table_values(p, units)  # the figures its tables state (``bands``)
        section = set(content_stems(" ".join(p.section)))
        # Asked which resource a guide lists, a table's entry is quoted by its title.
        for listed in resource_entries(p) if resources else ():
            drafts.append((listed, listed, section, 0.0, Role.ITEM))
        for i, u in enumerate(units):
            title = set(content_stems(u.title)) | section
            if u.role is Role.LEADIN:
                leadin_run = run(p, units, i, pool, scoring.run_items)
                if leadin_run:
                    # The lead-in is its items' title: "The potential impact is LOW if—".
                    titled = 0.0
                    if question.kind in _RUN_KINDS:
                        lead = p.text[u.start : u.end]
                        titled = scoring.heading_weight * about(question, pool, p, lead, scoring)
                    drafts.append((leadin_run, leadin_run, title, titled, Role.ITEM))
                continue
            # Asked what an acronym stands for, its list's line is its whole definition.
            entry = acronym_entry(question, p, units, i)
            if entry is not None:
                drafts.append((entry, entry, title, 1.0, u.role))
                continue
            record = record_line(question, p, units, i, stated)
            if record is not None:
                # A cover page's line is about its document: the title says whose date it is.
                subjects[len(drafts)] = set(content_stems(p.title))
                # A row whose key the question names is that entry of the table.
                head = record[0]
                keyed = u.row and names_row(
                    question,
                    p.text[u.start : u.end],
                    head[0].text[head[1] : head[2]],
                    stated,
                )
                drafts.append((record, record, title, scoring.pattern_share * keyed, u.role))
                continue
            claimed: Role = u.role
            if claimed not in CLAIMABLE:
                if not runs_into_next(p, units, i, pool.passages):
                    continue
                claimed = Role.STATEMENT  # the first half of a sentence the next chunk finishes
            elif i == 0 and finishes_previous(p, pool.passages):
                continue  # "SHOULD assume ...": quoted with its start, from the chunk before
            definition = defines(question, pool, p, units, u, scoring)
            if definition and not _says_yes_or_no(question, p.text[u.start : u.end], u.title):
                definition = 0.0
            # A definition, and a step of a procedure, often needs the sentence after it.
            runs_on = (definition > 0 and u.first) or question.kind is QuestionKind.PROCEDURE
            pieces, scored, turned = _pieces(question, p, units, i, pool.passages, scoring, runs_on)
            if turned:
                turns[len(drafts)] = turned
            drafts.append((pieces, scored, title, definition, claimed))
    if not drafts or not question.stems:
        return []
    names = documents_named(question.names, pool.passages)
    named = frozenset(names)
    # "Under RFC 2616, may I ...?": a sentence's "RFC 1945" is no match for the name; the
    # named document's own sentences hold it through their title.
    name_only = naming_stems(
        question.text,
        [
            n
            for n in question.names
            if is_document_number(n) and any(named_in([n], p.title) for p in pool.passages)
        ],
    )
    texts = [" ".join(" ".join(p.text[s:e].split()) for p, s, e in d[1]) for d in drafts]
    cos = embed(texts) if embed is not None else None
    q_set = set(question.stems)
    absent = frozenset(q_set - pool.present)
    asked = {w.casefold() for w in _WORD.findall(question.text)}
    scope_asked = asks_scope(question)
    joined = joined_pairs(question.text)
    # A code, a control, examples, uses, a difference or a purpose asked for are a type
    # of answer, as a date or an amount is.
    typed = question.expects is not None or asked_type(question) is not None
    # A phrase the question quotes, when some sentence names it: scare quotes, or a
    # message no passage repeats, mark no candidate down (the refusal threshold would
    # read that as weaker evidence).
    quoted = quoted_phrases(question)
    naming = [names_quoted(t, quoted) for t in texts] if quoted else []
    quoted = quoted if any(naming) else ()
    # Asked for a source, a pointer to one is what is asked for.
    elsewhere = not asks_where(question.text) and asked_type(question) != "source"
    # "How does SP 800-145 define a cloud broker?" when no passage says "broker": no
    # sentence can define the term, only one spelling it some other way. (Not two
    # terms asked at once: "cloud broker and cloud carrier".)
    term = set(question.focus) & set(question.stems)
    unnamed_term = (
        question.kind is QuestionKind.DEFINITION
        and not _TWO_TERMS.search(question.term)
        and bool(term - pool.present)
    )
    result = []
    for j, ((pieces, _, title, definition, role), text) in enumerate(
        zip(drafts, texts, strict=True)
    ):
        own = set(content_stems(text)) | subjects.get(j, set())
        own |= compounds(text, q_set - own)
        own |= {s for word, parts in joined if word in own for s in parts} & q_set
        own |= acronyms(question.text, text, q_set - own, absent)
        own |= obligations(text, q_set - own)
        own |= negated(question.text, text, q_set - own)
        for name, stems in name_only.items():
            if stems & own and not named_in([name], text):
                own -= stems
        # "Can an agency ... beyond the FIPS 199 categories?": a sentence of FIPS 199
        # need not repeat its document's name to answer what is asked of it.
        title = title | names.get(pieces[0][0].number, set())
        inside = pool.match(question.stems, own)
        around = pool.match(question.stems, own | title) - inside
        novelty = min(1.0, len(own - q_set) / scoring.novel_words)
        # Under a heading naming the term it defines, the heading is the sentence's subject.
        defining = definition > 0 and question.kind is QuestionKind.DEFINITION
        share = 1.0 if defining else scoring.title_share
        coverage = (inside + share * around) * (
            1 - scoring.novelty_weight + scoring.novelty_weight * novelty
        )
        if cos is not None:
            w = scoring.coverage_weight
            base = w * coverage + (1 - w) * float(cos[j])
        else:
            base = coverage
        if not scope_asked and describes_itself(text):
            # Its words are the questions' its document answers, its answers none.
            base *= scoring.self_description_factor
            definition = 0.0
        said = text
        # Not a count or an amount: "They are reviewed every 30 days." says nothing of
        # how long what the claim names is kept.
        if j in turns and question.kind is not QuestionKind.NUMBER and not question.expects:
            said = f"{text} {turns[j]}"
        cue = 1.0 if kind_cue(question, said, asked) else 0.0
        score = base + scoring.definition_bonus * definition + scoring.cue_bonus * cue
        if counts_asked(question, text):
            score += scoring.definition_bonus * scoring.count_share
        if typed and not cue:
            score -= scoring.type_penalty
        if quoted and not definition and not naming[j]:
            # A heading or label naming the phrase says it for the sentence under it.
            score -= scoring.type_penalty
        if unnamed_term and not term <= own:
            score -= scoring.type_penalty
        if speaks_as_authors(question, text):
            score += scoring.authors_bonus
        if question.kind is QuestionKind.DEFINITION and _ASIDE.match(text):
            score *= scoring.aside_factor
        if named and pieces[0][0].number not in named:
            score *= scoring.other_document
        if elsewhere and sends_elsewhere(text):
            score *= scoring.elsewhere_factor
        result.append(Candidate(pieces, score, base, definition, cue, role))
    # Earlier passages ranked higher in retrieval: break ties toward them.
    return sorted(result, key=lambda c: (-c.score, c.passage.number, c.pieces[0][1]))


def _says_yes_or_no(question: Question, sentence: str, title: str) -> bool:
    """False for a definition that cannot answer a yes/no question: "can the proxy trim
    the Allow header's methods?" is answered by a rule ("A proxy MUST NOT modify the
    Allow header field"), not by what the header is, which permits, requires or
    denies nothing. An FAQ's question heading still titles its reply."""
    if not question.whether or question.kind is not QuestionKind.OTHER:
        return True
    sentence = " ".join(sentence.split())
    return (
        title.rstrip().endswith("?")
        or _SAYS_WHETHER.search(sentence) is not None
        or kind_cue(question, sentence, set())
    )


def _pieces(
    question: Question,
    p: Passage,
    units: list[Unit],
    i: int,
    passages: Sequence[Passage],
    scoring: Scoring,
    runs_on: bool,
) -> tuple[tuple[Piece, ...], tuple[Piece, ...], str]:
    """The pieces a claim quotes, the pieces its score reads, and, for a claim of one
    sentence and the sentence after it that leans back on it, what that sentence says
    past its opening (``past_the_turn``; "" for any other claim).

    With ``runs_on`` (a definition, a procedure's step) the claim runs on to
    the sentences that complete it within its paragraph, but is scored on its
    first sentence alone, so a vacuous definition ("X is an evolving
    paradigm.") gains nothing from the sentence after it.
    """
    u = units[i]
    start, end = u.start, u.end
    label = u.title_index is not None and u.first and units[u.title_index].role is Role.LABEL
    if label and u.title_index == i - 1:
        start = units[i - 1].start  # "Rapid elasticity. Capabilities can be ..."
    elif u.first and u.title_index == i - 1 and len(p.text[start:end].split()) < _SHORT_BODY:
        start = units[i - 1].start  # "4. Approving Authority.\n\nSecretary of Commerce."
    elif (
        u.first
        and u.title_index == i - 1
        and _SUBJECTLESS.match(p.text, start)
        and len(p.text[units[i - 1].start : units[i - 1].end].split()) <= _SUBJECT_WORDS
    ):
        start = units[i - 1].start
    elif i > 0 and _REPLY.fullmatch(p.text, units[i - 1].start, u.start) and _asked(question, u):
        start = units[i - 1].start  # "No. Only company-managed devices may connect ..."
    elif u.role is Role.FOOTNOTE:
        # "6 The Office of ...": the footnote's number is the page's, not the claim's.
        start += _FOOTNOTE_NUMBER.match(p.text, start).end() - start  # type: ignore[union-attr]
    walked = False  # the claim starts at a sentence the first one points back at
    if u.role is Role.STATEMENT:
        at = pointed_at(p, units, i, start)
        walked, start = at != start, at
    pieces: list[Piece] = [(p, start, end)]
    k = resume(p, units, i, pieces)  # the last unit quoted
    sentence = tuple(pieces)  # the first sentence, whole
    if runs_on and u.role is Role.STATEMENT:
        added = 0
        while k + 1 < len(units) and added + 1 < scoring.definition_sentences:
            nxt = units[k + 1]
            if nxt.role is not Role.STATEMENT or "\n\n" in p.text[pieces[-1][2] : nxt.start]:
                break
            if _NEXT_ENTRY.match(p.text, nxt.start):
                break  # '"Service Level" means ...': the next entry of a list of definitions
            pieces[-1] = (p, pieces[-1][1], nxt.end)
            k, added = k + 1, added + 1
        if added:
            k = resume(p, units, k, pieces)
    # The claim is its sentence and one leaning on it ("Such placement is common
    # because ..."), whose words past its opening may say the kind of answer asked for.
    turned = ""
    if u.role in (Role.STATEMENT, Role.ITEM):
        # What turns a claim round ("However, ...") is always quoted with it; what
        # only points back at it ("This allows ..."), after a single sentence. A list
        # item takes only what turns it, within the item: "This applies to all staff"
        # after a list may speak of the whole list.
        item = u.role is Role.ITEM
        alone = not walked and tuple(pieces) == sentence and not item
        indent = indent_of(p.text, u.start) if item else None
        k, leaning = qualified(
            p, units, k, pieces, scoring.leaning_sentences, pronouns=alone, indent=indent
        )
        if alone and leaning is not None:
            turned = past_the_turn(p.text[units[leaning].start : units[leaning].end])
    ran_on = tuple(pieces) != sentence
    end = pieces[-1][2]
    # The last unit that is no page furniture: a chunk may end with a footer and header.
    last = next((x.end for x in reversed(units) if x.role is not Role.FURNITURE), 0)
    if end >= last and not ends_sentence(p.text[start:end]):
        nxt_p = adjacent(p, passages)
        if nxt_p is not None:
            follow = layout(nxt_p.text, nxt_p.title)
            # Not a heading, a list item, a page number or a footnote: "- Upgrades not
            # approved in advance" ends its list where "## Definitions" opens the next chunk.
            if follow and continues(p.text[start:end], nxt_p, follow[0], item=u.role is Role.ITEM):
                pieces.append((nxt_p, follow[0].start, follow[0].end))
    return tuple(pieces), (sentence if ran_on else tuple(pieces)), turned


def _asked(question: Question, u: Unit) -> bool:
    """True when the heading ``u`` sits under asks the question itself: its "No." answers it."""
    stems = set(question.stems)
    return restates(u.title, question.text, stems) and not turned_round(
        u.title, question.text, stems
    )
