"""The QA sets in data/qa parse, are large enough, keep their splits apart, and are exact."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

import pincite
from pincite.eval.qa import load_questions
from pincite.eval.qa_metrics import QAQuestion, normalize
from shared_paths import DATA, DOCUMENTS

QA = Path(__file__).resolve().parents[2] / "data" / "qa"
ISSUE_EXAMPLES = {
    "cloud-rapid-elasticity",
    "cloud-paas",
    "cloud-private",
    "cloud-essential-characteristics",
    "cloud-service-models",
    "http-408",
    "http-uri-max-length",
    "http-301",
}


def documents_sets() -> tuple[list[QAQuestion], list[QAQuestion]]:
    return load_questions(QA / "documents-dev.jsonl"), load_questions(QA / "documents-test.jsonl")


def test_documents_sets_are_big_enough_and_disjoint() -> None:
    dev, test = documents_sets()
    both = dev + test
    assert sum(q.answerable for q in both) >= 60
    assert sum(not q.answerable for q in both) >= 20
    assert not {q.id for q in dev} & {q.id for q in test}
    assert not {normalize(q.question) for q in dev} & {normalize(q.question) for q in test}
    # each split has both kinds of question, so each can be reported on its own
    for split in (dev, test):
        assert sum(q.answerable for q in split) >= 25 and sum(not q.answerable for q in split) >= 8


def test_issue_examples_are_in_dev_and_kinds_are_varied() -> None:
    dev, test = documents_sets()
    assert {q.id for q in dev} >= ISSUE_EXAMPLES
    kinds = Counter(q.kind for q in dev + test if q.answerable)
    assert {"definition", "list", "number", "condition", "procedure"} <= set(kinds)


def test_gold_answers_lie_inside_a_gold_passage() -> None:
    dev, test = documents_sets()
    for q in dev + test:
        if q.answerable:
            assert q.gold_answer, q.id
            assert any(normalize(q.gold_answer) in normalize(p) for p in q.gold_passages), q.id


def test_qasper_parts_parse_and_never_share_a_paper() -> None:
    parts = {p: load_questions(QA / f"qasper-{p}.jsonl") for p in ("tune", "heldout")}
    papers = {p: {d for q in qs for d in q.documents} for p, qs in parts.items()}
    assert not papers["tune"] & papers["heldout"]
    for qs in parts.values():
        assert sum(q.answerable for q in qs) >= 50 and sum(not q.answerable for q in qs) >= 5
        assert all(len(q.documents) == 1 and q.documents[0].endswith(".md") for q in qs)
    for name in ("qasper-tune.jsonl", "qasper-heldout.jsonl"):
        assert (QA / name).stat().st_size < 2_000_000


@pytest.mark.slow
@pytest.mark.skipif(not DOCUMENTS.is_dir(), reason=f"needs the shared documents at {DOCUMENTS}")
def test_every_gold_passage_is_in_its_documents_canonical_text(tmp_path: Path) -> None:
    with pincite.open(tmp_path / "docs.db", embedder=None) as corpus:
        reports = list(corpus.ingest_paths([DOCUMENTS / "nist", DOCUMENTS / "rfc"]))
        assert all(r.status != "failed" for r in reports)
        texts = {}
        for doc in corpus.documents():
            (version,) = corpus.versions(doc.document_id)
            texts[Path(doc.uri).name] = version.text
    dev, test = documents_sets()
    for q in dev + test:
        assert q.documents and set(q.documents) <= set(texts), q.id
        # every passage is in one of the question's documents, and every
        # document named holds one of its passages
        for passage in q.gold_passages:
            assert any(passage in texts[d] for d in q.documents), (q.id, passage[:60])
        for d in q.documents if q.answerable else ():
            assert any(passage in texts[d] for passage in q.gold_passages), (q.id, d)


@pytest.mark.skipif(
    not (DATA / "qasper" / "documents").is_dir(), reason=f"needs QASPER at {DATA / 'qasper'}"
)
def test_qasper_gold_passages_are_paragraphs_of_their_paper() -> None:
    for part in ("tune", "heldout"):
        for line in (QA / f"qasper-{part}.jsonl").read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            text = (DATA / "qasper" / "documents" / q["document"]).read_text(encoding="utf-8")
            for passage in q["gold_passages"]:
                assert f"\n\n{passage}\n" in text, q["id"]


POLICIES = QA / "policies"


@pytest.mark.parametrize(
    ("split", "documents"), [("dev", 3), ("test", 3), ("dev2", 3), ("dev3", 6), ("dev4", 6)]
)
def test_policies_sets_are_exact_in_their_own_corpus(
    split: str, documents: int, tmp_path: Path
) -> None:
    # Each split is its own corpus: the test documents were written apart from
    # the dev ones, and their questions never ran against the answerer before
    # they were split off.
    questions = load_questions(QA / f"policies-{split}.jsonl")
    assert sum(q.answerable for q in questions) >= 45
    assert sum(not q.answerable for q in questions) >= 12
    with pincite.open(tmp_path / "p.db", embedder=None) as corpus:
        reports = list(corpus.ingest_paths([POLICIES / split]))
        assert reports and all(r.status == "new" for r in reports)
        texts = {}
        for doc in corpus.documents():
            (version,) = corpus.versions(doc.document_id)
            texts[Path(doc.uri).name] = version.text
    assert len(texts) == documents
    for q in questions:
        assert q.documents and set(q.documents) <= set(texts), q.id
        for passage in q.gold_passages:
            assert any(passage in texts[d] for d in q.documents), (q.id, passage[:60])
        if q.answerable:
            assert any(normalize(q.gold_answer) in normalize(p) for p in q.gold_passages), q.id


def test_policies_splits_share_no_question() -> None:
    splits = [
        load_questions(QA / f"policies-{s}.jsonl") for s in ("dev", "test", "dev2", "dev3", "dev4")
    ]
    for one, other in itertools.combinations(splits, 2):
        assert not {q.id for q in one} & {q.id for q in other}
        assert not {normalize(q.question) for q in one} & {normalize(q.question) for q in other}
