"""Parse a PDF in a child process that has a memory ceiling and a deadline.

pdfium is native code fed hostile bytes: a page can inflate without bound,
loop, or crash, and inside one C call nothing in Python can interrupt it. So
the parse runs in a fresh interpreter (``subprocess``, never ``fork`` of a
threaded server, and never ``multiprocessing``, which would re-import the
caller's main script) whose address space is capped with ``RLIMIT_AS`` and
whose wall-clock time the parent enforces by killing it. Whatever the file
does, the caller gets a document or a ParseError with one line of reason.

The child answers with JSON, not pickle: the parent never executes what a
possibly subverted parser sends back.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import signal
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pincite.errors import ParseError
from pincite.ingest.base import Heading, PageSpan, ParsedDocument, TextBox
from pincite.ingest.limits import DEFAULT_LIMITS, ParseLimits, size
from pincite.ingest.pdf import parse_pdf
from pincite.ingest.pdfscan import check_streams
from pincite.model import BBox, BoxOrigin

log = logging.getLogger(__name__)

# The child sees the parent's import path and this very package directory, so
# it parses with this code whether pincite is installed, editable or only on
# PYTHONPATH. ``pincite`` is registered as a bare namespace: the package's own
# __init__ (the facade, models, numpy) is neither needed nor imported.
_PACKAGE = str(Path(__file__).resolve().parents[1])
_BOOT = (
    "import json, sys, types; sys.path[:] = json.loads(sys.argv[1]); "
    "package = types.ModuleType('pincite'); package.__path__ = [sys.argv[2]]; "
    "sys.modules['pincite'] = package; "
    "from pincite.ingest.isolate import child_main; child_main(sys.argv[3])"
)


def parse_pdf_isolated(
    data: bytes, source: str, limits: ParseLimits = DEFAULT_LIMITS
) -> ParsedDocument:
    """``parse_pdf`` in a child process under ``limits``; ParseError for any failure."""
    if not sys.executable:  # embedded interpreters: no child to start, scan-only guard
        check_streams(data, source, limits)
        return parse_pdf(data, source, limits)
    settings = json.dumps(asdict(limits))
    command = [sys.executable, "-I", "-c", _BOOT, json.dumps(sys.path), _PACKAGE, settings]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as child:
        try:
            out, err = child.communicate(data, timeout=limits.pdf_seconds)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            raise ParseError(
                source, f"parsing the PDF took over {limits.pdf_seconds:g} s (the time limit)"
            ) from None
    try:
        answer = json.loads(out) if child.returncode == 0 else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        log.debug("PDF parser exited with %s: %s", child.returncode, err[-2000:])
        raise ParseError(source, _stopped(child.returncode, limits))
    if "error" in answer:
        raise ParseError(source, str(answer["error"]))
    return decode(answer["document"])


def _stopped(status: int, limits: ParseLimits) -> str:
    if status >= 0:
        return f"the PDF parser failed (exit status {status})"
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = f"signal {-status}"
    return (
        f"the PDF parser was stopped by {name}: out of memory under the "
        f"{size(limits.pdf_memory_bytes)} limit, or a file pdfium cannot handle"
    )


def child_main(settings: str) -> None:
    """The child's side: PDF bytes on stdin, one JSON object on stdout."""
    limits = ParseLimits(**json.loads(settings))
    # Whatever native code prints must not corrupt the answer: fd 1 becomes stderr.
    answer_fd = os.dup(1)
    os.dup2(2, 1)
    data = sys.stdin.buffer.read()
    _cap_resources(limits)
    answer: dict[str, Any]
    try:
        check_streams(data, "", limits)
        answer = {"document": encode(parse_pdf(data, "", limits))}
    except ParseError as exc:
        answer = {"error": exc.reason}
    except MemoryError:
        answer = {"error": f"parsing the PDF needs over {size(limits.pdf_memory_bytes)} of memory"}
    with os.fdopen(answer_fd, "w", encoding="ascii") as out:
        json.dump(answer, out)


def _cap_resources(limits: ParseLimits) -> None:
    """Cap address space above what the child already uses, and CPU time as a backstop."""
    import resource  # POSIX only, and only the child needs it

    try:
        with open("/proc/self/statm") as statm:
            in_use = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        ceiling = in_use + limits.pdf_memory_bytes
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
    except (OSError, ValueError):
        pass  # no /proc or no RLIMIT_AS (macOS): the deadline still holds
    # If the parent dies before its deadline, the kernel still stops the child.
    seconds = math.ceil(limits.pdf_seconds) + 1
    with contextlib.suppress(OSError, ValueError):
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))


def encode(doc: ParsedDocument) -> dict[str, Any]:
    """A parsed document as JSON-ready lists (floats round-trip exactly through JSON)."""
    return {
        "text": doc.text,
        "parser": doc.parser,
        "title": doc.title,
        "pages": [[p.page, p.start, p.end, p.label] for p in doc.pages],
        "headings": [[h.start, h.end, h.level, h.title] for h in doc.headings],
        "boxes": [
            [b.start, b.end, b.box.page, b.box.x0, b.box.y0, b.box.x1, b.box.y1, b.box.origin]
            for b in doc.boxes
        ],
        "warnings": list(doc.warnings),
    }


def decode(raw: dict[str, Any]) -> ParsedDocument:
    """The inverse of ``encode``."""
    return ParsedDocument(
        text=raw["text"],
        parser=raw["parser"],
        title=raw["title"],
        pages=tuple(PageSpan(*p) for p in raw["pages"]),
        headings=tuple(Heading(*h) for h in raw["headings"]),
        boxes=tuple(
            TextBox(s, e, BBox(page, x0, y0, x1, y1, BoxOrigin(origin)))
            for s, e, page, x0, y0, x1, y1, origin in raw["boxes"]
        ),
        warnings=tuple(raw["warnings"]),
    )
