"""HTTP plumbing shared by the model generators.

``JsonEndpoint`` sends one JSON POST, retries once on 429 and 5xx, and turns
every failure into a one-line ``GeneratorError`` that names the endpoint and
model and never carries the API key. A ``ProviderClient`` is the main object of
each provider (its wire protocol over one endpoint); ``ModelGenerator`` (the
answer path) and the agent's chat model are both built from one client, so what
the client learns about a server (e.g. which length field it takes) serves both.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

import httpx

from pincite.chat import Message, ToolSpec, Turn
from pincite.errors import GeneratorError
from pincite.generate.base import Condensed, Exchange, Generation, Passage
from pincite.generate.protocol import (
    CONDENSE_SYSTEM_PROMPT,
    CONDENSE_TOOL_DESCRIPTION,
    CONDENSE_TOOL_NAME,
    CONDENSE_TOOL_SCHEMA,
    SYSTEM_PROMPT,
    TOOL_DESCRIPTION,
    TOOL_NAME,
    TOOL_SCHEMA,
    condense_message,
    parse_condensed,
    parse_tool_arguments,
    user_message,
)

__all__ = ["JsonEndpoint", "ModelGenerator", "ProviderClient", "ProviderStatusError", "snippet"]

# Enough of an error body or a stray reply to show the reason, not a whole HTML page.
_MAX_DETAIL = 300
# A Retry-After longer than this is capped: a CLI user is waiting.
_MAX_RETRY_WAIT_S = 30.0


def snippet(value: object, limit: int = _MAX_DETAIL) -> str:
    """``value`` as one line of at most ``limit`` characters."""
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_retryable(status: int) -> bool:
    # 429: rate limited; 5xx: the provider's fault (Anthropic's 529 "overloaded" included).
    return status == 429 or status >= 500


def _provider_error(response: httpx.Response) -> str:
    """The provider's own reason for an error status, as one short line.

    OpenAI, llama.cpp, Ollama and recent vLLM send ``{"error": {"message", "type"}}``;
    Anthropic sends the same inside ``{"type": "error", ...}``; older vLLM sends
    ``{"object": "error", "message", "type"}``; Ollama's native API sends
    ``{"error": "text"}``. Anything else is shown as a snippet of the body.
    """
    try:
        body = response.json()
    except ValueError:
        return snippet(response.text)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, str):
            return snippet(error)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            kind = error.get("type")
            prefix = f"{kind}: " if isinstance(kind, str) and kind else ""
            return snippet(prefix + error["message"])
    return snippet(response.text)


class ProviderStatusError(GeneratorError):
    """The provider answered with an error status; ``detail`` is its own reason."""

    def __init__(self, message: str, status: int, detail: str) -> None:
        super().__init__(message)
        self.status = status
        self.detail = detail


class JsonEndpoint:
    """One provider URL behind a pooled ``httpx.Client``.

    ``secret`` (the API key) is scrubbed from every error message, because some
    servers echo the key or the whole Authorization header in their error body.
    """

    def __init__(
        self,
        url: str,
        *,
        label: str,
        model: str,
        headers: Mapping[str, str],
        timeout: float,
        secret: str | None,
        retry_backoff: float,
    ) -> None:
        if timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout}")
        if retry_backoff < 0:
            raise ValueError(f"retry_backoff must be >= 0 seconds, got {retry_backoff}")
        self.url = url
        self._label = label
        self._model = model
        self._timeout = timeout
        self._secret = secret
        self._retry_backoff = retry_backoff
        # One pooled, thread-safe client reused across calls.
        self._client = httpx.Client(timeout=timeout, headers=dict(headers))

    def close(self) -> None:
        self._client.close()

    def fail(self, message: str) -> GeneratorError:
        """A ``GeneratorError`` for ``message``, on one line, prefixed, key scrubbed."""
        line = self._scrub(f"{self._label} {self.url} (model {self._model!r}): {message}")
        return GeneratorError(" ".join(line.split()))

    def _scrub(self, text: str) -> str:
        return text.replace(self._secret, "***") if self._secret else text

    def post(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """POST ``payload`` as JSON and return the reply's JSON object.

        Retries once, after ``Retry-After`` (capped) or ``retry_backoff``
        seconds, when the status is 429 or 5xx. Raises ``GeneratorError`` on a
        transport failure, a timeout, a non-2xx status (``ProviderStatusError``),
        or a reply body that is not a JSON object.
        """
        response = self._send(payload)
        if _is_retryable(response.status_code):
            time.sleep(self._retry_delay(response))
            response = self._send(payload)
        if not response.is_success:
            detail = self._scrub(_provider_error(response))
            failure = self.fail(f"HTTP {response.status_code}: {detail}")
            raise ProviderStatusError(str(failure), response.status_code, detail)
        try:
            body = response.json()
        except (ValueError, UnicodeDecodeError):
            raise self.fail(f"reply is not JSON: {snippet(response.text)!r}") from None
        if not isinstance(body, dict):
            raise self.fail(f"reply is not a JSON object: {snippet(json.dumps(body))}")
        return body

    def _send(self, payload: Mapping[str, Any]) -> httpx.Response:
        try:
            return self._client.post(self.url, json=payload)
        except httpx.TimeoutException as exc:
            raise self.fail(f"no reply within {self._timeout:g}s ({type(exc).__name__})") from None
        except httpx.ConnectError as exc:
            raise self.fail(f"cannot connect: {exc}") from None
        except httpx.HTTPError as exc:
            raise self.fail(f"request failed: {type(exc).__name__}: {exc}") from None

    def _retry_delay(self, response: httpx.Response) -> float:
        header = response.headers.get("retry-after", "")
        try:
            seconds = float(header)
        except ValueError:  # absent, or an HTTP date: use our own backoff
            return self._retry_backoff
        return min(max(seconds, 0.0), _MAX_RETRY_WAIT_S)


class ProviderClient(ABC):
    """One provider's protocol over one endpoint: forced tool calls and chat with tools.

    Every failure raises ``GeneratorError`` with a one-line message that never
    contains the API key. Close it (or the generator built on it) to release
    pooled connections.
    """

    prefix: ClassVar[str]
    label: ClassVar[str]

    def __init__(
        self,
        url: str,
        model: str,
        *,
        headers: Mapping[str, str],
        api_key: str | None,
        timeout: float,
        max_tokens: int,
        temperature: float | None,
        retry_backoff: float,
    ) -> None:
        if not model:
            raise ValueError("model is required")
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
        self.endpoint = JsonEndpoint(
            url,
            label=self.label,
            model=model,
            headers=dict(headers),
            timeout=timeout,
            secret=api_key,
            retry_backoff=retry_backoff,
        )
        self.model = model
        self.max_tokens = max_tokens
        # What was configured; None leaves it out of requests (the model's default).
        self.temperature = temperature

    def __repr__(self) -> str:
        # No key here: reprs end up in logs and tracebacks.
        return f"{type(self).__name__}(url={self.endpoint.url!r}, model={self.model!r})"

    def close(self) -> None:
        self.endpoint.close()

    @abstractmethod
    def complete_tool_call(
        self,
        system: str,
        user: str,
        tool_name: str,
        tool_description: str,
        schema: Mapping[str, Any],
    ) -> dict[str, Any]:
        """Force one call of ``tool_name`` and return its arguments as a JSON object.

        Raises ``GeneratorError`` when the endpoint fails, replies without that
        tool call, or sends arguments that are not a JSON object.
        """

    @abstractmethod
    def chat(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Turn:
        """One turn of a conversation with tools (the agent loop's :class:`ChatModel`)."""


class ModelGenerator:
    """A language model behind HTTP that answers by one forced tool call.

    ``generate`` sends pincite's answer tool through the client and parses the
    arguments strictly; ``condense`` (a conversation's follow-up, before
    retrieval) sends the condense tool the same way. Use it as a context
    manager, or call ``close``, to release pooled connections.
    """

    def __init__(self, client: ProviderClient) -> None:
        self.client = client

    @property
    def name(self) -> str:
        return f"{self.client.prefix}:{self.client.model}"

    @property
    def is_model(self) -> bool:
        return True

    @property
    def model(self) -> str:
        return self.client.model

    @property
    def endpoint(self) -> JsonEndpoint:
        """The HTTP endpoint (URL, key, retry policy), shared with the agent loop."""
        return self.client.endpoint

    @property
    def max_tokens(self) -> int:
        return self.client.max_tokens

    @property
    def temperature(self) -> float | None:
        return self.client.temperature

    def __repr__(self) -> str:
        return f"{type(self).__name__}(url={self.endpoint.url!r}, model={self.model!r})"

    def close(self) -> None:
        """Close the pooled HTTP connections."""
        self.client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def complete_tool_call(
        self,
        system: str,
        user: str,
        tool_name: str,
        tool_description: str,
        schema: Mapping[str, Any],
    ) -> dict[str, Any]:
        return self.client.complete_tool_call(system, user, tool_name, tool_description, schema)

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        summary: str = "",
        feedback: str | None = None,
    ) -> Generation:
        """Answer ``question`` from ``passages`` through the ``answer_with_citations`` tool.

        Excerpt numbers are returned raw, as the model wrote them. Raises
        ``GeneratorError`` when the endpoint fails or answers outside the protocol.
        """
        arguments = self.complete_tool_call(
            SYSTEM_PROMPT,
            user_message(question, passages, summary=summary, feedback=feedback),
            TOOL_NAME,
            TOOL_DESCRIPTION,
            TOOL_SCHEMA,
        )
        try:
            return parse_tool_arguments(arguments)
        except GeneratorError as exc:
            raise self.endpoint.fail(f"tool {TOOL_NAME!r}: {exc}") from None

    def condense(
        self, question: str, history: Sequence[Exchange], *, summary: str = ""
    ) -> Condensed:
        """One forced ``condense_question`` call: the standalone question and updated summary.

        Raises ``GeneratorError`` when the endpoint fails or answers outside the protocol.
        """
        arguments = self.complete_tool_call(
            CONDENSE_SYSTEM_PROMPT,
            condense_message(question, history, summary),
            CONDENSE_TOOL_NAME,
            CONDENSE_TOOL_DESCRIPTION,
            CONDENSE_TOOL_SCHEMA,
        )
        try:
            return parse_condensed(arguments)
        except GeneratorError as exc:
            raise self.endpoint.fail(f"tool {CONDENSE_TOOL_NAME!r}: {exc}") from None
