"""HTTP fuzzing with schemathesis: many generated requests, none may get a 5xx.

Every operation of the OpenAPI schema gets ``--examples`` generated cases, each
sent four ways (tests/server/fuzz_cases.py): with a valid key, with none, with
a hostile Authorization header (under /v1/ both must be exactly 401), and with
a lone surrogate or invalid UTF-8 planted in its body, path or query. The app
runs in process over ASGI on a temporary lexical store with two workspaces.
Prints requests sent, statuses, and every failure (5xx, or a keyless non-401).

    .venv/bin/python benchmarks/fuzz_http.py [--examples 100]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import schemathesis
from fastapi.testclient import TestClient

import pincite
from pincite.server import create_app, create_key

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
from fuzz_cases import Tally, fuzz_operation


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--examples", type=int, default=100, help="generated cases per operation")
    args = parser.parse_args()
    started = time.perf_counter()
    with (
        tempfile.TemporaryDirectory(prefix="pincite-fuzz-") as tmp,
        pincite.open(Path(tmp) / "fuzz.db", embedder=None) as corpus,
    ):
        key = create_key(corpus.store, "fuzz")
        create_key(corpus.store, "other")
        for tenant in ("fuzz", "other"):
            corpus.ingest_text(
                "The retention period is seven years.\n\nRecords are shredded afterwards.",
                uri="https://example.com/retention",
                tenant=tenant,
                title="Retention",
            )
        app = create_app(corpus, max_upload_bytes=65536)
        schema = schemathesis.openapi.from_asgi("/openapi.json", app)
        operations = [result.ok() for result in schema.get_all_operations()]
        tally = Tally()
        with TestClient(app) as client:
            for operation in operations:
                fuzz_operation(operation, client, key, args.examples, tally)
    took = time.perf_counter() - started
    statuses = ", ".join(f"{s}: {n}" for s, n in sorted(tally.by_status.items()))
    server_errors = sum(n for s, n in tally.by_status.items() if s >= 500)
    print(
        f"{len(operations)} operations x {args.examples} generated cases x 4 variants: "
        f"{tally.requests} requests in {took:.0f} s"
    )
    print(f"statuses: {statuses}")
    print(f"5xx: {server_errors}; failures: {len(tally.failures)}")
    for failure in tally.failures[:20]:
        print("  " + failure)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
