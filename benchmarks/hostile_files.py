"""Issue 13, findings 5 and 6: what ingest does with hostile files, with time and memory.

Builds each hostile input in a temporary directory (a PDF whose one page
inflates to ``--bomb-mib`` MiB, a ``.txt`` symlink to a file outside the
ingested folder, a named pipe, a device behind a link, PNG bytes named
``.md``), ingests each through ``Corpus.ingest_paths`` like ``pincite ingest``
does, and prints one line per file: status, reason, seconds, and the peak RSS
of this process and of its PDF parser child. Run it against an older
checkout (``PYTHONPATH=<old>/src``) to see the findings themselves; an input
that blocks is reported after 20 s.

    .venv/bin/python benchmarks/hostile_files.py [--bomb-mib 200]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

import pincite

_PAGE = b"BT /F1 11 Tf 72 700 Td (Hello bomb) Tj ET\n"


def bomb_pdf(mib: int) -> bytes:
    """One page whose FlateDecode content stream inflates to ``mib`` MiB."""
    # Compressed a MiB at a time, so building the bomb does not inflate this
    # process's peak memory, which is reported.
    packer = zlib.compressobj(9)
    parts = [packer.compress(_PAGE)]
    parts += [packer.compress(b"0 " * (1 << 19)) for _ in range(mib)]
    stream = b"".join(parts) + packer.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def _ingest(corpus: pincite.Corpus, path: Path, reports: list[object]) -> None:
    reports.extend(corpus.ingest_paths([path]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bomb-mib", type=int, default=200)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pincite-hostile-"))
    folder = tmp / "docs"
    folder.mkdir()
    (tmp / "secret.txt").write_text("root:x:0:0:a secret outside the tree\n")
    (folder / "bomb.pdf").write_bytes(bomb_pdf(args.bomb_mib))
    (folder / "passwd.txt").symlink_to(tmp / "secret.txt")
    (folder / "zero.txt").symlink_to("/dev/zero")
    (folder / "photo.md").write_bytes(
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 64
    )
    os.mkfifo(folder / "pipe.txt")
    size = (folder / "bomb.pdf").stat().st_size
    print(f"bomb.pdf: {size / 1024:.0f} KiB on disk, {args.bomb_mib} MiB of page content")
    corpus = pincite.open(tmp / "hostile.db", embedder=None)
    for name in ("bomb.pdf", "passwd.txt", "zero.txt", "photo.md", "pipe.txt"):
        reports: list[object] = []
        started = time.perf_counter()
        worker = threading.Thread(
            target=_ingest, args=(corpus, folder / name, reports), daemon=True
        )
        worker.start()
        worker.join(20)
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
        if worker.is_alive():
            print(f"{name:<11} BLOCKED after {seconds:.0f} s (peak RSS {peak} MB)")
            continue
        (report,) = reports
        status = getattr(report, "status", "?")
        detail = getattr(report, "error", None) or f"{getattr(report, 'chunks', 0)} chunks stored"
        print(
            f"{name:<11} {status!s:<8} {seconds:5.1f} s  peak RSS {peak:>5} MB "
            f"(parser child {child} MB)  {detail}"
        )
    sys.stdout.flush()
    os._exit(0)  # a blocked reader thread must not keep the process alive


if __name__ == "__main__":
    main()
