"""Inflate a PDF's streams under a cap before pdfium sees them.

pdfium inflates a page's whole content stream before it can say anything
about it, and offers no way to ask a stream's size first; a 600 KB file whose
page content inflates to 200 MB cost 47 s and 2.8 GB. Here every
zlib-compressed stream is inflated through ``decompressobj`` with a bounded
``max_length``, discarding the output, so a bomb costs at most the cap in time
and one chunk in memory. This is the fast, precise refusal; the child process
that runs pdfium (``pincite.ingest.isolate``) is the guarantee for what a scan
of raw bytes cannot see (other filters, streams hidden by a crafted xref).
"""

from __future__ import annotations

import re
import zlib

from pincite.errors import ParseError
from pincite.ingest.limits import ParseLimits, size

# "stream" followed by its end-of-line, but not the tail of "endstream".
_STREAM = re.compile(rb"(?<!end)stream(?:\r\n|\n|\r)")
_END = b"endstream"
_OBJ = b" obj"
# How far back from "stream" its dictionary is looked for.
_DICT_WINDOW = 4096
_CHUNK = 1 << 20


def check_streams(data: bytes, source: str, limits: ParseLimits) -> None:
    """Raise ParseError when a stream, or all streams together, inflate past the limits.

    Image streams are skipped: extracting text never decodes them.
    """
    total = 0
    for match in _STREAM.finditer(data):
        start = match.end()
        end = data.find(_END, start)
        window = max(0, match.start() - _DICT_WINDOW)
        header = data[max(window, data.rfind(_OBJ, window, match.start())) : match.start()]
        if b"/Image" in header:
            continue
        inflated = _inflated(data[start : end if end != -1 else len(data)], limits.max_stream_bytes)
        if inflated > limits.max_stream_bytes:
            raise ParseError(
                source,
                f"a stream inflates to over {size(limits.max_stream_bytes)} "
                "(a decompression bomb, not page text)",
            )
        total += inflated
        if total > limits.max_inflated_bytes:
            raise ParseError(
                source, f"streams inflate to over {size(limits.max_inflated_bytes)} in all"
            )


def _inflated(stream: bytes, cap: int) -> int:
    """Bytes ``stream`` inflates to, counting no further than ``cap + 1``; 0 if not zlib."""
    inflater = zlib.decompressobj()
    inflated = 0
    pending = stream
    try:
        while pending and inflated <= cap and not inflater.eof:
            out = inflater.decompress(pending, _CHUNK)
            if not out:
                break
            inflated += len(out)
            pending = inflater.unconsumed_tail
    except zlib.error:
        pass  # not zlib data, or damaged after what was counted: pdfium stops there too
    return inflated
