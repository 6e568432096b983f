"""A real HTTP server on 127.0.0.1 that stands in for a remote, paid model API.

Each test queues the replies the server gives, in order, then reads back the
requests it received (path, headers, JSON body). Reply bodies come from
``recordings/``, shaped like the providers' real replies. The fixtures that
start it live in ``conftest.py``.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

RECORDINGS = Path(__file__).parent / "recordings"
API_KEY = "sk-test-0123456789abcdef"


def recording(name: str) -> dict[str, Any]:
    """One recorded reply body, parsed; a fresh copy each call, safe to modify."""
    body: dict[str, Any] = json.loads((RECORDINGS / name).read_text(encoding="utf-8"))
    return body


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]  # names lower-cased
    body: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    headers: dict[str, str]
    delay_s: float = 0.0


@dataclass
class FakeAPI:
    """The server's state; ``base`` is ``http://127.0.0.1:PORT`` with no path."""

    base: str = ""
    received: list[Received] = field(default_factory=list)
    replies: deque[Reply] = field(default_factory=deque)
    released: threading.Event = field(default_factory=threading.Event)

    def reply(
        self,
        body: dict[str, Any] | str,
        status: int = 200,
        headers: dict[str, str] | None = None,
        delay_s: float = 0.0,
    ) -> None:
        """Queue one reply: a dict is sent as JSON, a string as HTML."""
        raw = json.dumps(body).encode() if isinstance(body, dict) else body.encode()
        kind = "application/json" if isinstance(body, dict) else "text/html"
        self.replies.append(Reply(status, raw, {"Content-Type": kind, **(headers or {})}, delay_s))


@contextmanager
def serve() -> Iterator[FakeAPI]:
    """Run the server in a thread for the duration of the block."""
    state = FakeAPI()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            state.received.append(
                Received(
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=json.loads(raw),
                )
            )
            if state.replies:
                reply = state.replies.popleft()
            else:
                reply = Reply(599, b'{"error": "no reply queued in the test"}', {})
            if reply.delay_s:
                state.released.wait(reply.delay_s)  # set at teardown: never holds it up
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # A client that gave up (timeout test) leaves a broken pipe; that is expected.
    server.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
    # A short poll interval: shutdown() waits up to one interval, in every test.
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield state
    finally:
        state.released.set()
        server.shutdown()
        server.server_close()
        thread.join()
