"""Commands that write or list documents: ingest, documents, show, delete, purge, erase."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from pincite.cli.common import (
    db_option,
    embedder_option,
    embedder_settings,
    err,
    fail,
    handle_errors,
    json_option,
    open_corpus,
    out,
    print_json,
    tenant_option,
)
from pincite.cli.embedding import embed_stage, progress_bar
from pincite.ingest.files import source_files
from pincite.ingest.parse import SUPPORTED_SUFFIXES
from pincite.ingest.pipeline import IngestReport, IngestStatus


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@db_option
@tenant_option
@embedder_option
@click.option(
    "--uri", help="Stable address of the document (one file only); same uri = new version."
)
@click.option("--title", help="Title to store instead of the one found in the file.")
@click.option(
    "--follow-symlinks",
    is_flag=True,
    help="Ingest symbolic links that point outside the directory given (refused by default).",
)
@click.option(
    "--no-embed",
    is_flag=True,
    help="Commit text only (searchable by its words at once); add vectors later with "
    "`pincite embed`.",
)
@json_option
@handle_errors
def ingest(
    paths: tuple[Path, ...],
    db: str,
    tenant: str,
    embedder: str,
    uri: str | None,
    title: str | None,
    follow_symlinks: bool,
    no_embed: bool,
    as_json: bool,
) -> None:
    """Ingest files and directories (.txt, .md, .html, .pdf), keeping every version.

    Prints, per file, the document id, the version's hash16 and whether the
    version is new, updated or unchanged. A file that cannot be read is
    reported and skipped; the others still go in. Exit status 1 if any failed.
    """
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        fail(f"no such file or directory: {', '.join(missing)}")
    # The same walk Corpus.ingest_paths makes, to size the progress bar.
    files = [f.path for f in source_files(list(paths), SUPPORTED_SUFFIXES)]
    if not files:
        fail("no supported files (.txt, .md, .html, .htm, .pdf) found")
    corpus = open_corpus(db, embedder, create=True)
    reports: list[IngestReport] = []
    quiet = as_json and not err.is_terminal
    with corpus:
        # Stage 1: the text commits a batch of files at a time, searchable by its words at once.
        with progress_bar(disable=len(files) < 2 or quiet, unit="files") as progress:
            task = progress.add_task("indexing text", total=len(files))
            for report in corpus.ingest_paths(
                list(paths),  # not ``files``: each directory given bounds where its links may point
                tenant=tenant,
                uri=uri,
                title=title,
                on_file=lambda p: progress.update(task, description=p.name[:40]),
                follow_symlinks=follow_symlinks,
                embed=False,
            ):
                progress.advance(task)
                reports.append(report)
                _print_report(report, as_json)
        # Stage 2: vectors, a committed batch at a time (resumable by `pincite embed`).
        embedded = {} if no_embed else embed_stage(corpus, [tenant], quiet=quiet)
    if not as_json:
        counts = {s: sum(r.status is s for r in reports) for s in IngestStatus}
        summary = ", ".join(f"{n} {s.value}" for s, n in counts.items() if n)
        err.print(f"{len(reports)} file(s): {summary}")
        if embedded.get(tenant):
            err.print(f"embedded {embedded[tenant]} chunk(s)")
        elif no_embed and corpus.embedder is not None:
            err.print("text is searchable now; run `pincite embed` to add its vectors")
    if any(r.status is IngestStatus.FAILED for r in reports):
        raise SystemExit(1)


def _print_report(report: IngestReport, as_json: bool) -> None:
    if as_json:
        print_json(report.as_dict())
        return
    if report.status is IngestStatus.FAILED:
        err.print(f"[red]failed[/red]    {escape(report.error or '')}", markup=True)
        return
    out.print(
        f"{report.status.value:<9} {report.document_id}  {report.hash16}  "
        f"{report.chunks:>4} chunks  {report.source}"
    )
    for warning in report.warnings:
        err.print(
            f"[yellow]warning[/yellow]   {escape(report.source)}: {escape(warning)}", markup=True
        )


@click.command("documents")
@db_option
@tenant_option
@json_option
@handle_errors
def list_documents(db: str, tenant: str, as_json: bool) -> None:
    """List the tenant's documents with their current version."""
    with open_corpus(db, None) as corpus:
        for doc in corpus.documents(tenant=tenant):
            current = corpus.current_hash(doc.document_id, tenant=tenant) or ""
            if as_json:
                print_json(
                    {
                        "document_id": doc.document_id,
                        "title": doc.title,
                        "uri": doc.uri,
                        "status": doc.status.value,
                        "hash16": current[:16],
                    }
                )
            else:
                out.print(f"{doc.document_id}  {current[:16]}  {doc.status.value:<7} {doc.title}")


