"""`pincite eval`: measure retrieval, answers and claim support on public datasets."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from pincite.cli.answers import passages_option, support_policy_option, with_generator_options
from pincite.cli.common import (
    db_option,
    embedder_option,
    err,
    fail,
    handle_errors,
    open_corpus,
    out,
    print_json,
    tenant_option,
)

dataset_arg = click.argument(
    "dataset", type=click.Path(path_type=Path, exists=True, file_okay=True, dir_okay=True)
)
out_option = click.option(
    "--out",
    "out_file",
    type=click.Path(path_type=Path),
    help="Also write the report as JSON to this file.",
)
db_cache_option = click.option(
    "--db",
    help="Keep the indexed dataset in this SQLite file and reuse it next time "
    "(indexing with embeddings takes minutes).",
)


class _Bar:
    """A progress bar on stderr driven by (done, total) callbacks."""

    def __init__(self, label: str) -> None:
        self._progress = Progress(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
        )
        self._task = self._progress.add_task(label, total=None)

    def __enter__(self) -> Callable[[int, int], None]:
        self._progress.start()

        def update(done: int, total: int) -> None:
            self._progress.update(self._task, completed=done, total=total)

        return update

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()


def _write(out_file: Path | None, data: object) -> None:
    if out_file is not None:
        out_file.write_text(json.dumps(data, indent=2), encoding="utf-8")
        err.print(f"report written to {out_file}")


@click.group("eval")
def evaluate() -> None:
    """Measure pincite on public datasets (see ../shared/data/*/SOURCE.md)."""


@evaluate.command("answers")
@dataset_arg
@embedder_option
@db_cache_option
@click.option(
    "--limit",
    type=click.IntRange(2),
    default=400,
    show_default=True,
    help="Questions to evaluate (half answerable, half unanswerable).",
)
@click.option(
    "--calibrate",
    is_flag=True,
    help="Sweep the extractive threshold on the calibration articles (0-9) instead.",
)
@out_option
@handle_errors
def eval_answers(
    dataset: Path, embedder: str, db: str | None, limit: int, calibrate: bool, out_file: Path | None
) -> None:
    """SQuAD 2.0 dev with the extractive generator: gold answer inside the cited span, and
    refusal rate on unanswerable questions (articles 10+; 0-9 are for calibration)."""
    from pincite.eval.answers import calibrate_threshold, run_answer_eval

    path = dataset / "dev-v2.0.json.gz" if dataset.is_dir() else dataset
    with _Bar("indexing") as progress:
        if calibrate:
            best, sweep = calibrate_threshold(
                path, db=db, embedder=embedder, limit=limit, progress=progress
            )
        else:
            report = run_answer_eval(path, db=db, embedder=embedder, limit=limit, progress=progress)
    if calibrate:
        out.print("threshold  gold-in-span  refusal-rate")
        for t, g, r in sweep:
            out.print(f"{t:9.2f}  {g:12.3f}  {r:12.3f}")
        out.print(f"best threshold: {best}")
        _write(out_file, {"best": best, "sweep": sweep})
        return
    out.print(report.as_table())
    _write(out_file, report.as_dict())


@evaluate.command("retrieval")
@dataset_arg
@click.option(
    "--split", default="test", show_default=True, help="Which qrels/<split>.tsv to score."
)
@click.option(
    "--modes",
    default="lexical,dense,hybrid",
    show_default=True,
    help="Comma-separated search modes.",
)
@click.option("--no-routing-compare", is_flag=True, help="Do not also run without routing.")
@embedder_option
@db_cache_option
@out_option
@handle_errors
def eval_retrieval(
    dataset: Path,
    split: str,
    modes: str,
    no_routing_compare: bool,
    embedder: str,
    db: str | None,
    out_file: Path | None,
) -> None:
    """nDCG@10, Recall@10/100, MRR@10 and latency per mode on a BEIR-layout folder
    (corpus.jsonl[.gz], queries.jsonl, qrels/<split>.tsv)."""
    from pincite.eval.retrieval import run_retrieval_eval

    with _Bar("indexing") as progress:
        report = run_retrieval_eval(
            dataset,
            split=split,
            modes=[m.strip() for m in modes.split(",") if m.strip()],
            routing_compare=not no_routing_compare,
            db=db,
            embedder=None if embedder == "none" else embedder,
            progress=progress,
        )
    out.print(report.as_table())
    _write(out_file, report.as_dict())


@evaluate.command("conversations")
@dataset_arg
@embedder_option
@out_option
@handle_errors
def eval_conversations(dataset: Path, embedder: str, out_file: Path | None) -> None:
    """Recall@k per turn index (1, 2, 3+) on MTRAG (InspectorRAGet .json[.gz]): the raw
    turn, the offline rewrite, and all user turns joined."""
    from pincite.eval.conversations import run_conversation_eval

    with _Bar("indexing and searching") as progress:
        report = run_conversation_eval(dataset, embedder=embedder, progress=progress)
    out.print(f"search mode: {report.mode}")
    out.print(report.as_table())
    _write(out_file, report.as_dict())


@evaluate.command("support")
@dataset_arg
@click.option(
    "--split",
    default="test",
    show_default=True,
    help="dev, test, or (AttributionBench) test_ood. Thresholds are tuned on dev.",
)
@click.option(
    "--checker",
    type=click.Choice(["heuristic", "heuristic-lexical", "lexical-overlap"]),
    default="heuristic",
    show_default=True,
    help="heuristic: the default (with the quantised MiniLM); lexical-overlap: the plain baseline.",
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Also write an HTML page with the reliability diagram (needs pincite[report]).",
)
@out_option
@handle_errors
def eval_support(
    dataset: Path, split: str, checker: str, html_file: Path | None, out_file: Path | None
) -> None:
    """Claim-support accuracy on WiCE or AttributionBench: accuracy, macro-F1, precision and
    recall of detecting unsupported claims (and WiCE supporting-sentence recall)."""
    from pincite.eval.support import _make_checker, run_support_eval

    if html_file is not None:
        from pincite.eval.qa_report import check_plotting

        check_plotting()
    report = run_support_eval(dataset, checker=_make_checker(checker), split=split)
    out.print(report.format())
    _write(out_file, report.to_dict())
    if html_file is not None:
        from pincite.eval.support_report import write_html

        write_html(report.to_dict(), html_file, f"pincite eval support: {dataset.name}/{split}")
        err.print(f"HTML report written to {html_file}")


@evaluate.command("qa")
@click.argument("questions", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@db_option
@tenant_option
@embedder_option
@with_generator_options
@passages_option
@click.option(
    "--per-document",
    is_flag=True,
    help="Search only the document each question names (its 'document' field), "
    "as when every question is about one known document (QASPER).",
)
@support_policy_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--html",
    "html_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Also write a self-contained HTML report with plots (needs pincite[report]).",
)
@click.option(
    "--save-threshold",
    is_flag=True,
    help="Keep the threshold these questions pick (the last line of the report) as the "
    "tenant's answer threshold: ask, chat, serve and mcp then answer with it. Run it on "
    "a dev split, never on the set you report (see `pincite threshold`).",
)
@out_option
@handle_errors
def eval_qa(
    questions: Path,
    db: str,
    tenant: str,
    embedder: str,
    generator: str,
    base_url: str | None,
    model: str | None,
    api_key: str | None,
    answer_threshold: float | None,
    k: int,
    per_document: bool,
    support_policy: str,
    as_json: bool,
    html_file: Path | None,
    save_threshold: bool,
    out_file: Path | None,
) -> None:
    """Measure answers on your own documents with QUESTIONS (JSON lines; see README).

    Per question: recall@1/3/5/10 of its gold passage for lexical, dense and
    hybrid search; then the full `pincite ask` path: answered or refused, cited
    span on the gold passage, gold answer inside the cited text, each claim's
    support verdict; refusals of unanswerable questions; latency per stage.
    """
    from pincite.answer.pipeline import SupportPolicy
    from pincite.eval.qa import load_questions, run_qa_eval
    from pincite.eval.qa_report import check_plotting, report_tables, write_html

    items = load_questions(questions)
    if html_file is not None:
        check_plotting()
    from pincite.answer.calibration import save_threshold as save_threshold_for
    from pincite.eval.qa_metrics import REFUSAL_FLOOR
    from pincite.generate.extractive import ExtractiveGenerator
    from pincite.settings import GeneratorSettings
    from pincite.support import support_checker_for

    with open_corpus(db, embedder) as corpus:
        answerer = GeneratorSettings(
            generator, base_url=base_url, model=model, api_key=api_key, threshold=answer_threshold
        ).build(corpus.embedder)
        if save_threshold and not isinstance(answerer, ExtractiveGenerator):
            fail(f"--save-threshold needs the extractive generator; {generator!r} has no threshold")
        if save_threshold and not any(not q.answerable for q in items):
            fail(f"--save-threshold needs unanswerable questions in {questions.name}: none found")
        if save_threshold and per_document:
            fail(
                "--save-threshold picks the threshold `pincite ask` answers with, which searches "
                "every document; run it without --per-document"
            )
        with _Bar("questions") as progress:
            report = run_qa_eval(
                corpus.store,
                corpus.embedder,
                items,
                answerer,
                support_checker_for(corpus.embedder),
                tenant=tenant,
                k=k,
                per_document=per_document,
                policy=SupportPolicy(support_policy),
                progress=progress,
            )
        picked = report.settings.get("refusal_threshold")
        if save_threshold and picked is not None:
            save_threshold_for(
                corpus.store,
                tenant,
                picked,
                corpus.embedder,
                source=questions.name,
                answerable=sum(q.answerable for q in items),
                unanswerable=sum(not q.answerable for q in items),
                k=k,
            )
            scored_with = corpus.embedder.name if corpus.embedder else "none"
            report.settings["threshold_saved"] = True
    if as_json:
        print_json(report.as_dict())
    else:
        out.print(report_tables(report))
    if save_threshold and picked is None:
        fail(
            f"nothing saved: {REFUSAL_FLOOR:.0%} of these unanswerable questions are refused "
            "at any threshold, so they pick none"
        )
    if save_threshold:
        err.print(
            f"saved answer threshold {picked:.2f} for tenant {tenant!r}: ask, chat, serve and "
            f"mcp answer with it from now on while they score with embedder {scored_with} "
            "(`pincite threshold` shows or clears it)"
        )
        if answer_threshold is not None:
            err.print(
                f"note: --answer-threshold / PINCITE_ANSWER_THRESHOLD ({answer_threshold:g}) is "
                "set, and wins over the saved threshold until it is unset"
            )
    if html_file is not None:
        write_html(report, html_file, title=f"pincite eval qa: {questions.name}")
        err.print(f"HTML report written to {html_file}")
    _write(out_file, report.as_dict())


COMMANDS = [evaluate]
