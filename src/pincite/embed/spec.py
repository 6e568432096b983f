"""Build an embedder from a short spec string, as a config file or CLI flag gives it."""

from __future__ import annotations

from pincite.embed.base import Embedder
from pincite.embed.default import DEFAULT_QUANTIZED, default_embedder
from pincite.embed.onnx import MODEL_NAME, QUANTIZED_MODEL_NAME
from pincite.errors import ConfigurationError

__all__ = ["embedder_from_spec"]

_FORMS = (
    "'default', 'minilm-float', 'minilm-quantized', 'st:<model-name-or-path>' or 'openai:<model>'"
)
# The offline model in each of its two forms; a recorded store name is accepted
# too, so the name a store holds rebuilds the embedder that wrote it.
_MINILM = {
    "default": DEFAULT_QUANTIZED,
    "minilm-float": False,
    MODEL_NAME: False,
    "minilm-quantized": True,
    QUANTIZED_MODEL_NAME: True,
}


def embedder_from_spec(
    spec: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    threads: int | None = None,
    device: str = "cpu",
) -> Embedder:
    """Return the embedder ``spec`` names.

    ``spec`` is one of ``"default"`` (the offline MiniLM in its default form),
    ``"minilm-float"`` or ``"minilm-quantized"`` (that model's two forms,
    named explicitly), ``"st:<model-name-or-path>"`` or ``"openai:<model>"``.
    An embedder's ``name`` is also accepted, so the name a store recorded
    rebuilds the same embedder. ``threads`` applies to MiniLM, ``device`` to
    sentence-transformers, ``base_url`` (required) and ``api_key`` to
    OpenAI-compatible endpoints; this function never reads the environment,
    so adapters pass them in.

    Raises ``ConfigurationError`` for an unknown or incomplete spec and when
    the backend it names is not installed.
    """
    kind, sep, arg = spec.strip().partition(":")
    if not sep and kind in _MINILM:
        return default_embedder(threads, quantized=_MINILM[kind])
    if sep and kind == "st" and arg:
        # Imported here so a spec naming one backend never imports the others.
        from pincite.embed.sentence_transformers import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(arg, device=device)
    if sep and kind == "openai" and arg:
        if not base_url:
            raise ConfigurationError(
                f"embedder {spec!r} needs a base URL, e.g. https://api.openai.com/v1"
            )
        from pincite.embed.openai import OpenAIEmbedder

        return OpenAIEmbedder(base_url, arg, api_key=api_key)
    raise ConfigurationError(f"unknown embedder {spec!r}; expected {_FORMS}")
