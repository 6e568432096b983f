"""Ingest off the request path: every ingest the API accepts runs as a job.

Parsing, chunking and embedding a document is seconds of CPU; on the event loop
or the request threads it slowed every search (a 1 MB upload took 135 s under
load and pushed everything else back). ``pincite serve`` runs jobs in one
child process per worker at a lower CPU priority (``ProcessRunner``), so
searches and answers keep the cores first; an app made in process runs them
on one background thread (``ThreadRunner``). Either way, at most one ingest
per worker runs at a time and the others queue. An ingest job ends when its
text commits (searchable by its words at once); an embedding job queued
behind it adds the vectors (issue 14: searchable at once, dense when ready).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.util import Finalize
from typing import Protocol

from pincite.corpus import Corpus
from pincite.errors import PinciteError
from pincite.ingest.embedding import embed_pending
from pincite.ingest.pipeline import IngestReport, IngestStatus

log = logging.getLogger("pincite.server")

# How much lower a job process runs than the workers that answer requests.
JOB_NICENESS = 10


@dataclass(frozen=True, slots=True)
class IngestJob:
    """One document to ingest, as the route received it."""

    data: bytes
    filename: str
    uri: str
    tenant: str
    title: str | None
    # True: the job ends once the vectors are in too (the routes that answer
    # with the result); False: it ends at the text's commit and an embedding
    # job queued behind it adds the vectors.
    embed: bool = False


def run(corpus: Corpus, job: IngestJob) -> IngestReport:
    """Ingest ``job``'s text; pincite's own errors become a failed report (they cross processes).

    Unless ``job.embed``, the job is done when the text commits (searchable by
    its words from then on); its vectors come from the embedding job queued
    behind it.
    """
    try:
        return corpus.ingest_bytes(
            job.data,
            filename=job.filename,
            uri=job.uri,
            tenant=job.tenant,
            title=job.title,
            embed=job.embed,
        )
    except PinciteError as exc:
        return IngestReport(job.filename, IngestStatus.FAILED, error=str(exc))


def embed_waiting(corpus: Corpus, tenant: str) -> int:
    """Give every chunk of ``tenant`` still without a vector its vector; how many were embedded."""
    if corpus.embedder is None:
        return 0
    return embed_pending(corpus.store, corpus.embedder, tenant)


class _EmbedQueue:
    """One embedding job per tenant queued behind the newest ingest, never a pile of them.

    An embedding job still waiting in the queue is cancelled and queued again
    behind the new ingest, so it covers every ingest before it.
    """

    def __init__(self) -> None:
        self._waiting: dict[str, Future[int]] = {}
        self._lock = threading.Lock()

    def after(self, tenant: str, submit: Callable[[], Future[int]]) -> None:
        with self._lock:
            earlier = self._waiting.get(tenant)
            if earlier is not None:
                earlier.cancel()  # False once it runs: then both run, the second finds less
            future = submit()
            future.add_done_callback(_log_failure)
            self._waiting[tenant] = future


def _log_failure(done: Future[int]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.error("embedding job failed: %s", done.exception())


class JobRunner(Protocol):
    def submit(self, job: IngestJob) -> Future[IngestReport]:
        """Queue ``job``; the future holds its report (or the error it raised)."""
        ...

    def close(self) -> None: ...


class ThreadRunner:
    """Jobs on one background thread of this process, against ``corpus``."""

    def __init__(self, corpus: Corpus) -> None:
        self._corpus = corpus
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pincite-job")
        self._embed = _EmbedQueue()

    def submit(self, job: IngestJob) -> Future[IngestReport]:
        future = self._pool.submit(run, self._corpus, job)
        if not job.embed:
            self._embed.after(
                job.tenant, lambda: self._pool.submit(embed_waiting, self._corpus, job.tenant)
            )
        return future

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class ProcessRunner:
    """Jobs in one child process that opens its own corpus with ``opener`` (picklable).

    The child runs at ``JOB_NICENESS``, so the kernel gives the request workers
    the CPU first. A child that dies (killed, out of memory) fails its job and
    is replaced on the next submit.
    """

    def __init__(self, opener: Callable[[], Corpus]) -> None:
        self._opener = opener
        self._pool = self._start()
        self._embed = _EmbedQueue()

    def _start(self) -> Executor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=get_context("spawn"),  # no fork of a process holding model threads
            initializer=_child_start,
            initargs=(self._opener,),
        )

    def warm(self) -> None:
        """Start the child and open its corpus now, not during the first upload.

        Blocks until the child is ready: its interpreter start-up and imports run
        before it lowers its priority, so they belong to start-up, not to serving.
        """
        self._pool.submit(_child_ready).result()

    def submit(self, job: IngestJob) -> Future[IngestReport]:
        try:
            future = self._pool.submit(_child_run, job)
        except BrokenProcessPool:
            self._pool = self._start()
            future = self._pool.submit(_child_run, job)
        if not job.embed:
            self._embed.after(job.tenant, lambda: self._pool.submit(_child_embed, job.tenant))
        return future

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


_child_corpus: Corpus | None = None


def _child_start(opener: Callable[[], Corpus]) -> None:
    global _child_corpus
    os.nice(JOB_NICENESS)
    _child_corpus = opener()
    # Runs when the pool shuts the child down: the store checkpoints and closes.
    Finalize(None, _child_corpus.close, exitpriority=10)


def _child_ready() -> bool:
    return _child_corpus is not None


def _child_run(job: IngestJob) -> IngestReport:
    assert _child_corpus is not None, "the job process opened no corpus"
    return run(_child_corpus, job)


def _child_embed(tenant: str) -> int:
    assert _child_corpus is not None, "the job process opened no corpus"
    return embed_waiting(_child_corpus, tenant)
