"""Where a question's gold passages, and an answer's citations, sit in the stored text.

``pincite eval qa`` compares characters of the tenant's current document
versions: the gold passages a question names are found in them, and the
spans an answer or a search cites are read back from them.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import PurePosixPath

from pincite.answer.pipeline import AnswerResult
from pincite.eval.qa_metrics import Located, QAQuestion, merge_spans, occurrences
from pincite.model import DocumentStatus, RetrievalResult
from pincite.store.base import Store

__all__ = ["StoredTexts", "cited_spans", "retrieved_spans"]


class StoredTexts:
    """Current version text of the tenant's live documents, read once each."""

    def __init__(self, store: Store, tenant: str) -> None:
        self._store, self._tenant = store, tenant
        docs = [d for d in store.list_documents(tenant) if d.status is DocumentStatus.LIVE]
        self.ids = [d.document_id for d in docs]
        self._by_name: dict[str, list[str]] = defaultdict(list)
        for d in docs:
            for name in {d.uri, PurePosixPath(d.uri.replace("\\", "/")).name}:
                self._by_name[name].append(d.document_id)
        self._cache: dict[tuple[str, str], str] = {}
        self._current: dict[str, str | None] = {}

    def named(self, documents: tuple[str, ...]) -> list[str]:
        """Documents whose uri, or its last path segment, is in ``documents`` (all when none)."""
        if not documents:
            return self.ids
        return list(dict.fromkeys(i for name in documents for i in self._by_name.get(name, [])))

    def current(self, document_id: str) -> tuple[str, str] | None:
        if document_id not in self._current:
            self._current[document_id] = self._store.current_hash(self._tenant, document_id)
        h = self._current[document_id]
        return None if h is None else (h[:16], self.text(document_id, h[:16]))

    def text(self, document_id: str, hash16: str) -> str:
        key = (document_id, hash16)
        if key not in self._cache:
            version = self._store.version(self._tenant, document_id, hash16)
            self._cache[key] = version.text if version is not None else ""
        return self._cache[key]

    def locate(self, q: QAQuestion) -> list[Located]:
        found = []
        for doc_id in self.named(q.documents):
            current = self.current(doc_id)
            if current is None:
                continue
            hash16, text = current
            for passage in q.gold_passages:
                found += [Located(doc_id, hash16, s, e) for s, e in occurrences(text, passage)]
        return found


def retrieved_spans(result: RetrievalResult) -> list[Located]:
    return [
        Located(h.chunk.document_id, h.chunk.hash16, h.chunk.start, h.chunk.end)
        for h in result.hits
    ]


def cited_spans(result: AnswerResult, texts: StoredTexts) -> tuple[list[Located], list[str]]:
    """The answer's cited spans, and the cited text with adjacent spans joined."""
    assert result.answer is not None
    spans = [
        Located(c.document_id, c.hash16, c.span[0], c.span[1]) for c in result.answer.citations
    ]
    grouped: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for s in spans:
        grouped[(s.document_id, s.content_hash)].append((s.start, s.end))
    cited_text = []
    for (doc_id, hash16), ranges in grouped.items():
        text = texts.text(doc_id, hash16)
        cited_text += [text[a:b] for a, b in merge_spans(ranges, text)]
    return spans, cited_text
