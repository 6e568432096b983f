"""A corpus's own refusal threshold: `--answer-threshold` / PINCITE_ANSWER_THRESHOLD.

`pincite eval qa` reports the threshold that suits a user's documents; these
tests show every answering command can then be told to use it, that the
extractive generator is the one it applies to, and that a wrong use is a clear
error, not a traceback. `eval qa --save-threshold` and `pincite threshold`
keep it in the store for a tenant: `ask`, `eval qa` and the library facade
then answer with it, a flag still wins, and it stays with its tenant.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import pincite
from pincite.cli.app import cli
from pincite.errors import ConfigurationError
from pincite.generate import ExtractiveGenerator, make_generator
from pincite.generate.extractive import ExtractiveConfig
from pincite.server.worker import WorkerConfig
from pincite.settings import GeneratorSettings

QUESTION = "For how many years are invoices kept after payment?"


@pytest.fixture
def store(tmp_path: Path) -> str:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "policy.md").write_text(
        "# Finance policy\n\n## Retention\n\nInvoices are kept for seven years after payment.\n\n"
        "## Travel\n\nTrain travel is booked in second class.\n"
    )
    db = str(tmp_path / "t.db")
    result = CliRunner().invoke(cli, ["ingest", str(folder), "--db", db, "--embedder", "none"])
    assert result.exit_code == 0, result.output
    return db


def ask(db: str, *extra: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    args = ["ask", QUESTION, "--db", db, "--embedder", "none", "--json", *extra]
    return CliRunner().invoke(cli, args, env=env)


def test_the_threshold_decides_between_answer_and_refusal(store: str) -> None:
    answered = ask(store)
    assert answered.exit_code == 0, answered.output
    assert "seven years" in json.loads(answered.stdout)["claims"][0]["text"]
    # Far above any score: the same question is refused (exit status 3).
    refused = ask(store, "--answer-threshold", "50")
    assert refused.exit_code == 3, refused.output
    assert json.loads(refused.stdout)["outcome"] == "refused"


def test_the_environment_sets_it_too(store: str) -> None:
    assert ask(store, env={"PINCITE_ANSWER_THRESHOLD": "50"}).exit_code == 3
    assert ask(store, env={"PINCITE_ANSWER_THRESHOLD": "0.1"}).exit_code == 0


@pytest.mark.parametrize(("value", "status"), [("high", 2), ("nan", 1)])
def test_a_threshold_that_is_no_number_is_an_error_not_a_traceback(
    store: str, value: str, status: int
) -> None:
    result = ask(store, "--answer-threshold", value)
    assert result.exit_code == status
    assert isinstance(result.exception, SystemExit)
    assert "threshold" in result.output.lower()


def test_a_model_generator_takes_no_threshold(store: str) -> None:
    result = ask(
        store,
        "--generator",
        "openai",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "m",
        "--answer-threshold",
        "0.5",
    )
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert "extractive generator only" in result.output


def test_eval_qa_measures_with_the_threshold_given(store: str, tmp_path: Path) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps(
            {
                "id": "keep",
                "question": QUESTION,
                "answerable": True,
                "gold_passages": ["Invoices are kept for seven years after payment."],
                "gold_answer": "seven years",
            }
        )
        + "\n"
    )
    args = ["eval", "qa", str(questions), "--db", store, "--embedder", "none", "--json"]
    shipped = json.loads(CliRunner().invoke(cli, args).stdout)
    strict = json.loads(CliRunner().invoke(cli, [*args, "--answer-threshold", "50"]).stdout)
    assert shipped["settings"]["threshold"] == pytest.approx(ExtractiveConfig().threshold_lexical)
    assert strict["settings"]["threshold"] == pytest.approx(50)
    assert shipped["summary"]["answers"]["answered"] == 1.0
    assert strict["summary"]["answers"]["answered"] == 0.0


def test_the_library_builds_the_extractive_generator_with_it() -> None:
    lexical = make_generator("extractive", threshold=0.42)
    assert isinstance(lexical, ExtractiveGenerator) and lexical.threshold == 0.42
    assert GeneratorSettings(threshold=0.3).build(None).threshold == 0.3  # type: ignore[attr-defined]
    assert make_generator("extractive").threshold == ExtractiveConfig().threshold_lexical  # type: ignore[attr-defined]
    with pytest.raises(ConfigurationError, match="extractive generator only"):
        make_generator("anthropic", model="m", api_key="k", threshold=0.5)
    with pytest.raises(ConfigurationError, match="must be a number"):
        make_generator("extractive", threshold=float("inf"))


def test_serve_hands_the_threshold_to_its_workers() -> None:
    config = WorkerConfig(
        db="x.db",
        embedder="none",
        generator="extractive",
        base_url=None,
        model=None,
        api_key=None,
        max_upload_bytes=1,
        public_url="http://127.0.0.1:1",
        state="s.db",
        answer_threshold=0.55,
    )
    from dataclasses import asdict

    assert WorkerConfig(**json.loads(json.dumps(asdict(config)))).answer_threshold == 0.55


def test_eval_qa_says_which_threshold_to_answer_with(store: str, tmp_path: Path) -> None:
    questions = tmp_path / "q.jsonl"
    rows = [
        {"id": "keep", "question": QUESTION, "answerable": True,
         "gold_passages": ["Invoices are kept for seven years after payment."],
         "gold_answer": "seven years"},
        {"id": "vat", "question": "For how many years are VAT returns kept after filing?",
         "answerable": False, "gold_passages": [], "gold_answer": ""},
    ]  # fmt: skip
    questions.write_text("".join(json.dumps(r) + "\n" for r in rows))
    args = ["eval", "qa", str(questions), "--db", store, "--embedder", "none"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    advice = json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)
    chosen = advice["settings"]["refusal_threshold"]
    assert chosen is not None
    assert f"--answer-threshold {chosen:.2f}" in " ".join(result.output.split())
    pytest.importorskip("matplotlib")
    page = tmp_path / "report.html"
    assert CliRunner().invoke(cli, [*args, "--html", str(page)]).exit_code == 0
    assert f"--answer-threshold {chosen:.2f}" in page.read_text(encoding="utf-8")


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, [*args])


def shown(db: str, *extra: str) -> dict:  # type: ignore[type-arg]
    result = run("threshold", "--db", db, "--embedder", "none", "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_a_saved_threshold_decides_until_cleared_and_a_flag_still_wins(store: str) -> None:
    assert ask(store).exit_code == 0
    assert shown(store, "--set", "50")["source"] == "saved"
    assert ask(store).exit_code == 3  # far above any score: refused
    assert ask(store, "--answer-threshold", "0.1").exit_code == 0
    # Another tenant of the same store keeps the shipped threshold.
    assert shown(store, "--tenant", "other")["source"] == "shipped"
    with pincite.open(store, embedder=None) as corpus:
        assert corpus.ask(QUESTION).refused
    cleared = shown(store, "--clear")
    assert cleared["source"] == "shipped" and cleared["saved"] is None
    assert ask(store).exit_code == 0


def write_questions(tmp_path: Path) -> Path:
    rows = [
        {
            "id": "keep",
            "question": QUESTION,
            "answerable": True,
            "gold_passages": ["Invoices are kept for seven years after payment."],
            "gold_answer": "seven years",
        },
        {"id": "bus", "question": "In which class is bus travel booked?", "answerable": False},
        {"id": "fly", "question": "How many years are flights kept?", "answerable": False},
    ]
    path = tmp_path / "dev.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_eval_qa_saves_what_its_report_picks_and_then_reports_with_it(
    store: str, tmp_path: Path
) -> None:
    questions = write_questions(tmp_path)
    args = ["eval", "qa", str(questions), "--db", store, "--embedder", "none", "--json"]
    first = run(*args, "--save-threshold")
    assert first.exit_code == 0, first.output
    picked = json.loads(first.stdout)["settings"]["refusal_threshold"]
    assert json.loads(first.stdout)["settings"]["threshold_saved"] is True
    assert "saved answer threshold" in first.stderr
    # The report's advice says it is saved, not how to save it.
    tables = run(*args[:-1], "--save-threshold")
    assert "now saved for this tenant" in tables.stdout
    assert "--save-threshold)" not in tables.stdout
    now = shown(store)
    assert now["threshold"] == picked and now["saved"]["source"] == "dev.jsonl"
    assert (now["saved"]["answerable"], now["saved"]["unanswerable"]) == (1, 2)
    again = json.loads(run(*args).stdout)["settings"]
    assert (again["threshold"], again["threshold_source"]) == (picked, "saved")
    flagged = json.loads(run(*args, "--answer-threshold", "0.2").stdout)["settings"]
    assert (flagged["threshold"], flagged["threshold_source"]) == (0.2, "set")


def test_saving_needs_unanswerable_questions_and_the_extractive_generator(
    store: str, tmp_path: Path
) -> None:
    answerable_only = tmp_path / "a.jsonl"
    answerable_only.write_text(write_questions(tmp_path).read_text().splitlines()[0] + "\n")
    base = ["eval", "qa", "--db", store, "--embedder", "none", "--save-threshold"]
    result = run(*base, str(answerable_only))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "unanswerable questions" in result.output
    model = ["--generator", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    result = run(*base, str(write_questions(tmp_path)), *model)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "extractive generator" in result.output
    assert shown(store)["saved"] is None  # nothing was saved by either


@pytest.mark.parametrize(
    ("extra", "message"),
    [(["--set", "0.5", "--clear"], "alternatives"), (["--set", "nan"], "must be a number")],
)
def test_threshold_misuse_is_a_message(store: str, extra: list[str], message: str) -> None:
    result = run("threshold", "--db", store, "--embedder", "none", *extra)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert message in result.output


def test_the_threshold_command_shows_an_explicit_value_as_the_one_in_use(store: str) -> None:
    shown(store, "--set", "0.5")
    result = CliRunner().invoke(
        cli,
        ["threshold", "--db", store, "--embedder", "none", "--json"],
        env={"PINCITE_ANSWER_THRESHOLD": "0.9"},
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["threshold"], data["source"], data["saved"]["threshold"]) == (0.9, "set", 0.5)


def test_an_unreadable_saved_threshold_stops_answers_until_set_again(store: str) -> None:
    with pincite.open(store, embedder=None) as corpus:
        corpus.store.set_meta("answer_threshold:default", "{broken")
    refused = ask(store)
    assert refused.exit_code == 1 and isinstance(refused.exception, SystemExit)
    assert "pincite threshold --set" in refused.output
    assert shown(store, "--set", "0.1")["threshold"] == 0.1
    assert ask(store).exit_code == 0


def test_a_conversation_answers_with_the_saved_threshold(store: str) -> None:
    shown(store, "--set", "50")
    with pincite.open(store, embedder=None) as corpus:
        assert corpus.conversation().ask(QUESTION).refused
        corpus.generator = make_generator("extractive", threshold=0.1)
        assert not corpus.conversation().ask(QUESTION).refused


def test_saving_with_per_document_search_is_refused(store: str, tmp_path: Path) -> None:
    args = ["eval", "qa", str(write_questions(tmp_path)), "--db", store, "--embedder", "none"]
    result = run(*args, "--save-threshold", "--per-document")
    assert result.exit_code == 1 and "--per-document" in result.output
    assert shown(store)["saved"] is None


@pytest.mark.parametrize(
    ("value", "tenant", "note"),
    [
        ("50", "default", "every question is refused"),
        ("-1", "default", "nearly every question that retrieves a sentence is answered"),
        ("0.6", "typo", "tenant 'typo' has no documents"),
    ],
)
def test_setting_a_threshold_no_score_reaches_or_for_an_empty_tenant_says_so(
    store: str, value: str, tenant: str, note: str
) -> None:
    args = ["threshold", "--db", store, "--embedder", "none", "--tenant", tenant]
    result = CliRunner().invoke(cli, [*args, "--set", value])
    assert result.exit_code == 0 and note in result.stderr
    # Saved all the same: the user may mean it.
    assert shown(store, "--tenant", tenant)["saved"]["threshold"] == float(value)


def test_an_ordinary_threshold_is_set_without_a_note(store: str) -> None:
    args = ["threshold", "--db", store, "--embedder", "none", "--set", "0.55"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0 and "note:" not in result.stderr


def test_a_close_refusal_under_the_shipped_threshold_says_how_to_measure_one(store: str) -> None:
    def refuse(question: str, *extra: str):  # type: ignore[no-untyped-def]
        args = ["ask", question, "--db", store, "--embedder", "none", *extra]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 3, result.output
        return result

    close = "For how many years are paid invoices archived?"
    near = refuse(close)
    # The reason carries two numbers; the advice, with this store and tenant, goes to stderr.
    assert "the closest answer scored 0.5" in near.stdout and "threshold 0.62" in near.stdout
    assert f"--db {store} --tenant default --save-threshold" in near.stderr
    assert "--save-threshold" not in near.stdout
    # Far under it, or under a threshold set on purpose or saved, there is nothing to advise.
    assert "--save-threshold" not in refuse("Which class is used for flights?").stderr
    assert "--save-threshold" not in refuse(close, "--answer-threshold", "0.7").stderr
    saved = CliRunner().invoke(
        cli, ["threshold", "--set", "0.7", "--db", store, "--embedder", "none"]
    )
    assert saved.exit_code == 0, saved.output
    assert "--save-threshold" not in refuse(close).stderr
