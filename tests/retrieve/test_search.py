"""retrieve(): tenants, versions, lifecycle, hostile questions, scope, branches, dedup.

Dense and hybrid tests use the real offline embedder on one thread, on texts
short enough that a test embeds in well under a second.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import pincite
from pincite.corpus import Corpus
from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError, InputError
from pincite.model import RetrievalResult
from pincite.retrieve.search import SearchMode, SearchOptions

ALL_MODES = tuple(SearchMode)

AURORA = (
    "Aurora viewing guide. The northern lights are best seen on clear winter nights "
    "far from city light, when solar activity is high."
)
SOURDOUGH = (
    "Sourdough baking notes. A starter of flour and water ferments for several days "
    "before it can leaven bread dough."
)
TIDES = (
    "Tide tables. The moon's gravity raises two tidal bulges, so most coasts see two "
    "high tides a day."
)
SECRET = (
    "Quokka census report. The quokka population on Rottnest Island was counted by "
    "volunteers walking fixed transects at dawn."
)


def options(mode: SearchMode, **changes: object) -> SearchOptions:
    return replace(SearchOptions(mode=mode), **changes)  # type: ignore[arg-type]


def search(
    corpus: Corpus,
    question: str,
    mode: SearchMode,
    *,
    tenant: str = "acme",
    k: int = 8,
    scope: tuple[str, ...] | None = None,
    **changes: object,
) -> RetrievalResult:
    return corpus.retrieve(
        question, tenant=tenant, k=k, scope=scope, options=options(mode, **changes)
    )


def uris(result: RetrievalResult) -> list[str]:
    return [h.document.uri for h in result.hits]


@pytest.fixture
def hybrid(tmp_path: Path, embedder: Embedder) -> Iterator[Corpus]:
    """A corpus with vectors, tenant ``acme`` holding three unrelated documents."""
    with pincite.open(tmp_path / "hybrid.db", embedder=embedder) as corpus:
        for uri, text in (("aurora", AURORA), ("sourdough", SOURDOUGH), ("tides", TIDES)):
            corpus.ingest_text(text, uri=uri, tenant="acme")
        yield corpus


# -- tenants ----------------------------------------------------------------------


@pytest.mark.parametrize("routing", [True, False])
@pytest.mark.parametrize("mode", ALL_MODES)
def test_another_tenants_best_match_is_never_returned(
    hybrid: Corpus, mode: SearchMode, routing: bool
) -> None:
    hybrid.ingest_text(SECRET, uri="quokka", tenant="rival")
    # The rival's chunk matches the question word for word; acme shares two words.
    question = f"{SECRET} Tide tables."
    result = search(hybrid, question, mode, k=10, routing=routing, min_dense_score=-1.0)
    assert "tides" in uris(result)
    assert all(h.chunk.tenant == "acme" and h.document.tenant == "acme" for h in result.hits)
    assert "quokka" not in uris(result)
    # ... while the rival finds it first.
    own = search(hybrid, question, mode, tenant="rival", routing=routing)
    assert uris(own)[0] == "quokka"


def test_tenant_token_in_the_question_does_not_cross_tenants(corpus: Corpus) -> None:
    from pincite.store.sqlite.fts import tenant_key

    corpus.ingest_text(SECRET, uri="quokka", tenant="rival")
    corpus.ingest_text(AURORA, uri="aurora", tenant="acme")
    question = f'quokka tenant_key : "{tenant_key("rival")}" OR {tenant_key("rival")}'
    assert uris(search(corpus, question, SearchMode.LEXICAL)) == []


# -- versions and lifecycle -----------------------------------------------------------


@pytest.mark.parametrize("mode", ALL_MODES)
def test_superseded_version_is_never_returned(hybrid: Corpus, mode: SearchMode) -> None:
    first = hybrid.ingest_text(SECRET, uri="census", tenant="acme")
    second = hybrid.ingest_text(
        "Census report. Counting penguins on Phillip Island at dusk.", uri="census", tenant="acme"
    )
    assert first.hash16 != second.hash16
    result = search(hybrid, "quokka population Rottnest Island", mode, min_dense_score=-1.0)
    census = [h for h in result.hits if h.document.uri == "census"]
    assert all(h.chunk.hash16 == second.hash16 for h in census)
    assert all("quokka" not in h.chunk.text.lower() for h in result.hits)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_deleted_purged_and_erased_are_never_returned(hybrid: Corpus, mode: SearchMode) -> None:
    ids = {}
    for uri in ("deleted", "purged", "erased"):
        report = hybrid.ingest_text(f"{SECRET} Copy {uri}.", uri=uri, tenant="acme")
        assert report.document_id is not None
        ids[uri] = report.document_id
    question = "quokka census on Rottnest Island"
    assert {"deleted", "purged", "erased"} <= set(uris(search(hybrid, question, mode)))

    hybrid.delete(ids["deleted"], tenant="acme")
    hybrid.purge(ids["purged"], tenant="acme")
    [chunk] = hybrid.chunks(hybrid.versions(ids["erased"], tenant="acme")[-1])
    hybrid.erase(ids["erased"], tenant="acme", chunk_id=chunk.chunk_id)

    result = search(hybrid, question, mode, min_dense_score=-1.0)
    assert not {"deleted", "purged", "erased"} & set(uris(result))
    assert all(not h.chunk.erased and h.chunk.text for h in result.hits)


def test_restored_document_is_found_again(corpus: Corpus) -> None:
    report = corpus.ingest_text(SECRET, uri="quokka", tenant="acme")
    assert report.document_id is not None
    corpus.delete(report.document_id, tenant="acme")
    assert uris(search(corpus, "quokka", SearchMode.LEXICAL)) == []
    corpus.ingest_text(SECRET, uri="quokka", tenant="acme")  # same text: restored
    assert uris(search(corpus, "quokka", SearchMode.LEXICAL)) == ["quokka"]


# -- hostile questions --------------------------------------------------------------------

HOSTILE = [
    '"AND" OR NEAR(x y) *:^',
    '"unbalanced quote',
    "((( nested ) parentheses",
    "body: tides",
    "tides:",
    "col:umn ^start * - + NOT AND OR",
    "tides*",
    "NEAR(tides moon, 2)",
    "'single' \"double\" `back`",
    "{braces} [brackets] <angle>",
    "naïve café Zürich 東京 Ελληνικά 🌊 tides",
    "\x00 control \t chars \n tides",
    "?!.,;",
]


@pytest.mark.parametrize("question", HOSTILE)
def test_operators_and_punctuation_never_error(corpus: Corpus, question: str) -> None:
    corpus.ingest_text(TIDES, uri="tides", tenant="acme")
    result = search(corpus, question, SearchMode.LEXICAL)
    assert all(h.document.uri == "tides" for h in result.hits)


@pytest.mark.parametrize("question", HOSTILE)
def test_operators_and_punctuation_never_error_in_dense_modes(
    hybrid: Corpus, question: str
) -> None:
    for mode in (SearchMode.DENSE, SearchMode.HYBRID):
        search(hybrid, question, mode)


def test_operator_words_are_searched_as_words(corpus: Corpus) -> None:
    corpus.ingest_text("Meet me near the old lighthouse at noon.", uri="near", tenant="acme")
    corpus.ingest_text(
        "The lighthouse keeper logs every passing ship.", uri="keeper", tenant="acme"
    )
    corpus.ingest_text(
        "Light rain is expected over the harbour tomorrow.", uri="light", tenant="acme"
    )
    # NEAR is the word "near", not the FTS5 proximity operator.
    assert uris(search(corpus, "NEAR(x y)", SearchMode.LEXICAL)) == ["near"]
    # ``*`` is not a prefix query: "light*" is the word "light", not "lighthouse".
    assert uris(search(corpus, "light*", SearchMode.LEXICAL)) == ["light"]
    # A column filter in the question is just two words.
    assert set(uris(search(corpus, "body:keeper", SearchMode.LEXICAL))) == {"keeper"}
    # Quotes do not make a phrase that would exclude word-order variants.
    assert uris(search(corpus, '"keeper lighthouse"', SearchMode.LEXICAL))[0] == "keeper"


def test_unicode_words_match_with_and_without_diacritics(corpus: Corpus) -> None:
    corpus.ingest_text("Der Bahnhof in Zürich liegt am Fluss.", uri="zurich", tenant="acme")
    assert uris(search(corpus, "ZÜRICH", SearchMode.LEXICAL)) == ["zurich"]
    assert uris(search(corpus, "zurich?", SearchMode.LEXICAL)) == ["zurich"]


@pytest.mark.parametrize("question", ["", "   ", "\n\t"])
@pytest.mark.parametrize("mode", ALL_MODES)
def test_empty_question_is_an_input_error(hybrid: Corpus, question: str, mode: SearchMode) -> None:
    with pytest.raises(InputError, match="empty"):
        search(hybrid, question, mode)


def test_k_must_be_positive(corpus: Corpus) -> None:
    with pytest.raises(InputError, match="k must be"):
        search(corpus, "tides", SearchMode.LEXICAL, k=0)


@pytest.mark.parametrize("mode", [SearchMode.DENSE, SearchMode.HYBRID])
def test_dense_modes_need_an_embedder(corpus: Corpus, mode: SearchMode) -> None:
    corpus.ingest_text(TIDES, uri="tides", tenant="acme")
    with pytest.raises(ConfigurationError, match="embedder"):
        search(corpus, "tides", mode)


# -- scope ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ALL_MODES)
def test_scope_restricts_documents(hybrid: Corpus, mode: SearchMode) -> None:
    by_uri = {d.uri: d.document_id for d in hybrid.documents(tenant="acme")}
    question = "northern lights on winter nights"
    assert uris(search(hybrid, question, mode))[0] == "aurora"
    scoped = search(hybrid, question, mode, scope=(by_uri["tides"],), min_dense_score=-1.0)
    assert scoped.scope == (by_uri["tides"],)
    assert set(uris(scoped)) <= {"tides"}
    if mode is not SearchMode.LEXICAL:
        assert uris(scoped) == ["tides"]  # dense always finds something in scope
    assert uris(search(hybrid, question, mode, scope=())) == []


# -- branches ---------------------------------------------------------------------------------


def test_branches_in_each_mode(hybrid: Corpus) -> None:
    question = "when are the northern lights best seen"
    [lexical] = search(hybrid, question, SearchMode.LEXICAL, k=1).hits
    assert lexical.branches.lexical_rank == 1 and lexical.branches.lexical_score
    assert lexical.branches.dense_rank is None and lexical.branches.dense_score is None
    assert lexical.branches.fused_score == lexical.score == lexical.branches.lexical_score
    assert lexical.branches.rerank_score is None and lexical.branches.routed is False

    [dense] = search(hybrid, question, SearchMode.DENSE, k=1, routing=False).hits
    assert dense.branches.dense_rank == 1 and dense.branches.lexical_rank is None
    assert dense.score == dense.branches.dense_score
    assert dense.branches.dense_score is not None and 0.2 < dense.branches.dense_score <= 1.0

    [top, *rest] = search(hybrid, question, SearchMode.HYBRID, k=3, routing=False).hits
    assert top.document.uri == "aurora"
    assert top.branches.lexical_rank == 1 and top.branches.dense_rank == 1
    assert top.score == top.branches.fused_score
    assert all(top.score >= h.score for h in rest)


def test_routed_flag_marks_documents_the_router_chose(hybrid: Corpus) -> None:
    question = "when are the northern lights best seen"
    # Route to the single nearest document; lexical hits outside it still count.
    result = search(
        hybrid,
        question,
        SearchMode.HYBRID,
        k=3,
        routing=True,
        route_min_documents=1,
        route_fraction=0.0,
        min_dense_score=-1.0,
    )
    routed = {h.document.uri for h in result.hits if h.branches.routed}
    assert routed == {"aurora"}
    assert all(h.branches.dense_rank is None for h in result.hits if not h.branches.routed)
    # With routing off nothing is marked routed, and dense sees every document.
    off = search(hybrid, question, SearchMode.DENSE, k=3, routing=False, min_dense_score=-1.0)
    assert not any(h.branches.routed for h in off.hits)
    assert len(off.hits) == 3


def test_off_topic_question_finds_nothing_dense(hybrid: Corpus) -> None:
    assert search(hybrid, "zxqv wplk", SearchMode.DENSE).hits == ()


# -- dedup ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ALL_MODES)
def test_near_identical_chunks_are_returned_once(hybrid: Corpus, mode: SearchMode) -> None:
    hybrid.ingest_text(SECRET, uri="copy-1", tenant="acme")
    hybrid.ingest_text(SECRET.replace(".", " ."), uri="copy-2", tenant="acme")
    question = "quokka census Rottnest Island"
    result = search(hybrid, question, mode)
    assert len({"copy-1", "copy-2"} & set(uris(result))) == 1
    assert uris(result)[0] in {"copy-1", "copy-2"}
    both = search(hybrid, question, mode, dedup=False)
    assert {"copy-1", "copy-2"} <= set(uris(both))


def test_dedup_still_fills_k_from_later_candidates(corpus: Corpus) -> None:
    for i in range(12):
        corpus.ingest_text(f"{SECRET}", uri=f"copy-{i}", tenant="acme")
    for i in range(5):
        corpus.ingest_text(
            f"Quokka sighting number {i} near the ferry.", uri=f"s{i}", tenant="acme"
        )
    result = search(corpus, "quokka", SearchMode.LEXICAL, k=6)
    assert len(result.hits) == 6
    assert sum(u.startswith("copy-") for u in uris(result)) == 1


# -- fusion -----------------------------------------------------------------------------------


def test_default_fusion_is_the_tuned_convex_combination() -> None:
    from pincite.retrieve.fuse import FusionMethod, Normalization

    defaults = SearchOptions()
    assert defaults.fusion is FusionMethod.CONVEX
    assert defaults.normalization is Normalization.THEORETICAL_MIN
    assert defaults.weights == (("lexical", 0.3), ("dense", 0.7)) and defaults.candidates == 100


def test_fuse_channels_scores_absent_chunks_at_a_complete_lists_floor() -> None:
    from pincite.retrieve.channels import dense_ranked, lexical_ranked
    from pincite.retrieve.search import fuse_channels

    options = SearchOptions(weights=(("lexical", 0.2), ("dense", 0.8)))  # floor 0.2
    lexical = lexical_ranked([("only-lexical", 4.0)])  # complete: fewer hits than asked
    dense = dense_ranked([("only-dense", 0.6), ("both", 0.5)], options.min_dense_score)
    fused = dict(fuse_channels([lexical, dense], options, depth=10))
    assert set(fused) == {"only-lexical", "only-dense", "both"}
    # BM25 / max: the lexical hit scores 1, chunks without a query word 0 (not 1,
    # the one-hit list's minimum). Cosines: (cos + 1) / (max + 1), absent → floor.
    assert fused["only-dense"] == pytest.approx(0.2 * 0 + 0.8 * 1.0)
    assert fused["both"] == pytest.approx(0.2 * 0 + 0.8 * 1.5 / 1.6)
    assert fused["only-lexical"] == pytest.approx(0.2 * 1 + 0.8 * 1.2 / 1.6)
    # A full list (as long as the depth) gives absent chunks its lowest score instead.
    truncated = dict(fuse_channels([lexical, dense], options, depth=1))
    assert truncated["only-dense"] == pytest.approx(0.2 * 1 + 0.8 * 1.0)


def test_fuse_channels_plain_rrf_and_bad_weights() -> None:
    from pincite.retrieve.channels import dense_ranked, lexical_ranked
    from pincite.retrieve.fuse import FusionMethod
    from pincite.retrieve.search import fuse_channels

    plain = (("lexical", 1.0), ("dense", 1.0))
    rrf_options = SearchOptions(fusion=FusionMethod.RRF, weights=plain)
    pair = [lexical_ranked([("a", 3.0), ("b", 1.0)]), dense_ranked([("b", 0.9)], 0.2)]
    fused = fuse_channels(pair, rrf_options, depth=10)
    assert fused == [("b", pytest.approx(1 / 62 + 1 / 61)), ("a", pytest.approx(1 / 61))]
    zero = (("lexical", 0.0), ("dense", 0.0))
    with pytest.raises(InputError, match="weights"):
        fuse_channels(pair, SearchOptions(weights=zero), depth=10)
    with pytest.raises(InputError, match="no fusion weight for channel 'dense'"):
        fuse_channels(pair, SearchOptions(weights=(("lexical", 1.0),)), depth=10)


def test_fusion_takes_any_number_of_channels() -> None:
    from pincite.retrieve.channels import Ranked, lexical_ranked
    from pincite.retrieve.search import fuse_channels

    # A third channel (say, titles) is one more Ranked list with its own weight.
    titles = Ranked("title", (("c", 2.0), ("a", 1.0)), lower_bound=0.0, floor=0.0)
    weights = (("lexical", 0.5), ("title", 0.5))
    fused = fuse_channels(
        [lexical_ranked([("a", 4.0), ("b", 2.0)]), titles],
        SearchOptions(weights=weights),
        depth=10,
    )
    scores = dict(fused)
    assert scores["a"] == pytest.approx(0.5 * 1.0 + 0.5 * 0.5)
    assert scores["b"] == pytest.approx(0.5 * 0.5)
    assert scores["c"] == pytest.approx(0.5 * 1.0)
    assert [c for c, _ in fused] == ["a", "c", "b"]
