"""pincite.tools, the logic every adapter shares: one tenant, one ledger, fail closed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from pinning import IT_POLICY, assert_pins

import pincite
from pincite.corpus import Corpus
from pincite.errors import InputError, UngroundedCitationError
from pincite.ground.fetch import FetchLedger
from pincite.tools import EvidenceTools, check_answer, evidence_metadata, numbered_answer


class LetterEmbedder:
    """Deterministic bag-of-letters vectors: enough for a real dense branch."""

    name, dim = "test-letters", 26

    def _one(self, text: str) -> npt.NDArray[np.float32]:
        v = np.zeros(self.dim, np.float32)
        for ch in text.lower():
            if "a" <= ch <= "z":
                v[ord(ch) - 97] += 1.0
        return v / (np.linalg.norm(v) or 1.0)

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.vstack([self._one(t) for t in texts]) if texts else np.zeros((0, self.dim))

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return self._one(text)


def test_hybrid_hits_carry_both_branches(tmp_path: Path) -> None:
    with pincite.open(tmp_path / "hybrid.db", embedder=LetterEmbedder()) as corpus:
        corpus.ingest_text(IT_POLICY, uri="policy://it", tenant="acme", title="IT policy")
        [hit] = EvidenceTools(corpus, tenant="acme").retrieve("lost devices", k=1)
        meta = evidence_metadata(hit)
        assert meta["lexical_rank"] == 1 and meta["dense_rank"] == 1
        assert meta["dense_score"] is not None and meta["fused_score"] == hit.score
        assert_pins(corpus, "acme", hit.chunk.text, meta, hit.evidence_id)


def test_retrieve_records_only_what_it_returned(corpus: Corpus) -> None:
    tools = EvidenceTools(corpus, tenant="acme")
    [hit] = tools.retrieve("lost devices", k=1)
    assert list(tools.ledger.entries) == [hit.evidence_id]
    assert tools.check_answer(f"One day. {hit.evidence_id}") == f"One day. {hit.evidence_id}"
    [other] = corpus.retrieve("economy class", tenant="acme", k=1).hits
    with pytest.raises(UngroundedCitationError) as raised:
        tools.check_answer(f"One day. {hit.evidence_id} Economy. {other.evidence_id}")
    assert raised.value.missing == (other.evidence_id,)


def test_a_ledger_of_another_tenant_is_refused(corpus: Corpus) -> None:
    with pytest.raises(InputError, match="another tenant"):
        EvidenceTools(corpus, tenant="acme", ledger=FetchLedger("globex"))


def test_a_malformed_id_is_never_valid(corpus: Corpus) -> None:
    with pytest.raises(UngroundedCitationError) as raised:
        check_answer("Within one day. ev1:c:not-an-id", FetchLedger("acme"))
    assert raised.value.missing == ("ev1:c:not-an-id",)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: t.search("lost", 0), "k must be between 1 and 50"),
        (lambda t: t.search("lost", True), "k must be between 1 and 50"),
        (lambda t: t.fetch_evidence("ev1:c:x"), "a list of evidence id strings"),
        (lambda t: t.fetch_evidence([]), "the number of ids must be between 1 and 50"),
        (lambda t: t.check_citations(), "exactly one of 'text' or 'ids'"),
        (lambda t: t.check_citations(text="a", ids=["b"]), "exactly one of 'text' or 'ids'"),
    ],
)
def test_bad_arguments_are_one_line_input_errors(
    corpus: Corpus, call: object, message: str
) -> None:
    with pytest.raises(InputError, match=message) as raised:
        call(EvidenceTools(corpus, tenant="acme"))  # type: ignore[operator]
    assert "\n" not in str(raised.value)


def test_a_refusal_has_its_message_and_no_sources(corpus: Corpus) -> None:
    answer = corpus.ask("Which class is required for flights?", tenant="globex")
    assert answer.refused
    assert numbered_answer(answer, corpus) == (answer.message, ())
