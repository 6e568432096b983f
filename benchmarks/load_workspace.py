"""The web workspace under load, on loopback: signed-in browser sessions chatting at once.

Starts `pincite serve` on 127.0.0.1 over a temporary store of the bundled demo
documents (``--docs shared`` for ../shared/data/documents), then
``--sessions`` clients each sign in with the workspace key (their own session
cookie, as a browser would), load the page and the document list, start a
conversation and, for ``--seconds``, ask turn after turn through
``/ui/v1/conversations/{id}/turns``, opening the first citation of every
answer in the passage panel (``/ui/v1/evidence/{id}/context``). Each request
has a 60 s timeout and each loop ends at the deadline, so the run is bounded;
the server is stopped at the end. Prints p50/p95 and errors per request kind.

    .venv/bin/python benchmarks/load_workspace.py [--sessions 20] [--seconds 20]
        [--workers N] [--docs demo|shared]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_http import QUESTIONS, build_store, start_server


@dataclass
class Kind:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0


@dataclass
class Stats:
    kinds: dict[str, Kind] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, ok: bool) -> None:
        with self.lock:
            k = self.kinds.setdefault(kind, Kind())
            k.latencies.append(seconds)
            k.errors += 0 if ok else 1

    def lines(self, elapsed: float) -> list[str]:
        out = []
        for name, k in self.kinds.items():
            lat = sorted(k.latencies)
            p50 = statistics.median(lat) * 1000
            p95 = lat[min(len(lat) - 1, int(len(lat) * 0.95))] * 1000
            out.append(
                f"{name:>9}: {len(lat):5d} requests  {len(lat) / elapsed:6.1f}/s  "
                f"p50 {p50:6.0f} ms  p95 {p95:6.0f} ms  errors {k.errors}"
            )
        return out


class Session:
    """One browser: a keep-alive connection and its session cookie."""

    def __init__(self, port: int, stats: Stats) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.port, self.stats, self.cookie = port, stats, ""

    def request(self, kind: str, method: str, path: str, body: object = None) -> object | None:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        if method != "GET":
            headers["X-Pincite-Request"] = "1"
        started = time.perf_counter()
        try:
            self.conn.request(method, path, payload, headers)
            response = self.conn.getresponse()
            raw = response.read()
            ok = response.status in (200, 201)
            cookie = response.getheader("set-cookie")
            if cookie:
                self.cookie = cookie.split(";", 1)[0]
        except (OSError, http.client.HTTPException):
            ok, raw = False, b""
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        self.stats.add(kind, time.perf_counter() - started, ok)
        if not ok or not raw.startswith((b"{", b"[")):
            return None
        data: object = json.loads(raw)
        return data


def browse(port: int, key: str, n: int, stats: Stats, until: Callable[[], bool]) -> None:
    s = Session(port, stats)
    s.request("sign-in", "POST", "/ui/login", {"key": key})
    s.request("page", "GET", "/")
    s.request("documents", "GET", "/ui/v1/documents")
    made = s.request("new-chat", "POST", "/ui/v1/conversations", {"title": f"session {n}"})
    if not isinstance(made, dict):
        return
    turns = f"/ui/v1/conversations/{made['conversation_id']}/turns"
    i = n
    while not until():
        question = f"{QUESTIONS[i % len(QUESTIONS)]} (session {n}, turn {i})"
        i += 1
        answer = s.request("turn", "POST", turns, {"question": question})
        if isinstance(answer, dict) and answer.get("citations"):
            evidence_id = answer["citations"][0]["evidence_id"]
            s.request("passage", "GET", f"/ui/v1/evidence/{quote(evidence_id, safe=':')}/context")
    s.conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--docs", choices=["demo", "shared"], default="demo")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "load.db"
        key, _ = build_store(db, args.docs)
        server, port = start_server(db, args.workers, Path(tmp) / "server.log")
        try:
            stats = Stats()
            end = time.monotonic() + args.seconds
            started = time.perf_counter()
            threads = [
                threading.Thread(
                    target=browse, args=(port, key, n, stats, lambda: time.monotonic() >= end)
                )
                for n in range(args.sessions)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(timeout=30)
        print(f"{args.sessions} signed-in sessions for {elapsed:.0f} s on 127.0.0.1:")
        for line in stats.lines(elapsed):
            print(line)
        errors = sum(k.errors for k in stats.kinds.values())
        if errors:
            raise SystemExit(f"{errors} requests failed")


if __name__ == "__main__":
    main()
