"""QASPER (v0.3 dev, ../shared/data/qasper) as QUESTIONS.jsonl for `pincite eval qa`.

Rules (the same every run; no randomness):

- Papers are split by ``int(sha256(paper_id).hexdigest(), 16) % 2``: 0 → *tune*
  (tune the answerer on these), 1 → *heldout* (report only). Within a part the
  first ``--papers`` papers in sha256 order are taken, plus every paper of the
  part with a unanimously unanswerable question (there are only 60 such
  questions in all, so refusal would otherwise rest on a handful).
- A question is kept when every annotator agrees on answerability
  (``answerability_agreement == "unanimous"``):
  - unanswerable (every annotator said so) → ``answerable: false``;
  - answerable with at least one evidence paragraph and at least one extractive
    span found inside an evidence paragraph → ``gold_passages`` = the evidence
    paragraphs (exact blocks of the document, which pincite stores unchanged),
    ``gold_answer`` = the shortest such span. Questions answered only in free
    form or yes/no have no string a cited span must contain and are skipped.
- ``document`` is the paper's file name (``<paper_id>.md``).

Write the two files, then build a store with only the papers of one part::

    .venv/bin/python benchmarks/make_qasper_qa.py            # data/qa/qasper-{tune,heldout}.jsonl
    .venv/bin/pincite ingest --db qasper-heldout.db \\
        $(.venv/bin/python benchmarks/make_qasper_qa.py --print-files heldout)
    .venv/bin/pincite eval qa data/qa/qasper-heldout.jsonl --db qasper-heldout.db --per-document

QASPER is CC BY 4.0 (Dasigi et al., NAACL 2021); see data/qa/README.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from shared_data import SHARED

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("tune", "heldout")


def part_of(paper_id: str) -> str:
    return PARTS[int(hashlib.sha256(paper_id.encode()).hexdigest(), 16) % 2]


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def convert(q: dict[str, Any]) -> dict[str, Any] | None:
    """One QASPER question as a QUESTIONS.jsonl row, or None when it does not fit the rules."""
    if q["answerability_agreement"] != "unanimous":
        return None
    row: dict[str, Any] = {
        "id": q["id"],
        "question": q["question"],
        "document": f"{q['paper_id']}.md",
    }
    if not q["answerable"]:
        return row | {"answerable": False, "gold_passages": [], "gold_answer": "", "kind": "other"}
    evidence: list[str] = q["evidence"]
    if not evidence:
        return None
    joined = [_norm(p) for p in evidence]
    spans = [
        s.strip()
        for a in q["annotations"]
        if not a["unanswerable"]
        for s in a["extractive_spans"]
        if s.strip() and any(_norm(s) in p for p in joined)
    ]
    if not spans:
        return None
    answer = min(spans, key=lambda s: (len(s), s))
    return row | {
        "answerable": True,
        "gold_passages": evidence,
        "gold_answer": answer,
        "kind": "other",
    }


def papers_of(qasper: Path, part: str, limit: int) -> list[str]:
    ids = {json.loads(line)["paper_id"] for line in (qasper / "papers.jsonl").open()}
    chosen = [p for p in ids if part_of(p) == part]
    chosen.sort(key=lambda p: hashlib.sha256(p.encode()).hexdigest())
    with (qasper / "questions.jsonl").open(encoding="utf-8") as f:
        questions = [json.loads(line) for line in f]
    unanswerable = {
        q["paper_id"]
        for q in questions
        if not q["answerable"] and q["answerability_agreement"] == "unanimous"
    }
    keep = set(chosen[:limit]) | (unanswerable & set(chosen))
    return [p for p in chosen if p in keep]


def build(qasper: Path, part: str, limit: int) -> list[dict[str, Any]]:
    papers = set(papers_of(qasper, part, limit))
    rows = []
    with (qasper / "questions.jsonl").open(encoding="utf-8") as f:
        for line in f:
            q = json.loads(line)
            if q["paper_id"] in papers and (row := convert(q)) is not None:
                rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qasper", type=Path, default=SHARED / "data" / "qasper")
    parser.add_argument("--papers", type=int, default=40, help="Papers per part.")
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "qa")
    parser.add_argument(
        "--print-files", choices=PARTS, help="Print the document paths of one part and exit."
    )
    args = parser.parse_args(argv)
    if not (args.qasper / "questions.jsonl").is_file():
        print(f"error: no QASPER data at {args.qasper}", file=sys.stderr)
        return 1
    if args.print_files:
        for p in papers_of(args.qasper, args.print_files, args.papers):
            print(args.qasper / "documents" / f"{p}.md")
        return 0
    for part in PARTS:
        rows = build(args.qasper, part, args.papers)
        path = args.out / f"qasper-{part}.jsonl"
        path.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
        pos = sum(r["answerable"] for r in rows)
        size = path.stat().st_size
        print(f"{path}: {len(rows)} questions ({pos} answerable, {len(rows) - pos} not), {size} B")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
