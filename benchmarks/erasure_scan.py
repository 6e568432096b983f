"""Erasure byte scan: after ``erase``, is any erased word left in the bytes the store keeps?

Ingests ``--docs`` documents through the real pipeline, each with two made-up
words of its own (one in the first line, which becomes the title, one in the
body; the uri carries a third), erases half of them (whole documents), then
scans raw bytes for the first letters of every word (the raw word and its
stem share them):

- SQLite: the database file, its ``-wal`` and ``-shm``, while a second
  connection (a server's reader) is open, and again after both close;
- PostgreSQL: every row of every table (as text), then the database's relation
  files after the store's plain ``VACUUM`` and after ``VACUUM FULL``, and the
  server's WAL segments (which keep history until recycled; docs/postgres.md).

The kept half must still be found (the scan finds what is there) and the
erased half never. Re-ingesting an erased text must be a new version.

    .venv/bin/python benchmarks/erasure_scan.py                  # both, 200 documents
    .venv/bin/python benchmarks/erasure_scan.py --backend sqlite --docs 1000
    .venv/bin/python benchmarks/erasure_scan.py --filler 3000    # erase cost in a larger tenant
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from pincite.corpus import Corpus
from pincite.store.sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parents[1]
TENANT = "scan"


def word() -> str:
    letters = "".join(chr(ord("a") + int(c, 16)) for c in uuid.uuid4().hex[:10])
    return f"zq{letters}ing"


def text_of(title: str, body: str) -> str:
    filler = " ".join(f"Paragraph {i} on budgets, minutes and committees." for i in range(30))
    return f"Report on {title}\n\nThe {body} committee approved it.\n\n{filler}"


def ingest_filler(corpus: Corpus, n: int) -> None:
    """``n`` more documents in the tenant (about 3 chunks each): erase cost grows with them."""
    for i in range(n):
        paras = [f"Filler {i}.{j} on budgets, minutes and committees. " * 25 for j in range(3)]
        corpus.ingest_text("\n\n".join(paras), uri=f"filler://{i}", tenant=TENANT)


def ingest_all(corpus: Corpus, n: int) -> list[tuple[str, list[str], str]]:
    """``n`` documents: (document id, its words, its text)."""
    out = []
    for _ in range(n):
        words = [word(), word(), word()]
        text = text_of(words[0], words[1])
        report = corpus.ingest_text(text, uri=f"file:///notes/{words[2]}.txt", tenant=TENANT)
        assert report.document_id is not None, report.error
        out.append((report.document_id, words, text))
    return out


def erase_half(corpus: Corpus, docs: list[tuple[str, list[str], str]]) -> tuple[list[str], float]:
    """Erase every other document; the erased words and the median erase time (ms)."""
    erased, times = [], []
    for did, words, _ in docs[::2]:
        t0 = time.perf_counter()
        corpus.erase(did, tenant=TENANT)
        times.append((time.perf_counter() - t0) * 1000)
        erased += words
    return erased, statistics.median(times)


def count_in(blobs: list[bytes], words: list[str]) -> int:
    return sum(1 for w in words if any(w[:10].encode() in b for b in blobs))


def reingest_status(corpus: Corpus, text: str, uri: str) -> str:
    return corpus.ingest_text(text, uri=uri, tenant=TENANT).status.value


def sqlite_scan(n: int, filler: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="erasure-scan-"))
    path = folder / "store.db"
    store, reader = SQLiteStore(path), SQLiteStore(path)
    corpus = Corpus(store)
    ingest_filler(corpus, filler)
    docs = ingest_all(corpus, n)
    reader.search_lexical(TENANT, ["committee"], 5)
    erased, erase_ms = erase_half(corpus, docs)
    kept = [w for _, words, _ in docs[1::2] for w in words]
    files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]

    def blobs() -> list[bytes]:
        return [f.read_bytes() for f in files if f.exists()]

    open_hits = count_in(blobs(), erased)
    wal_bytes = files[1].stat().st_size if files[1].exists() else 0
    kept_found = count_in(blobs(), kept)
    store.close()
    reader.close()
    closed_hits = count_in(blobs(), erased)
    # Last, as it brings one erased text back on purpose.
    _, words, text = docs[0]
    again = SQLiteStore(path)
    status = reingest_status(Corpus(again), text, f"file:///notes/{words[2]}.txt")
    again.close()
    return {
        "documents": n,
        "other documents in the tenant": filler,
        "erased words": len(erased),
        "erased words found, open (db+wal+shm)": open_hits,
        "wal bytes after erase": wal_bytes,
        "erased words found, closed": closed_hits,
        "kept words found": f"{kept_found}/{len(kept)}",
        "erase median ms": round(erase_ms, 1),
        "re-ingest of erased text": status,
    }


def postgres_scan(n: int, filler: int, url: str | None) -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location("pg", ROOT / "tests/store/pg_embedded.py")
    assert spec is not None and spec.loader is not None
    pg = importlib.util.module_from_spec(spec)
    sys.modules["pg"] = pg
    spec.loader.exec_module(pg)
    server = None
    if url is None:
        server = pg.start()
        pg.wait_ready(server.url())
        with psycopg.connect(server.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE erasure_scan")
        url = server.url("erasure_scan")
    from pincite.store.postgres import PostgresStore

    try:
        store = PostgresStore(url)
        corpus = Corpus(store)
        ingest_filler(corpus, filler)
        docs = ingest_all(corpus, n)
        erased, erase_ms = erase_half(corpus, docs)
        kept = [w for _, words, _ in docs[1::2] for w in words]
        result: dict[str, Any] = {
            "documents": n,
            "other documents in the tenant": filler,
            "erased words": len(erased),
            "erased words in any row": _rows_holding(url, erased),
            "kept words in rows": f"{_rows_holding(url, kept)}/{len(kept)}",
            "erase median ms (with VACUUM)": round(erase_ms, 1),
        }
        if server is not None:
            result["erased words in relation files after VACUUM"] = _files_holding(
                url, server.data, erased
            )
            store.vacuum(full=True)
            result["erased words in relation files after VACUUM FULL"] = _files_holding(
                url, server.data, erased
            )
            result["kept words in relation files"] = (
                f"{_files_holding(url, server.data, kept)}/{len(kept)}"
            )
            wal = [p.read_bytes() for p in (server.data / "pg_wal").glob("0*") if p.is_file()]
            result["erased words in WAL segments (history)"] = count_in(wal, erased)
        _, words, text = docs[0]
        result["re-ingest of erased text"] = reingest_status(
            corpus, text, f"file:///notes/{words[2]}.txt"
        )
        store.close()
        return result
    finally:
        if server is not None:
            server.stop()


def _rows_holding(url: str, words: list[str]) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
        ]
        dump = []
        for table in tables:
            query = sql.SQL("SELECT r::text FROM {} AS r").format(sql.Identifier(table))
            dump += [r[0].encode() for r in conn.execute(query)]
    return count_in([b"\n".join(dump)], words)


def _files_holding(url: str, data: Path, words: list[str]) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CHECKPOINT")
        row = conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        oid = row.fetchone()
    assert oid is not None
    blobs = [f.read_bytes() for f in (data / "base" / str(oid[0])).iterdir() if f.is_file()]
    return count_in(blobs, words)


def show(name: str, figures: dict[str, Any]) -> None:
    print(f"\n{name}")
    for key, value in figures.items():
        print(f"  {key:<52} {value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--filler", type=int, default=0, help="other documents in the tenant")
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--db", help="a postgresql:// URL (default: a throwaway server)")
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        show("SQLite", sqlite_scan(args.docs, args.filler))
    if args.backend in ("postgres", "both"):
        show("PostgreSQL", postgres_scan(args.docs, args.filler, args.db))


if __name__ == "__main__":
    main()
