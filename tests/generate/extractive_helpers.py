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
    document: int | None = None,
) -> Passage:
    """Passage ``number`` of its own document, or a chunk of ``document`` (one version)."""
    return Passage(
        number=number,
        text=text,
        title=title,
        evidence_id=f"ev1:c:doc-{number if document is None else document}:{HASH}:chunk-{number}",
        version=HASH,
        start=start,
        section=section,
    )


def assert_pinned(generation: Generation, passages: list[Passage]) -> None:
    """Every claim's text is exactly the characters its spans point at (spacing aside)."""
    for claim in generation.claims:
        pinned = []
        for start, end in claim.spans:
            # A claim may quote several pieces of one passage: find each span's passage.
            (p,) = [
                p
                for p in passages
                if p.number in claim.used_excerpt_numbers
                and p.start <= start
                and end <= p.start + len(p.text)
            ]
            pinned.append(p.text[start - p.start : end - p.start])
        # Pieces are joined by a space, or glued when one starts with a stop
        # ("infrastructure" + "."), so only the characters themselves are compared.
        assert "".join(claim.text.split()) == "".join("".join(pinned).split())
        if claim.quote is not None:
            assert len(claim.spans) == 1
            assert any(claim.quote in p.text for p in passages)


def generate(question: str, *passages: Passage) -> Generation:
    """The answer with no refusal threshold: what ranks first, whatever its score."""
    generator = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0))
    return generator.generate(question, passages)


def best(question: str, *passages: Passage) -> str:
    return generate(question, *passages).claims[0].text


def answered(question: str, *texts: str, section: tuple[str, ...] = ()) -> list[str]:
    """The shipped answerer's claims (its refusal threshold included), each on one line,
    over passages made of ``texts`` under ``section``."""
    given = [passage(n, text, section=section) for n, text in enumerate(texts, start=1)]
    generation = ExtractiveGenerator().generate(question, given)
    assert_pinned(generation, given)
    return [" ".join(c.text.split()) for c in generation.claims]
