"""Commands that answer: ask and demo."""

from __future__ import annotations

import click

from pincite.answer.calibration import saved_threshold
from pincite.answer.pipeline import AnswerResult, SupportPolicy
from pincite.cli.common import (
    F,
    db_option,
    embedder_option,
    err,
    handle_errors,
    json_option,
    open_corpus,
    out,
    print_json,
    tenant_option,
)
from pincite.cli.embedding import with_coverage
from pincite.generate import GENERATORS
from pincite.generate.extractive import ExtractiveConfig
from pincite.present.answer import answer_json
from pincite.settings import GeneratorSettings
from pincite.store.base import Store

#: How far under the threshold a refusal's closest answer may score and still
#: point the user at measuring the store's own threshold.
NEAR_THRESHOLD = 0.15

generator_options = [
    click.option(
        "--generator",
        type=click.Choice(GENERATORS),
        envvar="PINCITE_GENERATOR",
        default="extractive",
        show_default=True,
        help="extractive: offline, quotes your documents' own sentences; openai: any "
        "OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp, Ollama); anthropic.",
    ),
    click.option(
        "--base-url",
        envvar="PINCITE_BASE_URL",
        help="Endpoint of the model server, e.g. http://localhost:11434/v1 (env PINCITE_BASE_URL).",
    ),
    click.option("--model", envvar="PINCITE_MODEL", help="Model name (env PINCITE_MODEL)."),
    click.option(
        "--api-key",
        envvar="PINCITE_API_KEY",
        help="API key (env PINCITE_API_KEY).",
        show_envvar=False,
    ),
]


# Apart from ``generator_options``: `pincite agent` takes those for a model alone.
# The shipped thresholds the help names: read from the answerer, so they never drift.
_SHIPPED = ExtractiveConfig()

answer_threshold_option = click.option(
    "--answer-threshold",
    type=float,
    envvar="PINCITE_ANSWER_THRESHOLD",
    help="Refuse below this score (extractive generator only; env PINCITE_ANSWER_THRESHOLD). "
    f"Default: the tenant's saved threshold (`pincite threshold`), else {_SHIPPED.threshold:g} "
    f"with an embedder, {_SHIPPED.threshold_lexical:g} lexical-only, set on long standards "
    "(NIST, RFCs); `pincite eval qa` on "
    "a dev split of your own questions reports, and with --save-threshold keeps, the one "
    "that suits your documents.",
)


# Shared by every command that answers (ask, eval qa), so they answer alike.
passages_option = click.option(
    "-k",
    "k",
    type=click.IntRange(1, 50),
    default=6,
    show_default=True,
    help="Passages shown to the generator.",
)
support_policy_option = click.option(
    "--support-policy",
    type=click.Choice([p.value for p in SupportPolicy]),
    default=SupportPolicy.REJECT.value,
    show_default=True,
    help="reject: a fact whose citations all fail the support check sinks the answer; "
    "flag: keep it and mark the claim (so evaluations can count unsupported claims).",
)


def with_generator_options(fn: F) -> F:
    for option in reversed([*generator_options, answer_threshold_option]):
        fn = option(fn)
    return fn


@click.command()
@click.argument("question")
@db_option
@tenant_option
@embedder_option
@with_generator_options
@passages_option
@support_policy_option
@json_option
@handle_errors
def ask(
    question: str,
    db: str,
    tenant: str,
    embedder: str,
    generator: str,
    base_url: str | None,
    model: str | None,
    api_key: str | None,
    answer_threshold: float | None,
    k: int,
    support_policy: str,
    as_json: bool,
) -> None:
    """Answer QUESTION from your documents, every claim cited to exact characters, or refuse.

    Exit status 0 when answered, 3 when refused.
    """
    settings = GeneratorSettings(
        generator, base_url=base_url, model=model, api_key=api_key, threshold=answer_threshold
    )
    with open_corpus(db, embedder) as corpus:
        corpus.generator = settings.build(corpus.embedder)
        result = corpus.ask(question, tenant=tenant, k=k, policy=support_policy)
        if as_json:
            print_json(with_coverage(answer_json(result), corpus, tenant))
        else:
            out.print(corpus.render(result))
            hint = calibration_hint(result, corpus.store, db, tenant, answer_threshold)
            if hint:
                err.print(hint)
    if result.refused:
        raise SystemExit(3)


def calibration_hint(
    result: AnswerResult, store: Store, db: str, tenant: str, explicit: float | None
) -> str | None:
    """What to run when a refusal came close under the shipped threshold, or ``None``.

    Questions worded unlike the documents (chat against a policy manual)
    score right answers lower than the long documents the shipped threshold
    was chosen on. A threshold set on purpose (``explicit``, or one saved for
    the tenant) gets no advice: it was measured already.
    """
    if result.closest is None or explicit is not None:
        return None
    score, threshold = result.closest
    if score < threshold - NEAR_THRESHOLD or saved_threshold(store, tenant) is not None:
        return None
    return (
        "hint: the shipped answer threshold was chosen on long technical documents; if your "
        "questions are worded unlike your documents, measure this store's own threshold on "
        f"questions you can check: pincite eval qa QUESTIONS.jsonl --db {db} --tenant {tenant} "
        "--save-threshold (README: Measure it on your own documents)"
    )


@click.command()
@click.option("--keep", type=click.Path(), help="Keep the demo database at this path.")
@handle_errors
def demo(keep: str | None) -> None:
    """Ingest the bundled public documents and answer three questions, offline.

    Shows a cited answer, a refusal, and an old answer whose citation now points
    into a superseded version yet still resolves to the exact text it was built on.
    """
    from pincite.demo import run_demo

    run_demo(out, keep=keep)


COMMANDS = [ask, demo]
