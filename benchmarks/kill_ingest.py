"""SIGKILL an ingesting process at random points; after each kill the store must be whole.

A child process ingests, updates, deletes and erases documents in one SQLite
store as fast as it can; the parent kills it with SIGKILL after a random
delay, ``--kills`` times. After every kill the parent opens the file and
checks: ``PRAGMA integrity_check``, FTS5 ``integrity-check`` of every
tenant's table, the invariants below, that every chunk's evidence id
resolves, and that the store takes a new write.

    .venv/bin/python benchmarks/kill_ingest.py                  # 120 kills
    .venv/bin/python benchmarks/kill_ingest.py --kills 20 --max-delay 0.3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from pincite.corpus import Corpus
from pincite.ground.fetch import FetchStatus
from pincite.store.sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parents[1]
TENANTS = ("kill-a", "kill-b", "kill-c")

# The child: an endless mix of new documents, updates, deletes and erasures.
CHILD = r"""
import random, sys
sys.path.insert(0, sys.argv[3])
from store_fakes import HashEmbedder
from pincite.corpus import Corpus
from pincite.store.sqlite import SQLiteStore
rng = random.Random(int(sys.argv[2]))
corpus = Corpus(SQLiteStore(sys.argv[1]), HashEmbedder())
tenants = ("kill-a", "kill-b", "kill-c")
words = "budget minutes ledger travel audit policy records keys backups staff".split()
print("ready", flush=True)
n = 0
while True:
    n += 1
    tenant, slot = rng.choice(tenants), rng.randrange(12)
    docs = corpus.documents(tenant=tenant)
    roll = rng.random()
    if docs and roll < 0.1:
        corpus.erase(rng.choice(docs).document_id, tenant=tenant)
    elif docs and roll < 0.2:
        corpus.delete(rng.choice(docs).document_id, tenant=tenant)
    else:
        sizes = [rng.randrange(20, 200) for _ in range(rng.randrange(1, 5))]
        paras = [" ".join(rng.choices(words, k=k)).capitalize() + "." for k in sizes]
        text = f"Doc {slot} run {sys.argv[2]} step {n}\n\n" + "\n\n".join(paras)
        corpus.ingest_text(text, uri=f"kill://{slot}", tenant=tenant)