@click.command()
@click.argument("document_id")
@db_option
@tenant_option
@json_option
@handle_errors
def show(document_id: str, db: str, tenant: str, as_json: bool) -> None:
    """List a document's versions and each chunk's evidence id, span, pages and section."""
    with open_corpus(db, None) as corpus:
        document = corpus.document(document_id, tenant=tenant)
        versions = corpus.versions(document_id, tenant=tenant)
        if as_json:
            print_json(
                {
                    "document_id": document.document_id,
                    "title": document.title,
                    "uri": document.uri,
                    "status": document.status.value,
                    "versions": [
                        {
                            "hash16": v.hash16,
                            "content_hash": v.content_hash,
                            "created_at": v.created_at,
                            "superseded": v.superseded,
                            "parser": v.parser,
                            "chunker": v.chunker,
                            "pages": v.page_count,
                            "chunks": [
                                {
                                    "evidence_id": c.evidence_id,
                                    "start": c.start,
                                    "end": c.end,
                                    "pages": list(c.pages),
                                    "page_label": c.page_label,
                                    "section": list(c.section),
                                    "erased": c.erased,
                                }
                                for c in corpus.chunks(v)
                            ],
                        }
                        for v in versions
                    ],
                }
            )
            return
        out.print(
            f"{document.title}\n  id {document.document_id}  uri {document.uri}  "
            f"status {document.status.value}"
        )
        for v in versions:
            label = "superseded" if v.superseded else "current"
            out.print(f"\nversion {v.hash16} ({label}, {v.created_at}, {v.page_count} pages)")
            for c in corpus.chunks(v):
                pages = ",".join(map(str, c.pages)) or "-"
                section = " > ".join(c.section) or "-"
                flag = "  [erased]" if c.erased else ""
                out.print(f"  {c.evidence_id}  {c.start}-{c.end}  p.{pages}  {section}{flag}")


def _lifecycle(name: str, help_text: str, chunk: bool = False) -> click.Command:
    @click.command(name, help=help_text)
    @click.argument("document_id")
    @db_option
    @tenant_option
    @handle_errors
    def command(document_id: str, db: str, tenant: str, chunk_id: str | None = None) -> None:
        with open_corpus(db, None) as corpus:
            if name == "delete":
                corpus.delete(document_id, tenant=tenant)
                out.print(f"deleted {document_id} (text hidden; ids resolve as 'deleted')")
            elif name == "purge":
                corpus.purge(document_id, tenant=tenant)
                out.print(f"purged {document_id} (all versions, chunks and indexes removed)")
            else:
                n = corpus.erase(document_id, tenant=tenant, chunk_id=chunk_id)
                out.print(f"erased {n} chunk(s) of {document_id}; tombstones remain")

    if chunk:
        command = click.option("--chunk", "chunk_id", help="Erase only this chunk id.")(command)
    return command


delete = _lifecycle("delete", "Soft-delete a document: all its text is hidden, ids say 'deleted'.")
purge = _lifecycle("purge", "Remove a document entirely: versions, chunks, vectors, indexes.")
erase = _lifecycle(
    "erase",
    "Right to erasure: remove a document's (or one chunk's) text for good, leaving a "
    "tombstone so citations resolve to erased=True.",
    chunk=True,
)


@click.command()
@db_option
@tenant_option
@click.option(
    "--all-tenants",
    is_flag=True,
    help="Re-embed every tenant (needed when switching the store to another embedder).",
)
@embedder_option
@handle_errors
def reindex(db: str, tenant: str, all_tenants: bool, embedder: str) -> None:
    """Re-embed the tenant's current chunks with the chosen embedder.

    A store keeps one embedder for all tenants: to switch models, use
    --all-tenants; --tenant alone re-embeds one tenant with the store's own model.
    """
    settings = embedder_settings(embedder)
    built = settings.build()
    if built is None:
        fail("reindex needs an embedder (--embedder default, st:…, or openai:…)")
        return
    with open_corpus(db, None) as corpus, err.status("re-embedding") as status:
        n = corpus.reindex(
            built,
            tenant=None if all_tenants else tenant,
            on_document=lambda d: status.update(f"re-embedding {d.title or d.uri}"),
        )
    scope = "every tenant" if all_tenants else f"tenant {tenant!r}"
    out.print(f"re-embedded {n} chunks of {scope} with {embedder}")


COMMANDS = [ingest, list_documents, show, delete, purge, erase, reindex]
