"""Sources are numbered once: terminal, JSON and HTTP show the same numbers for one answer."""

from __future__ import annotations

import re

import pytest

from pincite.agent import AgentResult
from pincite.answer.pipeline import AnswerResult, Outcome
from pincite.citation import INFERENCE_LABEL, CitedAnswer, Claim, ClaimKind
from pincite.corpus import Corpus
from pincite.ground.cite import Retrieved, cite
from pincite.present.answer import answer_json, format_answer
from pincite.present.render import render_citations
from pincite.retrieve.search import SearchMode, SearchOptions
from pincite.server.present import answer_out

TITLES = ("Alpha retention", "Beta retention", "Gamma retention")


@pytest.fixture
def retrieved(corpus: Corpus) -> Retrieved:
    for title in TITLES:
        text = f"{title}.\n\nInvoices are retained for {len(title)} years under {title}."
        corpus.ingest_text(
            text, uri=f"https://acme.example/{title[:5]}", tenant="acme", title=title
        )
    result = corpus.retrieve(
        "invoices retained", tenant="acme", options=SearchOptions(mode=SearchMode.LEXICAL)
    )
    assert len({h.document.title for h in result.hits}) == 3
    return cite(result)


def _link(evidence_id: str) -> str:
    return f"/view/{evidence_id}"


def _answer(retrieved: Retrieved) -> AnswerResult:
    """Claims cite documents out of rank order, one document twice, one claim two documents."""
    a, b, c = (next(x for x in retrieved if x.locator.title == t) for t in TITLES)
    claims = (
        Claim("First.", (c.citation_id,)),
        Claim("Second.", (a.citation_id, c.citation_id)),
        Claim("Third.", (b.citation_id,), ClaimKind.INFERENCE),
    )
    return AnswerResult("q", "acme", Outcome.ANSWERED, CitedAnswer(claims, (a, b, c)))


def _terminal_numbers(text: str) -> dict[str, int]:
    """Title → number from the Sources lines, linked (``[title](url)``) or not."""
    sources = text.split("\nSources:\n", 1)[1]
    lines = re.findall(r"^\[(\d+)\] (?:\[(.+?)\]\(.*?\)|(.+?)) — version", sources, re.M)
    return {linked or plain: int(n) for n, linked, plain in lines}


def test_terminal_json_and_http_number_sources_alike(corpus: Corpus, retrieved: Retrieved) -> None:
    result = _answer(retrieved)
    expected = {"Gamma retention": 1, "Alpha retention": 2, "Beta retention": 3}
    terminal = format_answer(result, corpus.store)
    as_json = {s["title"]: s["number"] for s in answer_json(result)["sources"]}
    http = answer_out(result, _link)
    assert _terminal_numbers(terminal) == as_json == expected
    assert {s.title: s.number for s in http.sources} == expected
    assert _terminal_numbers(http.text) == expected
    body = f"First. [1] Second. [2][1] {INFERENCE_LABEL} Third. [3]"
    assert terminal.startswith(body + "\n") and http.text.startswith(body + "\n")


def test_an_agent_answer_is_numbered_by_the_same_renderers(
    corpus: Corpus, retrieved: Retrieved
) -> None:
    a, b, _ = retrieved.citations
    draft = f"One. {b.evidence_id} Two. {a.evidence_id} Three. {b.evidence_id}"
    rendered = render_citations(draft, corpus.fetch([a.evidence_id, b.evidence_id], tenant="acme"))
    result = AgentResult("q", "acme", Outcome.ANSWERED, None, rendered=rendered, draft=draft)
    titles = [b.locator.title, a.locator.title]
    assert rendered.text == "One. [1] Two. [2] Three. [1]"
    assert [s["title"] for s in answer_json(result)["sources"]] == titles
    assert [s.title for s in answer_out(result, _link).sources] == titles
    terminal = format_answer(result, corpus.store)
    assert terminal.startswith(rendered.text) and list(_terminal_numbers(terminal)) == titles
    assert result.as_dict()["sources"] == answer_json(result)["sources"]
