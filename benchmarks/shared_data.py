"""Where the shared evaluation data lives: ``../shared`` beside the repository, or
``$PINCITE_SHARED``. Every benchmark finds it here, as every test does through
``tests/shared_paths.py``."""

from __future__ import annotations

import os
from pathlib import Path

SHARED = Path(os.environ.get("PINCITE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DATA = SHARED / "data"
