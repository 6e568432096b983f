"""benchmarks/tune_retrieval.py tunes on the development split unless told otherwise."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "tune_retrieval.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tune_retrieval", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("tune_retrieval", module)
    spec.loader.exec_module(module)
    return module


tune = _script()


def _folder(tmp_path: Path, *splits: str) -> Path:
    (tmp_path / "qrels").mkdir(parents=True)
    for split in splits:
        (tmp_path / "qrels" / f"{split}.tsv").write_text("query-id\tcorpus-id\tscore\n")
    return tmp_path


def test_default_is_dev_then_train_never_test(tmp_path: Path) -> None:
    assert tune.tuning_split(_folder(tmp_path / "a", "dev", "test", "train"), None, None) == "dev"
    assert tune.tuning_split(_folder(tmp_path / "b", "test", "train"), None, None) == "train"


def test_test_split_only_with_a_held_out_fold(tmp_path: Path) -> None:
    only_test = _folder(tmp_path, "test")
    with pytest.raises(SystemExit, match=r"needs --fold odd\|even"):
        tune.tuning_split(only_test, None, None)
    with pytest.raises(SystemExit, match="needs --fold"):
        tune.tuning_split(only_test, "test", None)
    assert tune.tuning_split(only_test, None, "odd") == "test"
    assert tune.tuning_split(only_test, "train", None) == "train"  # asked for: load_beir checks


def test_db_is_optional(tmp_path: Path) -> None:
    # Parsing the README's command line must not stop at a missing --db.
    with pytest.raises(SystemExit, match="needs --fold"):
        tune.main([str(_folder(tmp_path, "test"))])
