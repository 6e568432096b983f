"""Pure pieces of `pincite eval qa`: the QUESTIONS.jsonl row, span matching, the summary.

Measures follow the RAG evaluation practice of ../shared/reference/004 (recall@k
per retrieval mode, claim attributability, refusal on unanswerable questions,
latency per stage). Nothing here touches a store.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pincite.errors import InputError

KINDS = ("definition", "list", "number", "condition", "procedure", "other")
KS = (1, 3, 5, 10)
STAGES = ("embed", "retrieve", "generate", "check", "total")
VERDICTS = ("supported", "partial", "unsupported", "unchecked")


@dataclass(frozen=True, slots=True)
class QAQuestion:
    """One line of QUESTIONS.jsonl (format in data/qa/README.md)."""

    id: str
    question: str
    answerable: bool
    gold_passages: tuple[str, ...] = ()
    gold_answer: str = ""
    # The documents (uri or its last path segment) the gold passages are
    # searched in; empty means every document. Several when the same fact is
    # stated by more than one document (a standard and its successor).
    documents: tuple[str, ...] = ()
    kind: str = "other"


def parse_question(row: object, where: str) -> QAQuestion:
    """Check one decoded JSON line; ``where`` names it in the one-line error."""
    if not isinstance(row, dict):
        raise InputError(f"{where}: expected a JSON object")
    for key, kind in (("id", str), ("question", str), ("answerable", bool)):
        if not isinstance(row.get(key), kind):
            raise InputError(f"{where}: {key!r} must be a {kind.__name__}")
    passages = row.get("gold_passages", [])
    if not isinstance(passages, list) or not all(isinstance(p, str) and p for p in passages):
        raise InputError(f"{where}: 'gold_passages' must be a list of non-empty strings")
    answer = row.get("gold_answer", "")
    document = row.get("document")
    kind = row.get("kind", "other")
    if not isinstance(answer, str):
        raise InputError(f"{where}: 'gold_answer' must be a string")
    if isinstance(document, str):
        document = [document]
    if document is not None and not (
        isinstance(document, list) and document and all(isinstance(d, str) and d for d in document)
    ):
        raise InputError(f"{where}: 'document' must be a string or a list of non-empty strings")
    if kind not in KINDS:
        raise InputError(f"{where}: 'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
    if row["answerable"] and not passages:
        raise InputError(f"{where}: an answerable question needs 'gold_passages'")
    if not row["answerable"] and (passages or answer):
        raise InputError(f"{where}: an unanswerable question has no gold passages or answer")
    if not row["question"].strip():
        raise InputError(f"{where}: 'question' is empty")
    return QAQuestion(
        row["id"],
        row["question"],
        row["answerable"],
        tuple(passages),
        answer,
        tuple(dict.fromkeys(document or ())),
        kind,
    )


def normalize(text: str) -> str:
    """Case-folded, whitespace runs collapsed: PDF line breaks do not hide an answer."""
    return " ".join(text.casefold().split())


def contains_answer(texts: Iterable[str], answer: str) -> bool:
    needle = normalize(answer)
    return bool(needle) and any(needle in normalize(t) for t in texts)


@dataclass(frozen=True, slots=True)
class Located:
    """A span of one stored version: (document id, content hash, start, end)."""

    document_id: str
    content_hash: str
    start: int
    end: int


def occurrences(text: str, passage: str) -> list[tuple[int, int]]:
    """Every (start, end) where ``passage`` occurs in ``text`` (overlapping ones too)."""
    found = []
    i = text.find(passage)
    while i >= 0:
        found.append((i, i + len(passage)))
        i = text.find(passage, i + 1)
    return found


def overlaps(span: Located, gold: Sequence[Located]) -> bool:
    """Same version and at least one shared character (end exclusive)."""
    return any(
        span.document_id == g.document_id
        and span.content_hash == g.content_hash
        and span.start < g.end
        and g.start < span.end
        for g in gold
    )


def first_relevant_rank(hits: Sequence[Located], gold: Sequence[Located]) -> int | None:
    """1-based rank of the first hit that overlaps gold evidence, or None."""
    for rank, hit in enumerate(hits, start=1):
        if overlaps(hit, gold):
            return rank
    return None


def recall_at(ranks: Sequence[int | None], k: int) -> float:
    """Share of questions whose first relevant hit is within the top ``k``."""
    if not ranks:
        return 0.0
    return sum(r is not None and r <= k for r in ranks) / len(ranks)


def percentile(values: Sequence[float], p: float) -> float:
    """Linear-interpolated percentile (numpy's default method); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * p / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def merge_spans(spans: Iterable[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Join spans of one text that touch or are separated only by whitespace.

    Citations are narrowed to sentences; an answer that runs over two adjacent
    cited sentences is still inside the cited text.
    """
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and not text[merged[-1][1] : start].strip():
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


@dataclass(frozen=True, slots=True)
class QuestionOutcome:
    """What happened to one question; the summary is computed from these alone."""

    id: str
    kind: str
    answerable: bool
    ranks: Mapping[str, int | None] = field(default_factory=dict)
    answered: bool = False
    cited_gold: bool = False
    answer_in_cited: bool = False
    verdicts: tuple[str, ...] = ()
    score: float | None = None
    timings_ms: Mapping[str, float] = field(default_factory=dict)
    gold_found: bool = True
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "answerable": self.answerable,
            "ranks": dict(self.ranks),
            "answered": self.answered,
            "cited_gold": self.cited_gold,
            "answer_in_cited": self.answer_in_cited,
            "verdicts": list(self.verdicts),
            "score": self.score,
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
            "gold_found": self.gold_found,
            "message": self.message,
        }


def _rate(num: int, den: int) -> float | None:
    """None when nothing was measured: no unanswerable questions is not 0 % refused."""
    return round(num / den, 4) if den else None


def _answer_block(outcomes: Sequence[QuestionOutcome]) -> dict[str, Any]:
    pos = [o for o in outcomes if o.answerable]
    neg = [o for o in outcomes if not o.answerable]
    answered = [o for o in pos if o.answered]
    return {
        "answerable": len(pos),
        "unanswerable": len(neg),
        "answered": _rate(len(answered), len(pos)),
        "cited_gold": _rate(sum(o.cited_gold for o in pos), len(pos)),
        "answer_in_cited": _rate(sum(o.answer_in_cited for o in pos), len(pos)),
        "precision_when_answered": _rate(sum(o.cited_gold for o in answered), len(answered)),
        "refusal_recall": _rate(sum(not o.answered for o in neg), len(neg)),
    }


def summarize(outcomes: Sequence[QuestionOutcome], modes: Sequence[str]) -> dict[str, Any]:
    """The report: every figure ``pincite eval qa`` prints, as plain data.

    Rates over answerable questions count a refusal as a miss; ``refusal_recall``
    is the share of unanswerable questions refused. Attributability is over every
    claim of every answer (the support checker's verdicts). A rate with nothing
    to count is None.
    """
    pos = [o for o in outcomes if o.answerable]
    retrieval = {
        mode: {f"recall@{k}": round(recall_at([o.ranks.get(mode) for o in pos], k), 4) for k in KS}
        for mode in modes
    }
    verdicts = [v for o in outcomes if o.answered for v in o.verdicts]
    attributability = {v: _rate(sum(x == v for x in verdicts), len(verdicts)) for v in VERDICTS}
    latency = {
        stage: {
            "p50_ms": round(
                percentile([o.timings_ms[stage] for o in outcomes if stage in o.timings_ms], 50), 1
            ),
            "p95_ms": round(
                percentile([o.timings_ms[stage] for o in outcomes if stage in o.timings_ms], 95), 1
            ),
        }
        for stage in STAGES
    }
    by_kind = {
        kind: _answer_block([o for o in outcomes if o.kind == kind])
        for kind in KINDS
        if any(o.kind == kind for o in outcomes)
    }
    return {
        "questions": len(outcomes),
        "answers": _answer_block(outcomes),
        "retrieval": retrieval,
        "claims": len(verdicts),
        "attributability": attributability,
        "latency": latency,
        "by_kind": by_kind,
        "gold_not_found": [o.id for o in outcomes if o.answerable and not o.gold_found],
    }


def tradeoff(
    outcomes: Sequence[QuestionOutcome], thresholds: Sequence[float]
) -> list[tuple[float, float, float]]:
    """Coverage against refusal if answers below a score threshold were also refused.

    For each threshold ``t``: (t, share of answerable questions answered with a
    citation on gold evidence and score >= t, share of unanswerable questions
    refused or scored < t). A question without a score counts as below every
    threshold.
    """

    def kept(o: QuestionOutcome, t: float) -> bool:
        return o.answered and o.score is not None and o.score >= t

    pos = [o for o in outcomes if o.answerable]
    neg = [o for o in outcomes if not o.answerable]
    return [
        (
            t,
            sum(kept(o, t) and o.cited_gold for o in pos) / max(len(pos), 1),
            sum(not kept(o, t) for o in neg) / max(len(neg), 1),
        )
        for t in thresholds
    ]


# Issue 12's floor: the share of unanswerable questions an answerer must refuse.
REFUSAL_FLOOR = 0.8


def refusal_threshold(
    outcomes: Sequence[QuestionOutcome], floor: float = REFUSAL_FLOOR
) -> float | None:
    """The smallest two-decimal threshold that refuses ``floor`` of the unanswerable questions.

    ``outcomes`` are answers given with no threshold (each with its score);
    an unanswerable question counts as refused when it was refused anyway or
    its score falls below the threshold, as in :func:`tradeoff`. This is how
    the extractive answerer's shipped threshold is chosen, on a dev split.
    ``None`` when there are no unanswerable questions, or enough are refused
    whatever the threshold.
    """
    neg = [o for o in outcomes if not o.answerable]
    if not neg:
        return None
    need = math.ceil(floor * len(neg) - 1e-9)
    scored = sorted(o.score for o in neg if o.answered and o.score is not None)
    must_drop = need - (len(neg) - len(scored))
    if must_drop <= 0:
        return None  # refused often enough without any threshold
    # Refuse the ``must_drop`` lowest-scored answers: the threshold lies just above the last.
    return (math.floor(scored[must_drop - 1] * 100 + 1e-9) + 1) / 100
