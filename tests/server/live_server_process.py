"""Helpers for a real pincite server process: the service CLI, keys, the running server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

import pincite

UPLOAD_LIMIT_MB = 1


def service_command(*args: str) -> list[str]:
    """The service CLI (`pincite serve|keys|mcp|agent`) as a subprocess command line."""
    return [sys.executable, "-m", "pincite.server", *args]


def clean_env() -> dict[str, str]:
    """This environment without PINCITE_* settings, so only explicit flags apply.

    The model cache stays: it is the test session's throwaway one (tests/conftest.py).
    """
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PINCITE_") or k == "PINCITE_CACHE_DIR"
    }


def create_keys(db: Path, *tenants: str) -> dict[str, str]:
    """Keys from the real `keys create` command (run in parallel); stdout is exactly the key."""
    runs = {
        t: subprocess.Popen(
            service_command("keys", "create", "--tenant", t, "--db", str(db)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=clean_env(),
        )
        for t in tenants
    }
    keys = {}
    for tenant, run in runs.items():
        out, err = run.communicate(timeout=60)
        assert run.returncode == 0, err
        assert re.fullmatch(r"pk_[A-Za-z0-9_-]{40,}", out.strip()), out
        assert tenant in err and out.strip() not in err  # the note names the workspace, not the key
        keys[tenant] = out.strip()
    return keys


@dataclass(frozen=True)
class LiveServer:
    base_url: str
    db: Path
    keys: dict[str, str]

    def client(self, tenant: str | None = None, key: str | None = None) -> httpx.Client:
        """An httpx client for this server, authenticated as ``tenant`` (or with ``key``)."""
        if tenant is not None:
            key = self.keys[tenant]
        headers = {"Authorization": f"Bearer {key}"} if key is not None else {}
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=30)


def _answers(base_url: str) -> bool:
    try:
        return httpx.get(base_url + "/healthz", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


@contextmanager
def running_server(root: Path) -> Iterator[LiveServer]:
    """`pincite serve` as a subprocess (uvicorn on 127.0.0.1, port chosen by the OS).

    The database is lexical-only (no embedder); workspaces ``alpha``, ``beta``
    and ``gamma`` each get a key through `pincite keys create`. The process is
    killed at the end, and its log must hold no traceback.
    """
    db, log_path = root / "pincite.db", root / "server.log"
    pincite.open(db, embedder=None).close()  # the schema first, so the processes below never race
    command = service_command(
        "serve",
        "--db",
        str(db),
        "--embedder",
        "none",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--max-upload-mb",
        str(UPLOAD_LIMIT_MB),
    )
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=clean_env())
    try:
        keys = create_keys(db, "alpha", "beta", "gamma")
        base_url = wait_for_port(process, log_path)
        yield LiveServer(base_url, db, keys)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    log_text = log_path.read_text(errors="replace")
    assert "Traceback" not in log_text, log_text


def wait_for_port(process: subprocess.Popen[bytes], log_path: Path) -> str:
    """The server's base URL once uvicorn says where and a worker answers there."""
    deadline = time.monotonic() + 60
    pattern = re.compile(r"Uvicorn running on (http://127\.0\.0\.1:\d+)")
    while time.monotonic() < deadline:
        found = pattern.search(log_path.read_text(errors="replace"))
        # With several workers the socket is bound (and logged) before a worker listens.
        if found and _answers(found.group(1)):
            return found.group(1)
        if process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log_path.read_text(errors='replace')}")
        time.sleep(0.05)
    raise RuntimeError(f"server did not start:\n{log_path.read_text(errors='replace')}")
