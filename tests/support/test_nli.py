from __future__ import annotations

import sys
from collections.abc import Sequence
from types import SimpleNamespace

import numpy as np
import pytest
from support_fakes import passage

from pincite.errors import ConfigurationError
from pincite.support.base import SupportVerdict
from pincite.support.nli import NLISupportChecker

TEXT = "The sky is blue. Grass is green. Snow is white."


class FakeCrossEncoder:
    """Three-way NLI logits: entailment when the premise contains the claim's last word."""

    def __init__(self, id2label: dict[int, str]) -> None:
        self.config = SimpleNamespace(id2label=id2label)
        self.entail = next(i for i, label in id2label.items() if "entail" in label.lower())

    def predict(self, pairs: Sequence[tuple[str, str]], batch_size: int = 32) -> np.ndarray:
        out = np.zeros((len(pairs), 3))
        for row, (premise, claim) in enumerate(pairs):
            hit = claim.rstrip(".").split()[-1] in premise
            out[row, self.entail if hit else (self.entail + 1) % 3] = 5.0
        return out


def test_missing_sentence_transformers_raises_configuration_error_with_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import now fails
    checker = NLISupportChecker("some/local-nli-model")
    with pytest.raises(ConfigurationError, match=r"pip install 'pincite\[sentence-transformers\]'"):
        checker.check("Grass is green.", [passage(TEXT)])


def test_a_model_name_is_required() -> None:
    with pytest.raises(ConfigurationError):
        NLISupportChecker()


def test_entailment_probability_picks_the_supporting_sentence() -> None:
    model = FakeCrossEncoder({0: "contradiction", 1: "entailment", 2: "neutral"})
    checker = NLISupportChecker(cross_encoder=model)
    result = checker.check("Grass is green.", [passage(TEXT), passage("Cats purr.", k=1)])
    assert result.verdict is SupportVerdict.SUPPORTED
    assert result.score == pytest.approx(np.exp(5) / (np.exp(5) + 2))
    assert result.sentence_ids == (passage(TEXT).span_id(17, 32),)
    assert [p.verdict for p in result.per_passage] == [
        SupportVerdict.SUPPORTED,
        SupportVerdict.UNSUPPORTED,
    ]


def test_a_model_without_an_entailment_label_is_a_configuration_error() -> None:
    model = FakeCrossEncoder({0: "entailment", 1: "b", 2: "c"})
    model.config.id2label = {0: "a", 1: "b", 2: "c"}
    with pytest.raises(ConfigurationError, match="no entailment label"):
        NLISupportChecker(cross_encoder=model).check("x", [passage(TEXT)])
