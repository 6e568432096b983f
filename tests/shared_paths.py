"""Where the shared evaluation data lives (beside the repository, in CI as here)."""

from __future__ import annotations

import os
from pathlib import Path

SHARED = Path(os.environ.get("PINCITE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DATA = SHARED / "data"
DOCUMENTS = DATA / "documents"
