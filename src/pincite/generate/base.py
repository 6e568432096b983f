"""The seam every generator implements, and the structured result it returns.

A generator sees numbered passages and answers by pointing at their numbers.
What it returns is untrusted: numbers are mapped to passages by enumeration in
``pincite.answer.pipeline``; nothing here is ever used as an index or a span.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class Passage:
    """One numbered passage as a generator sees it."""

    number: int
    text: str
    title: str
    evidence_id: str
    version: str
    date: str | None = None
    superseded: bool = False
    # Offset of ``text`` in its version's canonical text (for sentence spans).
    start: int = 0
    # The chunk's heading path, and how retrieval found it (its dense cosine,
    # ``None`` when the dense branch did not return it; its lexical rank).
    section: tuple[str, ...] = ()
    dense_score: float | None = None
    lexical_rank: int | None = None


@dataclass(frozen=True, slots=True)
class GeneratedClaim:
    """One claim as a generator wrote it. ``used_excerpt_numbers`` is raw model output."""

    text: str
    used_excerpt_numbers: tuple[object, ...]
    kind: str = "fact"
    quote: str | None = None
    # Absolute code-point spans of the sentences a claim rests on. Only the
    # extractive generator (pincite's own code) fills this; it is still checked
    # to lie inside a cited chunk before any citation is built from it.
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Conflict:
    excerpt_numbers: tuple[object, ...]
    description: str


#: Keys of ``Generation.raw`` an offline generator that scores its own
#: sufficiency may fill when it refuses: the best score it found, and the
#: threshold it missed. The pipeline reports them (``AnswerResult.closest``);
#: from a model (``is_model``) they are ignored.
CLOSEST = "closest_score"
THRESHOLD = "threshold"


@dataclass(frozen=True, slots=True)
class Generation:
    claims: tuple[GeneratedClaim, ...]
    sufficient_context: bool
    conflicts: tuple[Conflict, ...] = ()
    summary: str = ""
    raw: dict[str, object] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class Exchange:
    """One earlier turn of a conversation, as a condenser reads it."""

    question: str
    standalone: str
    answer: str


@dataclass(frozen=True, slots=True)
class Condensed:
    """A follow-up made searchable: the standalone question and the updated running summary.

    Both are untrusted model text: the question is only ever searched (inside
    the asker's tenant) and the summary only shown to the model again.
    """

    standalone: str
    summary: str


class Generator(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def is_model(self) -> bool:
        """True for a language model (worth one repair pass); False for deterministic code."""
        ...

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        summary: str = "",
        feedback: str | None = None,
    ) -> Generation:
        """Answer ``question`` from ``passages`` only.

        ``feedback`` carries the specific grounding failures of a previous
        attempt (the one repair pass). Raises ``GeneratorError`` when the
        endpoint fails or answers outside the protocol.
        """
        ...


@runtime_checkable
class Condenser(Protocol):
    """A generator that can also rewrite a follow-up before retrieval (an optional extra).

    Conversations use it when the generator offers it and the deterministic
    rewrite (``pincite.generate.rewrite``) otherwise.
    """

    def condense(
        self, question: str, history: Sequence[Exchange], *, summary: str = ""
    ) -> Condensed:
        """Return ``question`` as a standalone question and the updated running summary.

        ``history`` is the latest turns, oldest first; ``summary`` the running
        summary before this turn. Raises ``GeneratorError`` when the endpoint
        fails or answers outside the protocol.
        """
        ...
