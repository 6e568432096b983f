"""Claim support by a local NLI cross-encoder (sentence-transformers), when the user has one.

No NLI model installs from a package registry with its weights, so this
backend is opt-in: ``NLISupportChecker("/path/to/nli-model")`` with the
``sentence-transformers`` extra installed. Each sentence and adjacent pair of
the cited passages is the premise, the claim the hypothesis; the score is the
highest entailment probability (ALCE scores citations the same way with an
NLI model as judge, Gao et al. 2023).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from pincite.errors import ConfigurationError
from pincite.sentences import sentence_spans
from pincite.support.base import (
    PassageSupport,
    SupportPassage,
    SupportResult,
    SupportVerdict,
    Thresholds,
)

__all__ = ["NLI_THRESHOLDS", "NLISupportChecker"]

#: Untuned defaults (no NLI model is available here to tune on): ALCE counts an
#: entailment probability above 0.5 as support; partial from 0.3.
NLI_THRESHOLDS = Thresholds(partial=0.3, supported=0.5)

_INSTALL_HINT = (
    "pip install -e '.[sentence-transformers]' in a pincite clone "
    "(once published: pip install 'pincite[sentence-transformers]')"
)


class NLISupportChecker:
    """Scores (sentence window, claim) pairs with a cross-encoder NLI model.

    ``model_name_or_path`` is loaded lazily, on the first ``check``, with
    ``local_files_only`` so nothing is downloaded. ``cross_encoder`` takes an
    already loaded model instead (anything with ``predict(pairs)`` returning
    logits and a ``config.id2label`` naming an entailment class), for tests and
    for callers that share one model.

    Raises ``ConfigurationError`` when sentence-transformers is missing, the
    model cannot be loaded, or it has no entailment label.
    """

    def __init__(
        self,
        model_name_or_path: str | None = None,
        *,
        cross_encoder: Any = None,
        thresholds: Thresholds = NLI_THRESHOLDS,
        batch_size: int = 32,
    ) -> None:
        if model_name_or_path is None and cross_encoder is None:
            raise ConfigurationError("NLISupportChecker needs a model name or path")
        self.model_name_or_path = model_name_or_path
        self.thresholds = thresholds
        self.batch_size = batch_size
        self._model = cross_encoder
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"NLISupportChecker({self.model_name_or_path!r})"

    def check(self, claim: str, passages: Sequence[SupportPassage]) -> SupportResult:
        if not passages:
            return SupportResult(SupportVerdict.UNSUPPORTED, 0.0, reasons=("no passage is cited",))
        model = self._load()
        entail = _entailment_index(model)
        windows: list[tuple[int, int, int]] = []  # passage, start, end (local offsets)
        for p, passage in enumerate(passages):
            spans = sentence_spans(passage.text)
            windows.extend((p, s, e) for s, e in spans)
            windows.extend((p, a[0], b[1]) for a, b in itertools.pairwise(spans))
        if not windows:
            return SupportResult(
                SupportVerdict.UNSUPPORTED, 0.0, reasons=("the passages are empty",)
            )
        pairs = [(passages[p].text[s:e], claim) for p, s, e in windows]
        logits = np.asarray(model.predict(pairs, batch_size=self.batch_size), dtype=np.float64)
        probs = _entailment_probability(logits, entail)
        best = int(np.argmax(probs))
        per_passage = []
        for p, passage in enumerate(passages):
            mine = [i for i, w in enumerate(windows) if w[0] == p]
            if not mine:
                per_passage.append(
                    PassageSupport(passage.evidence_id, SupportVerdict.UNSUPPORTED, 0.0)
                )
                continue
            i = max(mine, key=lambda j: probs[j])
            _, s, e = windows[i]
            score = float(probs[i])
            per_passage.append(
                PassageSupport(
                    passage.evidence_id,
                    self.thresholds.verdict(score),
                    score,
                    (passage.span_id(s, e),),
                )
            )
        p, s, e = windows[best]
        score = float(probs[best])
        return SupportResult(
            self.thresholds.verdict(score),
            score,
            (passages[p].span_id(s, e),),
            tuple(per_passage),
            (f"highest entailment probability {score:.2f}",),
        )

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        with self._lock:
            if self._model is None:
                try:
                    from sentence_transformers import CrossEncoder
                except ImportError as exc:
                    raise ConfigurationError(
                        f"the NLI support checker needs sentence-transformers: {_INSTALL_HINT}"
                    ) from exc
                try:
                    self._model = CrossEncoder(self.model_name_or_path, local_files_only=True)
                except Exception as exc:  # any loader failure is a setup problem
                    raise ConfigurationError(
                        f"cannot load NLI model {self.model_name_or_path!r} from local files: {exc}"
                    ) from exc
        return self._model


def _entailment_index(model: Any) -> int | None:
    """Index of the entailment logit, or ``None`` for a one-output (already a score) model."""
    id2label = getattr(getattr(model, "config", None), "id2label", None) or {}
    if len(id2label) <= 1:
        return None
    for index, label in id2label.items():
        if "entail" in str(label).lower():
            return int(index)
    raise ConfigurationError(f"NLI model has no entailment label among {dict(id2label)}")


def _entailment_probability(
    logits: np.ndarray[Any, Any], entail: int | None
) -> np.ndarray[Any, Any]:
    if entail is None:
        return np.asarray(1.0 / (1.0 + np.exp(-logits.reshape(-1))))
    if logits.ndim != 2 or logits.shape[1] <= entail:
        raise ConfigurationError(f"NLI model returned logits of shape {logits.shape}")
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(shifted[:, entail] / shifted.sum(axis=1))
