"""The shipped extractive answer thresholds are what their documented commands pick.

``ExtractiveConfig.threshold`` says it is the smallest threshold that refuses
80 % of the unanswerable questions of data/qa/documents-dev.jsonl, read off
`pincite eval qa data/qa/documents-dev.jsonl --db docs.db`. This runs the part
of that evaluation the rule reads (``pick_refusal_threshold``: the unanswerable
questions, answered with no threshold) on the shared documents with the default
offline models (the pinned stack of the test extra) and checks the shipped
constant against it,
so a change to the answerer that moves the threshold cannot ship unnoticed.
The threshold without an embedder comes from SQuAD's calibration articles.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import pincite
from pincite.answer.pipeline import SupportPolicy
from pincite.embed.default import default_embedder
from pincite.eval.answers import calibrate_threshold
from pincite.eval.qa import load_questions, pick_refusal_threshold
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator
from pincite.support import support_checker_for
from shared_paths import DATA, DOCUMENTS

DEV = Path(__file__).resolve().parents[2] / "data" / "qa" / "documents-dev.jsonl"


@pytest.mark.slow
@pytest.mark.skipif(not DOCUMENTS.is_dir(), reason=f"needs the shared documents at {DOCUMENTS}")
def test_the_shipped_threshold_is_the_one_documents_dev_picks(tmp_path: Path) -> None:
    # Ingested as `pincite ingest` does, on every core (the vectors are the same bits).
    embedder = default_embedder(threads=os.cpu_count() or 1)
    with pincite.open(tmp_path / "docs.db", embedder=embedder) as corpus:
        reports = list(corpus.ingest_paths([DOCUMENTS]))
        assert all(r.status != "failed" for r in reports)
        # What `pincite eval qa` prints as refusal_threshold, without the rest of
        # its evaluation (tests/eval/test_qa_eval.py checks the two agree).
        picked = pick_refusal_threshold(
            corpus.store,
            corpus.embedder,
            load_questions(DEV),
            ExtractiveGenerator(corpus.embedder),
            support_checker_for(corpus.embedder),
            tenant="default",
            policy=SupportPolicy.REJECT,
        )
    assert picked == ExtractiveConfig().threshold


SQUAD = DATA / "squad2_dev" / "dev-v2.0.json.gz"


@pytest.mark.slow
@pytest.mark.skipif(not SQUAD.is_file(), reason=f"needs SQuAD 2.0 dev at {SQUAD}")
def test_the_shipped_lexical_threshold_is_the_one_squad_calibration_picks() -> None:
    # `pincite eval answers ../shared/data/squad2_dev --embedder none --calibrate`
    best, _ = calibrate_threshold(SQUAD, embedder=None)
    assert best == ExtractiveConfig().threshold_lexical
