"""Service commands: serve (HTTP API + viewer), keys, mcp (stdio), agent."""

from __future__ import annotations

import logging
import sys

import click

from pincite.cli.answers import generator_options, with_generator_options
from pincite.cli.common import (
    F,
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
    warm_models,
)
from pincite.server.worker import DEFAULT_WORKERS
from pincite.settings import GeneratorSettings


def _endpoint_options(fn: F) -> F:
    """--base-url, --model and --api-key, as `pincite ask` spells them."""
    for option in reversed(generator_options[1:]):
        fn = option(fn)
    return fn


required_tenant = click.option(
    "--tenant",
    envvar="PINCITE_TENANT",
    required=True,
    help="Workspace (env PINCITE_TENANT).",
)


@click.command()
@db_option
@embedder_option
@with_generator_options
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port (0: any free port; the log says which).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=DEFAULT_WORKERS,
    show_default=True,
    help="Worker processes answering requests (default: one per core, at most 4).",
)
@click.option(
    "--public-url",
    help="Base URL clients reach this server at, for the links it returns "
    "(default: http://HOST:PORT). Links never follow the request's Host header.",
)
@click.option(
    "--max-upload-mb",
    type=click.FloatRange(min=0.001),
    default=20.0,
    show_default=True,
    help="Largest request body accepted; larger gets 413.",
)
@handle_errors
def serve(
    db: str,
    embedder: str,
    generator: str,
    base_url: str | None,
    model: str | None,
    api_key: str | None,
    answer_threshold: float | None,
    host: str,
    port: int,
    workers: int,
    public_url: str | None,
    max_upload_mb: float,
) -> None:
    """Serve the HTTP API (OpenAPI at /docs) and the evidence viewer at /view/{evidence_id}.

    Callers authenticate with a workspace key from `pincite keys create`; the
    workspace comes from the key. Uploads are ingested as jobs in a background
    process at lower priority. Needs the server extra: pip install -e '.[server]'
    in a pincite clone.
    """
    try:
        import uvicorn

        import pincite.server  # noqa: F401  (FastAPI present?)
    except ImportError:
        fail(f"the HTTP server needs the server extra: {_install('server')}")
        return
    from pincite.server import worker as serving

    port = port or serving.free_port(host)
    public = serving.public_base(public_url, host, port)
    # Fails here, once, on a bad --db or --embedder.
    with open_corpus(db, embedder, create=True) as corpus:
        gen = GeneratorSettings(
            generator, base_url=base_url, model=model, api_key=api_key, threshold=answer_threshold
        ).build(corpus.embedder)
        warm_models(corpus)  # derives the model caches once, before any worker loads them
    with serving.state_file() as state_path:
        serving.export_config(
            serving.WorkerConfig(
                db=db,
                embedder=embedder,
                generator=generator,
                base_url=base_url,
                model=model,
                api_key=api_key,
                answer_threshold=answer_threshold,
                max_upload_bytes=int(max_upload_mb * 1024 * 1024),
                public_url=public,
                state=str(state_path),
            )
        )
        err.print(
            f"pincite: serving {db} with the {gen.name} generator, {workers} worker(s); "
            f"links use {public}; API docs at /docs"
        )
        uvicorn.run(
            "pincite.server.worker:worker_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="info",
            server_header=False,
            timeout_graceful_shutdown=10,
        )


@click.group()
def keys() -> None:
    """Workspace API keys for the HTTP API and viewer (stored hashed in the database)."""


@keys.command("create")
@db_option
@required_tenant
@handle_errors
def create(db: str, tenant: str) -> None:
    """Create a key for a workspace and print it. It is shown this once; store it now."""
    from pincite.server.keys import create_key, list_keys

    with open_corpus(db, None, create=True) as corpus:
        key = create_key(corpus.store, tenant)
        key_id = list_keys(corpus.store, tenant)[-1].key_id
    out.print(key)
    err.print(f"key {key_id} for workspace {tenant!r} in {db}: shown once; only its hash is stored")


@keys.command("list")
@db_option
@click.option("--tenant", envvar="PINCITE_TENANT", help="Only this workspace's keys.")
@json_option
@handle_errors
def list_(db: str, tenant: str | None, as_json: bool) -> None:
    """List keys: key id, workspace, creation time, revoked or not (never the keys)."""
    from pincite.server.keys import list_keys

    with open_corpus(db, None) as corpus:
        found = list_keys(corpus.store, tenant)
    for k in found:
        if as_json:
            print_json(
                {
                    "key_id": k.key_id,
                    "tenant": k.tenant,
                    "created_at": k.created_at,
                    "revoked": k.revoked,
                }
            )
        else:
            state = "revoked" if k.revoked else "active"
            out.print(f"{k.key_id}  {state:<7}  {k.created_at}  {k.tenant}")


