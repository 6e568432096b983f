"""Data moves one way: no module imports from a layer above its own.

values/errors → embed, store → ingest, retrieve → generate, support, ground (pure
checks) → answer (orchestration) → present → facade (corpus, open, agent) →
surfaces (cli, server, mcp, eval, demo).
Imports inside functions count too: a lazy import still couples the layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "pincite"

LAYERS: dict[str, int] = {
    # values and errors: import nothing of pincite above them
    "errors": 0,
    "ids": 0,
    "model": 0,
    "citation": 0,
    "tenancy": 0,
    "sentences": 0,
    "stems": 0,
    "numbers": 0,
    "revisions": 0,
    # models and the store of record
    "embed": 1,
    "store": 1,
    # turning files into stored versions; retrieving from the store
    "ingest": 2,
    "retrieve": 2,
    # generators, the support check, and the pure citation checks
    "generate": 3,
    "support": 3,
    "ground": 3,
    "chat": 3,
    "settings": 3,
    # orchestration: the answer pipeline
    "answer": 4,
    # presentation: numbered sources, text and JSON of an answer
    "present": 5,
    # the facade
    "corpus": 6,
    "conversation": 6,
    "stale": 6,
    "_open": 6,
    "agent": 6,
    "tools": 6,
    "studio": 6,
    # surfaces: parse, call the facade, format
    "demo": 7,
    "eval": 7,
    "cli": 7,
    "server": 7,
    "mcp_server": 7,
    "integrations": 7,
    "__init__": 7,
}


def layer_of(module: str) -> int:
    parts = module.split(".")
    assert parts[0] == "pincite", module
    top = parts[1] if len(parts) > 1 else "__init__"
    if top not in LAYERS:
        raise AssertionError(f"pincite.{top} has no layer: add it to LAYERS in {__file__}")
    return LAYERS[top]


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1] if len(parts) > 2 else [*parts[:-1], "__init__"]
    return ".".join(parts)


def imported(path: Path, module: str) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            if name == "pincite":
                # ``from pincite import ids`` imports the submodule, not the facade.
                found += [(node.lineno, _submodule_or_init(a.name)) for a in node.names]
            else:
                found.append((node.lineno, name))
    return [(line, name) for line, name in found if name.split(".")[0] == "pincite"]


def _submodule_or_init(name: str) -> str:
    is_module = (SRC / f"{name}.py").is_file() or (SRC / name).is_dir()
    return f"pincite.{name}" if is_module else "pincite.__init__"


def upward_imports() -> list[str]:
    bad = []
    for path in sorted(SRC.rglob("*.py")):
        module = module_name(path)
        if module == "pincite.__init__":
            continue  # the curated re-export of everything
        own = layer_of(module)
        for line, name in imported(path, module):
            if layer_of(name) > own:
                bad.append(f"{path.relative_to(SRC)}:{line} imports {name}")
    return bad


def test_no_module_imports_from_a_layer_above_it() -> None:
    assert upward_imports() == []


def test_the_walk_sees_an_upward_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "pincite"
    (fake / "store").mkdir(parents=True)
    (fake / "store" / "leaky.py").write_text("from pincite.corpus import Corpus\n")
    (fake / "corpus.py").write_text("from pincite.store import leaky\n")
    monkeypatch.setattr(__import__(__name__), "SRC", fake)
    assert upward_imports() == ["store/leaky.py:1 imports pincite.corpus"]
