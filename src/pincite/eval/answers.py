"""`pincite eval answers`: does the cited span hold the answer, and are unanswerables refused?

SQuAD 2.0 dev: every paragraph is ingested as a document (title = article).
For answerable questions we count answers whose cited spans contain a gold
answer text; for unanswerable ones, the refusal rate. Articles 0-9 are a
calibration slice (the extractive threshold is chosen there) and are never
in the reported numbers.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from pincite._open import open as open_corpus
from pincite.answer.pipeline import answer_question, passages_for
from pincite.corpus import Corpus
from pincite.embed.base import Embedder
from pincite.eval.squad import SquadQuestion, load_squad
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator
from pincite.ground.cite import cite
from pincite.ground.fetch import fetch_evidence

TENANT = "squad"
CALIBRATION_ARTICLES = range(0, 10)


@dataclass(frozen=True, slots=True)
class AnswerReport:
    answerable: int
    unanswerable: int
    answered_with_gold: int
    answered: int
    refused_unanswerable: int
    threshold: float
    latency_p50_ms: float

    @property
    def gold_in_cited_span(self) -> float:
        """Share of answerable questions whose answer cites a span containing gold text."""
        return self.answered_with_gold / max(self.answerable, 1)

    @property
    def precision_when_answered(self) -> float:
        return self.answered_with_gold / max(self.answered, 1)

    @property
    def refusal_rate(self) -> float:
        return self.refused_unanswerable / max(self.unanswerable, 1)

    def as_dict(self) -> dict[str, float | int]:
        return {
            "answerable": self.answerable,
            "unanswerable": self.unanswerable,
            "gold_in_cited_span": round(self.gold_in_cited_span, 4),
            "precision_when_answered": round(self.precision_when_answered, 4),
            "refusal_rate_unanswerable": round(self.refusal_rate, 4),
            "threshold": self.threshold,
            "latency_p50_ms": round(self.latency_p50_ms, 1),
        }

    def as_table(self) -> str:
        d = self.as_dict()
        return "\n".join(f"{k:<28} {v}" for k, v in d.items())


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _contains_gold(texts: list[str], q: SquadQuestion) -> bool:
    joined = [_norm(t) for t in texts]
    return any(_norm(a.text) in t for a in q.answers for t in joined)


def build_store(corpus: Corpus, path: Path, progress: Callable[[int, int], None] | None) -> None:
    data = load_squad(path)
    paragraphs = list(data.paragraphs())
    if len(corpus.documents(tenant=TENANT)) == len(paragraphs):
        return
    for i, p in enumerate(paragraphs):
        corpus.ingest_text(p.context, uri=f"squad://{p.id}", tenant=TENANT, title=p.title)
        if progress:
            progress(i + 1, len(paragraphs))


def _questions(path: Path, articles: range | None, limit: int, seed: int) -> list[SquadQuestion]:
    data = load_squad(path)
    chosen = [
        q
        for i, a in enumerate(data.articles)
        if (i in articles if articles is not None else i not in CALIBRATION_ARTICLES)
        for p in a.paragraphs
        for q in p.questions
    ]
    rng = random.Random(seed)
    pos = [q for q in chosen if not q.is_impossible]
    neg = [q for q in chosen if q.is_impossible]
    rng.shuffle(pos)
    rng.shuffle(neg)
    return pos[: limit // 2] + neg[: limit // 2]


def run_answer_eval(
    path: Path,
    *,
    db: str | None = None,
    embedder: Embedder | str | None = "default",
    limit: int = 400,
    seed: int = 13,
    threshold: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> AnswerReport:
    """Run the full answer path (retrieve → extractive → check) on held-out questions."""
    with open_corpus(db or ":memory:", embedder=embedder) as corpus:
        build_store(corpus, path, progress)
        config = ExtractiveConfig()
        if threshold is not None:
            config = replace(config, threshold=threshold, threshold_lexical=threshold)
        generator = ExtractiveGenerator(corpus.embedder, config)
        questions = _questions(path, None, limit, seed)
        counts = {"gold": 0, "answered": 0, "refused_neg": 0}
        latencies = []
        for q in questions:
            t0 = time.perf_counter()
            result = answer_question(corpus, q.question, generator, tenant=TENANT)
            latencies.append((time.perf_counter() - t0) * 1000)
            if q.is_impossible:
                counts["refused_neg"] += result.refused
                continue
            if result.answer is None:
                continue
            counts["answered"] += 1
            outcomes = fetch_evidence(
                corpus.store, [c.evidence_id for c in result.answer.citations], tenant=TENANT
            )
            counts["gold"] += _contains_gold([o.text for o in outcomes], q)
        n_pos = sum(not q.is_impossible for q in questions)
        return AnswerReport(
            answerable=n_pos,
            unanswerable=len(questions) - n_pos,
            answered_with_gold=counts["gold"],
            answered=counts["answered"],
            refused_unanswerable=counts["refused_neg"],
            threshold=generator.threshold,
            latency_p50_ms=statistics.median(latencies) if latencies else 0.0,
        )


def calibrate_threshold(
    path: Path,
    *,
    db: str | None = None,
    embedder: Embedder | str | None = "default",
    limit: int = 400,
    seed: int = 7,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[float, list[tuple[float, float, float]]]:
    """Pick the threshold where gold-hit rate and refusal rate meet, on articles 0-9.

    The two rates trade one for one over a wide, flat range, so the crossing
    point (the equal-error rate) is the stable choice; ties go to the higher mean.

    Returns the threshold and the sweep ``(threshold, gold_rate, refusal_rate)``.
    """
    with open_corpus(db or ":memory:", embedder=embedder) as corpus:
        build_store(corpus, path, progress)
        # No threshold: every question gets the claims it would get if answered.
        config = ExtractiveConfig(threshold=-1.0, threshold_lexical=-1.0)
        generator = ExtractiveGenerator(corpus.embedder, config)
        rows: list[tuple[bool, float, bool]] = []  # (answerable, score, gold in the claims)
        for q in _questions(path, CALIBRATION_ARTICLES, limit, seed):
            result = corpus.retrieve(q.question, tenant=TENANT, k=6)
            if not result.hits:
                rows.append((not q.is_impossible, -1.0, False))
                continue
            passages = passages_for(cite(result))
            score, _ = generator.assess(q.question, passages)
            claims = [c.text for c in generator.generate(q.question, passages).claims]
            rows.append((not q.is_impossible, score, _contains_gold(claims, q)))
    sweep = []
    for t in [x / 100 for x in range(20, 81, 2)]:
        pos = [r for r in rows if r[0]]
        neg = [r for r in rows if not r[0]]
        gold = sum(r[1] >= t and r[2] for r in pos) / max(len(pos), 1)
        refused = sum(r[1] < t for r in neg) / max(len(neg), 1)
        sweep.append((t, gold, refused))
    best_t = min(sweep, key=lambda s: (round(abs(s[1] - s[2]), 2), -(s[1] + s[2])))[0]
    return best_t, sweep
