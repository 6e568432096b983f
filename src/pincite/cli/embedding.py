"""Vectors after the text: ``pincite embed``, ingest's embedding stage, and coverage notes.

Ingest commits every file's text first, so the folder is searchable
lexically as soon as each commit lands; embedding is a second stage, run by
``ingest`` at its end (unless ``--no-embed``) or later by ``pincite embed``.
Both read what still needs a vector from the store, so an interrupted run
resumes where its last committed batch stopped.
"""

from __future__ import annotations

from typing import Any

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from pincite.cli.common import (
    db_option,
    embedder_option,
    err,
    fail,
    handle_errors,
    json_option,
    open_corpus,
    print_json,
)
from pincite.corpus import Corpus
from pincite.ingest.embedding import embed_pending, pending
from pincite.retrieve.search import dense_coverage


class RateColumn(ProgressColumn):
    """Items per second, as rich measures it over the last updates."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f} {self.unit}/s")


def progress_bar(*, disable: bool, unit: str) -> Progress:
    """A stage's bar on stderr: count, rate, time so far and time left."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(unit),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=disable,
        transient=True,
    )


def embed_stage(corpus: Corpus, tenants: list[str], *, quiet: bool) -> dict[str, int]:
    """Embed what ``tenants`` still lack, with a bar; chunks embedded per tenant.

    Does nothing for a corpus opened without an embedder (a lexical store).
    """
    embedder = corpus.embedder
    if embedder is None:
        return {}
    waiting = [pending(corpus.store, t) for t in tenants]
    total = sum(p.chunks for p in waiting)
    done: dict[str, int] = {}
    with progress_bar(disable=quiet or total == 0, unit="chunks") as progress:
        task = progress.add_task("embedding", total=total)
        for p in waiting:
            if p.chunks == 0 and p.documents == 0:
                continue
            done[p.tenant] = embed_pending(
                corpus.store,
                embedder,
                p.tenant,
                on_chunks=lambda n: progress.advance(task, n),
            )
    return done


def note_coverage(coverage: float | None) -> None:
    """Say on stderr when search ran before every passage had its vector."""
    if coverage is not None and coverage < 1.0:
        err.print(
            f"note: {coverage:.0%} of this workspace's passages are embedded; the rest were "
            "searched by their words only until `pincite embed` finishes"
        )


def with_coverage(data: dict[str, Any], corpus: Corpus, tenant: str) -> dict[str, Any]:
    """``data`` with the tenant's ``dense_coverage`` (``None`` without an embedder)."""
    coverage = None if corpus.embedder is None else dense_coverage(corpus.store, tenant)
    return {**data, "dense_coverage": coverage}


@click.command("embed")
@db_option
@click.option(
    "--tenant",
    envvar="PINCITE_TENANT",
    default=None,
    help="Embed this workspace only (env PINCITE_TENANT). [default: every workspace]",
)
@embedder_option
@json_option
@handle_errors
def embed(db: str, tenant: str | None, embedder: str, as_json: bool) -> None:
    """Embed every passage that has no vector yet (after `pincite ingest --no-embed`).

    Text is searchable by its words from the moment ingest commits it; this adds
    the vectors hybrid search needs. Safe to interrupt: run it again and it
    resumes where it stopped. A store indexed without an embedder needs
    `pincite reindex` instead.
    """
    if embedder == "none":
        fail("pincite embed needs an embedder; --embedder none has nothing to embed with")
    with open_corpus(db, embedder) as corpus:
        tenants = [tenant] if tenant else corpus.store.tenants()
        done = embed_stage(corpus, tenants, quiet=as_json and not err.is_terminal)
        for name in tenants:
            embedded, total = corpus.store.vector_coverage(name)
            row = {"tenant": name, "embedded_now": done.get(name, 0), "chunks": total}
            row["dense_coverage"] = embedded / total if total else 1.0
            if as_json:
                print_json(row)
            elif tenant or done.get(name):
                err.print(
                    f"{name}: embedded {row['embedded_now']} chunk(s); "
                    f"{embedded} of {total} have vectors"
                )
    if not as_json and not any(done.values()):
        err.print("nothing to embed: every passage has its vector")


COMMANDS = [embed]
