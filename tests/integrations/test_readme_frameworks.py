"""README "Inside your framework": one snippet per framework, each run verbatim."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()
FRAMEWORKS = ["LangChain", "LlamaIndex", "Haystack", "OpenAI Agents SDK", "pydantic-ai"]


def snippets() -> dict[str, str]:
    [section] = re.findall(r"^## Inside your framework\n(.*?)(?=^## )", README, re.M | re.S)
    found = {}
    for part in re.split(r"^### ", section, flags=re.M)[1:]:
        title, _, body = part.partition("\n")
        [code] = re.findall(r"```python\n(.*?)```", body, re.S)
        found[title.strip()] = code
    return found


def test_the_section_has_one_snippet_per_framework() -> None:
    assert list(snippets()) == FRAMEWORKS


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_the_snippet_runs_verbatim_and_shows_evidence_ids(framework: str, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONWARNINGS": "error::DeprecationWarning",
        "HAYSTACK_TELEMETRY_ENABLED": "False",  # nothing leaves the machine in a test
    }
    run = subprocess.run(
        [sys.executable, "-c", snippets()[framework]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"ev1:[cs]:[0-9a-f-]{36}:[0-9a-f]{16}:", run.stdout), run.stdout
    assert "Lost devices are reported within one day." in run.stdout
