"""OpenAIEmbedder against a real HTTP server on 127.0.0.1.

The server is a test double for a remote, paid API (OpenAI or any compatible
endpoint): it answers with bodies shaped like recorded ``/v1/embeddings``
responses, and with the failures such an API produces, so the client's HTTP,
JSON and error handling run for real without a network or a key.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from pincite.embed import Embedder, OpenAIEmbedder
from pincite.errors import GeneratorError

pytestmark = pytest.mark.integration

API_KEY = "sk-test-0123456789abcdef"

# (status, headers, body) for one request, given the parsed request JSON.
Reply = tuple[int, dict[str, str], bytes]
Responder = Callable[[dict[str, Any]], Reply]


def openai_body(vectors: list[list[float]], indices: list[int] | None = None) -> bytes:
    """A response shaped like a recorded OpenAI ``/v1/embeddings`` answer."""
    indices = list(range(len(vectors))) if indices is None else indices
    return json.dumps(
        {
            "object": "list",
            "data": [
                {"object": "embedding", "index": i, "embedding": v}
                for i, v in zip(indices, vectors, strict=True)
            ],
            "model": "text-embedding-3-small",
            "usage": {"prompt_tokens": 8, "total_tokens": 8},
        }
    ).encode()


def fake_vector(text: str) -> list[float]:
    """Deterministic, 4-d, deliberately un-normalised: the client must normalise."""
    return [float(len(text) + 1), 2.0, 0.0, float(ord(text[0]) if text else 1)]


def ok(request: dict[str, Any]) -> Reply:
    body = openai_body([fake_vector(t) for t in request["input"]])
    return 200, {"Content-Type": "application/json"}, body


@dataclass
class FakeAPI:
    url: str
    requests: list[tuple[dict[str, str], dict[str, Any]]] = field(default_factory=list)
    responder: Responder = ok


@pytest.fixture
def api() -> Iterator[FakeAPI]:
    state = FakeAPI(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            request = json.loads(raw)
            state.requests.append(({k.lower(): v for k, v in self.headers.items()}, request))
            status, headers, body = state.responder(request)
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # A client that gave up (timeout test) leaves a broken pipe; that is expected.
    server.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
    # A short poll interval: shutdown() waits up to one interval, in every test.
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def embedder(api: FakeAPI) -> Iterator[OpenAIEmbedder]:
    with OpenAIEmbedder(api.url, "text-embedding-3-small", api_key=API_KEY, batch_size=2) as e:
        yield e


def test_embeds_in_batches_normalises_and_keeps_order(
    api: FakeAPI, embedder: OpenAIEmbedder
) -> None:
    texts = ["alpha", "be", "c", "delta!", "e"]
    vectors = embedder.embed_documents(texts)

    assert vectors.shape == (5, 4)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    expected = np.array([fake_vector(t) for t in texts])
    np.testing.assert_allclose(
        vectors, expected / np.linalg.norm(expected, axis=1, keepdims=True), atol=1e-6
    )
    assert [r["input"] for _, r in api.requests] == [["alpha", "be"], ["c", "delta!"], ["e"]]
    headers, request = api.requests[0]
    assert headers["authorization"] == f"Bearer {API_KEY}"
    assert request["model"] == "text-embedding-3-small"
    assert embedder.name == "openai:text-embedding-3-small"
    assert embedder.dim == 4
    assert isinstance(embedder, Embedder)


def test_items_are_placed_by_their_index(api: FakeAPI, embedder: OpenAIEmbedder) -> None:
    def reversed_order(request: dict[str, Any]) -> Reply:
        texts = request["input"]
        body = openai_body([fake_vector(t) for t in reversed(texts)], indices=[1, 0])
        return 200, {}, body

    api.responder = reversed_order
    a, b = embedder.embed_documents(["a", "bbbbbbb"])
    assert a[0] < b[0]  # "bbbbbbb" has the larger first component


def test_dim_is_learned_with_one_request_when_not_given(
    api: FakeAPI, embedder: OpenAIEmbedder
) -> None:
    assert embedder.dim == 4
    assert len(api.requests) == 1
    assert embedder.dim == 4
    assert len(api.requests) == 1
    assert embedder.embed_documents([]).shape == (0, 4)


def test_query_and_no_key_sends_no_authorization(api: FakeAPI) -> None:
    with OpenAIEmbedder(api.url + "/", "local-model", dim=4) as embedder:
        vector = embedder.embed_query("hello")
    assert vector.shape == (4,)
    headers, request = api.requests[0]
    assert "authorization" not in headers
    assert request == {"model": "local-model", "input": ["hello"]}


@pytest.mark.parametrize("status", [400, 401, 429, 500, 503])
def test_error_status_raises_without_leaking_the_key(
    api: FakeAPI, embedder: OpenAIEmbedder, status: int
) -> None:
    def error(request: dict[str, Any]) -> Reply:
        body = {"error": {"message": f"Incorrect API key provided: {API_KEY}", "code": status}}
        return status, {"Content-Type": "application/json"}, json.dumps(body).encode()

    api.responder = error
    with pytest.raises(GeneratorError, match=f"HTTP {status}") as info:
        embedder.embed_documents(["hello"])
    assert API_KEY not in str(info.value)
    assert "***" in str(info.value)


def reply_with(body: bytes, status: int = 200) -> Responder:
    return lambda request: (status, {"Content-Type": "application/json"}, body)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"<html>Bad Gateway</html>", "not JSON"),
        (b'{"object": "list"}', "no 'data' list"),
        (b"[1, 2]", "no 'data' list"),
        (openai_body([[1.0, 0.0, 0.0, 0.0]]), "sent 2 inputs, got 1 embeddings"),
        (openai_body([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), "sent 2 inputs, got 3"),
        (openai_body([[1.0, 0.0], [0.0, 1.0]], indices=[0, 0]), "bad or repeated index"),
        (openai_body([[1.0, 0.0], [0.0, 1.0, 2.0]]), "equal-length lists of numbers"),
        (openai_body([[1.0, 0.0], [0.0, 0.0]]), "all zeros"),
        (b'{"data": [{"embedding": [1, 0]}, {"embedding": [NaN, 0]}]}', "NaN or infinity"),
        (b'{"data": [{"embedding": [1, 0]}, {"vector": [1, 0]}]}', "has no 'embedding'"),
    ],
)
def test_out_of_protocol_answers_raise(
    api: FakeAPI, embedder: OpenAIEmbedder, body: bytes, message: str
) -> None:
    api.responder = reply_with(body)
    with pytest.raises(GeneratorError, match=message):
        embedder.embed_documents(["one", "two"])


def test_declared_dimension_is_enforced(api: FakeAPI) -> None:
    with (
        OpenAIEmbedder(api.url, "m", dim=8) as embedder,
        pytest.raises(GeneratorError, match="returned 4-d vectors, expected 8-d"),
    ):
        embedder.embed_query("hello")


def test_dimension_must_stay_the_same(api: FakeAPI, embedder: OpenAIEmbedder) -> None:
    embedder.embed_query("first")
    api.responder = reply_with(openai_body([[1.0, 2.0, 3.0]]))
    with pytest.raises(GeneratorError, match="returned 3-d vectors, expected 4-d"):
        embedder.embed_query("second")


def test_timeout_raises(api: FakeAPI) -> None:
    def slow(request: dict[str, Any]) -> Reply:
        time.sleep(0.5)
        return ok(request)

    api.responder = slow
    with (
        OpenAIEmbedder(api.url, "m", timeout=0.05) as embedder,
        pytest.raises(GeneratorError, match="request failed: ReadTimeout"),
    ):
        embedder.embed_query("hello")


def test_connection_refused_raises() -> None:
    with socket.socket() as s:  # a port that was free a moment ago and has no listener
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with (
        OpenAIEmbedder(f"http://127.0.0.1:{port}/v1", "m", api_key=API_KEY) as embedder,
        pytest.raises(GeneratorError, match="request failed: ConnectError") as info,
    ):
        embedder.embed_query("hello")
    assert API_KEY not in str(info.value)


def test_repr_hides_the_key(embedder: OpenAIEmbedder) -> None:
    assert API_KEY not in repr(embedder)


def test_invalid_arguments() -> None:
    with pytest.raises(ValueError, match="base_url"):
        OpenAIEmbedder("", "m")
    with pytest.raises(ValueError, match="model"):
        OpenAIEmbedder("http://127.0.0.1:1/v1", "")
    with pytest.raises(ValueError, match="dim"):
        OpenAIEmbedder("http://127.0.0.1:1/v1", "m", dim=0)
