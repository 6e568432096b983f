"""The offline actions: which sentences of a version make each item (deterministic)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pincite.model import Chunk, Hit
from pincite.sentences import sentence_spans
from pincite.studio.types import StudioAction

# Items per action: a reader scans a dozen; more reads as the document itself.
MAX_ITEMS = 12
# A summary point sharing more of its words than this with one already taken
# repeats it (boilerplate, repeated notices) and is skipped.
NEAR_DUPLICATE = 0.5
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


def sentences_of(text: str, hits: Sequence[Hit]) -> list[_Sentence]:
    """Every readable sentence of the chunks once, in document order."""
    seen: set[tuple[int, int]] = set()
    out: list[_Sentence] = []
    for hit in sorted(hits, key=lambda h: h.chunk.start):
        chunk: Chunk = hit.chunk
        for start, end in sentence_spans(text, chunk.start, chunk.end):
            body = text[start:end]
            if (start, end) in seen or not MIN_CHARS <= len(body) <= MAX_CHARS:
                continue
            # A lower-case start is the tail of a sentence cut by a page or table break.
            if body[0].islower() or _LEADER.search(body) or len(_WORD.findall(body)) < 5:
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
    picked: list[_Sentence] = []
    for group in groups:
        taken = 0
        for s in group:
            if taken == each:
                break
            if all(_overlap(s, p) < NEAR_DUPLICATE for p in picked):
                picked.append(s)
                taken += 1
    return [(" > ".join(s.section[:1]), s) for s in sorted(picked, key=lambda s: s.start)]


def _overlap(a: _Sentence, b: _Sentence) -> float:
    """Jaccard overlap of two sentences' words."""
    wa, wb = _words(a.text), _words(b.text)
    return len(wa & wb) / (len(wa | wb) or 1)


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


PICKERS = {
    StudioAction.SUMMARY: _summary,
    StudioAction.FAQ: _faq,
    StudioAction.KEY_TERMS: _key_terms,
    StudioAction.PROS_CONS: _pros_cons,
    StudioAction.CONTRACT: _contract,
}
