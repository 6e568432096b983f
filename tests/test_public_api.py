"""The public surface: what `pincite` exports, what the docs promise, and the README's code."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import pincite
from pincite.cli import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def documented_names() -> set[str]:
    table_rows = re.findall(r"^\| `([A-Za-z_]+)` \|", (ROOT / "docs/api.md").read_text(), re.M)
    return set(table_rows)


def test_all_is_sorted_and_unique() -> None:
    assert pincite.__all__ == sorted(set(pincite.__all__))


def test_exports_are_exactly_the_documented_api() -> None:
    assert set(pincite.__all__) == documented_names()
    for name in pincite.__all__:
        assert getattr(pincite, name) is not None


def test_design_vocabulary_is_exported() -> None:
    # ../shared/DESIGN.md's "Public surface": the field's own names, kept.
    design = {
        "cite",
        "check_grounding",
        "excerpt",
        "CitationResolver",
        "fetch_evidence",
        "check_citations",
        "render_citations",
        "citation_attributes",
        "MemoryRecord",
        "ConfigurationError",
        "UncitedClaimError",
        "UngroundedCitationError",
        "TenantCrossingError",
        "PinciteError",
        "CitedAnswer",
        "Claim",
        "open",
    }
    assert design <= set(pincite.__all__)


def readme_python() -> str:
    [block, *_] = re.findall(r"```python\n(.*?)```", README, re.S)
    return block


def test_readme_python_snippet_asks_in_five_lines() -> None:
    code = [line for line in readme_python().splitlines() if line.strip()]
    assert len(code) <= 5
    assert any(".ask(" in line for line in code)


@pytest.mark.integration
def test_readme_python_snippet_runs_verbatim_and_prints_a_cited_answer(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", readme_python()],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "error::DeprecationWarning"},
    )
    assert run.returncode == 0, run.stderr
    assert "retained for seven years" in run.stdout
    assert "[1]" in run.stdout and "Sources:" in run.stdout
    assert (tmp_path / "team.db").is_file()


def test_every_cli_command_is_in_the_readme_table() -> None:
    table = re.findall(r"^\| `pincite ([a-z-]+)", README, re.M)
    missing = [name for name in cli.commands if name not in table]  # type: ignore[attr-defined]
    assert missing == []


def test_every_readme_table_command_exists() -> None:
    table = set(re.findall(r"^\| `pincite ([a-z-]+)", README, re.M))
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    unknown = [name for name in table if name not in cli.commands]  # type: ignore[attr-defined]
    assert unknown == []
