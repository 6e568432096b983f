"""An acronym the corpus never uses is searched by the words its candidates spell it with."""

from __future__ import annotations

from pathlib import Path

import pytest

import pincite
from pincite.corpus import Corpus
from pincite.embed.base import Embedder
from pincite.retrieve.acronyms import asked_acronyms, expansion, spellings
from pincite.retrieve.search import SearchMode, SearchOptions

SPELLED = "Multi-factor authentication is mandatory for remote access to the network."
# Shares more of the question's own words ("required", "remote", "access") than SPELLED.
DECOY = (
    "Remote access requests are required in writing. A visitor badge is required at "
    "reception, and access to the server room is required to be logged."
)


def test_a_spelling_is_consecutive_words_opening_and_closing_with_content_words() -> None:
    assert spellings("MFA", SPELLED) == [("Multi", "factor", "authentication")]
    assert spellings("BYOD", "Staff may bring your own device to work.") == [
        ("bring", "your", "own", "device")
    ]
    # "can also" opens no acronym; two lower-case initials spell nothing
    assert spellings("CA", "You can also Call Admin.") == [("Call", "Admin")]
    assert spellings("HR", "human resources") == []
    # a lower-case "byod" must be spelled by content words only
    assert spellings("byod", "bring your own device", every_word=True) == []


def test_asked_acronyms_are_upper_case_or_short_unknown_looking_words() -> None:
    assert asked_acronyms("Is MFA required?") == [("MFA", False)]
    assert ("mfa", True) in asked_acronyms("is mfa required")
    assert asked_acronyms("What is PaaS?") == []  # mixed case is a name


def test_expansion_takes_the_most_frequent_spelling_of_an_unused_acronym() -> None:
    texts = ["Mobile Fleet Audit is yearly.", SPELLED, "Multi-factor authentication again."]
    assert expansion("Is MFA on?", texts, unused=lambda w: True) == "multi factor authentication"
    # the corpus uses the acronym itself: its own word finds it
    assert expansion("Is MFA on?", texts, unused=lambda w: w != "mfa") == ""
    assert expansion("Is it on?", texts, unused=lambda w: True) == ""


@pytest.fixture
def spelled_corpus(tmp_path: Path, embedder: Embedder) -> Corpus:
    corpus = pincite.open(tmp_path / "acr.db", embedder=embedder)
    corpus.ingest_text(SPELLED, uri="security", tenant="acme")
    corpus.ingest_text(DECOY, uri="facilities", tenant="acme")
    return corpus


@pytest.mark.parametrize("mode", [SearchMode.LEXICAL, SearchMode.HYBRID])
def test_an_acronym_finds_the_passage_that_spells_it_out(
    spelled_corpus: Corpus, mode: SearchMode
) -> None:
    with spelled_corpus as corpus:
        for question in ("Is MFA required for remote access?", "is mfa required for remote access"):
            hits = corpus.retrieve(question, tenant="acme", options=SearchOptions(mode=mode)).hits
            assert [h.document.uri for h in hits][:1] == ["security"], question


def test_another_tenant_neither_spells_nor_blocks_the_acronym(spelled_corpus: Corpus) -> None:
    with spelled_corpus as corpus:
        # The rival uses "MFA" as a word: that must not count as this tenant using it,
        # and the rival's text must never be read for a spelling.
        corpus.ingest_text(
            "MFA tokens are issued by the Mobile Fleet Agency.", uri="r", tenant="rival"
        )
        opts = SearchOptions(mode=SearchMode.LEXICAL)
        hits = corpus.retrieve(
            "Is MFA required for remote access?", tenant="acme", options=opts
        ).hits
        assert hits[0].document.uri == "security"
        assert all(h.chunk.tenant == "acme" for h in hits)
        # ... and where the acronym is used, its own word finds it
        own = corpus.retrieve("Is MFA required?", tenant="rival", options=opts).hits
        assert [h.document.uri for h in own] == ["r"]


def test_a_scope_decides_what_the_corpus_uses(spelled_corpus: Corpus) -> None:
    with spelled_corpus as corpus:
        corpus.ingest_text(
            "MFA tokens are issued by the Mobile Fleet Agency.", uri="g", tenant="acme"
        )
        docs = {d.uri: d.document_id for d in corpus.documents(tenant="acme")}
        opts = SearchOptions(mode=SearchMode.LEXICAL)
        question = "Is MFA required for remote access?"
        # the glossary uses the acronym, so across the tenant it is searched as it is ...
        whole = corpus.retrieve(question, tenant="acme", options=opts).hits
        assert "g" in [h.document.uri for h in whole] and whole[0].document.uri != "security"
        # ... but inside a scope without it, it is spelled out from the scope's own texts
        scope = (docs["security"], docs["facilities"])
        hits = corpus.retrieve(question, tenant="acme", options=opts, scope=scope).hits
        assert [h.document.uri for h in hits][:1] == ["security"]


def test_the_lexical_search_runs_again_only_for_an_unused_acronym(
    spelled_corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pincite.retrieve import channels

    runs: list[str] = []
    lexical = channels.lexical

    def counting(store, tenant, question, pool, scope):  # type: ignore[no-untyped-def]
        runs.append(question)
        return lexical(store, tenant, question, pool, scope)

    monkeypatch.setattr(channels, "lexical", counting)
    opts = SearchOptions(mode=SearchMode.LEXICAL)
    with spelled_corpus as corpus:
        corpus.retrieve("Is MFA required for remote access?", tenant="acme", options=opts)
        assert runs == [
            "Is MFA required for remote access?",
            "Is MFA required for remote access? multi factor authentication",
        ]
        runs.clear()
        corpus.ingest_text("MFA tokens are issued by IT.", uri="g", tenant="acme")
        corpus.retrieve("Is MFA required for remote access?", tenant="acme", options=opts)
        assert runs == ["Is MFA required for remote access?"]
