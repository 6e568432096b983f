"""The HTTP service under load, on loopback: throughput, p50/p99, errors, server memory.

Starts `pincite serve` on 127.0.0.1 (a free port) over a temporary store of the
bundled demo documents (or ../shared/data/documents with ``--docs shared``),
with the default offline models, then runs, each for ``--seconds``:

1. ``--clients`` keep-alive clients posting ``/v1/search``;
2. the same against ``/v1/answer``;
3. ``/v1/search`` again while one ``--upload-mb`` upload is ingested (202 + job,
   polled until done; the load stops after ``--upload-cap`` s): search latency
   during the upload, and how long the upload took;
4. 60 concurrent keyless 19 MB POSTs (must all be refused, unread: memory flat).

The server's resident memory (all its processes summed, from /proc) is
sampled throughout; the peak is printed. Every loop is bounded and the server
is stopped at the end. Nothing leaves the machine.

    .venv/bin/python benchmarks/load_http.py [--clients 20] [--seconds 20] [--workers N]
        [--docs demo|shared] [--upload-mb 1] [--upload-cap 120] [--skip-flood]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from shared_data import SHARED

import pincite
from pincite.server import create_key

TENANT = "load"
QUESTIONS = [
    "What is a remote access server?",
    "How should telework devices be secured?",
    "What does a proxy do with a request?",
    "How is the message body length determined?",
    "Should organizations encrypt telework communications?",
    "What is chunked transfer coding?",
    "Which authentication do remote access methods need?",
    "What are the risks of using a third-party client device?",
    "What is a telework client device?",
    "How should a VPN be configured for teleworkers?",
    "What is the purpose of the Host header field?",
    "How are persistent connections handled?",
    "What should happen when a message has both Transfer-Encoding and Content-Length?",
    "What is a tunnel in HTTP?",
    "How should organizations protect telework servers?",
    "What is a portal for remote access?",
    "Which wireless security should home networks use?",
    "How long may a cache keep a response?",
    "What does the Via header record?",
    "Should sensitive data be stored on telework devices?",
    "What is an origin server?",
    "How are request targets formed?",
    "What is direct application access?",
    "Why is remote desktop access risky?",
]


def question(i: int) -> dict[str, object]:
    """The i-th request's body: a question with a number, so no two are the same text."""
    return {"question": f"{QUESTIONS[i % len(QUESTIONS)]} (request {i})"}


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, seconds: float, ok: bool) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.errors += 0 if ok else 1

    def line(self, label: str, elapsed: float) -> str:
        lat = sorted(self.latencies)
        if not lat:
            return f"{label}: no requests completed"
        p50 = statistics.median(lat) * 1000
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
        return (
            f"{label}: {len(lat) / elapsed:6.1f} req/s  p50 {p50:6.0f} ms  p99 {p99:6.0f} ms  "
            f"errors {self.errors}/{len(lat)}"
        )


class Memory(threading.Thread):
    """Peak summed RSS of a process and its descendants, sampled every 0.1 s."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, 0, threading.Event()

    def now(self) -> int:
        return sum(_rss(p) for p in _tree(self.pid))

    def run(self) -> None:
        while not self.stop.wait(0.1):
            self.peak = max(self.peak, self.now())


def _tree(root: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(parents.get(pid, []))
    return found


def _rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _mb(n: int) -> str:
    return f"{n / 1e6:.0f} MB"


def build_store(db: Path, docs: str) -> tuple[str, str]:
    """Ingest the documents; return a key and ~text for uploads (the corpus's own words)."""
    if docs == "shared":
        folder = SHARED / "data" / "documents"
        if not folder.is_dir():
            raise SystemExit(f"no shared documents at {folder} (set PINCITE_SHARED)")
        paths = sorted(p for p in folder.rglob("*") if p.suffix in (".pdf", ".txt"))
    else:
        paths = [
            Path(str(resources.files("pincite") / "demo_data" / n))
            for n in ("SP800-46r1.pdf", "rfc7230.pdf", "SP800-46r2.pdf")
        ]
    started = time.perf_counter()
    with pincite.open(db) as corpus:
        for path in paths:
            corpus.ingest_path(path, tenant=TENANT)
        key = create_key(corpus.store, TENANT)
        text = "\n\n".join(
            v.text
            for d in corpus.documents(tenant=TENANT)
            for v in corpus.versions(d.document_id, tenant=TENANT)
        )
    print(f"store: {len(paths)} documents ingested in {time.perf_counter() - started:.0f} s")
    return key, text


def start_server(db: Path, workers: int | None, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    command = [sys.executable, "-m", "pincite.server", "serve", "--db", str(db)]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    if workers is not None:
        command += ["--workers", str(workers)]
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PINCITE_") or k == "PINCITE_CACHE_DIR"
    }
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"server exited:\n{log.read_text()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return server, port
        except OSError:
            pass
        time.sleep(0.2)
    server.kill()
    raise SystemExit(f"server did not start:\n{log.read_text()}")


def hammer(
    port: int,
    key: str,
    path: str,
    body: Callable[[int], dict[str, object]],
    clients: int,
    until: Callable[[], bool],
) -> tuple[Stats, float]:
    """``clients`` threads, one keep-alive connection each, posting until ``until()``."""
    stats = Stats()
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def client(n: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        i = n
        while not until():
            payload = json.dumps(body(i))
            i += clients
            started = time.perf_counter()
            try:
                conn.request("POST", path, payload, headers)
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            stats.add(time.perf_counter() - started, ok)
        conn.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return stats, time.perf_counter() - started


def timer(seconds: float) -> Callable[[], bool]:
    end = time.monotonic() + seconds
    return lambda: time.monotonic() >= end


def upload(port: int, key: str, data: bytes) -> tuple[int, str]:
    boundary = "pincite-load-boundary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="load.txt"\r\n'
            "Content-Type: text/plain\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {
        "Authorization": f"Bearer {key}",
        "Content-Type": f"multipart/form-data; boundary={boundary}",
    }
    conn.request("POST", "/v1/documents/upload", body, headers)
    response = conn.getresponse()
    payload = json.loads(response.read())
    return response.status, str(payload.get("url", payload))


def job_status(port: int, key: str, url: str) -> str:
    path = re.sub(r"^https?://[^/]+", "", url)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers={"Authorization": f"Bearer {key}"})
    return str(json.loads(conn.getresponse().read())["status"])


