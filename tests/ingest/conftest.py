from __future__ import annotations

from pathlib import Path

import pytest

_SHARED = Path(__file__).resolve().parents[3] / "shared"
DOCUMENTS = _SHARED / "data" / "documents"


@pytest.fixture(scope="session")
def documents() -> Path:
    """The shared real documents (RFCs, NIST PDFs) and their manifest."""
    if not (DOCUMENTS / "manifest.json").is_file():
        pytest.skip(f"shared documents not found at {DOCUMENTS}")
    return DOCUMENTS
