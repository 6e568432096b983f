"""Issue 13, findings 5 and 6: files built to hurt ingest are refused with one line.

A decompression bomb, a symlink out of the tree, a named pipe, a device, and
bytes that are not what their extension says: each comes back as a ``failed``
report (or a ParseError from ``parse_bytes``, the path HTTP uploads take) with
a one-line reason, and nothing of it is stored.
"""

from __future__ import annotations

import os
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from pdf_builder import Text, build_pdf

import pincite
from pincite.cli import cli
from pincite.corpus import Corpus
from pincite.errors import ParseError
from pincite.ingest.limits import ParseLimits
from pincite.ingest.parse import parse_bytes, parse_file
from pincite.ingest.pipeline import IngestReport, IngestStatus

BODY = [Text(72, 700, "Invoices are kept for seven years.")]
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8
MIB = 1 << 20


@pytest.fixture
def corpus() -> Iterator[Corpus]:
    with pincite.open(":memory:", embedder=None) as opened:
        yield opened


def refused(report: IngestReport, *words: str) -> None:
    assert report.status is IngestStatus.FAILED, report
    assert report.error is not None and "\n" not in report.error
    assert "Traceback" not in report.error
    for word in words:
        assert word in report.error, report.error


def bomb(inflated: int, pattern: bytes = b"0 ") -> bytes:
    """A one-page PDF whose content stream inflates to about ``inflated`` bytes."""
    return build_pdf([BODY], padding=pattern * (inflated // len(pattern)))


# -- finding 5: PDF decompression bombs and other parse limits ----------------


def test_a_decompression_bomb_is_refused_under_the_default_limits(
    corpus: Corpus, tmp_path: Path
) -> None:
    path = tmp_path / "bomb.pdf"
    path.write_bytes(bomb(40 * MIB))
    assert path.stat().st_size < 100_000  # small on disk, 40 MiB of page content
    refused(corpus.ingest_path(path), "bomb.pdf", "inflates", "32 MiB")
    assert corpus.documents() == []


def test_an_uploaded_bomb_is_refused_on_the_shared_parse_path(corpus: Corpus) -> None:
    with pytest.raises(ParseError, match="decompression bomb") as caught:
        corpus.ingest_bytes(bomb(40 * MIB), filename="bomb.pdf", uri="upload:bomb.pdf")
    assert "\n" not in str(caught.value)
    assert corpus.documents() == []


def test_streams_that_together_inflate_past_the_total_are_refused() -> None:
    pages = [BODY] * 4
    data = build_pdf(pages, padding=b" " * (3 * MIB))
    limits = ParseLimits(max_stream_bytes=4 * MIB, max_inflated_bytes=10 * MIB)
    with pytest.raises(ParseError, match="in all"):
        parse_bytes(data, "many.pdf", limits=limits)
    # Each stream alone is within its cap, and three pages are within the total.
    assert parse_bytes(build_pdf([BODY] * 3), "three.pdf", limits=limits).page_count == 3


def test_image_streams_do_not_count_toward_the_inflate_limits() -> None:
    image = zlib.compress(b"\x00" * (2 * MIB))
    data = build_pdf([BODY]).replace(
        b"xref\n",
        b"99 0 obj\n<< /Type /XObject /Subtype /Image /Width 1024 /Height 2048 "
        b"/BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode /Length "
        + str(len(image)).encode()
        + b" >>\nstream\n"
        + image
        + b"\nendstream\nendobj\nxref\n",
        1,
    )
    limits = ParseLimits(max_stream_bytes=MIB, max_inflated_bytes=MIB)
    assert "seven years" in parse_bytes(data, "figure.pdf", limits=limits).text
    with pytest.raises(ParseError, match="inflates"):
        parse_bytes(data.replace(b"/Subtype /Image", b"/Subtype /Form "), "f.pdf", limits=limits)


def test_too_many_pages_are_refused_before_any_page_is_read() -> None:
    with pytest.raises(ParseError, match="3 pages; the limit is 2"):
        parse_bytes(build_pdf([BODY] * 3), "long.pdf", limits=ParseLimits(max_pdf_pages=2))


@pytest.mark.parametrize(("name", "data"), [("a.pdf", build_pdf([BODY] * 2)), ("a.txt", b"x" * 50)])
def test_too_much_extracted_text_is_refused(name: str, data: bytes) -> None:
    with pytest.raises(ParseError, match="exceeds 40 characters"):
        parse_bytes(data, name, limits=ParseLimits(max_text_chars=40))


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"words " * 200)
    with pytest.raises(ParseError, match="the limit is 1 KiB"):
        parse_file(path, limits=ParseLimits(max_file_bytes=1024))
    with pytest.raises(ParseError, match="the limit is 1 KiB"):
        parse_bytes(path.read_bytes(), "big.txt", limits=ParseLimits(max_file_bytes=1024))


def test_pdfium_runs_out_of_its_memory_limit_without_taking_the_caller_down() -> None:
    # Stream caps out of the way: the child's address-space ceiling must stop it.
    limits = ParseLimits(
        max_stream_bytes=1 << 30, max_inflated_bytes=1 << 30, pdf_memory_bytes=16 * MIB
    )
    with pytest.raises(ParseError, match="memory") as caught:
        parse_bytes(bomb(24 * MIB), "heavy.pdf", limits=limits)
    assert "\n" not in caught.value.reason


def test_pdfium_is_stopped_at_its_time_limit() -> None:
    limits = ParseLimits(max_stream_bytes=1 << 30, max_inflated_bytes=1 << 30, pdf_seconds=0.2)
    with pytest.raises(ParseError, match=r"took over 0\.2 s \(the time limit\)"):
        parse_bytes(bomb(64 * MIB), "slow.pdf", limits=limits)


# -- finding 6: files that are not what they seem ----------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder to ingest, a secret outside it, and links into and out of it."""
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:the secret outside the tree\n")
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "policy.md").write_text("# Policy\n\nInvoices are kept seven years.\n")
    (folder / "escape.txt").symlink_to(secret)
    (folder / "sub" / "alias.md").symlink_to(folder / "policy.md")
    return folder