@keys.command("revoke")
@click.argument("key_id")
@db_option
@handle_errors
def revoke(key_id: str, db: str) -> None:
    """Revoke a key by its key id (from `keys list`) or by the key itself."""
    from pincite.server.keys import revoke_key

    with open_corpus(db, None) as corpus:
        info = revoke_key(corpus.store, key_id)
    out.print(f"revoked {info.key_id} (workspace {info.tenant!r})")


@click.command("mcp")
@db_option
@click.option("--tenant", envvar="PINCITE_TENANT", help="Workspace to serve (or give --key).")
@click.option(
    "--key",
    "workspace_key",
    envvar="PINCITE_WORKSPACE_KEY",
    help="A workspace API key (env PINCITE_WORKSPACE_KEY); serves that key's workspace.",
)
@embedder_option
@with_generator_options
@handle_errors
def mcp(
    db: str,
    tenant: str | None,
    workspace_key: str | None,
    embedder: str,
    generator: str,
    base_url: str | None,
    model: str | None,
    api_key: str | None,
    answer_threshold: float | None,
) -> None:
    """Serve one workspace as an MCP server over stdio.

    Tools: search, fetch_evidence, check_citations, answer. The workspace is
    fixed for the process; clients cannot choose it. Logs go to stderr.
    Needs the mcp extra: pip install -e '.[mcp]' in a pincite clone.
    """
    try:
        from pincite.mcp_server import serve_stdio
    except ImportError:
        fail(f"the MCP server needs the mcp extra: {_install('mcp')}")
        return
    from pincite.server.keys import tenant_for

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    with open_corpus(db, embedder) as corpus:
        if workspace_key is not None:
            keyed = tenant_for(corpus.store, workspace_key)
            if keyed is None:
                fail("the workspace key is unknown or revoked")
            if tenant is not None and tenant != keyed:
                fail("--tenant names another workspace than --key")
            tenant = keyed
        if tenant is None:
            fail("give --tenant or --key: the workspace this server answers from")
            return
        gen = GeneratorSettings(
            generator, base_url=base_url, model=model, api_key=api_key, threshold=answer_threshold
        ).build(corpus.embedder)
        warm_models(corpus, announce=False)  # stdio clients see stderr as the server's log
        serve_stdio(corpus, tenant, gen)


@click.command()
@click.argument("question")
@db_option
@tenant_option
@embedder_option
@click.option(
    "--generator",
    type=click.Choice(["openai", "anthropic"]),
    required=True,
    envvar="PINCITE_GENERATOR",
    help="The model provider the agent chats with.",
)
@_endpoint_options
@click.option(
    "--budget",
    type=click.IntRange(1, 100),
    default=8,
    show_default=True,
    help="Most tool calls (search, fetch) the model may make.",
)
@json_option
@handle_errors
def agent(
    question: str,
    db: str,
    tenant: str,
    embedder: str,
    generator: str,
    base_url: str | None,
    model: str | None,
    api_key: str | None,
    budget: int,
    as_json: bool,
) -> None:
    """Let a model search and fetch, answer citing evidence ids, then check every id.

    One repair pass runs when some cited ids were not fetched. Exit status 0
    when answered, 3 when refused.
    """
    from pincite.agent import run_agent
    from pincite.generate.providers import generator_from_config

    with open_corpus(db, embedder) as corpus:
        gen = generator_from_config(generator, base_url=base_url, model=model, api_key=api_key)
        with gen:
            result = run_agent(corpus, question, gen, tenant, budget)
        if as_json:
            print_json(result.as_dict())
        else:
            # As `pincite ask` prints it: numbered sources with the exact excerpts.
            out.print(corpus.render(result))
            if not result.refused:
                # A refusal lists its reasons above; an answer's (a repair) are notes.
                for reason in result.reasons:
                    err.print(f"note: {reason}")
    if result.refused:
        raise SystemExit(3)


COMMANDS = [serve, keys, mcp, agent]


def _install(extra: str) -> str:
    """How to get an extra, from a clone (pincite is not on PyPI yet) and once published."""
    return (
        f"pip install -e '.[{extra}]' in a pincite clone "
        f"(once published: pip install 'pincite[{extra}]')"
    )
