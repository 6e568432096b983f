"""Hand-made passages and the extractive answer with no refusal threshold, for the tests here."""

from __future__ import annotations

from pincite.generate.base import Generation, Passage
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator

HASH = "0123456789abcdef"


def passage(
    number: int,
    text: str,
    *,
    start: int = 0,
    section: tuple[str, ...] = (),
    title: str = "Doc",
) -> Passage:
    return Passage(
        number=number,
        text=text,
        title=title,
        evidence_id=f"ev1:c:doc-{number}:{HASH}:chunk-{number}",
        version=HASH,
        start=start,
        section=section,
    )


def generate(question: str, *passages: Passage) -> Generation:
    """The answer with no refusal threshold: what ranks first, whatever its score."""
    generator = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0))
    return generator.generate(question, passages)


def best(question: str, *passages: Passage) -> str:
    return generate(question, *passages).claims[0].text
