"""The top-level command group; each command lives in a module by subject."""

from __future__ import annotations

import click

from pincite.cli import (
    answers,
    conversations,
    documents,
    embedding,
    evaluate,
    evidence,
    search,
    service,
    studio,
    threshold,
    verify,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="pincite")
def cli() -> None:
    """pincite: answers whose every claim is pinned to the exact characters it rests on.

    Ingest your documents (every version is kept), search them, ask questions
    and get answers whose citations are checked before you see them, and fetch
    the exact text behind any evidence id. Everything runs offline on a local
    SQLite file by default.

    \b
    Start with:  pincite demo
    Then:        pincite ingest ./docs && pincite ask "What is the retention period?"
    """


for module in (
    documents,
    embedding,
    evidence,
    search,
    answers,
    conversations,
    studio,
    verify,
    evaluate,
    threshold,
    service,
):
    for command in module.COMMANDS:
        cli.add_command(command)
