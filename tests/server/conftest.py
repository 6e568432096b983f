"""A real pincite server process on a loopback port, shared by the integration tests here."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from live_server_process import LiveServer, running_server


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """`pincite serve` on 127.0.0.1 with keys for workspaces alpha, beta and gamma."""
    with running_server(tmp_path_factory.mktemp("live")) as server:
        yield server
