"""The isolation property, long profile: tens of thousands of interleaved operations.

Runs ``tests/store/isolation_machine.py`` (hypothesis stateful testing: ingest,
update, delete, erase, purge, search, fetch, check and answer over three
tenants of one store) until ``--ops`` operations have run on each backend,
and prints what ran. Any leak across tenants, any erased or purged word seen
again, any fetch status or text other than the model's stops the run with
hypothesis's shrunk counterexample.

    .venv/bin/python benchmarks/isolation_property.py                 # 10,000 per backend
    .venv/bin/python benchmarks/isolation_property.py --backend sqlite --ops 2000

Without ``--db`` PostgreSQL is a throwaway server (``tests/store/pg_embedded.py``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import psycopg
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "store"))

import pg_embedded  # noqa: E402
from isolation_machine import TENANTS, machine_for  # noqa: E402

from pincite.store.base import Store  # noqa: E402
from pincite.store.sqlite import SQLiteStore  # noqa: E402

LONG = settings(
    max_examples=40,
    stateful_step_count=100,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def run(store: Store, target: int) -> tuple[Counter[str], int, float]:
    """Run the machine until ``target`` operations; (operations by kind, rounds, seconds)."""
    machine = machine_for(store)
    started, rounds = time.perf_counter(), 0
    while sum(machine.ops.values()) < target:
        run_state_machine_as_test(machine, settings=LONG)
        rounds += 1
    return machine.ops, rounds, time.perf_counter() - started


def report(name: str, ops: Counter[str], rounds: int, seconds: float) -> None:
    total = sum(ops.values())
    print(f"\n{name}: {total} operations, {rounds} rounds of {LONG.max_examples} examples")
    print(f"  tenants per example {TENANTS}; {total / seconds:.0f} operations/s; {seconds:.0f} s")
    for kind, n in sorted(ops.items()):
        print(f"  {kind:<8} {n}")
    print("  violations 0 (leak, resurrected text, wrong status or text)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=10_000, help="operations per backend")
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--db", help="a postgresql:// URL (default: a throwaway server)")
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        store = SQLiteStore(Path(tempfile.mkdtemp(prefix="isolation-")) / "store.db")
        try:
            report("SQLite", *run(store, args.ops))
        finally:
            store.close()
    if args.backend in ("postgres", "both"):
        from pincite.store.postgres import PostgresStore

        server = None
        url = args.db
        if url is None:
            server = pg_embedded.start()
            pg_embedded.wait_ready(server.url())
            with psycopg.connect(server.url(), autocommit=True) as conn:
                conn.execute("CREATE DATABASE isolation")
            url = server.url("isolation")
        try:
            pg = PostgresStore(url)
            try:
                report("PostgreSQL", *run(pg, args.ops))
            finally:
                pg.close()
        finally:
            if server is not None:
                server.stop()


if __name__ == "__main__":
    main()
