from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import pincite
from pincite.corpus import Corpus

# Models derived at run time (pincite.embed.quantize) go to a throwaway cache,
# not the user's home; the CLI, server and MCP subprocesses inherit it. A cache
# the developer set already is kept, so reruns skip the derivation.
_OWN_CACHE = "PINCITE_CACHE_DIR" not in os.environ
if _OWN_CACHE:
    os.environ["PINCITE_CACHE_DIR"] = tempfile.mkdtemp(prefix="pincite-test-cache-")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _OWN_CACHE:
        shutil.rmtree(os.environ["PINCITE_CACHE_DIR"], ignore_errors=True)


@pytest.fixture
def corpus(tmp_path: Path) -> Iterator[Corpus]:
    """A lexical-only corpus in a real SQLite file (not :memory:)."""
    with pincite.open(tmp_path / "test.db", embedder=None) as c:
        yield c


@pytest.fixture(scope="session")
def embedder() -> pincite.embed.base.Embedder:  # type: ignore[name-defined]
    from pincite.embed.default import default_embedder

    return default_embedder(threads=1)
