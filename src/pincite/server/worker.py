"""How `pincite serve` runs: worker processes, each with its own corpus and job process.

The command checks its options and warms the model caches once, then hands the
configuration to uvicorn's workers through one environment variable; each
worker builds its app with ``worker_app``. Workers share one service-state file
(sessions, viewer sign-ins, jobs) in a private temporary folder removed when
the server stops. Imports stay light: the CLI loads this module without FastAPI.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

CONFIG_ENV = "PINCITE_SERVE_CONFIG"
# One worker per core keeps both cores of a small machine busy; past 4, each
# worker's copy of the models costs more memory than it buys throughput.
_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
DEFAULT_WORKERS = max(1, min(4, _CORES or 1))
# Requests one worker works on at once; the rest queue in arrival order.
WORKER_THREADS = 4


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    db: str
    embedder: str
    generator: str
    base_url: str | None
    model: str | None
    api_key: str | None
    max_upload_bytes: int
    public_url: str
    state: str
    answer_threshold: float | None = None


def export_config(config: WorkerConfig) -> None:
    os.environ[CONFIG_ENV] = json.dumps(asdict(config))


def free_port(host: str) -> int:
    """A port the OS says is free on ``host`` (for ``--port 0``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def public_base(public_url: str | None, host: str, port: int) -> str:
    """The base of every link the server returns: ``--public-url``, else the bind address."""
    if public_url:
        from urllib.parse import urlsplit

        from pincite.errors import InputError

        parts = urlsplit(public_url)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
            raise InputError(
                f"--public-url must be an http(s) URL like https://host[/path]: {public_url!r}"
            )
        return public_url.rstrip("/")
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"  # reachable from this machine; others need --public-url
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


@contextmanager
def state_file() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="pincite-serve-"))  # mode 0700: private
    try:
        yield folder / "service.db"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def worker_app() -> FastAPI:
    """The app of one worker process, from the configuration ``serve`` exported."""
    from pincite.cli.common import open_corpus, warm_models
    from pincite.generate import make_generator
    from pincite.server.app import create_app
    from pincite.server.jobs import ProcessRunner
    from pincite.server.state import ServiceState

    config = WorkerConfig(**json.loads(os.environ[CONFIG_ENV]))
    # `serve` created the store before starting its workers; a worker never
    # exits over it (and a server ingests into an empty one).
    corpus = open_corpus(config.db, config.embedder, create=True)
    generator = make_generator(
        config.generator,
        embedder=corpus.embedder,
        base_url=config.base_url,
        model=config.model,
        api_key=config.api_key,
        threshold=config.answer_threshold,
    )
    warm_models(corpus, announce=False)
    jobs = ProcessRunner(functools.partial(open_corpus, config.db, config.embedder, create=True))
    jobs.warm()
    return create_app(
        corpus,
        generator=generator,
        max_upload_bytes=config.max_upload_bytes,
        public_url=config.public_url,
        state=ServiceState(config.state),
        jobs=jobs,
        close_corpus=True,
        threads=WORKER_THREADS,
    )
