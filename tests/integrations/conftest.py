"""Two workspaces in one real SQLite file, lexical only, for every framework adapter."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from pinning import GLOBEX_POLICY, IT_POLICY, TRAVEL_POLICY

import pincite
from pincite.corpus import Corpus

# No framework may phone home from a test: Haystack reads this flag when it is
# first imported, the Agents SDK before it exports a trace.
os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")
os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")


@pytest.fixture
def corpus(tmp_path: Path) -> Iterator[Corpus]:
    """acme (two documents) and globex (one) in one store."""
    with pincite.open(tmp_path / "frameworks.db", embedder=None) as c:
        c.ingest_text(IT_POLICY, uri="policy://it", tenant="acme", title="IT policy")
        c.ingest_text(TRAVEL_POLICY, uri="policy://travel", tenant="acme", title="Travel policy")
        c.ingest_text(GLOBEX_POLICY, uri="policy://globex", tenant="globex", title="Globex")
        yield c
