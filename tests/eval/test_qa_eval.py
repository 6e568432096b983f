"""`pincite eval qa` end to end on a tiny corpus written here (never the shared data)."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pincite
from pincite.cli.app import cli
from pincite.embed.base import Embedder
from pincite.eval.qa import load_questions, pick_refusal_threshold, run_qa_eval
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator
from pincite.generate.openai import OpenAIGenerator
from pincite.support.heuristic import support_checker_for

# The HTTP test double for paid model APIs lives beside the generator tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "generate"))
from fake_provider import FakeAPI, recording, serve

RETENTION = "Billing records are kept for seven years after the account closes."
DOCS = {
    "retention.txt": "Records retention policy\n\n"
    + RETENTION
    + " Paper copies are scanned and shredded within 30 days.",
    "backup.txt": "Backup policy\n\nBackups of the billing database are encrypted and copied "
    "to a second site every night. Restores are tested once a quarter.",
    "travel.txt": "Travel policy\n\nEmployees book economy class for flights under six hours. "
    "Hotel costs are reimbursed up to the city rate published by finance.",
}
QUESTIONS = [
    {
        "id": "retention",
        "question": "How long are billing records kept?",
        "answerable": True,
        "gold_passages": [RETENTION],
        "gold_answer": "seven years",
        "document": "retention.txt",
        "kind": "number",
    },
    {
        "id": "restores",
        "question": "How often are backup restores tested?",
        "answerable": True,
        "gold_passages": ["Restores are tested once a quarter."],
        "gold_answer": "once a quarter",
        "kind": "number",
    },
    {
        "id": "parking",
        "question": "Where do visitors park their cars?",
        "answerable": False,
        "gold_passages": [],
        "gold_answer": "",
        "kind": "other",
    },
]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    db = tmp_path / "policies.db"
    with pincite.open(db, embedder=None) as corpus:
        for name, text in DOCS.items():
            path = tmp_path / name
            path.write_text(text, encoding="utf-8")
            corpus.ingest_path(path)
    return db


@pytest.fixture
def questions(tmp_path: Path) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return path


def run_cli(*args: str) -> Any:
    return CliRunner().invoke(cli, ["eval", "qa", *args])


def test_json_report_on_a_lexical_store(store: Path, questions: Path) -> None:
    result = run_cli(str(questions), "--db", str(store), "--embedder", "none", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    s = report["summary"]
    assert s["questions"] == 3
    assert (s["answers"]["answerable"], s["answers"]["unanswerable"]) == (2, 1)
    # three short documents: lexical search finds each gold passage at the top
    assert s["retrieval"] == {
        "lexical": {"recall@1": 1.0, "recall@3": 1.0, "recall@5": 1.0, "recall@10": 1.0}
    }
    assert s["gold_not_found"] == []
    by_id = {q["id"]: q for q in report["questions"]}
    assert by_id["retention"]["ranks"] == {"lexical": 1}
    assert by_id["parking"]["ranks"] == {"lexical": None}
    for q in report["questions"]:
        if not q["answered"]:
            assert not q["cited_gold"] and not q["answer_in_cited"] and not q["verdicts"]
        assert q["timings_ms"]["total"] >= q["timings_ms"]["generate"] >= 0
    assert set(s["latency"]) == {"embed", "retrieve", "generate", "check", "total"}
    assert report["settings"]["generator"] and report["settings"]["per_document"] is False


def test_tradeoff_sweeps_the_extractive_threshold(store: Path, questions: Path) -> None:
    with pincite.open(store, embedder=None) as corpus:
        generator = corpus.generator
        report = run_qa_eval(
            corpus.store,
            None,
            load_questions(questions),
            generator,
            support_checker_for(None),
            tenant="default",
        )
    assert report.settings["threshold_over"] == "extractive answer score"
    assert report.settings["threshold"] == generator.threshold  # type: ignore[attr-defined]
    curve = report.tradeoff
    assert len(curve) == 41
    coverage = [c for _, c, _ in curve]
    refusal = [r for _, _, r in curve]
    assert coverage == sorted(coverage, reverse=True) and refusal == sorted(refusal)
    # with no threshold at all, the answerable questions get at least what they got as configured
    assert coverage[0] >= report.summary["answers"]["cited_gold"]
    assert curve[0][0] < curve[-1][0]  # swept from the lowest score to the highest


def test_the_threshold_rule_alone_picks_what_the_report_prints(store: Path, tmp_path: Path) -> None:
    # Near-misses: the right documents, a fact they do not state, so each gets an
    # answer when nothing is refused and the rule has scores to set a threshold by.
    near_misses = [
        {"id": "paper", "question": "How long are paper copies of billing records kept?"},
        {"id": "flights", "question": "How long may economy flights to the second site be?"},
    ]
    path = tmp_path / "near.jsonl"
    rows = QUESTIONS + [
        q | {"answerable": False, "gold_passages": [], "gold_answer": "", "kind": "other"}
        for q in near_misses
    ]
    path.write_text("".join(json.dumps(q) + "\n" for q in rows), encoding="utf-8")
    with pincite.open(store, embedder=None) as corpus:
        generator = corpus.generator
        asked = load_questions(path)
        support = support_checker_for(None)
        report = run_qa_eval(corpus.store, None, asked, generator, support, tenant="default")
        alone = pick_refusal_threshold(
            corpus.store,
            None,
            asked,
            generator,  # type: ignore[arg-type]
            support,
            tenant="default",
        )
    printed = report.settings["refusal_threshold"]
    assert printed is not None and printed > 0
    assert alone == printed, (alone, printed)


def test_html_report_is_self_contained(store: Path, questions: Path, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = run_cli(str(questions), "--db", str(store), "--embedder", "none", "--html", str(page))
    assert result.exit_code == 0, result.output
    assert "recall@1" in result.stdout and "unanswerable refused" in result.stdout
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") >= 2  # recall@k curves and the trade-off
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)  # nothing to fetch
    assert "retention" in text and "parking" in text


def test_mistakes_are_one_line_errors(store: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(QUESTIONS[0]) + "\n{not json\n", encoding="utf-8")
    result = run_cli(str(bad), "--db", str(store), "--embedder", "none")
    assert result.exit_code == 1
    assert f"{bad}:2: not JSON" in result.output and "Traceback" not in result.output
    empty = tmp_path / "empty.db"
    good = tmp_path / "q.jsonl"
    good.write_text(json.dumps(QUESTIONS[0]) + "\n", encoding="utf-8")
    result = run_cli(str(good), "--db", str(empty), "--embedder", "none")
    assert result.exit_code == 1 and "no pincite store at" in result.output
    assert not empty.exists()
    pincite.open(empty, embedder=None).close()  # a store, with nothing ingested
    result = run_cli(str(good), "--db", str(empty), "--embedder", "none")
    assert result.exit_code == 1 and "has no documents" in result.output


def test_missing_matplotlib_is_one_line(
    store: Path, questions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import now raises ImportError
    out = tmp_path / "r.html"
    result = run_cli(str(questions), "--db", str(store), "--embedder", "none", "--html", str(out))
    assert result.exit_code == 1
    assert "--html needs matplotlib: pip install matplotlib" in result.output and not out.exists()


def test_per_document_searches_only_the_named_document(store: Path, questions: Path) -> None:
    result = run_cli(
        str(questions), "--db", str(store), "--embedder", "none", "--per-document", "--json"
    )
    assert result.exit_code == 0, result.output
    by_id = {q["id"]: q for q in json.loads(result.stdout)["questions"]}
    assert by_id["retention"]["ranks"] == {"lexical": 1}
    other = QUESTIONS[0] | {"document": "travel.txt"}
    with pincite.open(store, embedder=None) as corpus:
        # gold text searched for in the named document only: not found there
        report = run_qa_eval(
            corpus.store,
            None,
            [load_one(other)],
            corpus.generator,
            support_checker_for(None),
            tenant="default",
            per_document=True,
        )
    (o,) = report.outcomes
    assert not o.gold_found and o.ranks == {"lexical": None}


def test_a_fact_two_documents_state_is_gold_in_either(store: Path, tmp_path: Path) -> None:
    # An archive rule restates the retention policy in other words; a question
    # that names neither document is answered correctly from either one.
    archived = "Closed accounts have their billing files archived, not deleted."
    with pincite.open(store, embedder=None) as corpus:
        path = tmp_path / "archive.txt"
        path.write_text("Archive rules\n\n" + archived, encoding="utf-8")
        corpus.ingest_path(path)
        only_archive = QUESTIONS[0] | {"document": "archive.txt", "gold_passages": [archived]}
        either = QUESTIONS[0] | {
            "document": ["archive.txt", "retention.txt"],
            "gold_passages": [archived, RETENTION],
        }
        outcomes = {}
        # What counts as gold is under test, not refusal: the words-only answerer
        # answers with what ranks first, whatever its score.
        answerer = ExtractiveGenerator(None, ExtractiveConfig(threshold_lexical=-1.0))
        for name, row in (("archive", only_archive), ("either", either)):
            report = run_qa_eval(
                corpus.store,
                None,
                [load_one(row)],
                answerer,
                support_checker_for(None),
                tenant="default",
            )
            (outcomes[name],) = report.outcomes
    assert outcomes["archive"].gold_found and outcomes["either"].gold_found
    # the answer quotes the retention policy: gold only where that document is named
    assert outcomes["archive"].answered and not outcomes["archive"].cited_gold
    assert outcomes["either"].answered and outcomes["either"].cited_gold


def load_one(row: dict[str, Any]) -> Any:
    from pincite.eval.qa_metrics import parse_question

    return parse_question(row, "test")


@pytest.fixture
def dense_store(tmp_path: Path, embedder: Embedder) -> Iterator[pincite.Corpus]:
    with pincite.open(tmp_path / "dense.db", embedder=embedder) as corpus:
        for name, text in DOCS.items():
            corpus.ingest_text(text, uri=name)
        yield corpus


def test_every_mode_is_scored_with_an_embedder(
    dense_store: pincite.Corpus, questions: Path
) -> None:
    report = run_qa_eval(
        dense_store.store,
        dense_store.embedder,
        load_questions(questions),
        dense_store.generator,
        dense_store.support,
        tenant="default",
    )
    assert set(report.summary["retrieval"]) == {"lexical", "dense", "hybrid"}
    for mode in ("lexical", "dense", "hybrid"):
        assert report.summary["retrieval"][mode]["recall@3"] == 1.0
    embedded = [o.timings_ms["embed"] for o in report.outcomes]
    assert all(ms > 0 for ms in embedded)  # the question was embedded, and timed as such


def test_an_llm_generator_gets_the_same_evaluation(store: Path, questions: Path) -> None:
    """Through the HTTP double of a paid OpenAI-compatible API: one cited answer, refusals."""

    def tool_reply(arguments: dict[str, Any]) -> dict[str, Any]:
        body = recording("openai_tool_call.json")
        body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = json.dumps(
            arguments
        )
        return body

    claim = {"text": RETENTION, "used_excerpt_numbers": [1], "kind": "fact", "quote": RETENTION}
    api: FakeAPI
    with serve() as api:
        api.reply(tool_reply({"claims": [claim], "sufficient_context": True}))
        api.reply(tool_reply({"claims": [], "sufficient_context": False}))
        receipts = {
            "id": "receipts",
            "question": "How long does finance keep hotel receipts?",
            "answerable": False,
        }
        # parking matches no stored word: refused with no model call at all
        rows = [QUESTIONS[0], receipts, QUESTIONS[2]]
        path = questions.with_name("two.jsonl")
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        with (
            pincite.open(store, embedder=None) as corpus,
            OpenAIGenerator(
                api.base + "/v1", "gpt-test", api_key="sk-test", retry_backoff=0
            ) as llm,
        ):
            report = run_qa_eval(
                corpus.store,
                None,
                load_questions(path),
                llm,
                support_checker_for(None),
                tenant="default",
            )
        assert len(api.received) == 2
    retention, receipts, parking = report.outcomes
    assert retention.answered and retention.cited_gold and retention.answer_in_cited
    assert retention.verdicts and retention.verdicts[0] in {"supported", "partial"}
    assert retention.timings_ms["generate"] > 0
    assert not receipts.answered and not parking.answered
    assert parking.timings_ms["generate"] == 0
    assert report.summary["answers"]["refusal_recall"] == 1.0
    assert report.settings["generator"] == llm.name
    # a model exposes no answer score: the trade-off is over retrieval scores
    assert report.settings["threshold_over"] == "retrieval score of the top passage"


CHROMIUM = Path("/usr/bin/chromium")
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


# CI installs chromium (.ci/run), so there a missing browser fails instead of skipping.
@pytest.mark.integration
@pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)",
)
def test_html_report_in_a_headless_browser(store: Path, questions: Path, tmp_path: Path) -> None:
    from playwright.sync_api import Request, sync_playwright

    page_file = tmp_path / "report.html"
    result = run_cli(
        str(questions), "--db", str(store), "--embedder", "none", "--html", str(page_file)
    )
    assert result.exit_code == 0, result.output
    screenshot = tmp_path / "qa-report.png"
    fetched: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=BROWSER_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})

            def record(request: Request) -> None:
                fetched.append(request.url)

            page.on("request", record)
            page.goto(page_file.as_uri())
            assert page.locator("h1").inner_text().startswith("pincite eval qa")
            plots = page.locator("figure svg")
            assert plots.count() == 2
            box = plots.first.bounding_box()
            assert box is not None and box["width"] > 200 and box["height"] > 150
            assert page.locator("td", has_text="parking").count() == 1
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
    assert fetched == [page_file.as_uri()]  # the page loads nothing else: works offline
    assert screenshot.stat().st_size > 10_000
    print(f"screenshot of the QA report: {screenshot}")


@pytest.mark.integration
@pytest.mark.skipif(
    not os.environ.get("PINCITE_BASE_URL"),
    reason="set PINCITE_BASE_URL (and PINCITE_MODEL, PINCITE_API_KEY) to evaluate a real endpoint",
)
def test_a_real_openai_compatible_endpoint(store: Path, questions: Path) -> None:
    result = run_cli(
        str(questions), "--db", str(store), "--embedder", "none", "--generator", "openai", "--json"
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["summary"]["questions"] == 3
    by_id = {q["id"]: q for q in report["questions"]}
    assert not by_id["parking"]["answered"]  # nothing retrieved: refused before any model call
    assert by_id["retention"]["timings_ms"]["generate"] > 0


@pytest.mark.parametrize(("policy", "answered"), [("reject", False), ("flag", True)])
def test_flag_policy_lets_attributability_show_unsupported_claims(
    store: Path, policy: str, answered: bool
) -> None:
    from pincite.answer.pipeline import SupportPolicy

    wrong = "Billing records are kept for ninety days after the account closes."
    body = recording("openai_tool_call.json")
    body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = json.dumps(
        {
            "claims": [{"text": wrong, "used_excerpt_numbers": [1], "kind": "fact"}],
            "sufficient_context": True,
        }
    )
    with serve() as api:
        for _ in range(2):  # a model gets one repair pass after a rejected answer
            api.reply(body)
        with (
            pincite.open(store, embedder=None) as corpus,
            OpenAIGenerator(
                api.base + "/v1", "gpt-test", api_key="sk-test", retry_backoff=0
            ) as llm,
        ):
            report = run_qa_eval(
                corpus.store,
                None,
                [load_one(QUESTIONS[0])],
                llm,
                support_checker_for(None),
                tenant="default",
                policy=SupportPolicy(policy),
            )
    (o,) = report.outcomes
    assert o.answered is answered
    assert report.settings["support_policy"] == policy
    if answered:
        assert o.verdicts == ("unsupported",) and o.cited_gold
        assert report.summary["attributability"]["unsupported"] == 1.0
