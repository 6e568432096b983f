"""`pincite eval qa`: run a QUESTIONS.jsonl file against the user's own store.

For each question: where its gold passages sit in the stored text, the rank of
the first retrieved passage that overlaps them for each search mode, then the
full answer path (the same one `pincite ask` runs, with whichever generator was
chosen), timed per stage. The figures come from :mod:`pincite.eval.qa_metrics`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pincite.answer.calibration import calibrated
from pincite.answer.pipeline import SupportPolicy, answer_question
from pincite.embed.base import Embedder
from pincite.errors import InputError
from pincite.eval.qa_locate import StoredTexts, cited_spans, retrieved_spans
from pincite.eval.qa_metrics import (
    KS,
    STAGES,
    QAQuestion,
    QuestionOutcome,
    contains_answer,
    first_relevant_rank,
    overlaps,
    parse_question,
    refusal_threshold,
    summarize,
    tradeoff,
)
from pincite.eval.qa_timing import Clock, TimedEmbedder, TimedGenerator, TimedSource
from pincite.generate.base import Generator, Passage
from pincite.generate.extractive import ExtractiveGenerator
from pincite.retrieve.search import SearchMode, SearchOptions, retrieve
from pincite.store.base import Store
from pincite.support.base import SupportChecker


def load_questions(path: Path) -> list[QAQuestion]:
    """Read QUESTIONS.jsonl; any malformed line is one ``InputError`` naming it."""
    questions: list[QAQuestion] = []
    seen: set[str] = set()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from exc
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not JSON ({exc.msg})") from exc
        q = parse_question(row, where)
        if q.id in seen:
            raise InputError(f"{where}: duplicate id {q.id!r}")
        seen.add(q.id)
        questions.append(q)
    if not questions:
        raise InputError(f"{path} has no questions")
    return questions


@dataclass(frozen=True, slots=True)
class QAReport:
    summary: dict[str, Any]
    outcomes: tuple[QuestionOutcome, ...]
    tradeoff: tuple[tuple[float, float, float], ...]
    settings: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "settings": self.settings,
            "summary": self.summary,
            "tradeoff": [
                {"threshold": round(t, 4), "coverage": round(c, 4), "refusal": round(r, 4)}
                for t, c, r in self.tradeoff
            ],
            "questions": [o.as_dict() for o in self.outcomes],
        }


Scorer = Callable[[str, Sequence[Passage]], float]


@dataclass(frozen=True)
class _Run:
    """What every question of one evaluation shares."""

    store: Store
    embedder: Embedder | None
    support: SupportChecker
    texts: StoredTexts
    tenant: str
    k: int
    per_document: bool
    policy: SupportPolicy

    @classmethod
    def open(
        cls,
        store: Store,
        embedder: Embedder | None,
        support: SupportChecker,
        tenant: str,
        k: int,
        per_document: bool,
        policy: SupportPolicy,
    ) -> _Run:
        texts = StoredTexts(store, tenant)
        if not texts.ids:
            raise InputError(f"tenant {tenant!r} has no documents; ingest some first")
        return cls(store, embedder, support, texts, tenant, k, per_document, policy)


def run_question(
    q: QAQuestion,
    run: _Run,
    generator: Generator,
    modes: Sequence[SearchMode],
    scorer: Scorer | None = None,
) -> QuestionOutcome:
    """One question through the answer path (and each mode's search for its recall).

    The outcome's ``score`` is ``scorer`` applied to the passages the generator
    was shown, or without a scorer the top passage's retrieval score.
    """
    gold = run.texts.locate(q) if q.answerable else []
    found = bool(gold) or not q.answerable
    scope = None
    if run.per_document and q.documents:
        scope = tuple(run.texts.named(q.documents))
        if not scope:
            missing = f"document {', '.join(map(repr, q.documents))} is not in the store"
            return QuestionOutcome(q.id, q.kind, q.answerable, gold_found=False, message=missing)
    clock = Clock()
    timed = TimedEmbedder(run.embedder, clock) if run.embedder is not None else None
    answerer = TimedGenerator(generator, clock)
    with clock.stage("total"):
        result = answer_question(
            TimedSource(run.store, timed, clock, scope),
            q.question,
            answerer,
            tenant=run.tenant,
            k=run.k,
            support=run.support,
            policy=run.policy,
        )
    # A stage that did not run (no embedder, nothing retrieved) took 0 ms.
    ms = {stage: clock.ms.get(stage, 0.0) for stage in STAGES}
    ms["retrieve"] -= ms["embed"]
    ms["check"] = ms["total"] - ms["retrieve"] - ms["embed"] - ms["generate"]
    # Searched after the answer, so its timings never gain from these extra searches.
    ranks: dict[str, int | None] = {}
    for mode in modes:
        options = SearchOptions(mode=mode)
        hits = retrieve(
            run.store,
            run.embedder,
            q.question,
            tenant=run.tenant,
            k=max(KS),
            scope=scope,
            options=options,
        )
        ranks[mode.value] = first_relevant_rank(retrieved_spans(hits), gold)
    if scorer is not None:
        score = scorer(q.question, answerer.passages) if answerer.passages else None
    else:
        score = result.searched[0].score if result.searched else None
    if result.answer is None:
        return QuestionOutcome(
            q.id,
            q.kind,
            q.answerable,
            ranks,
            score=score,
            timings_ms=ms,
            gold_found=found,
            message=result.message,
        )
    spans, cited_text = cited_spans(result, run.texts)
    verdicts = tuple(
        result.support[i].verdict.value if i in result.support else "unchecked"
        for i in range(len(result.answer.claims))
    )
    return QuestionOutcome(
        q.id,
        q.kind,
        q.answerable,
        ranks,
        answered=True,
        cited_gold=any(overlaps(s, gold) for s in spans),
        answer_in_cited=q.answerable and contains_answer(cited_text, q.gold_answer),
        verdicts=verdicts,
        score=score,
        timings_ms=ms,
        gold_found=found,
    )


def _threshold_sweep(
    questions: Sequence[QAQuestion],
    run: _Run,
    generator: Generator,
    outcomes: Sequence[QuestionOutcome],
    progress: Callable[[int], None],
) -> tuple[list[tuple[float, float, float]], dict[str, Any]]:
    """The refusal/coverage trade-off over the answer threshold, where the generator has one.

    The offline extractive generator exposes the score its threshold is
    compared with, so each question is answered once more with no threshold
    and every threshold is then applied to that score. Other generators expose
    no score; their curve is over the top passage's retrieval score instead.
    """
    if isinstance(generator, ExtractiveGenerator):
        swept = _unthresholded(questions, run, generator, progress)
        over = {
            "threshold_over": "extractive answer score",
            "threshold": generator.threshold,
            # What the shipped threshold's rule picks on this set (run it on a dev split).
            "refusal_threshold": refusal_threshold(swept),
        }
    else:
        swept = list(outcomes)
        over = {"threshold_over": "retrieval score of the top passage", "threshold": None}
    scores = sorted({o.score for o in swept if o.score is not None})
    grid = [scores[0] + (scores[-1] - scores[0]) * i / 40 for i in range(41)] if scores else []
    return tradeoff(swept, grid), over


def _unthresholded(
    questions: Sequence[QAQuestion],
    run: _Run,
    generator: ExtractiveGenerator,
    progress: Callable[[int], None] = lambda _: None,
) -> list[QuestionOutcome]:
    """Each question answered with no threshold, scored by what ``generator``'s is compared with."""
    no_threshold = replace(generator.config, threshold=_NEVER, threshold_lexical=_NEVER)
    opened = ExtractiveGenerator(run.embedder, no_threshold)

    def assess(question: str, passages: Sequence[Passage]) -> float:
        return generator.assess(question, passages)[0]

    swept = []
    for i, q in enumerate(questions, start=1):
        swept.append(run_question(q, run, opened, (), scorer=assess))
        progress(i)
    return swept


# Below any score the extractive generator gives: every question gets its best answer.
_NEVER = -1e9


def pick_refusal_threshold(
    store: Store,
    embedder: Embedder | None,
    questions: Sequence[QAQuestion],
    generator: ExtractiveGenerator,
    support: SupportChecker,
    *,
    tenant: str,
    k: int = 6,
    per_document: bool = False,
    policy: SupportPolicy = SupportPolicy.REJECT,
) -> float | None:
    """The ``refusal_threshold`` that ``run_qa_eval`` reports for these questions, alone.

    The rule (``qa_metrics.refusal_threshold``) reads only the unanswerable
    questions' answers given with no threshold, so only those are answered:
    the shipped threshold's check costs a quarter of a whole evaluation.
    """
    run = _Run.open(store, embedder, support, tenant, k, per_document, policy)
    unanswerable = [q for q in questions if not q.answerable]
    return refusal_threshold(_unthresholded(unanswerable, run, generator))


def run_qa_eval(
    store: Store,
    embedder: Embedder | None,
    questions: Sequence[QAQuestion],
    generator: Generator,
    support: SupportChecker,
    *,
    tenant: str,
    k: int = 6,
    per_document: bool = False,
    policy: SupportPolicy = SupportPolicy.REJECT,
    progress: Callable[[int, int], None] | None = None,
) -> QAReport:
    """Evaluate ``questions`` on the tenant's current documents (see the module docstring).

    ``policy`` is the answer path's support policy: ``REJECT`` (as `pincite ask`
    runs by default) refuses an answer with an unsupported fact, so every claim
    counted is supported or partial; ``FLAG`` keeps those answers and shows how
    attributable the generator's claims are.
    """
    source = None
    if isinstance(generator, ExtractiveGenerator):
        # The threshold `pincite ask` would answer this tenant with (answer.calibration).
        answering = calibrated(generator, store, tenant)
        source = (
            "set"
            if generator.threshold_pinned
            else "saved"
            if answering is not generator
            else "shipped"
        )
        generator = answering
    run = _Run.open(store, embedder, support, tenant, k, per_document, policy)
    modes = [SearchMode.LEXICAL] + ([SearchMode.DENSE, SearchMode.HYBRID] if embedder else [])
    steps = len(questions) * (2 if isinstance(generator, ExtractiveGenerator) else 1)

    def step(done: int) -> None:
        if progress:
            progress(done, steps)

    outcomes = []
    for i, q in enumerate(questions, start=1):
        outcomes.append(run_question(q, run, generator, modes))
        step(i)
    curve, over = _threshold_sweep(
        questions, run, generator, outcomes, lambda i: step(len(questions) + i)
    )
    settings = {
        "generator": generator.name,
        "embedder": embedder.name if embedder else None,
        "tenant": tenant,
        "k": k,
        "per_document": per_document,
        "support_policy": policy.value,
    }
    if source is not None:
        settings["threshold_source"] = source
    return QAReport(
        summarize(outcomes, [m.value for m in modes]),
        tuple(outcomes),
        tuple(curve),
        settings | over,
    )
