from __future__ import annotations

import pytest

from pincite.embed import MiniLMEmbedder


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedder:
    """The real int8 model on one thread, loaded once: tests must be deterministic."""
    return MiniLMEmbedder(threads=1)
