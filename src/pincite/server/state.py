"""What a running service remembers between requests: fetch sessions, viewer sessions, jobs.

One small SQLite file that the worker processes of one ``pincite serve`` share
(``:memory:`` when the app runs in a single process). It is not the store of
record: losing it signs browsers out and forgets open sessions and finished
jobs, nothing else. Secrets are kept as sha256 digests only, so the file does
not hold a usable viewer session either.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pincite.ground.fetch import FetchLedger, LedgerEntry

# Open fetch sessions per workspace; the least recently used is dropped beyond it.
SESSIONS_PER_TENANT = 10_000
# A viewer sign-in lasts a working day; then the reader signs in again.
VIEW_SESSION_SECONDS = 8 * 3600
# Finished jobs are kept this long for `GET /v1/jobs/{id}`.
JOB_SECONDS = 24 * 3600

_SCHEMA = """
CREATE TABLE IF NOT EXISTS fetch_sessions (
    tenant TEXT NOT NULL, id TEXT NOT NULL, used INTEGER NOT NULL, entries TEXT NOT NULL,
    PRIMARY KEY (tenant, id));
CREATE INDEX IF NOT EXISTS fetch_sessions_used ON fetch_sessions (tenant, used);
CREATE TABLE IF NOT EXISTS view_sessions (
    digest TEXT PRIMARY KEY, tenant TEXT NOT NULL, key_digest TEXT NOT NULL,
    expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, tenant TEXT NOT NULL, status TEXT NOT NULL, result TEXT,
    updated REAL NOT NULL);
"""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class ViewSession:
    tenant: str
    key_digest: str


@dataclass(frozen=True, slots=True)
class Job:
    job_id: str
    tenant: str
    status: str  # queued, running, done, failed
    result: dict[str, Any] | None


class ServiceState:
    """The shared state file; every method is one short transaction, safe across processes."""

    def __init__(
        self, path: str | Path = ":memory:", *, sessions_per_tenant: int = SESSIONS_PER_TENANT
    ) -> None:
        if sessions_per_tenant < 1:
            raise ValueError(f"sessions_per_tenant must be >= 1, got {sessions_per_tenant}")
        self.sessions_per_tenant = sessions_per_tenant
        self._conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._conn.execute("PRAGMA busy_timeout = 10000")
        if str(path) != ":memory:":
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
        for statement in filter(str.strip, _SCHEMA.split(";")):
            self._conn.execute(statement)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    # -- fetch sessions ----------------------------------------------------

    def open_session(self, tenant: str) -> str:
        """A new fetch session of ``tenant``; its oldest beyond the cap is dropped."""
        session_id = secrets.token_urlsafe(18)
        with self._tx() as db:
            db.execute(
                "INSERT INTO fetch_sessions VALUES (?, ?, ?, '{}')",
                (tenant, session_id, _next_use(db, tenant)),
            )
            # Only this tenant's sessions count against its cap.
            db.execute(
                "DELETE FROM fetch_sessions WHERE tenant = ? AND used <= ("
                " SELECT used FROM fetch_sessions WHERE tenant = ?"
                " ORDER BY used DESC LIMIT 1 OFFSET ?)",
                (tenant, tenant, self.sessions_per_tenant),
            )
        return session_id

    def ledger(self, tenant: str, session_id: str) -> FetchLedger | None:
        """The session's ledger, looked up with the caller's tenant (another's reads as none)."""
        with self._tx() as db:
            row = db.execute(
                "SELECT entries FROM fetch_sessions WHERE tenant = ? AND id = ?",
                (tenant, session_id),
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE fetch_sessions SET used = ? WHERE tenant = ? AND id = ?",
                (_next_use(db, tenant), tenant, session_id),
            )
        entries = {k: LedgerEntry(**v) for k, v in json.loads(row[0]).items()}
        return FetchLedger(tenant, entries)

    def save_ledger(self, session_id: str, ledger: FetchLedger) -> None:
        """Add the ledger's entries to the session (merged: concurrent fetches lose nothing)."""
        with self._tx() as db:
            row = db.execute(
                "SELECT entries FROM fetch_sessions WHERE tenant = ? AND id = ?",
                (ledger.tenant, session_id),
            ).fetchone()
            if row is None:
                return  # dropped meanwhile: the next lookup says so
            merged = json.loads(row[0])
            merged.update({k: asdict(v) for k, v in ledger.entries.items()})
            db.execute(
                "UPDATE fetch_sessions SET entries = ? WHERE tenant = ? AND id = ?",
                (json.dumps(merged), ledger.tenant, session_id),
            )

    # -- viewer sessions ---------------------------------------------------

    def open_view_session(
        self, tenant: str, key_digest: str, seconds: float = VIEW_SESSION_SECONDS
    ) -> str:
        """A random viewer session id for a browser; only its digest is kept."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self._tx() as db:
            db.execute("DELETE FROM view_sessions WHERE expires <= ?", (now,))
            db.execute(
                "INSERT INTO view_sessions VALUES (?, ?, ?, ?)",
                (digest(token), tenant, key_digest, now + seconds),
            )
        return token

    def view_session(self, token: str) -> ViewSession | None:
        """The live session behind a cookie value; ``None`` when unknown or expired."""
        with self._lock:
            row = self._conn.execute(
                "SELECT tenant, key_digest FROM view_sessions WHERE digest = ? AND expires > ?",
                (digest(token), time.time()),
            ).fetchone()
        return ViewSession(row[0], row[1]) if row is not None else None

    def end_view_session(self, token: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM view_sessions WHERE digest = ?", (digest(token),))

    # -- jobs --------------------------------------------------------------

    def create_job(self, tenant: str) -> str:
        job_id = secrets.token_urlsafe(18)
        now = time.time()
        with self._tx() as db:
            db.execute("DELETE FROM jobs WHERE updated <= ?", (now - JOB_SECONDS,))
            db.execute("INSERT INTO jobs VALUES (?, ?, 'queued', NULL, ?)", (job_id, tenant, now))
        return job_id

    def update_job(self, job_id: str, status: str, result: dict[str, Any] | None = None) -> None:
        data = json.dumps(result) if result is not None else None
        with self._tx() as db:
            db.execute(
                "UPDATE jobs SET status = ?, result = ?, updated = ? WHERE id = ?",
                (status, data, time.time(), job_id),
            )

    def job(self, tenant: str, job_id: str) -> Job | None:
        """The job, looked up with the caller's tenant (another's reads as none)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT status, result FROM jobs WHERE tenant = ? AND id = ?", (tenant, job_id)
            ).fetchone()
        if row is None:
            return None
        return Job(job_id, tenant, row[0], json.loads(row[1]) if row[1] else None)


def _next_use(db: sqlite3.Connection, tenant: str) -> int:
    row = db.execute(
        "SELECT COALESCE(MAX(used), 0) + 1 FROM fetch_sessions WHERE tenant = ?", (tenant,)
    ).fetchone()
    return int(row[0])
