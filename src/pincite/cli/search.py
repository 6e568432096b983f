"""The search command: numbered passages with their evidence ids and score branches."""

from __future__ import annotations

from dataclasses import replace

import click

from pincite.cli.common import (
    db_option,
    embedder_option,
    handle_errors,
    json_option,
    open_corpus,
    out,
    print_json,
    tenant_option,
)
from pincite.cli.embedding import note_coverage
from pincite.model import Hit
from pincite.retrieve.fuse import FusionMethod
from pincite.retrieve.search import SearchMode, SearchOptions


@click.command()
@click.argument("question")
@db_option
@tenant_option
@embedder_option
@click.option(
    "-k", "k", type=click.IntRange(1, 200), default=8, show_default=True, help="Number of passages."
)
@click.option(
    "--mode",
    type=click.Choice([m.value for m in SearchMode]),
    help="Lexical (BM25), dense (embeddings) or both fused. "
    "[default: hybrid with an embedder, lexical with --embedder none]",
)
@click.option(
    "--fusion",
    type=click.Choice([f.value for f in FusionMethod]),
    help=f"How hybrid mode fuses the rankings. [default: {SearchOptions().fusion.value}, "
    "the setting `pincite eval` reports]",
)
@click.option("--no-routing", is_flag=True, help="Skip document routing before dense search.")
@json_option
@handle_errors
def search(
    question: str,
    db: str,
    tenant: str,
    embedder: str,
    k: int,
    mode: str | None,
    fusion: str | None,
    no_routing: bool,
    as_json: bool,
) -> None:
    """Search the tenant's current documents and print numbered passages."""
    spec = "none" if mode == SearchMode.LEXICAL.value else embedder
    with open_corpus(db, spec) as corpus:
        chosen = SearchMode.parse(mode) if mode else corpus.default_mode
        options = replace(SearchOptions(mode=chosen), routing=not no_routing)
        if fusion is not None:
            options = replace(options, fusion=FusionMethod(fusion))
        result = corpus.retrieve(question, tenant=tenant, k=k, options=options)
    if not result.hits and not as_json:
        out.print("No passages in your documents address this.")
    note_coverage(result.dense_coverage)
    for n, hit in enumerate(result.hits, start=1):
        if as_json:
            print_json({**hit_json(n, hit), "dense_coverage": result.dense_coverage})
        else:
            out.print(_hit_text(n, hit), markup=False)  # document text is not markup


def hit_json(n: int, hit: Hit) -> dict[str, object]:
    b = hit.branches
    return {
        "n": n,
        "evidence_id": hit.evidence_id,
        "document_id": hit.chunk.document_id,
        "title": hit.document.title,
        "uri": hit.document.uri,
        "hash16": hit.chunk.hash16,
        "start": hit.chunk.start,
        "end": hit.chunk.end,
        "pages": list(hit.chunk.pages),
        "section": list(hit.chunk.section),
        "score": hit.score,
        "branches": b.as_dict(),
        "text": hit.chunk.text,
    }


def _hit_text(n: int, hit: Hit) -> str:
    b = hit.branches
    where = hit.document.title
    if hit.chunk.pages:
        where += f", p. {','.join(map(str, hit.chunk.pages))}"
    if hit.chunk.section:
        where += f", {' > '.join(hit.chunk.section)}"
    found = "  ".join(f"{c.name} #{c.rank} ({c.score:.3f})" for c in b.channels)
    text = hit.chunk.text if len(hit.chunk.text) <= 600 else hit.chunk.text[:600] + " …"
    return (
        f"[{n}] {where}\n    {hit.evidence_id}\n    score {hit.score:.4f}  {found}\n"
        f"    " + text.replace("\n", "\n    ") + "\n"
    )


COMMANDS = [search]
