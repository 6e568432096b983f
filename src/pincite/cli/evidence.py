"""Commands over evidence ids: fetch and check."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pincite.cli.common import (
    db_option,
    fail,
    handle_errors,
    json_option,
    open_corpus,
    out,
    print_json,
    tenant_option,
)
from pincite.ground.check import Verdict, check_citations
from pincite.ground.fetch import FetchLedger, FetchStatus


@click.command()
@click.argument("evidence_ids", nargs=-1, required=True)
@db_option
@tenant_option
@click.option(
    "--max-chars", type=click.IntRange(min=1), help="Cut longer text (status 'truncated')."
)
@click.option(
    "--ledger",
    type=click.Path(path_type=Path),
    help="JSON file recording ids fetched in full (created or extended), for `pincite check`.",
)
@json_option
@handle_errors
def fetch(
    evidence_ids: tuple[str, ...],
    db: str,
    tenant: str,
    max_chars: int | None,
    ledger: Path | None,
    as_json: bool,
) -> None:
    """Print the exact stored text behind evidence ids.

    Status per id: ok, partial, truncated, erased, deleted, not_found or
    malformed. Superseded versions still return their own text, flagged
    superseded with the current version's hash16. Exit status 1 if any id is
    malformed.
    """
    book = None
    if ledger is not None:
        book = FetchLedger.load(ledger) if ledger.exists() else FetchLedger(tenant)
    with open_corpus(db, None) as corpus:
        outcomes = corpus.fetch(evidence_ids, tenant=tenant, max_chars=max_chars, ledger=book)
    if book is not None and ledger is not None:
        book.save(ledger)
    for o in outcomes:
        if as_json:
            data = o.as_dict()
            print_json(data)
            continue
        flag = f"  superseded (current {o.current_hash16})" if o.superseded else ""
        out.print(f"{o.id}\n  status: {o.status.value}{flag}")
        if o.title:
            where = f"  {o.title}"
            if o.pages:
                where += f", p. {','.join(map(str, o.pages))}"
            if o.section:
                where += f", {' > '.join(o.section)}"
            out.print(where)
        if o.text:
            out.print("  " + o.text.replace("\n", "\n  "))
    if any(o.status is FetchStatus.MALFORMED for o in outcomes):
        raise SystemExit(1)


@click.command()
@click.argument("answer", type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--ledger",
    required=True,
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="Ledger written by `pincite fetch --ledger`.",
)
@json_option
@handle_errors
def check(answer: Path, ledger: Path, as_json: bool) -> None:
    """Check that every evidence id cited in ANSWER (a file, or - for stdin) was fetched.

    Verdicts: valid (read in full in this scope), malformed, unfetched
    (invented, unread or out of scope). Exit status 1 unless all are valid.
    """
    text = sys.stdin.read() if str(answer) == "-" else _read(answer)
    verdicts = check_citations(text, FetchLedger.load(ledger))
    for v in verdicts:
        if as_json:
            print_json({"id": v.id, "verdict": v.verdict.value})
        else:
            out.print(f"{v.verdict.value:<10} {v.id}")
    if not verdicts:
        if not as_json:
            out.print("no evidence ids found in the answer")
        raise SystemExit(1)
    if any(v.verdict is not Verdict.VALID for v in verdicts):
        raise SystemExit(1)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{path}: {exc}")
        raise


COMMANDS = [fetch, check]
