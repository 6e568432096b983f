"""How much work one input may cost before it is refused.

A hostile file is small on disk and huge once parsed (a PDF page whose
content stream inflates 1000:1, a million empty pages). Every limit here is
checked before or while the work happens, and a file over one is refused with
a one-line reason: never a partial document, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

_MIB = 1 << 20


@dataclass(frozen=True, slots=True)
class ParseLimits:
    """Ceilings for parsing one file; the defaults leave real documents far below them.

    The shared NIST and RFC PDFs (7 to 89 pages) use under 3 MiB of inflated
    streams (largest single stream 0.3 MiB), under 0.2 M characters and under
    25 MiB of memory; a 1,000-page text-heavy book stays well inside too.
    """

    max_file_bytes: int = 256 * _MIB
    max_text_chars: int = 64_000_000
    max_pdf_pages: int = 10_000
    # A page's content stream over this many inflated bytes is a bomb, not text.
    max_stream_bytes: int = 32 * _MIB
    # Inflated bytes of every non-image stream together (images are not decoded
    # to read text, so their size does not count).
    max_inflated_bytes: int = 256 * _MIB
    # Wall-clock seconds and address space (above the worker's own start-up
    # size) for the PDF parser, which runs in a child process.
    pdf_seconds: float = 120.0
    pdf_memory_bytes: int = 1024 * _MIB

    def __post_init__(self) -> None:
        for name in self.__slots__:
            if getattr(self, name) <= 0:
                raise ValueError(f"ParseLimits.{name} must be positive")


DEFAULT_LIMITS = ParseLimits()


def size(n: int) -> str:
    """``n`` bytes as a person reads it: ``512 B``, ``3.2 MiB``."""
    if n < 1024:
        return f"{n} B"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB"):
        value /= 1024
        if value < 1024 or unit == "GiB":
            break
    return f"{value:.3g} {unit}"
