"""Screen candidate support signals against the shipped head (dev splits only).

A developer tool, not part of the package. Issue 19 suggested two kinds of
signal the offline model can give beyond the sentence cosine the head already
has (``scoring.FEATURES``):

- ``align``: token-level alignment of the claim to the sentence the model sees,
  BERTScore-style: each content word piece of the claim takes its best cosine
  among the sentence's MiniLM token vectors; the mean, the minimum, the mean of
  the two lowest and the share under 0.6 are the candidate columns.
- ``pair``: the pair's sentence vectors combined, ``[|u - v|, u * v]``,
  projected on their first principal components (fitted on each training fold).

Each candidate is added to the 19 shipped columns and scored by grouped k-fold
cross-validation over WiCE dev + AttributionBench dev, fitted as
``fit_support.py`` fits the shipped head (the same L2, rule-made rows at
``GENERATED_WEIGHT``, rewrites of a held-out claim left out of its training
fold). It prints held-out ROC AUC on each dev set and on the held-out rule-made
rows. No test split is read. Run from the repository root::

    .venv/bin/python tools/screen_support_features.py ../shared/data
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit_support import GENERATED_WEIGHT, L2, _dev_examples, fit_logistic

from pincite.embed.base import Embedder
from pincite.embed.default import default_embedder
from pincite.eval.support import SupportExample
from pincite.eval.support_paraphrase import paraphrase_set
from pincite.support import heuristic
from pincite.support.base import SupportVerdict
from pincite.support.cues import core_claim
from pincite.support.features import STOPWORDS
from pincite.support.scoring import analyse

Matrix = npt.NDArray[np.float64]

#: A claim piece matched below this cosine counts as unaligned (``align`` column 4).
UNALIGNED = 0.6


class TokenStates:
    """Unit-length MiniLM token vectors of a text, cached (the embedder keeps them private)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._cache: dict[str, tuple[Matrix, list[str]]] = {}

    def __call__(self, text: str) -> tuple[Matrix, list[str]]:
        if text not in self._cache:
            e = self.embedder
            e.embed_documents([text])  # loads the session and tokenizer
            encoding = e._tokenizer.encode(text)  # type: ignore[attr-defined]
            ids = np.asarray([encoding.ids], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
            if "token_type_ids" in e._input_names:  # type: ignore[attr-defined]
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = np.asarray(e._session.run(None, feeds)[0][0], dtype=np.float64)  # type: ignore[attr-defined]
            hidden /= np.clip(np.linalg.norm(hidden, axis=1, keepdims=True), 1e-9, None)
            self._cache[text] = (hidden, list(encoding.tokens))
        return self._cache[text]


def content_pieces(tokens: Sequence[str]) -> list[int]:
    """Rows of the word pieces that belong to a content word (not a stopword or punctuation)."""
    rows, keep = [], False
    for i, token in enumerate(tokens):
        if token in ("[CLS]", "[SEP]"):
            continue
        if not token.startswith("##"):
            keep = token not in STOPWORDS and any(c.isalnum() for c in token)
        if keep:
            rows.append(i)
    return rows


def alignment(states: TokenStates, claim: str, sentence: str | None) -> list[float]:
    if sentence is None:
        return [0.0] * 4
    claim_vectors, claim_tokens = states(claim)
    rows = content_pieces(claim_tokens)
    if not rows:
        return [0.0] * 4
    vectors, tokens = states(sentence)
    cols = [i for i, t in enumerate(tokens) if t not in ("[CLS]", "[SEP]")]
    best = (claim_vectors[rows] @ vectors[cols].T).max(axis=1)
    lowest = np.sort(best)[:2].mean()
    return [float(best.mean()), float(best.min()), float(lowest), float(np.mean(best < UNALIGNED))]


def extract(
    examples: Sequence[SupportExample], checker: heuristic.HeuristicSupportChecker
) -> tuple[Matrix, Matrix, Matrix]:
    """Shipped features, ``align`` columns and ``[|u - v|, u * v]`` of each example."""
    states = TokenStates(checker.embedder)  # type: ignore[arg-type]
    base, align, pair = [], [], []
    for example in examples:
        claim = core_claim(example.claim)
        base.append(checker.features(example.claim, example.passages))
        analysis = analyse(claim, [p.text for p in example.passages])
        texts = checker.embedded_texts(analysis, example.passages) if analysis.claim_terms else []
        sentence = texts[0] if texts else None
        align.append(alignment(states, claim, sentence))
        u = checker.embedder.embed_documents([claim])[0]  # type: ignore[union-attr]
        v = checker.embedder.embed_documents([sentence])[0] if sentence else np.zeros_like(u)  # type: ignore[union-attr]
        pair.append(np.concatenate([np.abs(u - v), u * v]))
    return np.asarray(base, float), np.asarray(align, float), np.asarray(pair, float)


def roc_auc(scores: Matrix, positive: npt.NDArray[np.bool_]) -> float:
    """Mann-Whitney ROC AUC, ties counted half."""
    _, inverse, counts = np.unique(scores, return_inverse=True, return_counts=True)
    ranks = (np.cumsum(counts) - (counts - 1) / 2.0)[inverse]
    n1 = int(positive.sum())
    n0 = len(positive) - n1
    return float((ranks[positive].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


Columns = Callable[[npt.NDArray[np.bool_], npt.NDArray[np.bool_]], tuple[Matrix, Matrix]]


def cross_validate(
    columns: Columns,
    y: npt.NDArray[np.bool_],
    groups: Sequence[str],
    gy: npt.NDArray[np.bool_],
    ggroups: Sequence[str],
    *,
    folds: int,
    seed: int,
) -> tuple[Matrix, Matrix]:
    """Held-out scores of the dev rows and of the rule-made rows whose source claim was held out."""
    fold = np.random.default_rng(seed).integers(0, folds, len(y))
    scores, gscores = np.zeros(len(y)), np.full(len(gy), np.nan)
    for k in range(folds):
        train = fold != k
        held = {g for g, t in zip(groups, train, strict=True) if not t}
        gtrain = np.array([g not in held for g in ggroups])
        x, gx = columns(train, gtrain)
        head = fit_logistic(
            np.vstack([x[train], gx[gtrain]]),
            np.concatenate([y[train], gy[gtrain]]),
            l2=L2,
            sample_weight=[1.0] * int(train.sum()) + [GENERATED_WEIGHT] * int(gtrain.sum()),
        )
        w = np.asarray(head.coef)
        scores[~train] = head.bias + x[~train] @ w
        gscores[~gtrain] = head.bias + gx[~gtrain] @ w
    return scores, gscores


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data_dir", type=Path, help="the shared data folder (../shared/data)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=5, help="fold assignments to average over")
    args = parser.parse_args(argv)

    # The head's weights are checked against FEATURES' length; candidates add columns.
    heuristic.LogisticWeights.__post_init__ = lambda self: None  # type: ignore[method-assign]
    checker = heuristic.HeuristicSupportChecker(default_embedder(2, quantized=True))
    dev = _dev_examples(args.data_dir)
    made = paraphrase_set(args.data_dir, "train")
    print(f"extracting {len(dev)} dev claims and {len(made)} rule-made rows …", file=sys.stderr)
    base, align, pair = extract(dev, checker)
    gbase, galign, gpair = extract(made, checker)
    y = np.array([e.label == SupportVerdict.SUPPORTED for e in dev])
    gy = np.array([e.label == SupportVerdict.SUPPORTED for e in made])
    groups = [e.id for e in dev]
    ggroups = [e.id.split(":")[1] for e in made]  # "wice:dev00866:negate" -> "dev00866"
    wice = np.array([bool(e.gold_sentences or e.sentence_starts) for e in dev])

    def plain(extra: Matrix, gextra: Matrix) -> Columns:
        return lambda _t, _g: (np.hstack([base, extra]), np.hstack([gbase, gextra]))

    def projected(n: int) -> Columns:
        def columns(
            train: npt.NDArray[np.bool_], gtrain: npt.NDArray[np.bool_]
        ) -> tuple[Matrix, Matrix]:
            fit = np.vstack([pair[train], gpair[gtrain]])
            mean = fit.mean(axis=0)
            basis = np.linalg.svd(fit - mean, full_matrices=False)[2][:n].T
            return np.hstack([base, (pair - mean) @ basis]), np.hstack(
                [gbase, (gpair - mean) @ basis]
            )

        return columns

    candidates: dict[str, Columns] = {
        "shipped 19 columns": plain(base[:, :0], gbase[:, :0]),
        "+ align mean": plain(align[:, :1], galign[:, :1]),
        "+ align mean, min": plain(align[:, :2], galign[:, :2]),
        "+ align, all four": plain(align, galign),
        **{f"+ pair, {n} components": projected(n) for n in (8, 32, 128)},
    }
    print(f"held-out ROC AUC, {args.folds}-fold, mean over {args.seeds} seeds")
    print(f"{'columns':<26} {'WiCE dev':>9} {'AB dev':>9} {'both':>9} {'rule-made':>10}")
    for name, columns in candidates.items():
        rows = []
        for seed in range(args.seeds):
            s, gs = cross_validate(columns, y, groups, gy, ggroups, folds=args.folds, seed=seed)
            held = ~np.isnan(gs)
            rows.append(
                [
                    roc_auc(s[wice], y[wice]),
                    roc_auc(s[~wice], y[~wice]),
                    roc_auc(s, y),
                    roc_auc(gs[held], gy[held]),
                ]
            )
        mean = np.mean(rows, axis=0)
        print(f"{name:<26} " + " ".join(f"{v:>9.4f}" for v in mean[:3]) + f" {mean[3]:>10.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
