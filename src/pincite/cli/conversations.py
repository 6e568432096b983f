"""Commands for conversations and the answers that outlive their documents: chat, stale."""

from __future__ import annotations

import sys

import click

from pincite.cli.answers import with_generator_options
from pincite.cli.common import (
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
from pincite.present.answer import answer_json
from pincite.settings import GeneratorSettings

_QUIT = {"/quit", "/exit", ":q"}


@click.command()
@db_option
@tenant_option
@embedder_option
@with_generator_options
@click.option(
    "--conversation",
    "conversation_id",
    metavar="ID",
    help="Resume this stored conversation instead of starting one.",
)
@click.option("--title", default="", help="A label for a new conversation.")
@click.option(
    "-k", "k", type=click.IntRange(1, 50), default=6, show_default=True, help="Passages shown."
)
@json_option
@handle_errors
def chat(
    db: str,
    tenant: str,
    embedder: str,
    generator: str,
    base_url: str | None,
    model: str | None,
    api_key: str | None,
    answer_threshold: float | None,
    conversation_id: str | None,
    title: str,
    k: int,
    as_json: bool,
) -> None:
    """Ask one question after another; follow-ups are understood in context.

    Reads one question per line from the terminal (or a pipe) until end of
    input or /quit. Each turn is answered like `pincite ask`, searched as the
    standalone question shown, and stored: resume with --conversation ID.
    With a model generator a follow-up is rewritten by the model (one extra
    tool call per follow-up); offline, by a deterministic rewrite.
    """
    settings = GeneratorSettings(
        generator, base_url=base_url, model=model, api_key=api_key, threshold=answer_threshold
    )
    stdin = sys.stdin
    interactive = stdin.isatty()
    with open_corpus(db, embedder) as corpus:
        corpus.generator = settings.build(corpus.embedder)
        conversation = corpus.conversation(conversation_id, tenant=tenant, title=title)
        verb = "resumed" if conversation_id else "started"
        err.print(f"conversation {conversation.id} ({verb}; /quit to leave)")
        while True:
            if interactive:
                err.print("> ", end="")
            line = stdin.readline()
            if not line:
                break
            question = line.strip()
            if not question:
                continue
            if question in _QUIT:
                break
            result = conversation.ask(question, k=k)
            seq = conversation.record.turn_count - 1
            rewrite = conversation.last_rewrite
            if rewrite is not None and rewrite.note:
                # A model's unusable rewrite does not stop the turn; the user still learns of it.
                err.print(f"note: {rewrite.note} ({rewrite.error})")
            if as_json:
                data = answer_json(result)
                data.update(conversation_id=conversation.id, seq=seq, asked=question)
                if rewrite is not None:
                    data["rewrite"] = rewrite.by
                print_json(data)
                continue
            if result.question != question:
                out.print(f"(searched: {result.question})")
            out.print(corpus.render(result))
            out.print("")


@click.command()
@db_option
@tenant_option
@json_option
@handle_errors
def stale(db: str, tenant: str, as_json: bool) -> None:
    """Stored answers and memories whose citations point into text that changed.

    Lists each conversation turn and memory citing a superseded, deleted,
    erased or purged version. A superseded citation is re-anchored into the
    current version: unchanged (same text, new id), changed (similarity and a
    word diff) or removed.
    """
    with open_corpus(db, None) as corpus:
        found = corpus.stale(tenant=tenant)
    if as_json:
        for item in found:
            print_json(item.as_dict())
        return
    if not found:
        out.print("No stored answer cites text that changed.")
        return
    for item in found:
        where = (
            f"turn {item.conversation_id}#{item.seq}"
            if item.kind == "turn"
            else f"memory {item.memory_id}"
        )
        out.print(f"{where}: {item.text}")
        for c in item.citations:
            line = f"  {c.evidence_id} {c.state}"
            a = c.anchor
            if a is not None:
                line += f", {a.status.value} (similarity {a.similarity:.2f})"
            if c.current_evidence_id:
                line += f" -> {c.current_evidence_id}"
            out.print(line)
            if a is not None and a.diff:
                out.print(f"    diff: {a.diff}")


COMMANDS = [chat, stale]
