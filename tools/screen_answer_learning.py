"""Screen learned alternatives to the offline answerer's hand-set scoring (dev splits only).

A developer tool, not part of the package. The extractive answerer ranks
candidate sentences by a hand-set sum (``generate.select.Scoring``) and
refuses below one threshold (``ExtractiveConfig.threshold``). This tool asks
whether weights learned from the dev QA sets would do better on a QA set
they were not fitted on. Two learners, each scored leave-one-set-out (fitted
on every set but one, measured on that one):

- ``ranker``: a conditional logit over each question's candidates (softmax
  over the candidates, the gold-overlapping ones as the target), on what a
  candidate exposes: the shipped score, its base, definition and cue
  components, its role, its passage's retrieval rank, dense cosine and
  lexical rank, its length. Measured: questions whose top candidate overlaps
  gold, against the shipped score's top candidate.
- ``sufficiency``: a logistic answer-or-refuse classifier on the top
  candidate's features and the margin to the second, its cut set, as the
  shipped threshold is, to refuse 80 % of the training sets' unanswerable
  questions. Measured: answerable questions answered on gold, and
  unanswerable refused, against the shipped threshold.

Every question goes through the answer path (``answer_question``) so the
passages are those `pincite ask` shows. Run from the repository root, one
``--set`` per QA set (its questions and a store holding its documents)::

    .venv/bin/python tools/screen_answer_learning.py \\
        --set documents-dev data/qa/documents-dev.jsonl docs.db \\
        --set policies-dev data/qa/policies-dev.jsonl p_dev.db ...

Add ``--per-document NAME`` for a set whose questions are each scoped to
their document (QASPER). No test split should be given to it.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import pincite
from pincite.answer.pipeline import SupportPolicy, answer_question
from pincite.eval.qa import load_questions
from pincite.eval.qa_locate import StoredTexts
from pincite.eval.qa_metrics import Located
from pincite.generate.base import Generation, Passage
from pincite.generate.extractive import ExtractiveGenerator
from pincite.generate.layout import Role
from pincite.generate.question import parse_question
from pincite.generate.select import Candidate

_ROLES = (Role.STATEMENT, Role.ITEM, Role.FOOTNOTE, Role.FRAGMENT, Role.HEADING)
_REFUSAL = 0.8
_L2 = 1.0


@dataclass
class Asked:
    """One question: its candidates' features and gold labels, best (shipped) first."""

    answerable: bool
    features: npt.NDArray[np.float64]  # one row per candidate
    gold: npt.NDArray[np.bool_]
    score: float  # what the shipped threshold is compared with


class _Recorder:
    """A generator that keeps the passages it is shown and refuses."""

    name = "recorder"
    is_model = False

    def __init__(self) -> None:
        self.passages: list[Passage] = []

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        summary: str = "",
        feedback: str | None = None,
    ) -> Generation:
        self.passages = list(passages)
        return Generation(claims=(), sufficient_context=False, summary=summary)


class _NoCheck:
    """Nothing is checked: the recorder never answers."""

    def check(self, *args: object, **kwargs: object) -> object:
        raise AssertionError("the recorder never answers")


def _row(c: Candidate) -> list[float]:
    p = c.passage
    lexical = 1.0 / p.lexical_rank if p.lexical_rank else 0.0
    return [
        c.score,
        c.base,
        c.definition,
        c.cue,
        *(float(c.role is r) for r in _ROLES),
        1.0 / p.number,
        p.dense_score or 0.0,
        lexical,
        math.log1p(len(c.text.split())),
    ]


def _overlaps(c: Candidate, gold: Sequence[Located]) -> bool:
    for p, s, e in c.pieces:
        doc = p.evidence_id.split(":")[2]
        for g in gold:
            same = g.document_id == doc and g.content_hash == p.version
            if same and p.start + s < g.end and g.start < p.start + e:
                return True
    return False


def collect(questions: Path, db: Path, per_document: bool) -> list[Asked]:
    corpus = pincite.open(db)
    generator = ExtractiveGenerator(corpus.embedder)
    texts = StoredTexts(corpus.store, "default")
    out = []
    for q in load_questions(questions):
        gold = texts.locate(q) if q.answerable else []
        recorder = _Recorder()
        scope = tuple(texts.named(q.documents)) if per_document and q.documents else None
        source = corpus if scope is None else _Scoped(corpus, scope)
        answer_question(
            source,  # type: ignore[arg-type]
            q.question,
            recorder,
            tenant="default",
            support=_NoCheck(),  # type: ignore[arg-type]
            policy=SupportPolicy.REJECT,
        )
        ranked = generator.rank(parse_question(q.question), recorder.passages)
        score = generator.assess(q.question, recorder.passages)[0] if ranked else -1.0
        width = len(_row_names())
        rows = np.array([_row(c) for c in ranked], dtype=np.float64).reshape(len(ranked), width)
        labels = np.array([_overlaps(c, gold) for c in ranked], dtype=bool)
        out.append(Asked(q.answerable, rows, labels, score))
    corpus.close()
    return out


