"""Re-anchoring NIST SP 800-46 r1 citations into r2, and the stale report that lists them.

Ingests revision 1 under one uri, cites it (every chunk, and every sentence
of every chunk, as span ids), asks three questions in a stored conversation,
then ingests revision 2 over it. Prints how the r1 citations re-anchor
(unchanged / changed / removed, ``pincite.ground.reanchor``), the stale
report's turns, and a sample of each status for hand-checking.

    .venv/bin/python benchmarks/reanchor.py
    .venv/bin/python benchmarks/reanchor.py --sample 5 --embedder none
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from shared_data import DATA

import pincite
from pincite import ids
from pincite.ground.reanchor import Reanchorer
from pincite.sentences import sentence_spans

URI = "nist://sp800-46"
QUESTIONS = (
    "What is a telework client device?",
    "How should they be secured?",
    "What about remote access servers?",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=3, help="examples shown per status")
    parser.add_argument("--embedder", default="default", help="'default' or 'none'")
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    folder = DATA / "documents" / "nist"
    r1, r2 = folder / "SP800-46r1.pdf", folder / "SP800-46r2.pdf"
    if not r1.exists() or not r2.exists():
        sys.exit(f"needs {r1} and {r2} (PINCITE_SHARED)")
    embedder = None
    if args.embedder != "none":
        from pincite.embed.default import default_embedder

        embedder = default_embedder()
    with (
        tempfile.TemporaryDirectory() as tmp,
        pincite.open(Path(tmp) / "reanchor.db", embedder=embedder) as corpus,
    ):
        corpus.ingest_path(r1, uri=URI, tenant="nist")
        [doc] = corpus.documents(tenant="nist")
        [old] = corpus.versions(doc.document_id, tenant="nist")
        chunks = corpus.chunks(old)
        conversation = corpus.conversation(tenant="nist", title="telework")
        for q in QUESTIONS:
            conversation.ask(q)
        corpus.ingest_path(r2, uri=URI, tenant="nist")
        new = corpus.versions(doc.document_id, tenant="nist")[-1]

        cited = {
            "chunk": [(c.start, c.end) for c in chunks if not c.erased],
            "sentence": [s for c in chunks for s in sentence_spans(old.text, c.start, c.end)],
        }
        anchorer = Reanchorer(new.text)
        rng = random.Random(args.seed)
        for level, spans in cited.items():
            began = time.perf_counter()
            found = [
                (sp, anchorer.find(old.text[sp[0] : sp[1]], position=sp[0] / len(old.text)))
                for sp in spans
            ]
            took = time.perf_counter() - began
            counts = Counter(a.status.value for _, a in found)
            ws = sum(a.whitespace_only for _, a in found)
            print(
                f"{level:8} citations {len(found):5}  unchanged {counts['unchanged']:5}"
                f" (whitespace only {ws})  changed {counts['changed']:5}"
                f"  removed {counts['removed']:5}  ({took:.1f} s)"
            )
            if level != "sentence":
                continue
            for status in ("unchanged", "changed", "removed"):
                picked = [x for x in found if x[1].status.value == status]
                for sp, a in rng.sample(picked, min(args.sample, len(picked))):
                    text = " ".join(old.text[sp[0] : sp[1]].split())[:160]
                    print(f"  [{status} {a.similarity:.2f}] r1: {text}")
                    if a.span is not None:
                        now = " ".join(new.text[a.span[0] : a.span[1]].split())[:160]
                        print(f"      r2 {ids.encode_span(doc.document_id, new.hash16, *a.span)}")
                        print(f"      r2: {now}")
                    if a.diff:
                        print(f"      diff: {a.diff[:240]}")

        report = corpus.stale(tenant="nist")
        print(f"\nstale report after r2 over r1: {len(report)} stored turns/memories")
        for item in report:
            states = Counter(
                f"{c.state}/{c.anchor.status.value if c.anchor else '-'}" for c in item.citations
            )
            print(f"  turn {item.seq} {item.text!r}: {dict(states)}")


if __name__ == "__main__":
    main()
