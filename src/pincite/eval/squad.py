"""Load a SQuAD 2.0 file (Rajpurkar, Jia & Liang, ACL 2018) into frozen values.

The official layout: ``{"version", "data": [{"title", "paragraphs": [{"context",
"qas": [{"id", "question", "answers": [{"text", "answer_start"}], "is_impossible",
"plausible_answers"?}]}]}]}``; ``.json`` or gzipped ``.json.gz``.

SQuAD gives paragraphs no id, so one is derived: ``f"{title}-{i}"`` with ``i``
the paragraph's 0-based position in its article. ``answer_start`` is a code
point offset into ``context``; contexts are kept byte for byte (no whitespace
normalisation), so ``context[start:start + len(text)] == text`` holds.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pincite.errors import InputError, ParseError


@dataclass(frozen=True, slots=True)
class SquadAnswer:
    """A gold (or plausible) answer: ``text`` starts at code point ``start`` of the context."""

    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


@dataclass(frozen=True, slots=True)
class SquadQuestion:
    """One question. An impossible question has no ``answers``; it may have
    ``plausible_answers`` (a span that looks right but is not)."""

    id: str
    question: str
    answers: tuple[SquadAnswer, ...]
    is_impossible: bool
    paragraph_id: str
    plausible_answers: tuple[SquadAnswer, ...] = ()

    @property
    def answer_texts(self) -> tuple[str, ...]:
        return tuple(answer.text for answer in self.answers)


@dataclass(frozen=True, slots=True)
class SquadParagraph:
    id: str
    title: str
    context: str
    questions: tuple[SquadQuestion, ...]


@dataclass(frozen=True, slots=True)
class SquadArticle:
    title: str
    paragraphs: tuple[SquadParagraph, ...]


@dataclass(frozen=True, slots=True)
class SquadDataset:
    version: str
    articles: tuple[SquadArticle, ...]

    def paragraphs(self) -> Iterator[SquadParagraph]:
        """Every paragraph, in file order."""
        for article in self.articles:
            yield from article.paragraphs

    def questions(self) -> Iterator[SquadQuestion]:
        """Every question, in file order."""
        for paragraph in self.paragraphs():
            yield from paragraph.questions


def load_squad(path: str | os.PathLike[str], *, limit_articles: int | None = None) -> SquadDataset:
    """Read a SQuAD (v1.1 or v2.0) JSON file, optionally only its first ``limit_articles``.

    Raises ``InputError`` when the file is missing, ``limit_articles`` is
    negative, or two paragraphs get the same derived id; ``ParseError`` (an
    ``InputError``) when the file is not SQuAD-shaped, naming where.
    """
    source = Path(path)
    if limit_articles is not None and limit_articles < 0:
        raise InputError(f"limit_articles must be >= 0 or None, got {limit_articles}")
    if not source.is_file():
        raise InputError(f"SQuAD file not found: {source}")
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as handle:
        try:
            raw = json.load(handle)
        except json.JSONDecodeError as exc:
            raise ParseError(str(source), f"not JSON: {exc.msg}") from exc
    where = str(source)
    data = _list(_dict(raw, where), "data", where)
    if limit_articles is not None:
        data = data[:limit_articles]
    articles = tuple(_article(row, f"{where}: data[{i}]") for i, row in enumerate(data))
    seen: set[str] = set()
    for article in articles:
        for paragraph in article.paragraphs:
            if paragraph.id in seen:
                raise InputError(f"{source}: two paragraphs would share the id {paragraph.id!r}")
            seen.add(paragraph.id)
    version = raw.get("version", "")
    return SquadDataset(
        version=version if isinstance(version, str) else str(version), articles=articles
    )


def _article(row: object, where: str) -> SquadArticle:
    article = _dict(row, where)
    title = _str(article, "title", where)
    paragraphs = tuple(
        _paragraph(p, title, i, f"{where}.paragraphs[{i}]")
        for i, p in enumerate(_list(article, "paragraphs", where))
    )
    return SquadArticle(title=title, paragraphs=paragraphs)


def _paragraph(row: object, title: str, index: int, where: str) -> SquadParagraph:
    paragraph = _dict(row, where)
    paragraph_id = f"{title}-{index}"
    questions = tuple(
        _question(q, paragraph_id, f"{where}.qas[{i}]")
        for i, q in enumerate(_list(paragraph, "qas", where))
    )
    return SquadParagraph(
        id=paragraph_id, title=title, context=_str(paragraph, "context", where), questions=questions
    )


def _question(row: object, paragraph_id: str, where: str) -> SquadQuestion:
    qa = _dict(row, where)
    impossible = qa.get("is_impossible", False)  # absent in SQuAD 1.1: every question answerable
    if not isinstance(impossible, bool):
        raise ParseError(where, "'is_impossible' must be true or false")
    plausible = qa.get("plausible_answers", [])
    return SquadQuestion(
        id=_str(qa, "id", where),
        question=_str(qa, "question", where),
        answers=_answers(_list(qa, "answers", where), f"{where}.answers"),
        is_impossible=impossible,
        paragraph_id=paragraph_id,
        plausible_answers=_answers(
            plausible if isinstance(plausible, list) else [plausible], f"{where}.plausible_answers"
        ),
    )


def _answers(rows: list[Any], where: str) -> tuple[SquadAnswer, ...]:
    out: list[SquadAnswer] = []
    for i, row in enumerate(rows):
        answer = _dict(row, f"{where}[{i}]")
        start = answer.get("answer_start")
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise ParseError(f"{where}[{i}]", "'answer_start' must be an integer >= 0")
        out.append(SquadAnswer(text=_str(answer, "text", f"{where}[{i}]"), start=start))
    return tuple(out)


def _dict(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ParseError(where, f"expected a JSON object, got {type(value).__name__}")
    return value


def _list(obj: dict[str, Any], key: str, where: str) -> list[Any]:
    value = obj.get(key)
    if not isinstance(value, list):
        raise ParseError(where, f"{key!r} must be a list")
    return value


def _str(obj: dict[str, Any], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise ParseError(where, f"{key!r} must be a string")
    return value
