"""Tests reach ../shared only through shared_paths, so one variable can point them away.

.ci/run reruns every test module that imports shared_paths with PINCITE_SHARED
set to an empty folder (a newcomer's clone); that only proves something if no
test finds the shared data by another route.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
BENCHMARKS = TESTS.parent / "benchmarks"

# A literal path to the shared folder, an old variable name, or a parents[N] / "shared" join.
_BYPASS = re.compile(r"""/work/shared|PINCITE_DATA|/\s*["']shared["']""")


def test_no_test_finds_shared_data_except_through_shared_paths() -> None:
    offenders = [
        f"{path.relative_to(TESTS)}:{number}: {line.strip()}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name not in {"shared_paths.py", Path(__file__).name}
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if _BYPASS.search(line)
    ]
    assert offenders == []


def test_no_benchmark_finds_shared_data_except_through_shared_data() -> None:
    # A benchmark run from a newcomer's clone reads ../shared beside it (or
    # $PINCITE_SHARED), never a path that only exists on the machine it was written on.
    offenders = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(BENCHMARKS.glob("*.py"))
        if path.name != "shared_data.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if _BYPASS.search(line) or 'environ.get("PINCITE_SHARED"' in line
    ]
    assert offenders == []


def test_the_bypass_pattern_sees_the_spellings_it_guards_against() -> None:
    caught = [
        'DATA = Path(os.environ.get("PINCITE_DATA", "/work/shared/data"))',
        '_SHARED = Path(__file__).resolve().parents[3] / "shared"',
    ]
    assert all(_BYPASS.search(line) for line in caught)
    assert not _BYPASS.search("from shared_paths import DOCUMENTS")
