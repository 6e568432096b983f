"""pincite.open: pick the store by its address and wire the default embedder."""

from __future__ import annotations

from pathlib import Path

from pincite.corpus import Corpus
from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError
from pincite.generate.base import Generator
from pincite.settings import EmbedderSettings
from pincite.store.base import Store
from pincite.support.base import SupportChecker


def open_store(db: str | Path, *, create: bool = True) -> Store:
    """A store for ``db``: a SQLite file path, ``:memory:``, or a ``postgresql://`` URL.

    With ``create=False`` a SQLite path with no file is an error rather than a
    new, empty store: reading from a mistyped path would otherwise find no
    documents and refuse every question as though they did not say.
    """
    address = str(db)
    if address.startswith(("postgresql://", "postgres://")):
        try:
            from pincite.store.postgres import PostgresStore
        except ImportError as exc:
            raise ConfigurationError(
                "PostgreSQL needs the postgres extra: pip install -e '.[postgres]' in a pincite "
                "clone (once published: pip install 'pincite[postgres]')"
            ) from exc
        store: Store = PostgresStore(address)
        return store
    from pincite.store.sqlite import SQLiteStore

    if address != ":memory:":
        path = Path(address).expanduser()
        if path.is_dir():
            raise ConfigurationError(
                f"{address} is a directory; give a SQLite file or a postgresql:// URL"
            )
        if not create and not path.exists():
            raise ConfigurationError(
                f"no pincite store at {address} ({path.absolute()}): check the path (--db, "
                f"env PINCITE_DB), or create it by putting documents in: pincite ingest FILES "
                f"--db {address}"
            )
        if not path.parent.is_dir():
            raise ConfigurationError(
                f"cannot create database {address}: {path.parent} does not exist"
            )
        address = str(path)
    return SQLiteStore(address)


def open(
    db: str | Path = "pincite.db",
    *,
    embedder: Embedder | str | None = "default",
    generator: Generator | None = None,
    support: SupportChecker | None = None,
    create: bool = True,
) -> Corpus:
    """Open (or create) a corpus: everything a team needs to ingest, search and ask.

    ``db`` is a SQLite file (created if missing, unless ``create=False``, which
    raises ``ConfigurationError`` instead), ``":memory:"``, or a
    ``postgresql://`` URL. ``embedder`` is an :class:`Embedder`, a spec string
    (``"default"``, ``"st:<model>"``) or ``None`` for lexical search only.
    ``generator`` answers :meth:`Corpus.ask` (default: the offline extractive
    answerer) and ``support`` checks every claim (default: the offline checker).
    """
    store = open_store(db, create=create)
    try:
        return Corpus(store, _embedder(embedder), generator=generator, support=support)
    except BaseException:
        store.close()
        raise


def _embedder(spec: Embedder | str | None) -> Embedder | None:
    if spec is None:
        return None
    if isinstance(spec, str):
        return EmbedderSettings(spec).build()
    return spec
