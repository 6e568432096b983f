"""Build a model generator from configuration values.

Adapters (the CLI, the server) read the environment or flags and pass the
values here; this module reads nothing itself. Empty strings count as unset,
so an exported-but-empty variable is reported as missing.
"""

from __future__ import annotations

from pincite.errors import ConfigurationError
from pincite.generate.anthropic import ANTHROPIC_URL, AnthropicGenerator
from pincite.generate.http import ModelGenerator
from pincite.generate.openai import OpenAIGenerator

__all__ = ["GENERATOR_KINDS", "OPENAI_URL", "generator_from_config"]

GENERATOR_KINDS = ("anthropic", "openai")
OPENAI_URL = "https://api.openai.com/v1"


def generator_from_config(
    kind: str, *, base_url: str | None, model: str | None, api_key: str | None
) -> ModelGenerator:
    """Return the generator for ``kind`` (``openai`` or ``anthropic``).

    ``openai`` without ``base_url`` calls OpenAI itself and then needs a key; with
    one it calls any compatible server (vLLM, llama.cpp, Ollama at ``/v1``),
    keyed or not. ``anthropic`` defaults to Anthropic's URL and needs a key
    there. Raises ``ConfigurationError`` for an unknown kind, listing the known
    ones, or naming everything that is missing at once.
    """
    chosen = (kind or "").strip().lower()
    if chosen not in GENERATOR_KINDS:
        raise ConfigurationError(
            f"unknown generator {kind!r}; choose one of: {', '.join(GENERATOR_KINDS)}"
        )
    base_url = (base_url or "").strip() or None
    model = (model or "").strip() or None
    api_key = (api_key or "").strip() or None
    default_url = OPENAI_URL if chosen == "openai" else ANTHROPIC_URL
    missing = []
    if model is None:
        missing.append("model")
    if api_key is None and base_url in (None, default_url):
        missing.append(f"api_key (required for {default_url}; or set base_url to a local server)")
    if missing:
        raise ConfigurationError(f"generator {chosen!r} is missing: {'; '.join(missing)}")
    assert model is not None  # checked above; for the type checker
    if chosen == "openai":
        return OpenAIGenerator(base_url or OPENAI_URL, model, api_key=api_key)
    return AnthropicGenerator(model, api_key, base_url=base_url or ANTHROPIC_URL)
