"""A hypothesis state machine: interleaved operations over three tenants of one store.

Every ingested paragraph carries a made-up word (a *marker*) of its own,
never used again, so any text the store returns can be traced to the tenant,
document and chunk it came from. The machine keeps a model of what each
tenant may see and checks every answer against it:

- search and answer return only the asking tenant's live, current, unerased
  text: every marker in a hit, a citation or a rendered answer is one the
  tenant may see now;
- fetch returns exactly the text recorded at ingest for an id of the asking
  tenant (``ok``, flagged ``superseded`` when a newer version exists), and
  ``erased`` / ``deleted`` / ``not_found`` as the model says; another
  tenant's id is ``not_found``, like a missing one;
- check marks valid only the ids fetched completely in the same scope;
- erased and purged text never comes back, through any operation, stored
  conversation turns included; another tenant's conversation id reads as
  missing.

Used by ``tests/store/test_isolation_property.py`` (a few hundred operations)
and ``benchmarks/isolation_property.py`` (tens of thousands).
"""

from __future__ import annotations

import itertools
import json
import re
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule
from store_fakes import HashEmbedder

from pincite import SearchMode, SearchOptions
from pincite.corpus import Corpus
from pincite.ground.check import Verdict, check_citations
from pincite.ground.fetch import FetchLedger, FetchStatus
from pincite.store.base import Store
from pincite.support.heuristic import default_support_checker

TENANTS = 3
SLOTS = 4
MARKER = re.compile(r"\bqz[a-z]+q\b")
FILLER = (
    "The committee reviewed the quarterly figures and approved the plan. "
    "Budgets for travel, equipment and training were held at last year's level. "
    "Members asked for a clearer summary of the risks before the next meeting. "
    "A short note on staffing closed the discussion. "
)
_counter = itertools.count()


def _alpha(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, 26)
        out = chr(ord("a") + r) + out
        if n == 0:
            return out


def fresh_marker() -> str:
    """A word no other paragraph has; ends in ``q`` so no stemmer changes it."""
    return f"qz{_alpha(next(_counter) + 26 * 26)}q"


@dataclass
class IssuedChunk:
    tenant: str
    document_id: str
    chunk_id: str
    evidence_id: str
    text: str
    markers: frozenset[str]
    version: int


@dataclass
class Doc:
    tenant: str
    document_id: str
    uri: str
    versions: list[list[IssuedChunk]] = field(default_factory=list)
    deleted: bool = False
    erased_whole: bool = False
    purged: bool = False
    erased_chunks: set[str] = field(default_factory=set)

    def visible_markers(self) -> set[str]:
        if self.deleted or self.erased_whole or self.purged or not self.versions:
            return set()
        return {
            m for c in self.versions[-1] if c.chunk_id not in self.erased_chunks for m in c.markers
        }