class _Scoped:
    """The corpus, each search limited to the question's documents."""

    def __init__(self, corpus: pincite.Corpus, scope: tuple[str, ...]) -> None:
        self._corpus, self._scope = corpus, scope
        self.store, self.embedder = corpus.store, corpus.embedder

    def retrieve(self, question: str, **kwargs: object) -> object:
        return self._corpus.retrieve(question, scope=self._scope, **kwargs)  # type: ignore[arg-type]


def _standardise(x: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], ...]:
    return x.mean(axis=0), x.std(axis=0) + 1e-9


def fit_ranker(train: Sequence[Asked], steps: int = 300, rate: float = 0.5) -> tuple[Any, ...]:
    """Conditional-logit weights (gradient descent on the mean log-loss + L2)."""
    groups = [a for a in train if a.answerable and a.gold.any()]
    mu, sd = _standardise(np.vstack([a.features for a in groups]))
    xs = [((a.features - mu) / sd, a.gold / a.gold.sum()) for a in groups]
    w = np.zeros(mu.shape[0])
    for _ in range(steps):
        grad = _L2 * w / len(xs)
        for x, y in xs:
            z = x @ w
            p = np.exp(z - z.max())
            grad += x.T @ (p / p.sum() - y) / len(xs)
        w -= rate * grad
    return w, mu, sd


def top_on_gold(sets: Sequence[Asked], model: tuple[Any, ...] | None) -> tuple[int, int]:
    hit = total = 0
    for a in sets:
        if not (a.answerable and a.gold.any()):
            continue
        total += 1
        if model is None:
            hit += bool(a.gold[0])
        else:
            w, mu, sd = model
            hit += bool(a.gold[int(np.argmax(((a.features - mu) / sd) @ w))])
    return hit, total


def _top(a: Asked) -> list[float]:
    if not len(a.features):
        return [-1.0] + [0.0] * len(_row_names())
    second = a.features[1, 0] if len(a.features) > 1 else 0.0
    return [*a.features[0], a.features[0, 0] - second]


def _row_names() -> list[str]:
    return ["score", "base", "definition", "cue", *(r.name for r in _ROLES), "rank", "dense",
            "lexical", "length"]  # fmt: skip


def fit_sufficiency(train: Sequence[Asked], steps: int = 50) -> tuple[Any, ...]:
    """Logistic weights (Newton) for "the top candidate is on gold", and the cut refusing
    ``_REFUSAL`` of the training sets' unanswerable questions."""
    x = np.array([_top(a) for a in train])
    y = np.array([a.answerable and len(a.gold) > 0 and bool(a.gold[0]) for a in train], float)
    mu, sd = _standardise(x)
    design = np.hstack([np.ones((len(x), 1)), (x - mu) / sd])
    w = np.zeros(design.shape[1])
    penalty = np.full(len(w), _L2)
    penalty[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ w, -50, 50)))
        hessian = (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty)
        w -= np.linalg.solve(hessian + 1e-9 * np.eye(len(w)), design.T @ (p - y) + penalty * w)
    scores = design @ w
    unanswerable = np.sort(scores[[not a.answerable for a in train]])
    cut = float(unanswerable[min(int(_REFUSAL * len(unanswerable)), len(unanswerable) - 1)])
    return w, mu, sd, cut


def answered(
    sets: Sequence[Asked], model: tuple[Any, ...] | None, threshold: float
) -> tuple[float, float]:
    """(answerable answered on gold, unanswerable refused) under ``model`` or the threshold."""
    gold = refused = n_ans = n_un = 0
    for a in sets:
        if model is None:
            says = a.score >= threshold
        else:
            w, mu, sd, cut = model
            says = float(np.concatenate([[1.0], (np.array(_top(a)) - mu) / sd]) @ w) > cut
        top_gold = len(a.gold) > 0 and bool(a.gold[0])
        if a.answerable:
            n_ans += 1
            gold += says and top_gold
        else:
            n_un += 1
            refused += not says
    return gold / max(n_ans, 1), refused / max(n_un, 1)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", nargs=3, action="append", required=True,
                    metavar=("NAME", "QUESTIONS", "DB"))  # fmt: skip
    ap.add_argument("--per-document", action="append", default=[], metavar="NAME")
    args = ap.parse_args(argv)
    if len(args.set) < 2:
        ap.error("leave-one-set-out needs at least two --set")
    data = {name: collect(Path(q), Path(db), name in args.per_document) for name, q, db in args.set}
    threshold = ExtractiveGenerator().config.threshold
    totals = np.zeros(3, dtype=int)
    print(f"{'held-out set':16} {'ranker: shipped':>16} {'learned':>8}   "
          f"{'sufficiency: shipped':>22} {'learned':>16}")  # fmt: skip
    for held in data:
        train = [a for name, sets in data.items() if name != held for a in sets]
        base = top_on_gold(data[held], None)
        learned = top_on_gold(data[held], fit_ranker(train))
        totals += (base[0], learned[0], base[1])
        shipped = answered(data[held], None, threshold)
        fitted = answered(data[held], fit_sufficiency(train), threshold)
        print(
            f"{held:16} {base[0]:>10}/{base[1]:<5} {learned[0]:>8}   "
            f"{shipped[0]:>13.1%} / {shipped[1]:.1%} {fitted[0]:>9.1%} / {fitted[1]:.1%}"
        )
    print(f"{'all':16} {totals[0]:>10}/{totals[2]:<5} {totals[1]:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
