"""`pincite eval answers` keeps its calibration articles (0-9) out of the reported numbers.

The file below makes the two slices distinguishable by their counts: articles
0-9 hold only answerable questions, articles 10-11 mostly unanswerable ones, so
a report or a calibration sweep that drew from the wrong slice shows it.
"""

from __future__ import annotations

import json
from pathlib import Path

from pincite.eval.answers import CALIBRATION_ARTICLES, calibrate_threshold, run_answer_eval


def _qa(qid: str, question: str, answer: tuple[str, int] | None) -> dict[str, object]:
    if answer is None:
        return {"id": qid, "question": question, "answers": [], "is_impossible": True}
    text, start = answer
    return {
        "id": qid,
        "question": question,
        "answers": [{"text": text, "answer_start": start}],
        "is_impossible": False,
    }


def _squad(tmp_path: Path) -> Path:
    data = []
    for i in range(10):  # calibration: one answerable question each, nothing unanswerable
        context = f"The river Calib{i} flows through the town of Alder{i} in the north."
        data.append(
            {
                "title": f"Calibration {i}",
                "paragraphs": [
                    {
                        "context": context,
                        "qas": [
                            _qa(
                                f"c{i}",
                                f"Which town does the river Calib{i} flow through?",
                                (f"Alder{i}", context.index(f"Alder{i}")),
                            )
                        ],
                    }
                ],
            }
        )
    for i in (10, 11):  # reported: one answerable and two unanswerable questions each
        context = f"The lighthouse Report{i} was built in 18{i} by the harbour board."
        qas = [
            _qa(f"r{i}", f"When was Report{i} built?", (f"18{i}", context.index("18"))),
            _qa(f"u{i}a", f"Who painted the lighthouse Report{i} red?", None),
            _qa(f"u{i}b", f"How tall is the lighthouse Report{i} tower?", None),
        ]
        data.append({"title": f"Reported {i}", "paragraphs": [{"context": context, "qas": qas}]})
    path = tmp_path / "squad.json"
    path.write_text(json.dumps({"version": "v2.0", "data": data}), encoding="utf-8")
    return path


def test_calibration_articles_are_the_first_ten() -> None:
    assert list(CALIBRATION_ARTICLES) == list(range(10))


def test_reported_questions_come_only_from_articles_after_the_calibration_slice(
    tmp_path: Path,
) -> None:
    report = run_answer_eval(_squad(tmp_path), embedder=None, limit=400)
    # Articles 10-11: 2 answerable, 4 unanswerable. With the calibration slice
    # leaking in it would be 12 answerable.
    assert (report.answerable, report.unanswerable) == (2, 4)


def test_calibration_sweeps_only_the_calibration_articles(tmp_path: Path) -> None:
    _, sweep = calibrate_threshold(_squad(tmp_path), embedder=None, limit=400)
    # Articles 0-9 hold no unanswerable question, so no threshold refuses one;
    # any unanswerable question from articles 10-11 would make some rate non-zero
    # (at the top of the sweep every scored question is refused).
    assert sweep and all(refused == 0.0 for _, _, refused in sweep)
