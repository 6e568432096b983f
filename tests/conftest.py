from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import pincite
from pincite.corpus import Corpus


@pytest.fixture
def corpus(tmp_path: Path) -> Iterator[Corpus]:
    """A lexical-only corpus in a real SQLite file (not :memory:)."""
    with pincite.open(tmp_path / "test.db", embedder=None) as c:
        yield c


@pytest.fixture(scope="session")
def embedder() -> pincite.embed.base.Embedder:  # type: ignore[name-defined]
    from pincite.embed.default import default_embedder

    return default_embedder(threads=1)
