"""check_citations verdicts and render_citations numbering."""

from __future__ import annotations

import uuid

import pytest

from pincite import ids
from pincite.corpus import Corpus
from pincite.ground.check import Verdict, check_citations, find_ids
from pincite.ground.fetch import FetchLedger, FetchStatus
from pincite.present.render import render_citations

TEXT_A = "Passwords must be rotated every 90 days.\n\nAdmins use hardware keys."
TEXT_B = "Laptops are encrypted with full-disk encryption."


@pytest.fixture
def setup(corpus: Corpus) -> tuple[Corpus, dict[str, str]]:
    a = corpus.ingest_text(TEXT_A, uri="https://example.org/policy", tenant="acme", title="Policy")
    b = corpus.ingest_text(TEXT_B, uri="/srv/laptops.txt", tenant="acme", title="Laptops")
    c = corpus.ingest_text("Globex secret plans.", uri="u://g", tenant="globex")
    out = {}
    for name, report, tenant in (("a", a, "acme"), ("b", b, "acme"), ("g", c, "globex")):
        assert report.document_id
        version = corpus.versions(report.document_id, tenant=tenant)[0]
        out[name] = corpus.chunks(version)[0].evidence_id
        out[name + "_hash"] = version.hash16
        out[name + "_doc"] = report.document_id
    return corpus, out


def test_verdicts(setup: tuple[Corpus, dict[str, str]]) -> None:
    corpus, e = setup
    ledger = FetchLedger("acme")
    corpus.fetch([e["a"]], tenant="acme", ledger=ledger)
    corpus.fetch([e["g"]], tenant="acme", ledger=ledger)  # another tenant's id: not_found
    invented = ids.encode_chunk(str(uuid.uuid4()), "0" * 16, str(uuid.uuid4()))
    answer = (
        f"Rotate passwords every 90 days ({e['a']}). Encrypt laptops [{e['b']}]. "
        f"Globex does X ({e['g']}). Made up ({invented}). Broken (EV1:C:{e['a_doc']})."
    )
    verdicts = {v.id: v.verdict for v in check_citations(answer, ledger)}
    assert verdicts[e["a"]] is Verdict.VALID
    assert verdicts[e["b"]] is Verdict.UNFETCHED  # real but never read
    assert verdicts[e["g"]] is Verdict.UNFETCHED  # out of scope: same verdict as invented
    assert verdicts[invented] is Verdict.UNFETCHED
    assert verdicts[f"EV1:C:{e['a_doc']}"] is Verdict.MALFORMED


def test_span_inside_a_fetched_chunk_is_valid(setup: tuple[Corpus, dict[str, str]]) -> None:
    corpus, e = setup
    ledger = FetchLedger("acme")
    corpus.fetch([e["a"]], tenant="acme", ledger=ledger)
    inside = ids.encode_span(e["a_doc"], e["a_hash"], 0, 9)
    outside = ids.encode_span(e["a_doc"], e["a_hash"], 0, len(TEXT_A) + 50)
    [v1, v2] = check_citations([inside, outside], ledger)
    assert v1.verdict is Verdict.VALID and v2.verdict is Verdict.UNFETCHED


def test_find_ids_strips_prose_punctuation() -> None:
    doc, chunk = str(uuid.uuid4()), str(uuid.uuid4())
    cid = ids.encode_chunk(doc, "a" * 16, chunk)
    assert find_ids(f"See {cid}. Also ({cid}), [{cid}]") == [cid]


def test_render_numbers_by_first_appearance_and_shares_versions(
    setup: tuple[Corpus, dict[str, str]],
) -> None:
    corpus, e = setup
    span_a = ids.encode_span(e["a_doc"], e["a_hash"], 0, 9)
    outcomes = corpus.fetch([e["a"], e["b"], span_a], tenant="acme")
    text = f"Laptops are encrypted {e['b']}. Rotate {e['a']} and {span_a}."
    rendered = render_citations(text, outcomes)
    assert rendered.text == "Laptops are encrypted [1]. Rotate [2] and [2]."
    [laptops, policy] = rendered.sources
    assert (laptops.number, laptops.title, laptops.is_link) == (1, "Laptops", False)
    assert (policy.number, policy.is_link) == (2, True)
    assert "[Policy](https://example.org/policy)" in str(rendered)
    assert "superseded" not in str(rendered)


def test_render_renderer_cases(setup: tuple[Corpus, dict[str, str]]) -> None:
    """The four renderer cases: valid, unknown id, deleted source, superseded source.

    (A valid source that does not support its claim is the support checker's job.)
    """
    corpus, e = setup
    unknown = ids.encode_chunk(str(uuid.uuid4()), "0" * 16, str(uuid.uuid4()))
    corpus.delete(e["b_doc"], tenant="acme")
    corpus.ingest_text(TEXT_A + "\n\nNew rule.", uri="https://example.org/policy", tenant="acme")
    outcomes = corpus.fetch([e["a"], e["b"], unknown], tenant="acme")
    assert [o.status for o in outcomes] == [
        FetchStatus.OK,
        FetchStatus.DELETED,
        FetchStatus.NOT_FOUND,
    ]
    rendered = render_citations(f"One {e['a']}. Two {e['b']}. Three {unknown}.", outcomes)
    assert rendered.text == f"One [1]. Two {e['b']}. Three {unknown}."
    assert rendered.unresolved == (e["b"], unknown)
    assert "(superseded version)" in str(rendered)