def flood(port: int, n: int = 60, mb: int = 19) -> list[int]:
    """``n`` keyless POSTs of ``mb`` MB each, all at once; the statuses they got."""
    chunk = b"x" * (1024 * 1024)
    statuses: list[int] = []

    def one() -> None:
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        head = (
            f"POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {mb * len(chunk)}\r\n\r\n"
        ).encode()
        try:
            sock.sendall(head)
            for _ in range(mb):
                sock.sendall(chunk)
        except OSError:
            pass  # the server answered and closed before the body was sent: the point
        try:
            reply = sock.recv(4096).decode("latin-1")
            statuses.append(int(reply.split()[1]) if reply else 0)
        except (OSError, IndexError, ValueError):
            statuses.append(0)
        sock.close()

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=None, help="default: serve's default")
    parser.add_argument("--docs", choices=["demo", "shared"], default="demo")
    parser.add_argument("--upload-mb", type=float, default=1.0)
    parser.add_argument(
        "--upload-cap", type=float, default=120, help="most seconds of search load during it"
    )
    parser.add_argument("--skip-flood", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="pincite-load-") as tmp:
        db, log = Path(tmp) / "load.db", Path(tmp) / "server.log"
        key, text = build_store(db, args.docs)
        server, port = start_server(db, args.workers, log)
        memory = Memory(server.pid)
        memory.start()
        try:
            print(f"server: {len(_tree(server.pid))} processes, RSS {_mb(memory.now())} at start")
            # Warm-up: every worker answers before the clock starts.
            for path in ("/v1/search", "/v1/answer"):
                hammer(
                    port,
                    key,
                    path,
                    question,
                    8,
                    timer(3),
                )
            label = f"{args.clients} clients, {args.seconds:.0f} s"
            stats, took = hammer(
                port,
                key,
                "/v1/search",
                question,
                args.clients,
                timer(args.seconds),
            )
            print(stats.line(f"/v1/search  ({label})", took))
            stats, took = hammer(
                port,
                key,
                "/v1/answer",
                question,
                args.clients,
                timer(args.seconds),
            )
            print(stats.line(f"/v1/answer  ({label})", took))

            data = (text * (1 + int(args.upload_mb * 1e6) // max(len(text), 1))).encode()
            data = data[: int(args.upload_mb * 1024 * 1024)]
            status, url = upload(port, key, data)
            sent = time.perf_counter()
            finished: list[float] = []

            def upload_over() -> bool:
                if not finished and (status != 202 or job_status(port, key, url) != "running"):
                    finished.append(time.perf_counter() - sent)
                return bool(finished)

            # Searches run while the upload is ingested: at least --seconds, at most --upload-cap.
            floor, cap = timer(args.seconds), timer(args.upload_cap)
            watching = threading.Event()

            def watch() -> None:
                while not upload_over() and not cap():
                    time.sleep(0.5)
                watching.set()

            watcher = threading.Thread(target=watch)
            watcher.start()
            stats, took = hammer(
                port,
                key,
                "/v1/search",
                question,
                args.clients,
                lambda: floor() and watching.is_set(),
            )
            watcher.join()
            print(stats.line(f"/v1/search  during a {len(data) / 1e6:.1f} MB upload", took))
            quiet = timer(600)
            while not upload_over() and not quiet():  # the rest of the upload, without load
                time.sleep(0.5)
            state = job_status(port, key, url) if status == 202 else f"HTTP {status}"
            under = "under load" if finished and finished[0] <= took else "after the load stopped"
            ended = f"{finished[0]:.0f} s ({under})" if finished else "not within 10 min"
            print(f"upload: HTTP {status}, job {state} after {ended}")
            if not args.skip_flood:
                before = memory.now()
                statuses = flood(port)
                time.sleep(1)
                counts = {s: statuses.count(s) for s in sorted(set(statuses))}
                print(
                    f"keyless flood: 60 x 19 MB POST /v1/search -> {counts}; "
                    f"server RSS {_mb(before)} before, {_mb(memory.now())} after"
                )
            print(f"server RSS peak (all processes summed): {_mb(memory.peak)}")
        finally:
            memory.stop.set()
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        tracebacks = log.read_text(errors="replace").count("Traceback")
        print(f"server log: {tracebacks} tracebacks")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
