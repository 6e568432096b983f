from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from pincite.errors import InputError, ParseError
from pincite.eval.beir import BeirDoc, available_splits, load_beir
from shared_paths import DATA

CORPUS: list[dict[str, object]] = [
    {"_id": "d1", "title": "First", "text": "one", "metadata": {}},
    {"_id": "d2", "text": "two, no title"},
    {"_id": "d3", "title": None, "text": "three"},
]
QUERIES = [
    {"_id": "q1", "text": "query one"},
    {"_id": "q2", "text": "query two"},
    {"_id": "q3", "text": "only a zero-grade judgement"},
    {"_id": "q4", "text": "not judged in test"},
]
TEST_QRELS = "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t2\nq2\td3\t1\nq3\td1\t0\nq2\td3\t3\n"


def write_jsonl(path: Path, rows: Sequence[Mapping[str, object]]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


@pytest.fixture
def beir_folder(tmp_path: Path) -> Path:
    root = tmp_path / "tiny"
    (root / "qrels").mkdir(parents=True)
    write_jsonl(root / "corpus.jsonl", CORPUS)
    write_jsonl(root / "queries.jsonl", QUERIES)
    (root / "qrels" / "test.tsv").write_text(TEST_QRELS, encoding="utf-8")
    (root / "qrels" / "dev.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq4\td2\t1\n", encoding="utf-8"
    )
    return root


def test_load_synthetic_folder(beir_folder: Path) -> None:
    ds = load_beir(beir_folder)
    assert ds.name == "tiny"
    assert ds.split == "test"
    assert ds.corpus == {
        "d1": BeirDoc("d1", "First", "one"),
        "d2": BeirDoc("d2", "", "two, no title"),
        "d3": BeirDoc("d3", "", "three"),
    }
    # q4 has no qrels in "test": dropped. q3 is kept (it has a row), like BEIR's loader.
    assert ds.queries == {"q1": "query one", "q2": "query two", "q3": "only a zero-grade judgement"}
    # header skipped; the repeated (q2, d3) row keeps its last score
    assert ds.qrels == {"q1": {"d1": 1, "d2": 2}, "q2": {"d3": 3}, "q3": {"d1": 0}}
    # q3 has no relevant document: not evaluable
    assert ds.evaluable_query_ids() == ["q1", "q2"]


def test_load_other_split_and_name(beir_folder: Path) -> None:
    ds = load_beir(beir_folder, "dev", name="custom")
    assert ds.name == "custom"
    assert ds.queries == {"q4": "not judged in test"}
    assert ds.qrels == {"q4": {"d2": 1}}
    assert available_splits(beir_folder) == ["dev", "test"]


def test_load_gzipped_corpus(beir_folder: Path) -> None:
    plain = beir_folder / "corpus.jsonl"
    with gzip.open(beir_folder / "corpus.jsonl.gz", "wt", encoding="utf-8") as out:
        out.write(plain.read_text(encoding="utf-8"))
    plain.unlink()
    assert load_beir(beir_folder).corpus["d1"] == BeirDoc("d1", "First", "one")


def test_missing_split_lists_available_ones(beir_folder: Path) -> None:
    with pytest.raises(InputError, match="no qrels for split 'train'; available splits: dev, test"):
        load_beir(beir_folder, "train")


def test_missing_files(beir_folder: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="BEIR folder not found"):
        load_beir(tmp_path / "nope")
    (beir_folder / "queries.jsonl").unlink()
    with pytest.raises(InputError, match=r"no queries\.jsonl"):
        load_beir(beir_folder)
    write_jsonl(beir_folder / "queries.jsonl", QUERIES)
    (beir_folder / "corpus.jsonl").unlink()
    with pytest.raises(InputError, match=r"neither corpus.jsonl nor corpus.jsonl.gz"):
        load_beir(beir_folder)


def test_no_qrels_folder_says_none(beir_folder: Path) -> None:
    for tsv in (beir_folder / "qrels").iterdir():
        tsv.unlink()
    with pytest.raises(InputError, match=r"available splits: none"):
        load_beir(beir_folder)


def test_qrels_for_unknown_query(beir_folder: Path) -> None:
    (beir_folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq9\td1\t1\n", encoding="utf-8"
    )
    with pytest.raises(InputError, match=r"absent from queries.jsonl, e.g. \['q9'\]"):
        load_beir(beir_folder)


def test_malformed_lines_name_file_and_line(beir_folder: Path) -> None:
    (beir_folder / "corpus.jsonl").write_text('{"_id": "d1", "text": "x"}\n{oops\n')
    with pytest.raises(ParseError, match=r"corpus.jsonl:2: not JSON"):
        load_beir(beir_folder)
    (beir_folder / "corpus.jsonl").write_text('{"title": "no id", "text": "x"}\n')
    with pytest.raises(ParseError, match=r"corpus.jsonl:1: missing or empty '_id'"):
        load_beir(beir_folder)
    (beir_folder / "corpus.jsonl").write_text('{"_id": "d1", "text": 3}\n')
    with pytest.raises(ParseError, match=r"field 'text' must be a string"):
        load_beir(beir_folder)


def test_malformed_qrels(beir_folder: Path) -> None:
    qrels = beir_folder / "qrels" / "test.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\td1\thigh\n")
    with pytest.raises(ParseError, match=r"test.tsv:2: score 'high' is not an integer"):
        load_beir(beir_folder)
    qrels.write_text("query-id\tcorpus-id\tscore\nq1 d1 1\n")
    with pytest.raises(ParseError, match="expected 3 tab-separated fields, got 1"):
        load_beir(beir_folder)


# --- real data (numbers from each folder's SOURCE.md) ---------------------


def real(folder: str) -> Path:
    path = DATA / folder
    if not path.is_dir():
        pytest.skip(f"{path} not present (set PINCITE_SHARED to the shared folder)")
    return path


@pytest.mark.slow
def test_scifact_test_split() -> None:
    ds = load_beir(real("scifact"))
    assert ds.name == "scifact"
    assert len(ds.corpus) == 5183
    assert len(ds.queries) == 300
    assert sum(len(rels) for rels in ds.qrels.values()) == 339
    assert {g for rels in ds.qrels.values() for g in rels.values()} == {1}
    assert len(ds.evaluable_query_ids()) == 300
    # every judged document exists in the corpus
    assert all(doc in ds.corpus for rels in ds.qrels.values() for doc in rels)
    assert ds.queries["1"] == "0-dimensional biomaterials show inductive properties."
    assert ds.corpus["4983"].title.startswith("Microstructural development of human newborn")


@pytest.mark.slow
def test_scifact_train_split() -> None:
    ds = load_beir(real("scifact"), "train")
    assert len(ds.queries) == 809
    assert sum(len(rels) for rels in ds.qrels.values()) == 919


@pytest.mark.slow
def test_cranfield() -> None:
    ds = load_beir(real("cranfield"))
    assert len(ds.corpus) == 1400
    assert set(ds.corpus) == {str(i) for i in range(1, 1401)}
    assert len(ds.queries) == 225
    assert sum(len(rels) for rels in ds.qrels.values()) == 1612
    grades = Counter(g for rels in ds.qrels.values() for g in rels.values())
    assert grades == {4: 128, 3: 387, 2: 734, 1: 363}
    # the known Cranfield quirk: two empty documents
    assert ds.corpus["471"] == BeirDoc("471", "", "")
    assert ds.corpus["995"] == BeirDoc("995", "", "")
    with pytest.raises(InputError, match="available splits: test"):
        load_beir(real("cranfield"), "train")
