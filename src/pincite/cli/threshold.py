"""``pincite threshold``: show, set or clear a tenant's saved answer threshold."""

from __future__ import annotations

import math

import click

from pincite.answer.calibration import (
    clear_threshold,
    running_version,
    save_threshold,
    saved_threshold,
)
from pincite.cli.answers import answer_threshold_option
from pincite.cli.common import (
    db_option,
    embedder_option,
    err,
    fail,
    handle_errors,
    json_option,
    open_corpus,
    out,
    print_json,
    tenant_option,
)
from pincite.generate.extractive import ExtractiveGenerator


@click.command()
@db_option
@tenant_option
@embedder_option
@click.option(
    "--set",
    "value",
    type=float,
    help="Save this threshold for the tenant (scores of the --embedder in use).",
)
@click.option("--clear", is_flag=True, help="Forget the tenant's saved threshold.")
@answer_threshold_option
@json_option
@handle_errors
def threshold(
    db: str,
    tenant: str,
    embedder: str,
    value: float | None,
    clear: bool,
    answer_threshold: float | None,
    as_json: bool,
) -> None:
    """Show the answer threshold ask, chat, serve and mcp answer a tenant with.

    The offline answerer refuses when its best answer scores below this
    threshold. Pick it on your own dev questions and keep it in the store:

    \b
      pincite eval qa dev.jsonl --save-threshold
      pincite eval qa test.jsonl          # reports with the saved threshold

    An explicit --answer-threshold (or PINCITE_ANSWER_THRESHOLD) still wins,
    and this command shows it as the one in use when it is set.
    """
    if value is not None and clear:
        fail("--set and --clear are alternatives; give one")
    if value is not None and not math.isfinite(value):
        fail(f"the answer threshold must be a number, got {value}")
    with open_corpus(db, embedder) as corpus:
        if clear:
            removed = clear_threshold(corpus.store, tenant)
            err.print(
                f"cleared the saved answer threshold of tenant {tenant!r}"
                if removed
                else f"tenant {tenant!r} had no saved answer threshold"
            )
        elif value is not None:
            save_threshold(
                corpus.store, tenant, value, corpus.embedder, source="pincite threshold --set"
            )
            _warn_if_odd(
                value, has_documents=bool(corpus.store.list_documents(tenant)), tenant=tenant
            )
        saved = saved_threshold(corpus.store, tenant)
        shipped = ExtractiveGenerator(corpus.embedder).threshold
        applies = saved is not None and saved.applies_to(corpus.embedder)
    if answer_threshold is not None:
        in_use, source = answer_threshold, "set"
    elif saved is not None and applies:
        in_use, source = saved.threshold, "saved"
    else:
        in_use, source = shipped, "shipped"
    if as_json:
        print_json(
            {
                "tenant": tenant,
                "threshold": in_use,
                "source": source,
                "shipped": shipped,
                "saved": None
                if saved is None
                else {
                    "threshold": saved.threshold,
                    "embedder": saved.embedder,
                    "source": saved.source,
                    "answerable": saved.answerable,
                    "unanswerable": saved.unanswerable,
                    "saved_at": saved.saved_at,
                    "scored_by": saved.scored_by,
                    "k": saved.k,
                    "applies": applies,
                    "stale": saved.stale,
                },
            }
        )
        return
    if answer_threshold is not None:
        out.print(
            f"tenant {tenant!r}: {answer_threshold:g}, set by --answer-threshold or "
            "PINCITE_ANSWER_THRESHOLD, which wins over any saved threshold"
        )
    if saved is not None and saved.stale:
        err.print(
            f"note: the saved threshold was picked on the answer scores of pincite "
            f"{saved.scored_by}, and these are {running_version()}'s; they may have moved "
            "since: run `pincite eval qa … --save-threshold` on your dev questions again"
        )
    if answer_threshold is not None:
        return
    if saved is None:
        out.print(f"tenant {tenant!r}: shipped threshold {shipped:g} (none saved)")
    elif applies:
        out.print(f"tenant {tenant!r}: saved threshold {saved.describe()}")
    else:
        out.print(
            f"tenant {tenant!r}: shipped threshold {shipped:g}; the saved one "
            f"({saved.describe()}) is for other scores than this embedder's"
        )


# What the offline answerer's scores span: a sentence's own evidence (0-1) plus
# the bonuses for where it sits and what it carries.
_SCORES = (0.0, 2.0)


def _warn_if_odd(value: float, *, has_documents: bool, tenant: str) -> None:
    """Saved as asked, but a value no score reaches, or a tenant with nothing in it,
    is more often a slip than a wish; say what it will do."""
    low, high = _SCORES
    if value <= low:
        err.print(
            f"note: answers score from about {low:g} to {high:g}; at {value:g} nearly every "
            "question that retrieves a sentence is answered, however weak the match"
        )
    elif value >= high:
        err.print(
            f"note: answers score from about {low:g} to {high:g}; at {value:g} every question "
            "is refused"
        )
    if not has_documents:
        err.print(f"note: tenant {tenant!r} has no documents in this store; check --tenant")


COMMANDS = [threshold]
