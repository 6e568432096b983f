"""OpenTelemetry spans for the answer path, only when opentelemetry-api is installed.

Attributes are counts, ids and versions; never document text.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class _NoSpan:
    def set_attributes(self, attributes: dict[str, Any]) -> None:
        return None


@contextmanager
def answer_span() -> Iterator[Any]:
    try:
        from opentelemetry import trace
    except ImportError:
        yield _NoSpan()
        return
    tracer = trace.get_tracer("pincite")
    with tracer.start_as_current_span("pincite.answer") as span:
        yield span
