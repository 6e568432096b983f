"""Embedders: text to L2-normalised float32 vectors.

``default_embedder()`` is offline and CPU-only (int8 all-MiniLM-L6-v2);
``SentenceTransformerEmbedder`` runs a local model of the user's choice (the
``sentence-transformers`` extra); ``OpenAIEmbedder`` calls any OpenAI-compatible
endpoint. ``embedder_from_spec`` picks one from a config string.
"""

from pincite.embed.base import Embedder, Vectors
from pincite.embed.default import default_embedder
from pincite.embed.onnx import MiniLMEmbedder
from pincite.embed.openai import OpenAIEmbedder
from pincite.embed.sentence_transformers import SentenceTransformerEmbedder
from pincite.embed.spec import embedder_from_spec

__all__ = [
    "Embedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "SentenceTransformerEmbedder",
    "Vectors",
    "default_embedder",
    "embedder_from_spec",
]
