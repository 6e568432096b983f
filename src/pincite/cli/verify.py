"""`pincite verify`: does the passage behind each evidence id support one claim?"""

from __future__ import annotations

import click

from pincite.cli.common import (
    db_option,
    embedder_option,
    fail,
    handle_errors,
    json_option,
    open_corpus,
    out,
    print_json,
    tenant_option,
)
from pincite.ground.fetch import FetchStatus
from pincite.support import SupportPassage, support_checker_for


@click.command()
@click.option("--claim", required=True, help="The sentence to check.")
@click.argument("evidence_ids", nargs=-1, required=True)
@db_option
@tenant_option
@embedder_option
@json_option
@handle_errors
def verify(
    claim: str, evidence_ids: tuple[str, ...], db: str, tenant: str, embedder: str, as_json: bool
) -> None:
    """Check CLAIM against the passages behind EVIDENCE_IDS.

    Prints the verdict (supported, partial, unsupported), a score in [0, 1] and
    the ids of the sentences that carry the claim. Exit status 0 when
    supported, 1 otherwise.
    """
    with open_corpus(db, embedder) as corpus:
        outcomes = corpus.fetch(evidence_ids, tenant=tenant)
        unreadable = [o for o in outcomes if o.status is not FetchStatus.OK]
        if unreadable:
            fail("cannot read " + ", ".join(f"{o.id} ({o.status.value})" for o in unreadable))
        passages = [SupportPassage(o.id, o.text, o.start or 0) for o in outcomes]
        result = support_checker_for(corpus.embedder).check(claim, passages)
    if as_json:
        print_json(
            {
                "claim": claim,
                "verdict": result.verdict.value,
                "score": result.score,
                "sentence_ids": list(result.sentence_ids),
                "reasons": list(result.reasons),
            }
        )
    else:
        out.print(f"{result.verdict.value} (score {result.score:.2f})")
        for reason in result.reasons:
            out.print(f"  - {reason}")
        for sid in result.sentence_ids:
            out.print(f"  {sid}")
    if result.verdict.value != "supported":
        raise SystemExit(1)


COMMANDS = [verify]
