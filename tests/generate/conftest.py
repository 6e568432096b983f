from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from fake_provider import FakeAPI, serve


@pytest.fixture
def fake_api() -> Iterator[FakeAPI]:
    """A local HTTP test double for a remote, paid model API."""
    with serve() as api:
        yield api


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port bound but not listening: connecting is refused, and nobody else gets it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()
