"""A real source that does not support the claim citing it (issue 7, "must show" 2).

SciFact (Wadden et al. 2020) pairs scientific claims with the abstracts that
support or contradict them. A contradicting abstract is the classic
"decorative" citation: on topic, resolvable, and wrong for the claim. These
pairs are regression tests for the default checker (heuristic + default
embedder); they were chosen with a margin from the decision thresholds.
"""

from __future__ import annotations

import gzip
import json

import pytest

from pincite.ids import encode_chunk
from pincite.support.base import SupportPassage, SupportVerdict
from pincite.support.heuristic import default_support_checker
from shared_paths import DATA

SCIFACT = DATA / "scifact"

# (claims file, claim id, abstract id, gold label, expected verdict)
CASES = [
    ("claims_train.jsonl", 242, "2212067", "CONTRADICT", SupportVerdict.UNSUPPORTED),
    ("claims_dev.jsonl", 1110, "13770184", "CONTRADICT", SupportVerdict.UNSUPPORTED),
    # "A total of 1,000 people ..." against an abstract that states other counts.
    ("claims_dev.jsonl", 48, "13734012", "CONTRADICT", SupportVerdict.UNSUPPORTED),
    ("claims_dev.jsonl", 589, "10984005", "SUPPORT", SupportVerdict.SUPPORTED),
    ("claims_train.jsonl", 470, "12685434", "SUPPORT", SupportVerdict.SUPPORTED),
    ("claims_train.jsonl", 673, "2095573", "SUPPORT", SupportVerdict.SUPPORTED),
]


@pytest.fixture(scope="module")
def abstracts() -> dict[str, str]:
    if not SCIFACT.is_dir():
        pytest.skip(f"SciFact not found at {SCIFACT}")
    wanted = {case[2] for case in CASES}
    found: dict[str, str] = {}
    with gzip.open(SCIFACT / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            doc = json.loads(line)
            if doc["_id"] in wanted:
                found[doc["_id"]] = doc["text"]
    return found


def _claim(file: str, claim_id: int) -> dict[str, object]:
    for line in (SCIFACT / file).read_text(encoding="utf-8").splitlines():
        record: dict[str, object] = json.loads(line)
        if record["id"] == claim_id:
            return record
    raise AssertionError(f"claim {claim_id} not in {file}")


@pytest.mark.parametrize(("file", "claim_id", "doc_id", "gold", "expected"), CASES)
def test_scifact_claim_against_its_abstract(
    abstracts: dict[str, str],
    file: str,
    claim_id: int,
    doc_id: str,
    gold: str,
    expected: SupportVerdict,
) -> None:
    record = _claim(file, claim_id)
    evidence = record["evidence"]
    assert isinstance(evidence, dict)
    assert evidence[doc_id][0]["label"] == gold  # the data still says what the test assumes
    text = abstracts[doc_id]
    cited = SupportPassage(
        encode_chunk(
            "5c1fac70-0000-4000-8000-000000000000", "0" * 16, "5c1fac70-0000-4000-8000-000000000001"
        ),
        text,
    )
    result = default_support_checker().check(str(record["claim"]), [cited])
    assert result.verdict is expected, (result.score, result.reasons)