"""


def invariants(conn: sqlite3.Connection) -> dict[str, Callable[[], list[object]]]:
    """Each check returns the offending rows (empty when the invariant holds)."""

    def q(sql: str) -> Callable[[], list[object]]:
        return lambda: list(conn.execute(sql).fetchall())

    def fts_matches_what_must_be_indexed() -> list[object]:
        bad: list[object] = []
        for tenant, table in conn.execute("SELECT tenant, name FROM fts_tables").fetchall():
            indexed = {r[0] for r in conn.execute(f"SELECT rowid FROM {table}")}
            must = {
                r[0]
                for r in conn.execute(
                    "SELECT c.rowid FROM chunks AS c JOIN documents AS d"
                    " ON d.tenant = c.tenant AND d.document_id = c.document_id"
                    " WHERE c.tenant = ? AND d.status = 'live'"
                    " AND c.content_hash = d.current_hash AND c.erased = 0",
                    (tenant,),
                )
            }
            bad += sorted(indexed ^ must)
        return bad

    def chunk_text_is_its_span() -> list[object]:
        rows = conn.execute(
            'SELECT c.chunk_id, c.text, v.text, c.start, c."end" FROM chunks AS c'
            " JOIN versions AS v ON v.tenant = c.tenant AND v.document_id = c.document_id"
            " AND v.content_hash = c.content_hash WHERE c.erased = 0"
        ).fetchall()
        return [r[0] for r in rows if r[1] != r[2][r[3] : r[4]]]

    def erased_ranges_are_blank() -> list[object]:
        rows = conn.execute("SELECT document_id, text, erased FROM versions").fetchall()
        return [r[0] for r in rows for a, b in json.loads(r[2]) if r[1][a:b].strip(" ") != ""]

    return {
        "document's current hash names a version": q(
            "SELECT d.document_id FROM documents AS d WHERE NOT EXISTS (SELECT 1 FROM versions"
            " AS v WHERE v.tenant = d.tenant AND v.document_id = d.document_id"
            " AND v.content_hash = d.current_hash)"
        ),
        "exactly one current version per document": q(
            "SELECT d.document_id FROM documents AS d WHERE (SELECT count(*) FROM versions AS v"
            " WHERE v.tenant = d.tenant AND v.document_id = d.document_id"
            " AND v.superseded_by IS NULL) != 1"
        ),
        "the current version is the document's current hash": q(
            "SELECT v.document_id FROM versions AS v JOIN documents AS d ON d.tenant = v.tenant"
            " AND d.document_id = v.document_id WHERE v.superseded_by IS NULL"
            " AND v.content_hash != d.current_hash"
        ),
        "no version without its document": q(
            "SELECT v.document_id FROM versions AS v WHERE NOT EXISTS (SELECT 1 FROM documents"
            " AS d WHERE d.tenant = v.tenant AND d.document_id = v.document_id)"
        ),
        "no chunk without its version": q(
            "SELECT c.chunk_id FROM chunks AS c WHERE NOT EXISTS (SELECT 1 FROM versions AS v"
            " WHERE v.tenant = c.tenant AND v.document_id = c.document_id"
            " AND v.content_hash = c.content_hash)"
        ),
        "every version has chunks": q(
            "SELECT v.document_id FROM versions AS v WHERE NOT EXISTS (SELECT 1 FROM chunks AS c"
            " WHERE c.tenant = v.tenant AND c.document_id = v.document_id"
            " AND c.content_hash = v.content_hash)"
        ),
        "sequence numbers unique per document": q(
            "SELECT document_id, seq FROM versions GROUP BY tenant, document_id, seq"
            " HAVING count(*) > 1"
        ),
        "ordinals contiguous per version": q(
            "SELECT document_id FROM chunks GROUP BY tenant, document_id, content_hash"
            " HAVING max(ordinal) + 1 != count(*) OR min(ordinal) != 0"
        ),
        "chunk text is exactly its span of the version": chunk_text_is_its_span,
        "erased chunks hold no text, index text or vector": q(
            "SELECT chunk_id FROM chunks WHERE erased = 1"
            " AND (text != '' OR embed_text != '' OR vector IS NOT NULL)"
        ),
        "erased ranges of a version are blank": erased_ranges_are_blank,
        "unerased chunks of one version all have vectors or none": q(
            "SELECT document_id FROM chunks WHERE erased = 0"
            " GROUP BY tenant, document_id, content_hash"
            " HAVING count(vector) NOT IN (0, count(*))"
        ),
        "routing rows belong to documents": q(
            "SELECT r.document_id FROM routing AS r WHERE NOT EXISTS (SELECT 1 FROM documents"
            " AS d WHERE d.tenant = r.tenant AND d.document_id = r.document_id)"
        ),
        "uris unique per tenant": q(
            "SELECT tenant, uri FROM documents GROUP BY tenant, uri HAVING count(*) > 1"
        ),
        "FTS rows are exactly the searchable chunks": fts_matches_what_must_be_indexed,
    }


def check(path: Path) -> tuple[list[str], int]:
    """Every failure after one kill (empty: whole); and the number of versions stored."""
    failures: list[str] = []
    conn = sqlite3.connect(path)
    try:
        if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            failures.append("PRAGMA integrity_check")
        for (table,) in conn.execute("SELECT name FROM fts_tables").fetchall():
            try:
                conn.execute(f"INSERT INTO {table} ({table}) VALUES ('integrity-check')")
            except sqlite3.DatabaseError as exc:
                failures.append(f"FTS5 integrity-check {table}: {exc}")
        for name, run in invariants(conn).items():
            if bad := run():
                failures.append(f"{name}: {bad[:3]}")
    finally:
        conn.close()
    store = SQLiteStore(path)
    corpus = Corpus(store)
    versions = 0
    try:
        for tenant in TENANTS:
            for doc in store.list_documents(tenant):
                for version in store.versions(tenant, doc.document_id):
                    versions += 1
                    ids = [
                        c.evidence_id
                        for c in store.chunks(tenant, doc.document_id, version.content_hash)
                    ]
                    for outcome in corpus.fetch(ids, tenant=tenant):
                        if outcome.status not in (
                            FetchStatus.OK,
                            FetchStatus.ERASED,
                            FetchStatus.DELETED,
                        ):
                            failures.append(f"{outcome.id} resolves {outcome.status.value}")
        store.set_meta("kill-check", str(time.time()))  # the store takes a write
    finally:
        store.close()
    return failures, versions


def self_test(path: Path) -> None:
    """Damage a copy three ways; each must be reported (the checks can fail)."""
    copy = path.with_name("self-test.db")
    corpus = Corpus(SQLiteStore(copy))
    report = corpus.ingest_text("Self test.\n\nA second paragraph.", uri="s://t", tenant="kill-a")
    corpus.close()
    damage = [
        "DELETE FROM {fts}",
        "UPDATE chunks SET text = 'changed'",
        "UPDATE documents SET current_hash = 'x'",
    ]
    for statement in damage:
        work = copy.with_name("damaged.db")
        work.write_bytes(copy.read_bytes())
        with closing(sqlite3.connect(work)) as conn, conn:
            [fts] = conn.execute("SELECT name FROM fts_tables").fetchone()
            conn.execute(statement.format(fts=fts))
        failures, _ = check(work)
        assert failures, f"damage not seen: {statement}"
        print(f"self-test: {statement!r} -> {failures[0][:70]}")
    assert report.document_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=120)
    parser.add_argument("--max-delay", type=float, default=0.8, help="seconds before a kill")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--self-test", action="store_true", help="first show that the checks catch damage"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    path = Path(tempfile.mkdtemp(prefix="kill-ingest-")) / "store.db"
    SQLiteStore(path).close()
    if args.self_test:
        self_test(path)
    failed_after: list[tuple[int, list[str]]] = []
    started = time.perf_counter()
    versions = 0
    n_invariants = len(invariants(sqlite3.connect(":memory:")))
    for kill in range(1, args.kills + 1):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path), str(kill), str(ROOT / "tests" / "store")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert child.stdout is not None
        child.stdout.readline()  # "ready": imports done, the store open
        time.sleep(rng.uniform(0.0, args.max_delay))
        if child.poll() is not None:
            err = child.stderr.read().decode() if child.stderr else ""
            raise SystemExit(f"the child stopped on its own before kill {kill}:\n{err}")
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        failures, versions = check(path)
        if failures:
            failed_after.append((kill, failures))
            print(f"kill {kill}: {failures}")
    seconds = time.perf_counter() - started
    print(f"\nSIGKILLs                    {args.kills}")
    print(f"kills leaving damage        {len(failed_after)}")
    print(
        f"checks after each kill      integrity_check, FTS5 integrity-check, {n_invariants}"
        " invariants, every evidence id resolves, the store takes a write"
    )
    print(f"versions at the end         {versions} over {len(TENANTS)} tenants")
    print(f"seconds                     {seconds:.0f}")


if __name__ == "__main__":
    main()