class IsolationMachine(RuleBasedStateMachine):
    """Set ``store`` on a subclass (see :func:`machine_for`) before running."""

    store: Store
    ops: ClassVar[Counter[str]] = Counter()

    def __init__(self) -> None:
        super().__init__()
        tag = uuid.uuid4().hex[:8]
        self.tenants = [f"iso{i}-{tag}" for i in range(TENANTS)]
        self.corpus = Corpus(
            self.store, HashEmbedder(), support=default_support_checker(lexical_only=True)
        )
        self.slots: dict[tuple[int, int], Doc] = {}
        self.docs: list[Doc] = []
        self.issued: list[IssuedChunk] = []
        self.owner: dict[str, str] = {}  # marker -> tenant
        self.gone: set[str] = set()  # markers erased or purged: never to be seen again
        self.last_gone: set[str] = set()
        self.conversations: dict[str, str] = {}  # tenant -> its conversation id

    # -- the model ------------------------------------------------------------

    def visible(self, tenant: str) -> set[str]:
        return {m for d in self.docs if d.tenant == tenant for m in d.visible_markers()}

    def check_text(self, tenant: str, text: str, allowed: set[str]) -> None:
        for m in MARKER.findall(text):
            assert m not in self.gone, f"erased or purged text came back: {m}"
            assert self.owner.get(m) == tenant, f"{tenant} saw another tenant's text: {m}"
            assert m in allowed, f"{tenant} saw text it should not see now: {m}"

    def expected_status(self, tenant: str, chunk: IssuedChunk) -> FetchStatus:
        doc = next(d for d in self.docs if d.document_id == chunk.document_id)
        if chunk.tenant != tenant or doc.purged:
            return FetchStatus.NOT_FOUND
        if doc.erased_whole or chunk.chunk_id in doc.erased_chunks:
            return FetchStatus.ERASED
        if doc.deleted:
            return FetchStatus.DELETED
        return FetchStatus.OK

    def forget(self, markers: set[str] | frozenset[str]) -> None:
        self.gone |= markers
        self.last_gone = set(markers)

    # -- operations -----------------------------------------------------------

    @rule(t=st.integers(0, TENANTS - 1), slot=st.integers(0, SLOTS - 1), paras=st.integers(1, 3))
    def ingest(self, t: int, slot: int, paras: int) -> None:
        """A new document in an empty slot, a new version of the document in it."""
        self.ops["ingest"] += 1
        tenant = self.tenants[t]
        markers = [fresh_marker() for _ in range(paras + 1)]
        for m in markers:
            self.owner[m] = tenant
        body = "\n\n".join(f"Item {m} for the ledger. {FILLER * 4}" for m in markers[1:])
        text = f"Notes {markers[0]}\n\n{body}"
        existing = self.slots.get((t, slot))
        uri = f"iso://{t}/{slot}"
        report = self.corpus.ingest_text(text, uri=uri, tenant=tenant)
        assert report.error is None, report.error
        if existing is None:
            assert report.status.value == "new"
            doc = Doc(tenant, report.document_id or "", uri)
            self.docs.append(doc)
            self.slots[(t, slot)] = doc
        else:
            assert report.status.value == "updated"
            assert report.document_id == existing.document_id
            doc = existing
            doc.deleted = False
        [*_, version] = self.corpus.versions(doc.document_id, tenant=tenant)
        chunks = [
            IssuedChunk(
                tenant,
                doc.document_id,
                c.chunk_id,
                c.evidence_id,
                c.text,
                frozenset(MARKER.findall(c.text)),
                len(doc.versions),
            )
            for c in self.corpus.chunks(version)
        ]
        assert set().union(*(c.markers for c in chunks)) == set(markers)
        doc.versions.append(chunks)
        self.issued += chunks

    @precondition(lambda self: self.slots)
    @rule(pick=st.integers(0, 10_000))
    def delete(self, pick: int) -> None:
        self.ops["delete"] += 1
        key = sorted(self.slots)[pick % len(self.slots)]
        doc = self.slots[key]
        self.corpus.delete(doc.document_id, tenant=doc.tenant)
        doc.deleted = True

    @precondition(lambda self: self.slots)
    @rule(pick=st.integers(0, 10_000), whole=st.booleans())
    def erase(self, pick: int, whole: bool) -> None:
        self.ops["erase"] += 1
        key = sorted(self.slots)[pick % len(self.slots)]
        doc = self.slots[key]
        if whole:
            self.corpus.erase(doc.document_id, tenant=doc.tenant)
            doc.erased_whole = True
            self.forget({m for v in doc.versions for c in v for m in c.markers})
            del self.slots[key]  # its uri is gone: the slot takes a new document
            return
        target = doc.versions[-1][pick % len(doc.versions[-1])]
        self.corpus.erase(doc.document_id, tenant=doc.tenant, chunk_id=target.chunk_id)
        doc.erased_chunks.add(target.chunk_id)
        self.forget(target.markers)

    @precondition(lambda self: self.slots)
    @rule(pick=st.integers(0, 10_000))
    def purge(self, pick: int) -> None:
        self.ops["purge"] += 1
        key = sorted(self.slots)[pick % len(self.slots)]
        doc = self.slots.pop(key)
        self.corpus.purge(doc.document_id, tenant=doc.tenant)
        doc.purged = True
        self.forget({m for v in doc.versions for c in v for m in c.markers})

    @precondition(lambda self: self.issued)
    @rule(t=st.integers(0, TENANTS - 1), pick=st.integers(0, 10_000), hybrid=st.booleans())
    def search(self, t: int, pick: int, hybrid: bool) -> None:
        """Search for any marker ever issued (any tenant's, erased or not)."""
        self.ops["search"] += 1
        tenant = self.tenants[t]
        chunk = self.issued[pick % len(self.issued)]
        markers = sorted(chunk.markers)
        word = markers[pick % len(markers)]
        mode = SearchMode.HYBRID if hybrid else SearchMode.LEXICAL
        result = self.corpus.retrieve(word, tenant=tenant, k=10, options=SearchOptions(mode=mode))
        allowed = self.visible(tenant)
        for hit in result.hits:
            assert hit.chunk.tenant == hit.document.tenant == tenant
            assert not hit.chunk.erased
            self.check_text(tenant, hit.chunk.text + hit.document.title, allowed)
        if hybrid:
            return
        if word in allowed:
            assert any(word in h.chunk.text for h in result.hits), f"{word} not found"
        else:
            # Not even a match through a copy (a title in another chunk's index text).
            assert result.hits == (), f"{tenant} matched {word} it may not see"

    @precondition(lambda self: self.gone)
    @rule(pick=st.integers(0, 10_000))
    def search_erased(self, pick: int) -> None:
        """Search an erased or purged word in the tenant it belonged to: nothing matches."""
        self.ops["search"] += 1
        # Every word of the latest erasure or purge, and one older word.
        words = {*self.last_gone, sorted(self.gone)[pick % len(self.gone)]}
        for word in sorted(words):
            tenant = self.owner[word]
            allowed = self.visible(tenant)
            for mode in (SearchMode.LEXICAL, SearchMode.HYBRID):
                options = SearchOptions(mode=mode)
                result = self.corpus.retrieve(word, tenant=tenant, k=10, options=options)
                if mode is SearchMode.LEXICAL:
                    assert result.hits == (), f"{word} still matches after erasure or purge"
                for hit in result.hits:
                    self.check_text(tenant, hit.chunk.text + hit.document.title, allowed)

    @precondition(lambda self: self.issued)
    @rule(t=st.integers(0, TENANTS - 1), picks=st.lists(st.integers(0, 10_000), max_size=4))
    def fetch_and_check(self, t: int, picks: list[int]) -> None:
        """Fetch ids of any tenant; then check them (and one never fetched) against the ledger."""
        self.ops["fetch"] += 1
        self.ops["check"] += 1
        tenant = self.tenants[t]
        chosen = [self.issued[p % len(self.issued)] for p in picks]
        ledger = FetchLedger(tenant)
        outcomes = self.corpus.fetch([c.evidence_id for c in chosen], tenant=tenant, ledger=ledger)
        allowed = {m for c in self.issued if c.tenant == tenant for m in c.markers} - self.gone
        for chunk, outcome in zip(chosen, outcomes, strict=True):
            expected = self.expected_status(tenant, chunk)
            assert outcome.status is expected, (chunk, outcome)
            if expected is FetchStatus.OK:
                assert outcome.text == chunk.text
                doc = next(d for d in self.docs if d.document_id == chunk.document_id)
                assert outcome.superseded is (chunk.version != len(doc.versions) - 1)
            else:
                assert outcome.text == ""
            self.check_text(tenant, outcome.text + (outcome.title or ""), allowed)
        unfetched = [c.evidence_id for c in self.issued[-2:] if c not in chosen]
        verdicts = check_citations([c.evidence_id for c in chosen] + unfetched, ledger)
        ok = {c.evidence_id for c, o in zip(chosen, outcomes, strict=True) if o.citable}
        for v in verdicts:
            assert (v.verdict is Verdict.VALID) is (v.id in ok), v

    @precondition(lambda self: self.issued)
    @rule(t=st.integers(0, TENANTS - 1), pick=st.integers(0, 10_000))
    def answer(self, t: int, pick: int) -> None:
        self.ops["answer"] += 1
        tenant = self.tenants[t]
        word = sorted(self.issued[pick % len(self.issued)].markers)[0]
        result = self.corpus.ask(f"What does the ledger say about {word}?", tenant=tenant)
        allowed = self.visible(tenant)
        if result.answer is not None:
            for citation in result.answer.citations:
                assert citation.tenant == tenant
                assert any(
                    d.document_id == citation.document_id and d.tenant == tenant for d in self.docs
                )
        for citation in result.searched:
            assert citation.tenant == tenant
        self.check_text(tenant, self.corpus.render(result), allowed)

    @precondition(lambda self: self.issued)
    @rule(t=st.integers(0, TENANTS - 1), pick=st.integers(0, 10_000))
    def converse(self, t: int, pick: int) -> None:
        """A turn in the tenant's conversation; every stored turn holds only text it may keep."""
        self.ops["converse"] += 1
        tenant = self.tenants[t]
        cid = self.conversations.get(tenant)
        conversation = self.corpus.conversation(cid, tenant=tenant)
        self.conversations[tenant] = conversation.id
        # Mostly words the tenant sees now, so turns get answered and copy text.
        visible = sorted(self.visible(tenant))
        if visible and pick % 4:
            word = visible[pick % len(visible)]
        else:
            word = sorted(self.issued[pick % len(self.issued)].markers)[0]
        if not conversation.ask(f"What does the ledger say about {word}?").refused:
            self.ops["converse_answered"] += 1
        owned = {m for m, owner in self.owner.items() if owner == tenant} - self.gone
        for other, other_id in self.conversations.items():
            if other != tenant:
                assert self.store.conversation(tenant, other_id) is None
                assert self.store.turns(tenant, other_id) == []
        for turn in conversation.turns():
            # The questions are the user's own words; what came from documents is checked.
            copied = json.dumps([turn.answer.get("claims", []), turn.answer.get("citations", [])])
            said = [line.split(" A: ", 1)[-1] for line in turn.summary.splitlines()]
            self.check_text(tenant, copied + " ".join(said), owned)

    def teardown(self) -> None:
        """Purge what is left; nothing of the example's tenants may remain searchable."""
        for doc in self.docs:
            if not doc.purged:
                self.corpus.purge(doc.document_id, tenant=doc.tenant)
        for tenant in self.tenants:
            assert self.store.list_documents(tenant) == []
            assert self.store.search_lexical(tenant, ["ledger"], 5) == []


def machine_for(store: Store) -> type[IsolationMachine]:
    """The machine bound to ``store`` (one store serves every example)."""
    return type("BoundIsolationMachine", (IsolationMachine,), {"store": store, "ops": Counter()})
