"""The model providers, in one registry, and building a generator from configuration.

Adding a provider is one entry here: its generator class (built on its
:class:`~pincite.generate.http.ProviderClient`) and its default URL. The CLI's
choices, the server and the agent all read this registry. Adapters read the
environment or flags and pass the values in; this module reads nothing itself.
Empty strings count as unset, so an exported-but-empty variable is reported as
missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from pincite.errors import ConfigurationError
from pincite.generate.anthropic import ANTHROPIC_URL, AnthropicGenerator
from pincite.generate.http import ModelGenerator
from pincite.generate.openai import OPENAI_URL, OpenAIGenerator

__all__ = ["GENERATOR_KINDS", "OPENAI_URL", "PROVIDERS", "Provider", "generator_from_config"]


class _Connect(Protocol):
    def __call__(self, base_url: str | None, model: str, api_key: str | None) -> ModelGenerator: ...


@dataclass(frozen=True, slots=True)
class Provider:
    connect: _Connect
    default_url: str


PROVIDERS: Mapping[str, Provider] = {
    "anthropic": Provider(AnthropicGenerator.connect, ANTHROPIC_URL),
    "openai": Provider(OpenAIGenerator.connect, OPENAI_URL),
}
GENERATOR_KINDS = tuple(PROVIDERS)


def generator_from_config(
    kind: str, *, base_url: str | None, model: str | None, api_key: str | None
) -> ModelGenerator:
    """Return the generator for ``kind`` (a key of :data:`PROVIDERS`).

    ``openai`` without ``base_url`` calls OpenAI itself and then needs a key; with
    one it calls any compatible server (vLLM, llama.cpp, Ollama at ``/v1``),
    keyed or not. ``anthropic`` defaults to Anthropic's URL and needs a key
    there. Raises ``ConfigurationError`` for an unknown kind, listing the known
    ones, or naming everything that is missing at once.
    """
    chosen = (kind or "").strip().lower()
    provider = PROVIDERS.get(chosen)
    if provider is None:
        raise ConfigurationError(
            f"unknown generator {kind!r}; choose one of: {', '.join(GENERATOR_KINDS)}"
        )
    base_url = (base_url or "").strip() or None
    model = (model or "").strip() or None
    api_key = (api_key or "").strip() or None
    missing = []
    if model is None:
        missing.append("model")
    if api_key is None and base_url in (None, provider.default_url):
        missing.append(
            f"api_key (required for {provider.default_url}; or set base_url to a local server)"
        )
    if missing:
        raise ConfigurationError(f"generator {chosen!r} is missing: {'; '.join(missing)}")
    assert model is not None  # checked above; for the type checker
    return provider.connect(base_url, model, api_key)
