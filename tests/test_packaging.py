"""Issue 20: the release is what the source tree promises.

The built wheel is installed into a fresh virtual environment, away from the
source tree, and used: so a tokenizer, demo file or migration left out of the
package fails here, not on a newcomer's machine. Nothing is downloaded: the
build runs without isolation (hatchling from the test extra), the wheel is
installed with ``--no-index --no-deps``, and its dependencies are the ones this
interpreter already has, reached through a ``.pth`` line that names only
site-packages (the editable install's path to ``src/`` is never processed).
"""

from __future__ import annotations

import importlib.util
import os
import re
import site
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_changelog_names_the_version_being_released() -> None:
    releases = re.findall(r"^## \[([^\]]+)\]", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert releases and releases[0] in ("Unreleased", VERSION)
    assert VERSION in releases


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for module in ("build", "hatchling", "twine"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is missing: pip install -e '.[test]' installs it")
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT)
    return out


@pytest.mark.slow
@pytest.mark.integration
def test_sdist_and_wheel_build_and_pass_twine_check(dist: Path) -> None:
    built = sorted(p.name for p in dist.iterdir())
    assert built == [f"pincite-{VERSION}-py3-none-any.whl", f"pincite-{VERSION}.tar.gz"]
    run(sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir()))


@pytest.mark.slow
@pytest.mark.integration
def test_the_wheel_carries_every_file_of_the_package(dist: Path) -> None:
    source = ROOT / "src"
    expected = {
        p.relative_to(source).as_posix()
        for p in (source / "pincite").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        packaged = {name for name in archive.namelist() if name.startswith("pincite/")}
        meta = archive.read(f"pincite-{VERSION}.dist-info/METADATA").decode()
    assert expected - packaged == set()
    assert {"pincite/embed/data/minilm-tokenizer.json", "pincite/py.typed"} <= packaged
    assert any(name.startswith("pincite/demo_data/") for name in packaged)
    assert f"Version: {VERSION}" in meta and "License-Expression: Apache-2.0" in meta


@pytest.mark.slow
@pytest.mark.integration
def test_the_installed_wheel_ingests_and_answers_away_from_the_source_tree(
    dist: Path, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    (wheel,) = dist.glob("*.whl")
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-index",
        "--no-deps", wheel)  # fmt: skip
    purelib = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"))
    purelib = Path(str(purelib).strip())
    (purelib / "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    home = tmp_path / "user"
    home.mkdir()

    def pincite(*args: str, db: str = "p.db") -> str:
        return run(venv / "bin" / "pincite", *args, "--db", home / db, cwd=home, env=env)

    where = run(python, "-c", "import pincite; print(pincite.__file__)", cwd=home, env=env)
    assert Path(where.strip()).is_relative_to(purelib), where
    assert not Path(where.strip()).is_relative_to(ROOT)
    version = run(venv / "bin" / "pincite", "--version", cwd=home, env=env)
    assert version.strip().endswith(VERSION)
    demo = run(
        python, "-c",
        "from importlib.resources import files; print(files('pincite') / 'demo_data')",
        cwd=home, env=env,
    )  # fmt: skip
    guide = Path(demo.strip()) / "SP800-46r1.pdf"
    note = home / "retention.md"
    note.write_text("# Retention\n\nCustomer invoices are kept for seven years.\n")
    # The default embedder (packaged tokenizer, migrations on a new file) and a
    # PDF, which is parsed by a child process that must find the installed code.
    assert pincite("ingest", str(note)).startswith("new")
    report = pincite("ingest", str(guide), "--embedder", "none", db="pdf.db")
    assert re.match(r"new .* ([1-9][0-9]*) chunks ", report), report
    answer = pincite("ask", "How long are customer invoices kept?")
    assert "seven years" in answer and "Retention" in answer and "ev1:s:" in answer
