"""Fakes shared by the support tests (imported by module name: tests/ has no packages)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from pincite.embed.base import Vectors
from pincite.ids import encode_chunk
from pincite.support.base import SupportPassage

DOC = "11111111-1111-4111-8111-111111111111"
HASH16 = "0123456789abcdef"


class FakeEmbedder:
    """Bag of hashed words: texts sharing words get a higher cosine. Counts calls."""

    name = "fake-bow"
    dim = 64

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(list(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
            norm = float(np.linalg.norm(out[row]))
            if norm:
                out[row] /= norm
        return out

    def embed_query(self, text: str) -> Vectors:
        return self.embed_documents([text])[0]


def passage(text: str, k: int = 0, start: int = 0) -> SupportPassage:
    chunk = f"22222222-2222-4222-8222-{k:012d}"
    return SupportPassage(encode_chunk(DOC, HASH16, chunk), text, start)
