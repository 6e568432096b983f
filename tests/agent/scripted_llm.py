"""A test double for a remote, paid model API: a real HTTP server on 127.0.0.1.

It speaks just enough of the OpenAI chat-completions or Anthropic Messages
protocol to drive the agent loop. Each reply comes from a script step, a
function of the request body, because the evidence ids it must echo exist
only once the test's corpus has been built. Every request is kept for the
test to inspect.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Step = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class ScriptedLLM:
    base: str = ""
    script: list[Step] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)


@contextmanager
def serve(script: list[Step]) -> Iterator[ScriptedLLM]:
    state = ScriptedLLM(script=list(script))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append(body)
            state.paths.append(self.path)
            if state.script:
                status, reply = 200, state.script.pop(0)(body)
            else:
                status, reply = 500, {"error": {"message": "script exhausted"}}
            raw = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# -- reading the agent's requests ----------------------------------------------


def last_tool_output(body: dict[str, Any]) -> dict[str, Any]:
    """The JSON the agent sent back for the latest tool call, in either protocol."""
    last = body["messages"][-1]
    if last["role"] == "tool":  # OpenAI
        result: dict[str, Any] = json.loads(last["content"])
        return result
    block = last["content"][-1]  # Anthropic: a user turn of tool_result blocks
    assert block["type"] == "tool_result"
    result = json.loads(block["content"])
    return result


# -- writing replies ---------------------------------------------------------------


def openai_tool_call(name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    call = {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}


def openai_text(text: str) -> dict[str, Any]:
    message = {"role": "assistant", "content": text}
    return {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}


def anthropic_tool_call(name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    content = [
        {"type": "text", "text": "Let me look."},
        {"type": "tool_use", "id": call_id, "name": name, "input": arguments},
    ]
    return {"type": "message", "role": "assistant", "content": content, "stop_reason": "tool_use"}


def anthropic_text(text: str) -> dict[str, Any]:
    content = [{"type": "text", "text": text}]
    return {"type": "message", "role": "assistant", "content": content, "stop_reason": "end_turn"}
