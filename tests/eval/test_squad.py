from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from pincite.errors import InputError, ParseError
from pincite.eval.squad import SquadAnswer, load_squad
from shared_paths import DATA

TINY = {
    "version": "v2.0",
    "data": [
        {
            "title": "Alpha",
            "paragraphs": [
                {
                    "context": "Paris is the capital of France.",
                    "qas": [
                        {
                            "id": "q1",
                            "question": "What is the capital of France?",
                            "answers": [
                                {"text": "Paris", "answer_start": 0},
                                {"text": "Paris", "answer_start": 0},
                            ],
                            "is_impossible": False,
                        },
                        {
                            "id": "q2",
                            "question": "What is the capital of Spain?",
                            "answers": [],
                            "is_impossible": True,
                            "plausible_answers": [{"text": "France", "answer_start": 24}],
                        },
                    ],
                },
                {"context": "Second paragraph.", "qas": []},
            ],
        },
        {
            "title": "Beta",
            "paragraphs": [
                {
                    "context": "x",
                    "qas": [{"id": "q3", "question": "?", "answers": [], "is_impossible": True}],
                }
            ],
        },
    ],
}


def write(path: Path, payload: object) -> Path:
    text = json.dumps(payload)
    if path.suffix == ".gz":
        with gzip.open(path, "wt", encoding="utf-8") as out:
            out.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["tiny.json", "tiny.json.gz"])
def test_load_tiny(tmp_path: Path, name: str) -> None:
    ds = load_squad(write(tmp_path / name, TINY))
    assert ds.version == "v2.0"
    assert [a.title for a in ds.articles] == ["Alpha", "Beta"]
    assert [p.id for p in ds.paragraphs()] == ["Alpha-0", "Alpha-1", "Beta-0"]
    q1, q2, q3 = ds.questions()
    assert q1.id == "q1"
    assert q1.paragraph_id == "Alpha-0"
    assert q1.answers == (SquadAnswer("Paris", 0), SquadAnswer("Paris", 0))
    assert q1.answer_texts == ("Paris", "Paris")
    assert q1.is_impossible is False
    assert q2.is_impossible is True
    assert q2.answers == ()
    assert q2.plausible_answers == (SquadAnswer("France", 24),)
    context = ds.articles[0].paragraphs[0].context
    assert context[q2.plausible_answers[0].start : q2.plausible_answers[0].end] == "France"
    assert q3.paragraph_id == "Beta-0"
    assert q3.plausible_answers == ()


def test_limit_articles(tmp_path: Path) -> None:
    path = write(tmp_path / "tiny.json", TINY)
    assert [a.title for a in load_squad(path, limit_articles=1).articles] == ["Alpha"]
    assert load_squad(path, limit_articles=0).articles == ()
    assert len(load_squad(path, limit_articles=10).articles) == 2
    with pytest.raises(InputError, match="limit_articles"):
        load_squad(path, limit_articles=-1)


def test_squad_v1_has_no_is_impossible(tmp_path: Path) -> None:
    v1 = {
        "version": "1.1",
        "data": [
            {
                "title": "T",
                "paragraphs": [
                    {
                        "context": "abc",
                        "qas": [
                            {
                                "id": "q",
                                "question": "?",
                                "answers": [{"text": "b", "answer_start": 1}],
                            }
                        ],
                    }
                ],
            }
        ],
    }
    (question,) = load_squad(write(tmp_path / "v1.json", v1)).questions()
    assert question.is_impossible is False


def test_duplicate_derived_paragraph_ids_are_refused(tmp_path: Path) -> None:
    doubled = {"version": "v2.0", "data": [TINY["data"][1], TINY["data"][1]]}
    with pytest.raises(InputError, match="share the id 'Beta-0'"):
        load_squad(write(tmp_path / "dup.json", doubled))


def test_errors_name_where(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        load_squad(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ParseError, match="not JSON"):
        load_squad(tmp_path / "bad.json")
    with pytest.raises(ParseError, match="'data' must be a list"):
        load_squad(write(tmp_path / "nodata.json", {"version": "v2.0"}))
    broken = json.loads(json.dumps(TINY))
    broken["data"][0]["paragraphs"][0]["qas"][0]["answers"][1]["answer_start"] = "0"
    with pytest.raises(ParseError, match=r"data\[0\]\.paragraphs\[0\]\.qas\[0\]\.answers\[1\]"):
        load_squad(write(tmp_path / "broken.json", broken))


# --- the real SQuAD 2.0 dev file (numbers from its SOURCE.md) -------------


@pytest.mark.slow
def test_real_squad2_dev() -> None:
    path = DATA / "squad2_dev" / "dev-v2.0.json.gz"
    if not path.is_file():
        pytest.skip(f"{path} not present (set PINCITE_SHARED to the shared folder)")
    ds = load_squad(path)
    questions = list(ds.questions())
    paragraphs = {p.id: p for p in ds.paragraphs()}
    assert ds.version == "v2.0"
    assert len(ds.articles) == 35
    assert len(paragraphs) == 1204
    assert len(questions) == 11873
    assert len({q.id for q in questions}) == 11873
    impossible = [q for q in questions if q.is_impossible]
    assert len(impossible) == 5945
    assert all(not q.answers for q in impossible)
    assert all(q.answers for q in questions if not q.is_impossible)
    # every gold and plausible span is exact in its context
    answers = [(q, a) for q in questions for a in q.answers]
    plausible = [(q, a) for q in questions for a in q.plausible_answers]
    assert len(answers) == 20302
    assert len(plausible) == 5930
    for q, a in answers + plausible:
        assert paragraphs[q.paragraph_id].context[a.start : a.end] == a.text
    first = questions[0]
    assert first.id == "56ddde6b9a695914005b9628"
    assert first.paragraph_id == "Normans-0"
    assert first.answer_texts == ("France",) * 4
    # limit_articles: the first article alone
    (normans,) = load_squad(path, limit_articles=1).articles
    assert normans.title == "Normans"
    assert normans.paragraphs[0].id == "Normans-0"
