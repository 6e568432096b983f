"""`pincite studio ACTION DOC`: a summary, FAQ, key terms or contract breakdown, all cited."""

from __future__ import annotations

import click

from pincite.cli.answers import with_generator_options
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
from pincite.settings import GeneratorSettings
from pincite.studio import StudioAction, StudioResult


@click.command()
@click.argument("action", type=click.Choice([a.value for a in StudioAction]))
@click.argument("doc")
@db_option
@tenant_option
@embedder_option
@with_generator_options
@json_option
@handle_errors
def studio(
    action: str,
    doc: str,
    db: str,
    tenant: str,
    embedder: str,
    generator: str,
    base_url: str | None,
    model: str | None,
    api_key: str | None,
    answer_threshold: float | None,
    as_json: bool,
) -> None:
    """Run a studio ACTION on document DOC (its id or its uri).

    Offline (the default) every item is sentences of the document's current
    version; with a model generator, the model's words over the passages the
    offline pass picked. Either way each item is cited by exact ids and checked
    like an answer; `contract` ends with a disclaimer added by pincite.
    """
    settings = GeneratorSettings(
        generator, base_url=base_url, model=model, api_key=api_key, threshold=answer_threshold
    )
    with open_corpus(db, embedder) as corpus:
        corpus.generator = settings.build(corpus.embedder)
        found = corpus.store.find_document(tenant, document_id=doc) or corpus.store.find_document(
            tenant, uri=doc
        )
        if found is None:
            fail(f"document not found: {doc}")
        assert found is not None
        result = corpus.studio(found.document_id, action, tenant=tenant)
    if as_json:
        print_json(result.as_dict())
    else:
        out.print(format_studio(result))


def format_studio(result: StudioResult) -> str:
    """Items with [n] markers, then each n's evidence id and section."""
    lines = [f"{result.action.value} of {result.title} (version {result.hash16})", ""]
    sources: list[str] = []
    for item in result.items:
        marks = []
        for cid in item.citation_ids:
            sources.append(result.citation(cid).evidence_id)
            marks.append(f"[{len(sources)}]")
        label = f"{item.label}: " if item.label else ""
        lines.append(f"- {label}{item.text} {''.join(marks)} ({item.verdict.value})")
    if not result.items:
        lines.append("Nothing of this kind was found in the document.")
    lines += ["", "Sources:", *(f"[{n}] {e}" for n, e in enumerate(sources, start=1))]
    if result.disclaimer:
        lines += ["", result.disclaimer]
    return "\n".join(lines)


COMMANDS = [studio]
