"""Property-based: requests generated from the OpenAPI schema (schemathesis) never get a 5xx.

Runs in process over ASGI, each operation through Hypothesis, each request with a
valid key, without one, with a hostile Authorization header, and with malformed
Unicode planted in it (``fuzz_cases``). `benchmarks/fuzz_http.py` runs many more.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from fuzz_cases import Tally, fuzz_operation

import pincite
from pincite.server import create_app, create_key

EXAMPLES = 15


@pytest.fixture(scope="module")
def app_and_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    db = Path(tmp_path_factory.mktemp("fuzz")) / "fuzz.db"
    with pincite.open(db, embedder=None) as corpus:
        key = create_key(corpus.store, "fuzz")
        corpus.ingest_text(
            "The retention period is seven years.\n\nRecords are shredded afterwards.",
            uri="https://example.com/retention",
            tenant="fuzz",
            title="Retention",
        )
        yield create_app(corpus, max_upload_bytes=65536), key


def test_no_generated_request_gets_a_server_error(app_and_key: tuple[Any, str]) -> None:
    """Each generated request with a key, without, with a hostile header, with broken text."""
    app, key = app_and_key
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 18
    tally = Tally()
    with TestClient(app) as client:
        for operation in operations:
            fuzz_operation(operation, client, key, EXAMPLES, tally)
    assert tally.requests >= 4 * len(operations)
    assert not tally.failures, "\n".join(tally.failures[:30])
