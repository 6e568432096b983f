"""Small PDFs written byte by byte, so PDF tests need no fixture files or PDF writer."""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Text:
    """One line of text drawn at (x, y) in PDF points, Helvetica at ``size``."""

    x: float
    y: float
    text: str
    size: float = 11.0


@dataclass(frozen=True)
class Bookmark:
    title: str
    page: int  # 0-based
    children: tuple[Bookmark, ...] = field(default=())


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def build_pdf(
    pages: Sequence[Sequence[Text]],
    *,
    outline: Sequence[Bookmark] = (),
    page_labels: str | None = None,
    encrypted: bool = False,
    mediabox: tuple[float, float, float, float] = (0, 0, 612, 792),
    padding: bytes = b"",
    info_title: bytes | None = None,
) -> bytes:
    """A PDF 1.4 file: one content stream per page, optional outline, page labels, /Encrypt.

    With ``padding``, each page's content stream ends with those bytes and is
    stored FlateDecode-compressed: a run of ``b"0 "`` or spaces shrinks about
    1000:1, which is how a decompression bomb is made. ``info_title`` is the
    document information dictionary's /Title, written as raw string bytes (so a
    test can plant what a faulty producer writes).
    """
    objects: dict[int, bytes] = {}
    n_pages = len(pages)
    page_ids = [4 + 2 * i for i in range(n_pages)]
    next_id = 4 + 2 * n_pages
    box = " ".join(f"{v:g}" for v in mediabox)
    objects[3] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects[2] = f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode()
    for pid, lines in zip(page_ids, pages, strict=True):
        ops = "".join(
            f"BT /F1 {t.size:g} Tf {t.x:g} {t.y:g} Td ({_escape(t.text)}) Tj ET\n" for t in lines
        )
        stream = ops.encode("latin-1")
        flate = ""
        if padding:
            stream = zlib.compress(stream + padding, 9)
            flate = " /Filter /FlateDecode"
        objects[pid] = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [{box}] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {pid + 1} 0 R >>"
        ).encode()
        objects[pid + 1] = (
            f"<< /Length {len(stream)}{flate} >>\nstream\n".encode() + stream + b"\nendstream"
        )
    catalog = "<< /Type /Catalog /Pages 2 0 R"
    if outline:
        outlines_id = next_id
        next_id += 1

        def add(items: Sequence[Bookmark], parent: int) -> tuple[int, int, int]:
            nonlocal next_id
            ids = list(range(next_id, next_id + len(items)))
            next_id += len(items)
            total = len(items)
            for i, (oid, item) in enumerate(zip(ids, items, strict=True)):
                entry = f"<< /Title ({_escape(item.title)}) /Parent {parent} 0 R"
                entry += f" /Dest [{page_ids[item.page]} 0 R /XYZ 0 {mediabox[3]:g} 0]"
                if i > 0:
                    entry += f" /Prev {ids[i - 1]} 0 R"
                if i + 1 < len(ids):
                    entry += f" /Next {ids[i + 1]} 0 R"
                if item.children:
                    first, last, count = add(item.children, oid)
                    entry += f" /First {first} 0 R /Last {last} 0 R /Count {count}"
                    total += count
                objects[oid] = (entry + " >>").encode()
            return ids[0], ids[-1], total

        first, last, count = add(outline, outlines_id)
        objects[outlines_id] = (
            f"<< /Type /Outlines /First {first} 0 R /Last {last} 0 R /Count {count} >>"
        ).encode()
        catalog += f" /Outlines {outlines_id} 0 R"
    if page_labels:
        catalog += f" /PageLabels << /Nums [{page_labels}] >>"
    objects[1] = (catalog + " >>").encode()
    trailer_extra = ""
    if encrypted:
        # A standard security handler whose user password is not empty: the
        # check values are arbitrary, so no password opens it.
        encrypt_id = next_id
        check = hashlib.md5(b"pincite").hexdigest() * 2
        objects[encrypt_id] = (
            f"<< /Filter /Standard /V 1 /R 2 /O <{check}> /U <{check}> /P -44 >>"
        ).encode()
        trailer_extra = f" /Encrypt {encrypt_id} 0 R /ID [<{check[:32]}> <{check[:32]}>]"
    if info_title is not None:
        info_id = next_id
        next_id += 1
        escaped = info_title.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        objects[info_id] = b"<< /Title (" + escaped + b") >>"
        trailer_extra += f" /Info {info_id} 0 R"
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for oid in sorted(objects):
        offsets[oid] = len(out)
        out += f"{oid} 0 obj\n".encode() + objects[oid] + b"\nendobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += f"xref\n0 {size}\n0000000000 65535 f \n".encode()
    for oid in range(1, size):
        out += f"{offsets.get(oid, 0):010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {size} /Root 1 0 R{trailer_extra} >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
