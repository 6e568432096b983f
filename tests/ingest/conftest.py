from __future__ import annotations

from pathlib import Path

import pytest

from shared_paths import DOCUMENTS


@pytest.fixture(scope="session")
def documents() -> Path:
    """The shared real documents (RFCs, NIST PDFs) and their manifest."""
    if not (DOCUMENTS / "manifest.json").is_file():
        pytest.skip(f"shared documents not found at {DOCUMENTS} (set PINCITE_SHARED)")
    return DOCUMENTS
