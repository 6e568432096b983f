"""Studio actions on one document: summary, FAQ, key terms, contract breakdown.

Each action returns a typed :class:`StudioResult` whose every item is made of
sentences of the document's current version, cited as exact ``ev1:s:`` spans,
and the result passes the checks a chat answer passes (``check_grounding``
against the document's own chunks, then the support checker, failing closed)
before it is returned. The offline actions are extractive and deterministic:

- ``summary``: the most central sentence of each of the largest sections
  (centrality = idf-weighted overlap with the section's own vocabulary);
- ``faq``: a question from each section heading, answered by that section's
  most central sentence;
- ``key_terms``: definition sentences ("X means ...", "X is a ...",
  "X: ..."), the term as the label;
- ``pros_cons``: sentences that argue one way only (benefit words without
  risk words, or the reverse), labelled ``pro`` or ``con``;
- ``contract``: sentences naming parties, obligations, dates, amounts and
  termination, each labelled with what it is.

A legal-adjacent action gets :data:`LEGAL_DISCLAIMER`, appended by this code
after validation, never written by a model.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pincite.errors import InputError, NotFoundError
from pincite.ground.answer import SupportPolicy, check_support
from pincite.ground.cite import Citation, CitedAnswer, Claim, check_grounding, cite, cite_hit
from pincite.model import Chunk, Document, Hit, RetrievalResult, Version
from pincite.sentences import sentence_spans
from pincite.store.base import Store
from pincite.support.base import SupportChecker, Verdict

LEGAL_DISCLAIMER = (
    "This breakdown quotes the document and is not legal advice; "
    "have a qualified lawyer review the agreement before relying on it."
)
# Items per action: a reader scans a dozen; more reads as the document itself.
MAX_ITEMS = 12
# Sentences shorter than this are headings or list debris; longer ones, walls of text.
MIN_CHARS, MAX_CHARS = 40, 600
_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_LEADER = re.compile(r"\.{4,}|(?:\. ){4,}")  # tables of contents: "Purpose ........ 7"
_DEFINITION = re.compile(
    r"""^["“']?(?P<term>[A-Za-z][\w/\- ]{1,48}?)["”']?(?:\s*\((?P<abbr>[A-Z]{2,8})\))?
        \s*(?:,\s*)?(?:means|is\s+defined\s+as|refers\s+to|(?:is|are)\s+(?:a|an|the)\s|:\s)""",
    re.VERBOSE,
)
_NOT_TERMS = frozenset(
    [
        "this",
        "that",
        "these",
        "those",
        "it",
        "there",
        "here",
        "they",
        "we",
        "you",
        "he",
        "she",
        "each",
        "any",
        "some",
        "such",
        "all",
        "the",
        "a",
        "an",
        "one",
        "which",
        "what",
        "who",
        "if",
        "when",
        "where",
        "section",
        "table",
        "figure",
        "note",
        "see",
    ]
)
# Words that mark a sentence as arguing for (pro) or against (con) what it describes.
_PRO = re.compile(
    r"\b(?:advantages?|benefits?|beneficial|improves?|enables?|reduces? (?:cost|risk)s?|"
    r"efficien\w+|convenien\w+|flexib\w+|strength\w*|helps?)\b",
    re.I,
)
_CON = re.compile(
    r"\b(?:disadvantages?|drawbacks?|risks?|risky|threats?|vulnerab\w+|limitations?|"
    r"costly|weakness\w*|harm\w*|attacks?|compromis\w+|loss)\b",
    re.I,
)
_CONTRACT: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("party", re.compile(r"\b(?:between|by and between|parties|party)\b", re.I)),
    ("termination", re.compile(r"\bterminat\w*|\bexpir\w*", re.I)),
    (
        "amount",
        re.compile(
            r"[$€£]\s?\d|\b(?:USD|EUR|GBP)\s?\d|\b\d[\d,.]*\s?(?:USD|EUR|GBP|dollars|euros)\b", re.I
        ),
    ),
    (
        "date",
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}\b|\b(?:January|February|March|April|May|June|July|August|"
            r"September|October|November|December)\s+\d{1,2},?\s+\d{4}\b|\bwithin\s+\d+\s+days\b",
            re.I,
        ),
    ),
    ("obligation", re.compile(r"\b(?:shall|must|agrees? to|is required to)\b")),
)


class StudioAction(StrEnum):
    SUMMARY = "summary"
    FAQ = "faq"
    KEY_TERMS = "key_terms"
    PROS_CONS = "pros_cons"
    CONTRACT = "contract"

    @classmethod
    def parse(cls, value: str) -> StudioAction:
        """The action named ``value`` (``key-terms`` too); ``InputError`` lists the valid ones."""
        try:
            return cls(value.strip().lower().replace("-", "_"))
        except ValueError:
            names = ", ".join(a.value for a in cls)
            raise InputError(f"unknown studio action {value!r}; choose one of: {names}") from None

    @property
    def legal(self) -> bool:
        return self is StudioAction.CONTRACT


@dataclass(frozen=True, slots=True)
class StudioItem:
    """One cited item: ``label`` (a heading, question, term or kind) and ``text`` it rests on."""

    label: str
    text: str
    citation_ids: tuple[str, ...]
    section: tuple[str, ...]
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class StudioResult:
    action: StudioAction
    document_id: str
    title: str
    hash16: str
    items: tuple[StudioItem, ...]
    citations: tuple[Citation, ...]
    disclaimer: str = ""

    def citation(self, citation_id: str) -> Citation:
        return next(c for c in self.citations if c.citation_id == citation_id)

    def as_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.value,
            "document_id": self.document_id,
            "title": self.title,
            "hash16": self.hash16,
            "items": [
                {
                    "label": i.label,
                    "text": i.text,
                    "section": list(i.section),
                    "verdict": i.verdict.value,
                    "evidence_ids": [self.citation(c).evidence_id for c in i.citation_ids],
                }
                for i in self.items
            ],
            "disclaimer": self.disclaimer,
        }


@dataclass(frozen=True, slots=True)
class _Sentence:
    start: int
    end: int
    text: str
    hit: Hit

    @property
    def section(self) -> tuple[str, ...]:
        return self.hit.chunk.section

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)


def run_studio(
    store: Store,
    support: SupportChecker,
    document_id: str,
    action: StudioAction | str,
    *,
    tenant: str,
) -> StudioResult:
    """Run ``action`` on the current version of ``document_id`` in ``tenant``.

    Raises ``NotFoundError`` for a document that is missing, of another
    tenant or deleted, ``InputError`` for an unknown action, and a
    ``GroundingError`` if a citation or an item's support does not hold.
    """
    chosen = action if isinstance(action, StudioAction) else StudioAction.parse(action)
    document, version = _current(store, tenant, document_id)
    chunks = [c for c in store.chunks(tenant, document_id, version.content_hash) if not c.erased]
    hits = [Hit(c, document, 1.0) for c in chunks]
    now = datetime.now(UTC).isoformat(timespec="seconds")
    result = RetrievalResult(f"studio:{chosen.value}", tenant, tuple(hits), now, "document")
    retrieved = cite(result)
    sentences = _sentences(version.text, hits)
    picked = _PICKERS[chosen](sentences)
    citations: dict[str, Citation] = {}
    claims: list[Claim] = []
    for _, sentence in picked:
        c = cite_hit(sentence.hit, tenant=tenant, retrieved_at=now, span=sentence.span)
        citations[c.citation_id] = c
        claims.append(Claim(sentence.text, (c.citation_id,)))
    answer = CitedAnswer(tuple(claims), tuple(citations.values()))
    check_grounding(answer, retrieved, store=store)
    verdicts = check_support(answer, retrieved, support, SupportPolicy.REJECT) if claims else {}
    items = tuple(
        StudioItem(label, claim.text, claim.citation_ids, sentence.section, verdicts[i].verdict)
        for i, ((label, sentence), claim) in enumerate(zip(picked, claims, strict=True))
    )
    return StudioResult(
        chosen,
        document_id,
        document.title,
        version.hash16,
        items,
        answer.citations,
        LEGAL_DISCLAIMER if chosen.legal else "",
    )


def _current(store: Store, tenant: str, document_id: str) -> tuple[Document, Version]:
    document = store.find_document(tenant, document_id=document_id)
    current = store.current_hash(tenant, document_id) if document is not None else None
    version = store.version(tenant, document_id, current[:16]) if current else None
    if document is None or version is None or document.status.value != "live":
        raise NotFoundError("document", document_id)
    return document, version


def _sentences(text: str, hits: Sequence[Hit]) -> list[_Sentence]:
    """Every readable sentence of the chunks once, in document order."""
    seen: set[tuple[int, int]] = set()
    out: list[_Sentence] = []
    for hit in sorted(hits, key=lambda h: h.chunk.start):
        chunk: Chunk = hit.chunk
        for start, end in sentence_spans(text, chunk.start, chunk.end):
            body = text[start:end]
            if (start, end) in seen or not MIN_CHARS <= len(body) <= MAX_CHARS:
                continue
            if _LEADER.search(body) or len(_WORD.findall(body)) < 5:
                continue
            seen.add((start, end))
            out.append(_Sentence(start, end, body, hit))
    return out


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def _central(sentences: Sequence[_Sentence]) -> dict[tuple[str, ...], list[_Sentence]]:
    """Each top-level section's sentences, most central first."""
    groups: dict[tuple[str, ...], list[_Sentence]] = {}
    for s in sentences:
        groups.setdefault(s.section[:1], []).append(s)
    df = Counter(w for s in sentences for w in _words(s.text))
    n = len(sentences) or 1
    ranked: dict[tuple[str, ...], list[_Sentence]] = {}
    for key, members in groups.items():
        tf = Counter(w for s in members for w in _words(s.text))

        def score(s: _Sentence, tf: Counter[str] = tf) -> float:
            words = _words(s.text)
            weight = sum(math.log1p(tf[w] - 1) * math.log(n / df[w]) for w in words)
            return weight / math.sqrt(len(words) or 1)

        ranked[key] = sorted(members, key=lambda s: (-score(s), s.start))
    return ranked


def _largest(groups: dict[tuple[str, ...], list[_Sentence]]) -> list[list[_Sentence]]:
    """The ``MAX_ITEMS`` largest groups, in document order."""
    biggest = sorted(groups.values(), key=lambda g: (-len(g), min(s.start for s in g)))
    return sorted(biggest[:MAX_ITEMS], key=lambda g: min(s.start for s in g))


def _summary(sentences: Sequence[_Sentence]) -> list[tuple[str, _Sentence]]:
    groups = _largest(_central(sentences))
    # A document of few sections gets more than one sentence from each.
    each = max(1, min(3, (MAX_ITEMS // 2) // (len(groups) or 1)))
    picked = [s for g in groups for s in g[:each]]
    return [(" > ".join(s.section[:1]), s) for s in sorted(picked, key=lambda s: s.start)]


def _faq(sentences: Sequence[_Sentence]) -> list[tuple[str, _Sentence]]:
    by_heading: dict[tuple[str, ...], list[_Sentence]] = {}
    for s in sentences:
        if s.section:
            by_heading.setdefault(s.section, []).append(s)
    out = []
    for group in _largest(by_heading):
        best = next(iter(_central(group).values()))[0]
        out.append((_question(group[0].section[-1]), best))
    return out


def _question(heading: str) -> str:
    topic = re.sub(r"^[\dA-Z]{0,3}(?:\.\d+)*\.?\s+", "", heading.strip()).rstrip(":. ")
    return f"What does the document say about {topic or heading.strip()}?"


def _key_terms(sentences: Sequence[_Sentence]) -> list[tuple[str, _Sentence]]:
    out: list[tuple[str, _Sentence]] = []
    seen: set[str] = set()
    for s in sentences:
        match = _DEFINITION.match(s.text)
        if match is None:
            continue
        term = match.group("term").strip()
        if len(term.split()) > 5 or term.split()[0].casefold() in _NOT_TERMS:
            continue
        if term.casefold() in seen:
            continue
        seen.add(term.casefold())
        abbr = match.group("abbr")
        out.append((f"{term} ({abbr})" if abbr else term, s))
        if len(out) == MAX_ITEMS:
            break
    return out


def _contract(sentences: Sequence[_Sentence]) -> list[tuple[str, _Sentence]]:
    """Sentences naming what a contract turns on, each labelled with every kind it names."""
    out: list[tuple[str, _Sentence]] = []
    for s in sentences:
        kinds = [kind for kind, pattern in _CONTRACT if pattern.search(s.text)]
        if kinds:
            out.append((", ".join(kinds), s))
    # Richest first (most kinds), then the reading order of those kept.
    kept = sorted(out, key=lambda item: (-item[0].count(","), item[1].start))[:MAX_ITEMS]
    return sorted(kept, key=lambda item: item[1].start)


def _pros_cons(sentences: Sequence[_Sentence]) -> list[tuple[str, _Sentence]]:
    """Sentences arguing one way only, half pros and half cons, in reading order."""
    pros = [("pro", s) for s in sentences if _PRO.search(s.text) and not _CON.search(s.text)]
    cons = [("con", s) for s in sentences if _CON.search(s.text) and not _PRO.search(s.text)]
    half = MAX_ITEMS // 2
    return sorted(pros[:half] + cons[:half], key=lambda item: item[1].start)


_PICKERS = {
    StudioAction.SUMMARY: _summary,
    StudioAction.FAQ: _faq,
    StudioAction.KEY_TERMS: _key_terms,
    StudioAction.PROS_CONS: _pros_cons,
    StudioAction.CONTRACT: _contract,
}
