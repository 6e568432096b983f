"""Studio actions: typed items, each an exact span of the document's current version, checked."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from pincite.cli.app import cli
from pincite.corpus import Corpus
from pincite.errors import InputError, NotFoundError, UncitedClaimError, UnsupportedClaimError
from pincite.generate.base import GeneratedClaim, Generation, Passage
from pincite.studio import LEGAL_DISCLAIMER, StudioAction, StudioResult, run_studio
from pincite.support.base import SupportPassage, SupportResult, SupportVerdict
from shared_paths import DOCUMENTS

CONTRACT = """# Services agreement

This agreement is made by and between Acme Ltd and Beta GmbH on March 3, 2025.

# Fees

The client shall pay EUR 4,000 per month within 30 days of each invoice.

# Definitions

Service credit means a reduction of the monthly fee for missed availability targets.

# Term

Either party may terminate this agreement with ninety days written notice to the other.
"""


def _md(corpus: Corpus, text: str) -> str | None:
    report = corpus.ingest_bytes(text.encode(), filename="contract.md", uri="mem:contract")
    return report.document_id


def _resolves(corpus: Corpus, result: StudioResult, tenant: str = "default") -> None:
    """Every item's citation reads back, in full, as exactly the item's text."""
    assert result.items
    for item in result.items:
        [cid] = item.citation_ids
        [outcome] = corpus.fetch([result.citation(cid).evidence_id], tenant=tenant)
        assert outcome.status.value == "ok" and outcome.text == item.text
        assert outcome.hash16 == result.hash16 and outcome.document_id == result.document_id


def test_contract_breakdown_labels_cites_and_appends_the_disclaimer(corpus: Corpus) -> None:
    doc = _md(corpus, CONTRACT)
    assert doc is not None
    result = corpus.studio(doc, "contract")
    _resolves(corpus, result)
    labels = {i.text.split()[0]: set(i.label.split(", ")) for i in result.items}
    assert {"party", "date"} <= labels["This"]
    assert {"amount", "obligation", "date"} <= labels["The"]
    assert "termination" in labels["Either"]
    assert result.disclaimer == LEGAL_DISCLAIMER
    terms = corpus.studio(doc, "key-terms")
    assert [i.label for i in terms.items] == ["Service credit"] and terms.disclaimer == ""
    faq = corpus.studio(doc, StudioAction.FAQ)
    _resolves(corpus, faq)
    headings = {line[2:] for line in CONTRACT.splitlines() if line.startswith("# ")}
    asked = [i.label.removeprefix("What does the document say about ") for i in faq.items]
    assert asked and all(q.endswith("?") and q[:-1] in headings for q in asked)


def test_results_are_deterministic_and_follow_the_current_version(corpus: Corpus) -> None:
    doc = _md(corpus, CONTRACT)
    assert doc is not None
    first = corpus.studio(doc, "summary")
    again = corpus.studio(doc, "summary")
    assert first.items == again.items
    _md(corpus, CONTRACT + "\n# Notices\n\nNotices go by registered letter to each party's seat.\n")
    newer = corpus.studio(doc, "summary")
    assert newer.hash16 != first.hash16
    _resolves(corpus, newer)


def test_missing_foreign_deleted_and_unknown_fail_with_one_line_errors(corpus: Corpus) -> None:
    doc = _md(corpus, CONTRACT)
    assert doc is not None
    with pytest.raises(
        InputError, match="choose one of: summary, faq, key_terms, pros_cons, contract"
    ):
        corpus.studio(doc, "poem")
    with pytest.raises(NotFoundError):
        corpus.studio(doc, "summary", tenant="other")
    corpus.delete(doc)
    with pytest.raises(NotFoundError):
        corpus.studio(doc, "summary")


def test_pros_and_cons_take_sentences_that_argue_one_way(corpus: Corpus) -> None:
    text = (
        "# Remote access\n\n"
        "The main benefit of a VPN is that it enables staff to reach internal systems.\n\n"
        "A lost laptop is a risk because it may hold cached credentials of the organization.\n\n"
        "Its benefit comes with the risk of attackers reaching the internal network as well.\n"
    )
    report = corpus.ingest_bytes(text.encode(), filename="vpn.md", uri="mem:vpn")
    assert report.document_id is not None
    result = corpus.studio(report.document_id, "pros_cons")
    _resolves(corpus, result)
    assert [(i.label, i.text.split()[1]) for i in result.items] == [
        ("pro", "main"),
        ("con", "lost"),
    ]


PAYMENT = "The client shall pay EUR 4,000 per month within 30 days of each invoice."


class _Model:
    """A stand-in for a remote model (a paid API): fixed claims over the numbered passages."""

    name = "fake-model"
    is_model = True

    def __init__(self, number: Callable[[Sequence[Passage]], int]) -> None:
        self.number = number
        self.text = PAYMENT
        self.calls: list[tuple[str, str | None]] = []

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        summary: str = "",
        feedback: str | None = None,
    ) -> Generation:
        self.calls.append((question, feedback))
        return Generation((GeneratedClaim(self.text, (self.number(passages),)),), True)


def test_a_model_writes_items_that_are_checked_and_the_disclaimer_is_added_after(
    corpus: Corpus,
) -> None:
    doc = _md(corpus, CONTRACT)
    assert doc is not None
    model = _Model(lambda passages: next(p.number for p in passages if PAYMENT in p.text))
    corpus.generator = model
    result = corpus.studio(doc, "contract")
    [item] = result.items
    assert item.text == PAYMENT and item.verdict is not SupportVerdict.UNSUPPORTED
    [outcome] = corpus.fetch([result.citation(item.citation_ids[0]).evidence_id])
    assert PAYMENT in outcome.text and outcome.document_id == doc
    assert result.disclaimer == LEGAL_DISCLAIMER and LEGAL_DISCLAIMER not in item.text
    assert len(model.calls) == 1 and "parties" in model.calls[0][0]


def test_a_model_citing_a_passage_it_was_not_shown_fails_after_one_repair(corpus: Corpus) -> None:
    doc = _md(corpus, CONTRACT)
    assert doc is not None
    model = _Model(lambda passages: len(passages) + 5)
    corpus.generator = model
    with pytest.raises(UncitedClaimError):
        corpus.studio(doc, "summary")
    assert len(model.calls) == 2 and model.calls[1][1] is not None  # the repair saw why


class _Doubting:
    """A support checker that backs nothing: studio must fail closed, not drop items."""

    def check(self, claim: str, passages: Sequence[SupportPassage]) -> SupportResult:
        return SupportResult(SupportVerdict.UNSUPPORTED, 0.0)


def test_an_unsupported_item_fails_the_whole_result(corpus: Corpus) -> None:
    doc = _md(corpus, CONTRACT)
    assert doc is not None
    # The offline items are quotes of the document: a quote stands by what it is,
    # whatever a checker makes of its wording.
    quoted = run_studio(corpus.store, _Doubting(), doc, "summary", tenant="default")
    assert quoted.items and all(i.verdict is SupportVerdict.SUPPORTED for i in quoted.items)
    # A model's own words are the checker's to judge: one rejected item fails them all.
    model = _Model(lambda passages: next(p.number for p in passages if PAYMENT in p.text))
    model.text = "The client settles each invoice of EUR 4,000 a month within a month."
    with pytest.raises(UnsupportedClaimError):
        run_studio(corpus.store, _Doubting(), doc, "contract", tenant="default", generator=model)


@pytest.mark.skipif(not DOCUMENTS.is_dir(), reason=f"shared documents absent at {DOCUMENTS}")
@pytest.mark.parametrize("name", ["nist/SP800-145.pdf", "nist/FIPS199.pdf", "rfc/rfc2616.txt"])
def test_useful_on_the_shared_public_documents(corpus: Corpus, name: str) -> None:
    doc = corpus.ingest_path(DOCUMENTS / name).document_id
    assert doc is not None
    for action in StudioAction:
        result = corpus.studio(doc, action)
        if action is not StudioAction.CONTRACT:
            _resolves(corpus, result)
            assert all(i.verdict is not SupportVerdict.UNSUPPORTED for i in result.items)
    summary = corpus.studio(doc, "summary")
    assert len(summary.items) >= 3  # more than a title line
    assert len({i.section[:1] for i in summary.items}) >= 2  # drawn from several sections


def test_cli_studio_prints_items_with_sources_or_json(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "contract.md").write_text(CONTRACT)
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    ingested = runner.invoke(cli, ["ingest", str(folder), "--db", db, "--embedder", "none"])
    assert ingested.exit_code == 0, ingested.output
    uri = str((folder / "contract.md").resolve())
    r = runner.invoke(cli, ["studio", "contract", uri, "--db", db, "--embedder", "none"])
    assert r.exit_code == 0, r.output
    assert "Sources:\n[1] ev1:s:" in r.output and r.output.rstrip().endswith(LEGAL_DISCLAIMER)
    r = runner.invoke(cli, ["studio", "faq", uri, "--db", db, "--embedder", "none", "--json"])
    data = json.loads(r.output)
    assert data["action"] == "faq" and all(i["evidence_ids"] for i in data["items"])
    r = runner.invoke(cli, ["studio", "faq", "no-such-doc", "--db", db, "--embedder", "none"])
    assert r.exit_code == 1 and "document not found: no-such-doc" in r.output
    assert "Traceback" not in r.output
