"""fetch_evidence details the mutation run found unchecked: ledger files, limits, locators."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pincite import ids
from pincite.citation import CitedAnswer, Claim
from pincite.corpus import Corpus
from pincite.errors import InputError, UngroundedCitationError
from pincite.ground.cite import check_grounding, cite
from pincite.ground.fetch import FetchLedger, FetchStatus, _covered, fetch_evidence
from pincite.model import Chunk

MARKDOWN = b"# Retention\n\nCustomer records are kept for seven years.\n"


@pytest.fixture
def doc(corpus: Corpus) -> str:
    report = corpus.ingest_bytes(MARKDOWN, uri="u://policy.md", filename="policy.md", tenant="acme")
    assert report.document_id is not None
    return report.document_id


def _chunk(corpus: Corpus, doc: str):  # type: ignore[no-untyped-def]
    version = corpus.versions(doc, tenant="acme")[-1]
    return version, corpus.chunks(version)[0]


def test_ledger_round_trips_through_its_file(corpus: Corpus, doc: str, tmp_path: Path) -> None:
    _, chunk = _chunk(corpus, doc)
    ledger = FetchLedger("acme")
    corpus.fetch([chunk.evidence_id], tenant="acme", ledger=ledger)
    path = tmp_path / "ledger.json"
    ledger.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["tenant"] == "acme" and list(data["fetched"]) == [chunk.evidence_id]
    loaded = FetchLedger.load(path)
    assert (loaded.tenant, loaded.entries) == ("acme", ledger.entries)
    assert loaded.entries[chunk.evidence_id].end == chunk.end


def test_ledger_load_errors_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"ledger\.json: ledger file not found"):
        FetchLedger.load(tmp_path / "ledger.json")
    (tmp_path / "bad.json").write_text('{"tenant": "acme"}', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json: not a pincite ledger \('fetched'\)"):
        FetchLedger.load(tmp_path / "bad.json")


def test_span_ending_exactly_at_a_fetched_passage_is_covered(corpus: Corpus, doc: str) -> None:
    version, chunk = _chunk(corpus, doc)
    ledger = FetchLedger("acme")
    corpus.fetch([chunk.evidence_id], tenant="acme", ledger=ledger)
    tail = ids.encode_span(doc, version.hash16, chunk.end - 6, chunk.end)
    assert ledger.covers(ids.decode(tail), tail)


def test_max_chars_limits(corpus: Corpus, doc: str) -> None:
    _, chunk = _chunk(corpus, doc)
    eid = chunk.evidence_id
    with pytest.raises(InputError, match=r"^max_chars must be at least 1$"):
        fetch_evidence(corpus.store, [eid], tenant="acme", max_chars=0)
    [one] = fetch_evidence(corpus.store, [eid], tenant="acme", max_chars=1)
    assert (one.status, one.text) == (FetchStatus.TRUNCATED, chunk.text[0])
    [exact] = fetch_evidence(corpus.store, [eid], tenant="acme", max_chars=len(chunk.text))
    assert (exact.status, exact.text) == (FetchStatus.OK, chunk.text)


def test_a_partial_read_stays_partial_when_also_truncated(corpus: Corpus) -> None:
    report = corpus.ingest_text("   alpha beta gamma   ", uri="u://ws", tenant="acme")
    assert report.document_id
    version = corpus.versions(report.document_id, tenant="acme")[0]
    sid = ids.encode_span(report.document_id, version.hash16, 0, len(version.text))
    [outcome] = fetch_evidence(corpus.store, [sid], tenant="acme", max_chars=3)
    assert (outcome.status, outcome.text) == (FetchStatus.PARTIAL, "alp")


def test_ledger_of_another_tenant_is_refused(corpus: Corpus, doc: str) -> None:
    _, chunk = _chunk(corpus, doc)
    with pytest.raises(InputError, match=r"^the ledger belongs to another tenant$"):
        fetch_evidence(corpus.store, [chunk.evidence_id], tenant="acme", ledger=FetchLedger("b"))


def test_outcomes_echo_the_id_asked_for(corpus: Corpus, doc: str) -> None:
    version, _ = _chunk(corpus, doc)
    missing = ids.encode_span(doc, version.hash16, 0, 10_000)
    malformed, not_found = fetch_evidence(corpus.store, ["ev1:zz", missing], tenant="acme")
    assert (malformed.id, malformed.status) == ("ev1:zz", FetchStatus.MALFORMED)
    assert (not_found.id, not_found.status) == (missing, FetchStatus.NOT_FOUND)


def test_ok_outcome_carries_its_locator(corpus: Corpus, doc: str) -> None:
    version, _ = _chunk(corpus, doc)
    # A span inside the chunk gets the section of the chunk it touches.
    start = version.text.index("seven")
    sid = ids.encode_span(doc, version.hash16, start, start + 5)
    [o] = corpus.fetch([sid], tenant="acme")
    assert (o.status, o.text, o.section) == (FetchStatus.OK, "seven", ("Retention",))
    assert (o.document_id, o.hash16, o.start, o.end) == (doc, version.hash16, start, start + 5)
    assert (o.uri, o.superseded, o.current_hash16) == ("u://policy.md", False, None)
    assert "current_hash16" not in o.as_dict()
    assert o.as_dict()["section"] == ["Retention"] and o.as_dict()["status"] == "ok"


def test_deleted_outcome_keeps_the_locator_but_no_text(corpus: Corpus, doc: str) -> None:
    version, chunk = _chunk(corpus, doc)
    corpus.delete(doc, tenant="acme")
    [o] = corpus.fetch([chunk.evidence_id], tenant="acme")
    assert (o.id, o.status, o.text) == (chunk.evidence_id, FetchStatus.DELETED, "")
    assert (o.document_id, o.hash16, o.start, o.end) == (
        doc,
        version.hash16,
        chunk.start,
        chunk.end,
    )
    assert (o.uri, o.superseded) == ("u://policy.md", False)


def test_superseded_outcome_names_the_current_version(corpus: Corpus, doc: str) -> None:
    _, old = _chunk(corpus, doc)
    corpus.ingest_bytes(
        MARKDOWN.replace(b"seven", b"ten"), uri="u://policy.md", filename="policy.md", tenant="acme"
    )
    current = corpus.versions(doc, tenant="acme")[-1]
    [o] = corpus.fetch([old.evidence_id], tenant="acme")
    assert (o.status, o.superseded, o.current_hash16) == (FetchStatus.OK, True, current.hash16)
    assert o.as_dict()["current_hash16"] == current.hash16


# -- several chunks: coverage, sections, erasure boundaries -------------------
# The chunker leaves one uncovered character between neighbouring chunks, so
# spans can start, end or lie exactly on a gap.

_BODY = " ".join(f"Sentence number {i} says something about records." for i in range(40))
LONG = f"# Retention\n\n{_BODY}\n\n# Access\n\n{_BODY.replace('records', 'access')}\n".encode()


@pytest.fixture
def long_doc(corpus: Corpus):  # type: ignore[no-untyped-def]
    report = corpus.ingest_bytes(LONG, uri="u://long.md", filename="long.md", tenant="acme")
    assert report.document_id is not None
    version = corpus.versions(report.document_id, tenant="acme")[0]
    chunks = corpus.chunks(version)
    assert len(chunks) == 4 and chunks[1].start == chunks[0].end + 1
    return report.document_id, version, chunks


def _span(corpus: Corpus, doc: str, hash16: str, start: int, end: int):  # type: ignore[no-untyped-def]
    [outcome] = corpus.fetch([ids.encode_span(doc, hash16, start, end)], tenant="acme")
    return outcome


def test_a_span_across_the_blank_between_chunks_is_whole(corpus: Corpus, long_doc) -> None:  # type: ignore[no-untyped-def]
    # A quote running on into the next paragraph (as a re-anchored one may) loses
    # nothing to the whitespace no chunk holds, so it is neither partial nor, for
    # a stale answer, "erased".
    doc, version, (c0, c1, *_) = long_doc
    cut = c1.start + (c1.end - c1.start) // 2
    across = _span(corpus, doc, version.hash16, c0.start, cut)
    assert (across.status, across.start, across.end) == (FetchStatus.OK, c0.start, cut)
    assert across.text == version.text[c0.start : cut]


def test_a_span_on_a_gap_alone_is_not_found(corpus: Corpus, long_doc) -> None:  # type: ignore[no-untyped-def]
    doc, version, (c0, c1, *_) = long_doc
    assert _span(corpus, doc, version.hash16, c0.end, c1.start).status is FetchStatus.NOT_FOUND


def test_section_comes_from_the_chunk_the_span_touches(corpus: Corpus, long_doc) -> None:  # type: ignore[no-untyped-def]
    doc, version, chunks = long_doc
    last = chunks[-1]
    outcome = _span(corpus, doc, version.hash16, last.start, last.start + 8)
    assert (outcome.status, outcome.section) == (FetchStatus.OK, ("Access",))


def test_erasure_marks_only_spans_that_overlap_it(corpus: Corpus, long_doc) -> None:  # type: ignore[no-untyped-def]
    doc, version, (c0, c1, *_) = long_doc
    corpus.erase(doc, tenant="acme", chunk_id=c1.chunk_id)
    [kept] = corpus.fetch([c0.evidence_id], tenant="acme")
    assert kept.status is FetchStatus.OK
    # Ends exactly where the erased chunk starts: touches it, does not overlap it.
    up_to = _span(corpus, doc, version.hash16, c0.end - 10, c1.start)
    assert up_to.status is FetchStatus.PARTIAL and up_to.end == c0.end
    assert _span(corpus, doc, version.hash16, c1.start, c1.start + 5).status is FetchStatus.ERASED


def test_as_dict_is_plain_json_types(corpus: Corpus, doc: str) -> None:
    _, chunk = _chunk(corpus, doc)
    [o] = corpus.fetch([chunk.evidence_id], tenant="acme")
    data = o.as_dict()
    assert type(data["status"]) is str and data["status"] == "ok"
    assert type(data["pages"]) is list and type(data["section"]) is list


def test_deleted_old_version_keeps_title_and_superseded_marker(corpus: Corpus, doc: str) -> None:
    _, old = _chunk(corpus, doc)
    corpus.ingest_bytes(
        MARKDOWN.replace(b"seven", b"ten"), uri="u://policy.md", filename="policy.md", tenant="acme"
    )
    current = corpus.versions(doc, tenant="acme")[-1]
    [ok] = corpus.fetch([old.evidence_id], tenant="acme")
    corpus.delete(doc, tenant="acme")
    [o] = corpus.fetch([old.evidence_id], tenant="acme")
    assert (o.status, o.superseded, o.current_hash16) == (FetchStatus.DELETED, True, current.hash16)
    assert o.title == ok.title and o.title


# -- _covered on its own: the merge step the chunker's gaps never reach -------
# (Stores of other chunkers, or a future overlap setting, can produce adjacent
# or overlapping chunks; the merge must then join them.)


def _c(start: int, end: int) -> Chunk:
    return Chunk("c", "acme", "d", "h" * 64, 0, start, end, "", "")


def test_covered_joins_adjacent_and_overlapping_chunks() -> None:
    text = "x" * 50
    chunks = [_c(0, 10), _c(10, 20), _c(15, 30), _c(40, 45)]
    assert _covered(chunks, 0, 45, text) == (0, 30)
    assert _covered(chunks, 5, 12, text) == (5, 12)
    assert _covered([_c(0, 10), _c(5, 8), _c(12, 40)], 0, 40, text) == (12, 40)
    assert _covered(chunks, 30, 40, text) is None
    # a gap of whitespace between two chunks joins them; one holding text does not
    blank = "x" * 10 + "\n\n" + "x" * 38
    assert _covered([_c(0, 10), _c(12, 40)], 0, 40, blank) == (0, 40)
    assert _covered([_c(0, 10), _c(12, 40)], 0, 40, text) == (12, 40)


def test_purged_chunk_fails_the_stored_check(corpus: Corpus, doc: str) -> None:
    retrieved = cite(corpus.retrieve("records kept", tenant="acme"))
    answer = CitedAnswer((Claim("x", (retrieved[0].citation_id,)),), (retrieved[0],))
    corpus.purge(doc, tenant="acme")
    with pytest.raises(UngroundedCitationError, match="no longer matches the stored chunk"):
        check_grounding(answer, retrieved, store=corpus.store)


def test_ids_minted_before_a_whole_document_erasure_resolve_to_tombstones(
    corpus: Corpus,
    long_doc,  # type: ignore[no-untyped-def]
) -> None:
    doc, version, chunks = long_doc
    before = [
        chunks[0].evidence_id,
        chunks[2].evidence_id,
        ids.encode_span(doc, version.hash16, 5, 20),
    ]
    other = corpus.ingest_text("Another document.", uri="u://other", tenant="acme").document_id
    assert other is not None
    # The same chunk uuid under another document of the tenant names nothing.
    forged = ids.encode_chunk(other, version.hash16, chunks[0].chunk_id)
    corpus.erase(doc, tenant="acme")
    outcomes = corpus.fetch([*before, forged], tenant="acme")
    assert [o.status for o in outcomes] == [FetchStatus.ERASED] * 3 + [FetchStatus.NOT_FOUND]
    assert [(o.start, o.end) for o in outcomes[:3]] == [
        (chunks[0].start, chunks[0].end),
        (chunks[2].start, chunks[2].end),
        (5, 20),
    ]
    assert all(o.document_id == doc and o.text == "" for o in outcomes[:3])
    assert [o.status for o in corpus.fetch(before, tenant="globex")] == [FetchStatus.NOT_FOUND] * 3


def test_a_span_starting_where_an_erased_chunk_ends_is_not_erased(
    corpus: Corpus,
    long_doc,  # type: ignore[no-untyped-def]
) -> None:
    doc, version, (_, c1, c2, _) = long_doc
    corpus.erase(doc, tenant="acme", chunk_id=c1.chunk_id)
    after = _span(corpus, doc, version.hash16, c1.end, c2.start + 5)
    assert (after.status, after.start, after.end) == (FetchStatus.PARTIAL, c2.start, c2.start + 5)


def test_outcome_carries_the_page_and_printed_label_of_its_chunk(corpus: Corpus) -> None:
    body = " ".join(f"Sentence {i} about records." for i in range(30))
    footer = "Fielding, et al.            Standards Track                    [Page {}]\n"
    text = f"Intro.\n\n{body}\n\n{footer.format(7)}\f\n{body}\n\n{footer.format(8)}"
    report = corpus.ingest_text(text, uri="u://rfc.txt", tenant="acme")
    assert report.document_id
    version = corpus.versions(report.document_id, tenant="acme")[0]
    first, second = corpus.chunks(version)
    outcomes = corpus.fetch([first.evidence_id, second.evidence_id], tenant="acme")
    assert [(o.pages, o.page_label) for o in outcomes] == [((1,), "7"), ((2,), "8")]


def test_an_unknown_chunk_of_a_known_document_is_not_found(corpus: Corpus, doc: str) -> None:
    unknown = ids.encode_chunk(doc, "0" * 16, "00000000-0000-4000-8000-000000000000")
    assert corpus.fetch([unknown], tenant="acme")[0].status is FetchStatus.NOT_FOUND
