"""Each framework stays behind its extra: not imported by pincite, named when missing."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# adapter module -> (top-level package it needs, extra that installs it)
ADAPTERS = {
    "langchain": ("langchain_core", "langchain"),
    "llamaindex": ("llama_index", "llamaindex"),
    "haystack": ("haystack", "haystack"),
    "openai_agents": ("agents", "agents"),
    "pydantic_ai": ("pydantic_ai", "agents"),
}
FRAMEWORKS = sorted({package for package, _ in ADAPTERS.values()})

_LOADED = """
import json, sys
{imports}
print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}} & set({frameworks!r}))))
"""


def _frameworks_loaded_by(*modules: str) -> list[str]:
    code = _LOADED.format(imports="\n".join(f"import {m}" for m in modules), frameworks=FRAMEWORKS)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    loaded: list[str] = json.loads(run.stdout)
    return loaded


def test_importing_pincite_imports_no_framework() -> None:
    assert _frameworks_loaded_by("pincite", "pincite.tools", "pincite.integrations") == []


def test_the_import_check_sees_a_framework_an_adapter_loads() -> None:
    assert _frameworks_loaded_by("pincite.integrations.langchain") == ["langchain_core"]


_MISSING = """
import importlib, json, sys
sys.modules[{package!r}] = None  # what an absent package looks like to import
from pincite.errors import ConfigurationError
from pincite.integrations._extra import MissingExtraError
try:
    importlib.import_module("pincite.integrations." + {adapter!r})
except MissingExtraError as exc:
    both = isinstance(exc, ImportError) and isinstance(exc, ConfigurationError)
    print(json.dumps({{"message": str(exc), "both": both}}))
"""


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_a_missing_extra_is_one_line_naming_it(adapter: str) -> None:
    # A fresh interpreter: here the framework's submodules are already imported.
    package, extra = ADAPTERS[adapter]
    code = _MISSING.format(package=package, adapter=adapter)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout, run.stderr
    raised = json.loads(run.stdout)
    assert raised["both"] is True
    message = raised["message"]
    assert "\n" not in message and f"pincite.integrations.{adapter} needs" in message
    assert f"pip install 'pincite[{extra}]'" in message and f"-e '.[{extra}]'" in message
