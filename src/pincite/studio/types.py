"""What a studio action returns: typed items, each cited, and the action names."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pincite.citation import Citation
from pincite.errors import InputError
from pincite.support.base import SupportVerdict

LEGAL_DISCLAIMER = (
    "This breakdown quotes the document and is not legal advice; "
    "have a qualified lawyer review the agreement before relying on it."
)


class StudioAction(StrEnum):
    SUMMARY = "summary"
    FAQ = "faq"
    KEY_TERMS = "key_terms"
    PROS_CONS = "pros_cons"
    CONTRACT = "contract"

    @classmethod
    def parse(cls, value: str) -> StudioAction:
        """The action named ``value`` (``key-terms`` too); ``InputError`` lists the valid ones."""
        try:
            return cls(value.strip().lower().replace("-", "_"))
        except ValueError:
            names = ", ".join(a.value for a in cls)
            raise InputError(f"unknown studio action {value!r}; choose one of: {names}") from None

    @property
    def legal(self) -> bool:
        return self is StudioAction.CONTRACT


@dataclass(frozen=True, slots=True)
class StudioItem:
    """One cited item: ``label`` (a heading, question, term or kind) and ``text`` it rests on."""

    label: str
    text: str
    citation_ids: tuple[str, ...]
    section: tuple[str, ...]
    verdict: SupportVerdict


@dataclass(frozen=True, slots=True)
class StudioResult:
    action: StudioAction
    document_id: str
    title: str
    hash16: str
    items: tuple[StudioItem, ...]
    citations: tuple[Citation, ...]
    disclaimer: str = ""

    def citation(self, citation_id: str) -> Citation:
        return next(c for c in self.citations if c.citation_id == citation_id)

    def as_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.value,
            "document_id": self.document_id,
            "title": self.title,
            "hash16": self.hash16,
            "items": [
                {
                    "label": i.label,
                    "text": i.text,
                    "section": list(i.section),
                    "verdict": i.verdict.value,
                    "evidence_ids": [self.citation(c).evidence_id for c in i.citation_ids],
                }
                for i in self.items
            ],
            "disclaimer": self.disclaimer,
        }
