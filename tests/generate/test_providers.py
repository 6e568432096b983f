"""generator_from_config: the values an adapter read become a generator, or a clear error.

No request is made: building a generator does not call the remote, paid API,
so no test double is needed here.
"""

from __future__ import annotations

import pytest

from pincite.errors import ConfigurationError
from pincite.generate.anthropic import AnthropicGenerator
from pincite.generate.openai import OpenAIGenerator
from pincite.generate.providers import generator_from_config


def test_openai_compatible_local_server_needs_no_key() -> None:
    """A local vLLM/Ollama server: base_url and model, no key."""
    with generator_from_config(
        "openai", base_url="http://localhost:11434/v1", model="llama3.1", api_key=None
    ) as gen:
        assert isinstance(gen, OpenAIGenerator)
        assert gen.name == "openai:llama3.1"
        assert "http://localhost:11434/v1/chat/completions" in repr(gen)


def test_openai_defaults_to_openai_with_a_key() -> None:
    with generator_from_config(" OpenAI ", base_url="", model="gpt-4o", api_key="sk-x") as gen:
        assert isinstance(gen, OpenAIGenerator)
        assert "https://api.openai.com/v1/chat/completions" in repr(gen)
        assert "sk-x" not in repr(gen)


def test_anthropic_defaults_to_anthropic_with_a_key() -> None:
    with generator_from_config(
        "anthropic", base_url=None, model="claude-sonnet-4-5", api_key="sk-ant-x"
    ) as gen:
        assert isinstance(gen, AnthropicGenerator)
        assert gen.name == "anthropic:claude-sonnet-4-5"
        assert "https://api.anthropic.com/v1/messages" in repr(gen)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_everything_missing_is_named_at_once(kind: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        generator_from_config(kind, base_url=None, model="  ", api_key="")
    message = str(info.value)
    assert message.startswith(f"generator {kind!r} is missing: model; api_key")
    assert "base_url" in message


def test_a_key_is_not_needed_when_only_the_model_is_missing() -> None:
    with pytest.raises(ConfigurationError, match=r"is missing: model$"):
        generator_from_config(
            "openai", base_url="http://localhost:8000/v1", model=None, api_key=None
        )


@pytest.mark.parametrize("kind", ["", "extractive-ish", "gpt"])
def test_unknown_kind_lists_the_known_ones(kind: str) -> None:
    with pytest.raises(ConfigurationError, match="choose one of: anthropic, openai"):
        generator_from_config(kind, base_url=None, model="m", api_key="k")
