"""Options and helpers shared by every command."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape

from pincite.corpus import Corpus
from pincite.errors import PinciteError
from pincite.settings import EmbedderSettings

F = TypeVar("F", bound=Callable[..., Any])

# Markup off by default: what pincite prints quotes documents, ids and user
# input, where "[/x]" is text, not a rich tag. Styled lines opt in with
# markup=True and escape what they quote.
out = Console(highlight=False, soft_wrap=True, markup=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)

db_option = click.option(
    "--db",
    envvar="PINCITE_DB",
    default="pincite.db",
    show_default=True,
    help="SQLite file, or postgresql:// URL (env PINCITE_DB).",
)
tenant_option = click.option(
    "--tenant",
    envvar="PINCITE_TENANT",
    default="default",
    show_default=True,
    help="Workspace whose documents this command reads or writes (env PINCITE_TENANT).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON (lines).")
embedder_option = click.option(
    "--embedder",
    envvar="PINCITE_EMBEDDER",
    default="default",
    show_default=True,
    help=(
        "'default' (offline MiniLM; 'minilm-float' or 'minilm-quantized' name its two forms), "
        "'st:<model or path>', 'openai:<model>', or 'none'."
    ),
)


def fail(message: str, code: int = 1) -> None:
    # Escaped: a message quotes user input, and "[x]" in it is not rich markup.
    err.print(f"[red]error:[/red] {escape(message)}", markup=True)
    raise SystemExit(code)


def handle_errors(fn: F) -> F:
    """Turn pincite's own errors into one-line messages instead of tracebacks."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _refuse_undecodable(kwargs)
        try:
            return fn(*args, **kwargs)
        except PinciteError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            fail("interrupted", 130)
        return None

    return wrapper  # type: ignore[return-value]


def _refuse_undecodable(params: dict[str, Any]) -> None:
    """One line for text arguments that are not UTF-8, before anything reads them.

    Python hands undecodable argv bytes over as lone surrogates; they would reach
    a tokenizer or the store and fail there with a traceback. File arguments are
    ``Path`` objects, which may hold any bytes, and are left alone.
    """
    for name, value in params.items():
        texts = value if isinstance(value, tuple) else (value,)
        for text in texts:
            if isinstance(text, str) and any("\ud800" <= ch <= "\udfff" for ch in text):
                bad = text.encode("utf-8", "surrogateescape")
                fail(f"{_param_label(name)} is not valid UTF-8 text: {bad!r}")


def _param_label(name: str) -> str:
    ctx = click.get_current_context(silent=True)
    for param in ctx.command.params if ctx is not None else []:
        if param.name == name:
            return param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
    return name


def embedder_settings(spec: str | None) -> EmbedderSettings:
    """The embedder a command asked for, with the endpoint and key the environment gives.

    Every command resolves its embedder here, so ``ingest``, ``ask`` and
    ``reindex`` reach an OpenAI-compatible endpoint the same way.
    """
    return EmbedderSettings(
        spec=spec or "none",
        base_url=os.environ.get("PINCITE_EMBED_BASE_URL") or os.environ.get("PINCITE_BASE_URL"),
        api_key=os.environ.get("PINCITE_EMBED_API_KEY") or os.environ.get("PINCITE_API_KEY"),
    )


def open_corpus(db: str, embedder: str | None = "default", *, create: bool = False) -> Corpus:
    """The store at ``db`` with the embedder named.

    Only ``ingest``, ``serve`` (which ingests over HTTP) and ``keys create``
    create a SQLite file that is not there; every other command fails on a
    mistyped path instead (``pincite.open``'s ``create``).
    """
    from pincite._open import open as open_corpus_at

    return open_corpus_at(db, embedder=embedder_settings(embedder).build(), create=create)


def warm_models(corpus: Corpus, *, announce: bool = True) -> None:
    """Load the embedder and the support checker's model now, not on the first request.

    On a machine's first run the checker's quantised model is derived (~4 s);
    a server should pay that before it says it is ready.
    """
    from pincite.support import support_checker_for

    models = [corpus.embedder, support_checker_for(corpus.embedder).embedder]
    if announce and any(m is not None for m in models):
        err.print("pincite: loading models")
    for model in models:
        if model is not None:
            model.embed_query("warm up")


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
