"""Generators: the offline extractive default and OpenAI-compatible / Anthropic models."""

from __future__ import annotations

import math

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
    threshold: float | None = None,
) -> Generator:
    """Build a generator by kind; raises ``ConfigurationError`` listing the valid kinds.

    ``threshold`` is the extractive generator's refusal threshold (for the
    embedder in use, lexical-only or not), as ``pincite eval qa`` reports the
    one that suits a corpus; other generators decide for themselves and refuse it.
    Without one, the extractive generator answers with the tenant's saved
    threshold where there is one (``pincite.answer.calibration``), else the shipped one.
    """
    if kind == "extractive":
        if threshold is None:
            return ExtractiveGenerator(embedder)
        if not math.isfinite(threshold):
            raise ConfigurationError(f"the answer threshold must be a number, got {threshold}")
        config = ExtractiveConfig(threshold=threshold, threshold_lexical=threshold)
        return ExtractiveGenerator(embedder, config, threshold_pinned=True)
    if threshold is not None:
        raise ConfigurationError(
            f"an answer threshold applies to the extractive generator only, not {kind!r}: "
            "a model decides itself whether the passages answer the question"
        )
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
