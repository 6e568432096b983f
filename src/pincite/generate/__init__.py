"""Generators: the offline extractive default and OpenAI-compatible / Anthropic models."""

from __future__ import annotations

from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError
from pincite.generate.base import Conflict, GeneratedClaim, Generation, Generator, Passage
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator
from pincite.generate.providers import PROVIDERS, generator_from_config

# The offline default, then every provider of the one registry.
GENERATORS = ("extractive", *PROVIDERS)


def make_generator(
    kind: str,
    *,
    embedder: Embedder | None = None,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
) -> Generator:
    """Build a generator by kind; raises ``ConfigurationError`` listing the valid kinds."""
    if kind == "extractive":
        return ExtractiveGenerator(embedder)
    if kind in PROVIDERS:
        return generator_from_config(kind, base_url=base_url, model=model, api_key=api_key)
    raise ConfigurationError(f"unknown generator {kind!r}; choose one of: {', '.join(GENERATORS)}")


__all__ = [
    "GENERATORS",
    "Conflict",
    "ExtractiveConfig",
    "ExtractiveGenerator",
    "GeneratedClaim",
    "Generation",
    "Generator",
    "Passage",
    "make_generator",
]
