"""The isolation property, small profile: a few hundred interleaved operations per backend.

The long profile (tens of thousands of operations) is
``benchmarks/isolation_property.py``; both run ``isolation_machine``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from isolation_machine import machine_for

from pincite.store.base import Store
from pincite.store.sqlite import SQLiteStore

SMALL = settings(
    max_examples=8,
    stateful_step_count=50,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_interleaved_operations_never_leak_or_resurrect(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    store: Store
    if backend == "sqlite":
        store = SQLiteStore(tmp_path / "iso.db")
    else:
        from pincite.store.postgres import PostgresStore

        store = PostgresStore(request.getfixturevalue("fresh_pg_url"))
    machine = machine_for(store)
    try:
        run_state_machine_as_test(machine, settings=SMALL)
    finally:
        store.close()
    assert sum(machine.ops.values()) >= 100
    assert {"ingest", "erase", "search", "fetch", "answer", "converse"} <= set(machine.ops)
