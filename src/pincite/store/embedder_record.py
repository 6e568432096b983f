"""Which embedder a store was indexed with, and the rules that keep its vectors meaningful.

A store records one embedder for all its tenants (its name and vector width).
Opening it with another, ingesting without vectors into a store that has them,
or with vectors into one that was indexed lexically, would silently rank
chunks by incomparable scores; each is refused with the command that fixes it.
"""

from __future__ import annotations

from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError
from pincite.store.base import Store

_EMBEDDER_KEY = "embedder"
_DIM_KEY = "embedder_dim"
# Recorded when text is indexed without vectors, so a later embedder is told to
# reindex instead of silently ranking vectorless chunks last (hybrid search).
LEXICAL_ONLY = "none"


def recorded(store: Store) -> str | None:
    """The recorded embedder's name, ``"none"`` for a lexical store, ``None`` if new."""
    return store.get_meta(_EMBEDDER_KEY)


def record(store: Store, name: str, dim: int | None) -> None:
    store.set_meta(_EMBEDDER_KEY, name)
    if dim is not None:
        store.set_meta(_DIM_KEY, str(dim))


def check(store: Store, embedder: Embedder) -> None:
    """Record ``embedder`` on a new store; raise ``ConfigurationError`` on any other mismatch."""
    name = recorded(store)
    if name is None:
        record(store, embedder.name, embedder.dim)
        return
    if name != embedder.name:
        hint = (
            "its chunks have no vectors; run `pincite reindex` to embed them"
            if name == LEXICAL_ONLY
            # Every embedder's name is also its spec, so the hint can be copied as is.
            else f"open it with that embedder (--embedder {name}) "
            "or run `pincite reindex` to re-embed"
        )
        raise ConfigurationError(
            f"this store was indexed with embedder {name!r}, not {embedder.name!r}; {hint}"
        )
    dim = store.get_meta(_DIM_KEY)
    if dim is not None and dim != str(embedder.dim):
        # The Embedder protocol promises this check: same name, other width
        # means a changed model behind the name, and every dense score would be noise.
        raise ConfigurationError(
            f"this store's vectors have {dim} dimensions, embedder {embedder.name!r} "
            f"gives {embedder.dim}; run `pincite reindex`"
        )


def check_lexical_ingest(store: Store, embedder: Embedder | None) -> None:
    """Text without vectors must not enter a store whose search expects them."""
    if embedder is not None:
        return
    name = recorded(store)
    if name is None:
        record(store, LEXICAL_ONLY, None)
    elif name != LEXICAL_ONLY:
        raise ConfigurationError(
            f"this store embeds with {name!r}; ingest with that embedder "
            "(--embedder), not without one, or its chunks would rank without vectors"
        )