def test_a_symlink_out_of_the_tree_is_refused_and_nothing_of_it_stored(
    corpus: Corpus, tree: Path
) -> None:
    reports = {Path(r.source).name: r for r in corpus.ingest_paths([tree])}
    refused(reports["escape.txt"], "symbolic link", "outside", "--follow-symlinks")
    assert reports["policy.md"].status is IngestStatus.NEW
    # A link that stays inside the tree is the same file: its own uri, unchanged.
    assert reports["alias.md"].status is IngestStatus.UNCHANGED
    assert not corpus.retrieve("secret outside", k=3).hits


def test_an_explicit_symlink_out_of_its_folder_needs_follow_symlinks(
    corpus: Corpus, tree: Path
) -> None:
    link = tree / "escape.txt"
    refused(corpus.ingest_path(link), "outside")
    (report,) = corpus.ingest_paths([link], follow_symlinks=True)
    assert report.status is IngestStatus.NEW


def test_a_named_pipe_is_refused_instead_of_blocking(corpus: Corpus, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    reports: list[IngestReport] = []
    worker = threading.Thread(
        target=lambda: reports.extend(corpus.ingest_paths([fifo, tmp_path])), daemon=True
    )
    worker.start()
    worker.join(timeout=60)
    if worker.is_alive():  # the old code blocks in open(): let it go, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("ingesting a named pipe blocked")
    assert len(reports) == 2  # given explicitly, and found in a folder
    for report in reports:
        refused(report, "a named pipe, not a regular file")


def test_a_device_is_refused(corpus: Corpus, tmp_path: Path) -> None:
    link = tmp_path / "zero.txt"
    link.symlink_to("/dev/zero")
    refused(corpus.ingest_path(link, follow_symlinks=True), "a character device")


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("photo.md", PNG, "the content is a PNG image, not text"),
        ("photo.txt", b"\xff\xd8\xff\xe0\x00\x10JFIF" + bytes(200), "a JPEG image"),
        ("notes.html", b"PK\x03\x04" + bytes(300), "a ZIP archive"),
        ("report.txt", build_pdf([BODY]), "the content is a PDF; name the file .pdf"),
        ("blob.md", bytes(range(256)) * 16, "binary content, not text"),
        ("photo.pdf", PNG, "unreadable PDF (the content is a PNG image)"),
    ],
)
def test_content_that_is_not_what_its_extension_says_is_refused(
    corpus: Corpus, tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    refused(corpus.ingest_path(path), name, reason)
    with pytest.raises(ParseError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        corpus.ingest_bytes(data, filename=name, uri=f"upload:{name}")
    assert corpus.documents() == []


@pytest.mark.parametrize(
    "data",
    [
        "Café menu: soupe à l'oignon, crème brûlée.".encode("latin-1"),  # a few stray bytes
        "UTF-16 text with a BOM".encode("utf-16"),
        b"one stray \x00 NUL in otherwise plain text " * 3,
    ],
)
def test_text_with_a_few_bad_bytes_is_still_text(data: bytes) -> None:
    assert parse_bytes(data, "note.txt").text.strip()


def test_cli_reports_each_refusal_on_one_line_and_follows_links_when_told(
    tree: Path, tmp_path: Path
) -> None:
    (tree / "photo.md").write_bytes(PNG)
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    result = runner.invoke(cli, ["ingest", str(tree), "--db", db, "--embedder", "none"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    failed = [line for line in result.stderr.splitlines() if line.startswith("failed")]
    assert len(failed) == 2 and any("escape.txt" in line for line in failed)
    followed = runner.invoke(
        cli,
        ["ingest", str(tree / "escape.txt"), "--db", db, "--embedder", "none", "--follow-symlinks"],
    )
    assert followed.exit_code == 0 and followed.stdout.startswith("new")
